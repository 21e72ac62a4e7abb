/**
 * The Zoom replica's in-page script, part 2: the call (4.7 items 6-7). `.meeting-app` with the
 * speaker-view main tile (`.single-main-container__video-frame`, the current or last speaker's name
 * in `.video-avatar__avatar-footer > span`) and the self view, or the gallery; the "View" button;
 * the footer (`#wc-footer` > `#foot-bar`) that hides when the pointer rests, with join-audio,
 * video, the participants and chat toggles and Leave in `[footer-section="right"]`; the "Join Audio
 * by Computer" modal and an AI Companion notice on admission; the leave dialog whose danger button
 * has an empty aria-label and which Enter cancels; the participants pane (`#participants-ul`, names
 * with "(Host)"/"(me)" labels) and the chat (virtuoso rows grouped under their sender, a
 * ProseMirror-like composer). Shares its closure with client-core.ts and client-audio.ts.
 */
export const zoomClientCall = String.raw`
  var call = null;

  function footerButton(label, text, attrs) {
    return h('button', Object.assign({ 'aria-label': label, type: 'button', text: text }, attrs || {}));
  }

  function renderCall() {
    call = { key: '', people: [], panels: { participants: false, chat: false }, messages: [], layout: 'speaker', spot: null, speaking: {}, hideTimer: null, audioJoined: false };
    call.stage = h('div', { id: 'video-share-layout' });
    call.side = h('div', { id: 'wc-container-right' });
    call.audioButton = footerButton('join audio', T.joinAudio, { 'class': 'join-audio-container__btn' });
    call.audioButton.addEventListener('click', function () { if (call.audioJoined) toggleMicrophone(); else joinComputerAudio(); });
    call.videoButton = footerButton('', '', { 'class': 'send-video-container__btn' });
    call.videoButton.addEventListener('click', function () { media.camera = !media.camera; labelVideo(); reportMedia(); });
    call.participantsButton = footerButton(T.openParticipants, '', { 'class': 'footer-button__button' });
    call.participantsButton.addEventListener('click', function () { togglePanel('participants'); });
    call.chatButton = footerButton(T.openChat, 'Chat', { 'class': 'footer-button__button' });
    call.chatButton.addEventListener('click', function () { togglePanel('chat'); });
    var leave = footerButton(T.leave, T.leave, { 'class': 'footer-button__button leave' });
    leave.addEventListener('click', openLeaveDialog);
    call.footer = h('div', { id: 'wc-footer', 'class': 'footer' }, [h('div', { id: 'foot-bar', 'class': 'footer__inner' }, [
      h('div', { 'footer-section': 'left' }, [call.audioButton, call.videoButton]),
      h('div', { 'footer-section': 'center' }, [call.participantsButton, call.chatButton]),
      h('div', { 'footer-section': 'right' }, [leave])
    ])]);
    var view = h('button', { 'aria-label': T.view, type: 'button', text: T.view });
    view.addEventListener('click', function (ev) { ev.stopPropagation(); openViewMenu(view); });
    // the notice banner: which apps may access the meeting's content (the SDK app that signed each bot's join)
    call.notice = h('div', { 'class': 'meeting-app-notice', role: 'status', 'data-apps': '' });
    call.notice.style.display = 'none';
    show('in_call', h('div', { 'class': 'meeting-app' }, [
      call.notice,
      h('div', { 'class': 'meeting-client-inner' }, [h('div', { 'class': 'main-layout' }, [h('div', { 'class': 'view-bar' }, [view]), call.stage]), call.side]),
      call.footer
    ]));
    labelVideo();
    labelParticipants();
    since = 0;
    // heard: the microphone once computer audio is joined and unmuted; seen: the video while started;
    // neither after "Continue without microphone and camera"
    publishMedia(function (kind) {
      if (current !== 'in_call' || !call || !media.allowed) return false;
      return kind === 'microphone' ? call.audioJoined && media.microphone : media.camera;
    });
    wakeFooter();
    showAdmissionModals();
    // lookalikes: Zoom shows waiting-room words in the call too (Vexa #966)
    if (cfg.shape.lookalikes) T.inCallNotices.forEach(function (text) { call.stage.parentNode.appendChild(h('div', { 'class': 'notice', role: 'status', text: text })); });
  }

  function leaveCallView() {
    if (!call) return;
    clearTimeout(call.hideTimer);
    stopAudio();
    call = null;
  }

  // Zoom hides its footer while the pointer rests (4.4)
  function wakeFooter() {
    if (!call) return;
    call.footer.classList.remove('hidden');
    clearTimeout(call.hideTimer);
    if (S.footer_autohide_seconds > 0) call.hideTimer = setTimeout(function () { if (call) call.footer.classList.add('hidden'); }, S.footer_autohide_seconds * 1000);
  }
  document.addEventListener('mousemove', wakeFooter);

  function reportMedia() {
    api('POST', '/media', { participant_id: pid, microphone: media.microphone, camera: media.camera }).catch(function () {});
  }

  function labelVideo() {
    call.videoButton.setAttribute('aria-label', media.camera ? 'stop my video' : 'start my video');
    call.videoButton.textContent = media.camera ? T.stopVideo : T.startVideo;
  }

  function labelAudio() {
    var b = call.audioButton;
    if (!call.audioJoined) { b.setAttribute('aria-label', 'join audio'); b.textContent = T.joinAudio; return; }
    b.setAttribute('aria-label', media.microphone ? T.muteMyMicrophone : T.unmuteMyMicrophone);
    b.textContent = media.microphone ? T.mute : T.unmute;
  }

  function toggleMicrophone() {
    media.microphone = !media.microphone;
    labelAudio();
    reportMedia();
  }

  // joining computer audio resets the microphone to live, whatever the preview said (4.3 [MB])
  function joinComputerAudio() {
    if (!call || call.audioJoined) return;
    call.audioJoined = true;
    closeModal('.ReactModalPortal');
    if (media.allowed) { media.microphone = true; startMixedAudio(); }
    labelAudio();
    reportMedia();
  }

  function closeModal(selector) {
    Array.prototype.slice.call(document.querySelectorAll(selector)).forEach(function (e) { e.remove(); });
  }

  function showAdmissionModals() {
    var byComputer = h('button', { 'class': 'zm-btn join-audio-by-voip__join-btn blue', text: T.joinAudioByComputer });
    byComputer.addEventListener('click', joinComputerAudio);
    var close = h('button', { 'aria-label': 'close', text: '\u00d7' });
    close.addEventListener('click', function () { closeModal('.ReactModalPortal'); });
    document.body.appendChild(h('div', { 'class': 'ReactModalPortal' }, [h('div', { 'class': 'ReactModal__Overlay' }, [
      h('div', { 'class': 'ReactModal__Content', role: 'dialog', 'aria-label': 'audio dialog' }, [byComputer, close])
    ])]));
    // an AI Companion notice with its OK (4.5 [Vexa])
    var ok = h('button', { 'class': 'blue', text: T.ok });
    var notice = h('div', { 'class': 'zm-modal zm-modal-legacy', role: 'dialog' }, [h('div', { 'class': 'zm-modal-body-title', text: T.aiCompanion }), ok]);
    ok.addEventListener('click', function () { notice.remove(); });
    document.body.appendChild(notice);
  }

  function openLeaveDialog() {
    closeModal('.leave-meeting-options');
    var danger = h('button', { 'class': 'leave-meeting-options__btn leave-meeting-options__btn--danger', 'aria-label': '', type: 'button', text: T.leaveMeeting });
    var cancel = h('button', { 'class': 'leave-meeting-options__btn', type: 'button', text: T.cancel });
    var dialog = h('div', { 'class': 'leave-meeting-options zm-modal', role: 'dialog', tabindex: '-1' }, [danger, cancel]);
    danger.addEventListener('click', function () { api('POST', '/leave', { participant_id: pid }).then(apply).catch(function () {}); });
    cancel.addEventListener('click', function () { dialog.remove(); });
    // Enter cancels the dialog (4.6)
    dialog.addEventListener('keydown', function (ev) { if (ev.key === 'Enter') { ev.preventDefault(); dialog.remove(); } });
    document.body.appendChild(dialog);
    dialog.focus();
  }

  function openViewMenu(anchor) {
    closeModal('.view-menu');
    var item = function (text, layout) {
      var a = h('a', { role: 'menuitem', tabindex: '0', 'aria-label': text, text: text });
      a.addEventListener('click', function () { closeModal('.view-menu'); chooseLayout(layout, text); });
      return a;
    };
    anchor.parentNode.appendChild(h('div', { role: 'menu', 'class': 'view-menu' }, [item(T.speakerView, 'speaker'), item(T.galleryView, 'gallery')]));
  }
  document.addEventListener('click', function (ev) { if (!ev.target.closest || !ev.target.closest('.view-menu')) closeModal('.view-menu'); });

  function chooseLayout(layout, text) {
    if (!call) return;
    call.layout = layout;
    api('POST', '/layout', { participant_id: pid, layout: text }).catch(function () {});
    renderStage();
  }

  function togglePanel(which) {
    call.panels[which] = !call.panels[which];
    renderSide();
  }

  function labelParticipants() {
    var b = call.participantsButton;
    b.setAttribute('aria-label', call.panels.participants ? T.closeParticipants : T.openParticipants);
    b.replaceChildren(h('span', { text: 'Participants' }), h('span', { 'class': 'footer-button__number-counter' }, [h('span', { text: String(call.people.length) })]));
    call.chatButton.setAttribute('aria-label', call.panels.chat ? T.closeChat : T.openChat);
  }

  function renderSide() {
    var c = call;
    var parts = [];
    c.list = null;
    c.composer = null;
    if (c.panels.participants) {
      var items = c.people.map(function (p, i) {
        var label = p.participant_id === pid ? '(me)' : i === 0 ? '(Host)' : '';
        return h('li', { 'class': 'participants-li' }, [h('div', { 'class': 'participants-item' }, [
          h('span', { 'class': 'participants-item__display-name', text: p.name }),
          label ? h('span', { 'class': 'participants-item__name-label', text: label }) : null
        ])]);
      });
      parts.push(h('div', { 'class': 'participants-section-container', role: 'region', 'aria-label': 'Participants' }, [
        h('div', { 'class': 'participants-header', text: 'Participants (' + c.people.length + ')' }),
        h('ul', { id: 'participants-ul', 'aria-label': 'participants list' }, items)
      ]));
    }
    if (c.panels.chat) parts.push(chatPanel());
    c.side.replaceChildren.apply(c.side, parts);
    labelParticipants();
  }

  function chatPanel() {
    var c = call;
    var settings = h('button', { 'aria-label': T.chatSettings, type: 'button', text: '\u22ef' });
    c.list = h('div', { 'class': 'chat-virtuoso-wrapper' });
    var list = h('div', { 'class': 'chat-container__chat-list', 'aria-label': T.chatList, role: 'list' }, [c.list]);
    c.composer = h('div', { 'class': 'tiptap ProseMirror', contenteditable: 'true', role: 'textbox', 'aria-label': 'Type message here' });
    var send = h('button', { 'class': 'chat-rtf-box__send', 'aria-label': 'send', type: 'button', text: 'Send' });
    // ProseMirror (4.5): the text is its model's, typed or inserted; a script's innerText is undone
    c.editor = modelEditor(c.composer, sendChat);
    send.addEventListener('click', sendChat);
    c.group = null;
    c.messages.forEach(appendMessage);
    enableComposer();
    return h('div', { 'class': 'chat-container', id: 'chat-container' }, [
      h('div', { 'class': 'chat-header' }, [h('span', { text: 'Meeting Chat' }), settings]),
      list,
      h('div', { 'class': 'chat-rtf-box' }, [h('div', { 'class': 'chat-rtf-box__editor-outer' }, [c.composer]), send])
    ]);
  }

  // chat disabled by the host: the composer is not editable (the replica's choice: the note records no wording)
  function enableComposer() {
    var c = call;
    if (!c || !c.composer) return;
    c.editor.setEnabled(!lastView || lastView.meeting.chat_enabled);
  }

  // groups of consecutive messages of one sender, each a virtuoso item (4.5)
  function appendMessage(m, index) {
    var c = call;
    if (!c.group || c.group.sender !== m.sender) {
      var body = h('div', { 'class': 'chat-item-container' }, [h('div', { 'class': 'chat-item__sender', text: m.sender })]);
      c.list.appendChild(h('div', { 'data-index': String(c.list.children.length) }, [body]));
      c.group = { sender: m.sender, body: body };
    }
    c.group.body.appendChild(h('div', { 'class': 'new-chat-message__container', id: 'chat-message-' + index }, [
      h('div', { 'class': 'new-chat-message__text-box' }, [h('div', { 'class': 'new-chat-message__content', text: m.text })])
    ]));
  }

  function sendChat() {
    var c = call;
    if (!c || !c.composer || c.composer.getAttribute('contenteditable') !== 'true') return;
    var editor = c.editor;
    var text = editor.text().replace(/\n+$/, '');
    if (!text.trim()) return;
    api('POST', '/chat', { participant_id: pid, text: text }).then(function (v) {
      if (editor.text().replace(/\n+$/, '') === text) editor.clear();
      apply(v);
    }).catch(function () {});
  }

  function updateCall(v) {
    var c = call;
    var key = v.participants.map(function (p) { return p.participant_id + '\u0000' + p.name; }).join('\u0001');
    if (key !== c.key) {
      c.key = key;
      c.people = v.participants;
      if (c.spot && !v.participants.some(function (p) { return p.participant_id === c.spot; })) c.spot = null;
      renderStage();
      renderSide();
    }
    var start = v.message_count - v.messages.length;
    for (var i = 0; i < v.messages.length; i++) {
      var index = start + i;
      if (index !== since) continue;
      var m = v.messages[i];
      c.messages.push({ sender: m.sender_name, text: m.text });
      if (c.list) appendMessage(c.messages[c.messages.length - 1], index);
      since++;
    }
    enableComposer();
    var apps = (v.apps || []).join(', ');
    if (c.notice.getAttribute('data-apps') !== apps) {
      c.notice.setAttribute('data-apps', apps);
      c.notice.textContent = apps ? T.appNotice + ' ' + apps : '';
      c.notice.style.display = apps ? '' : 'none';
    }
    v.utterances.forEach(function (u) { if (u.active) playSpeech(u); });
  }

  // speaker view: the main tile shows the latest speaker and keeps them when they stop (4.5); gallery: every tile
  function avatar(name) {
    return h('div', { 'class': 'video-avatar__avatar' }, [h('div', { 'class': 'video-avatar__avatar-footer' }, [h('span', { text: name })])]);
  }

  function renderStage() {
    var c = call;
    if (!c) return;
    if (c.layout === 'gallery') {
      c.stage.replaceChildren(h('div', { 'class': 'gallery-video-container__wrap' }, c.people.map(function (p) {
        return h('div', { 'class': 'gallery-video-container__video-frame' }, [avatar(p.name)]);
      })));
      return;
    }
    var others = c.people.filter(function (p) { return p.participant_id !== pid; });
    var main = c.people.find(function (p) { return p.participant_id === c.spot; }) || others[0] || c.people.find(function (p) { return p.participant_id === pid; });
    var me = c.people.find(function (p) { return p.participant_id === pid; });
    c.stage.replaceChildren(
      h('div', { 'class': 'single-main-container__video-frame' }, [main ? avatar(main.name) : null]),
      me && main !== me ? h('div', { 'class': 'single-suspension-container__video-frame' }, [avatar(me.name)]) : null
    );
  }

  function spotlight(participantId) {
    if (!call || call.spot === participantId) return;
    call.spot = participantId;
    renderStage();
  }
`;
