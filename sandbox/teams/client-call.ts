/**
 * The Teams replica's in-page script, part 2: the call (3.8 items 6-8). One hang-up button carrying
 * every id the peers use, the toolbar's other controls, tiles `[data-stream-type="Video"]` whose
 * `data-tid` is the display name (the page's own participant is anonymous: "(Unverified)") with a
 * voice-level outline that takes the class `vdi-frame-occlusion` and a blue `::before` border while
 * its participant speaks, a transient alert toast after admission, the view menu (Gallery, Speaker),
 * and the chat rail (messages in the DOM only while it is open; the author on a group's first row; a
 * CKEditor-like composer, or the disabled placeholder). Shares its closure with client-core.ts and
 * client-audio.ts.
 */
export const teamsClientCall = String.raw`
  var call = null;

  // the page's own tile: an anonymous guest is "(Unverified)"; a signed-in account shows its own name
  function displayName(participantId, name) { return participantId === pid && !signedIn ? name + ' ' + T.unverified : name; }

  function control(label, attrs, text) {
    return h('button', Object.assign({ 'aria-label': label, title: label }, attrs || {}), [h('span', { text: text || label })]);
  }

  // the call's camera and microphone buttons: labelled by what a click does, like the pre-join switches
  function deviceButton(kind, id) {
    var b = control('', { id: id });
    function label() {
      var text = kind === 'camera' ? (media.camera ? T.cameraOn : T.cameraOff) : (media.microphone ? T.micOn : T.micOff);
      b.setAttribute('aria-label', text);
      b.setAttribute('title', text);
      b.replaceChildren(h('span', { text: text }));
    }
    b.addEventListener('click', function () {
      media[kind] = !media[kind];
      label();
      api('POST', '/media', { participant_id: pid, microphone: media.microphone, camera: media.camera }).catch(function () {});
    });
    label();
    return b;
  }

  function renderCall() {
    call = { tiles: {}, key: '', rail: null, messages: [], lastAuthor: null, speaking: {}, spot: null, layout: 'Gallery' };
    var hangUp = control('Leave', { id: 'hangup-button', 'data-tid': 'hangup-main-btn', 'data-inp': 'hangup-button', 'class': 'danger' });
    hangUp.addEventListener('click', function () { api('POST', '/leave', { participant_id: pid }).then(apply).catch(function () {}); });
    var chat = control('Chat', { id: 'chat-button' });
    chat.addEventListener('click', function () { toggleRail('chat'); });
    var people = control('People', { 'data-tid': 'roster-button' });
    people.addEventListener('click', function () { toggleRail('people'); });
    var view = control('View', { id: 'view-mode-button' });
    view.addEventListener('click', function (ev) { ev.stopPropagation(); openViewMenu(); });
    call.stage = h('div', { 'class': 'stage', 'data-layout': call.layout });
    call.side = h('div', { 'class': 'side' });
    var toolbar = h('div', { role: 'toolbar', 'aria-label': 'Meeting controls', 'class': 'toolbar' }, [
      chat,
      people,
      control('Raise', { id: 'raisehands-button' }),
      control('React'),
      view,
      control('More', { id: 'callingButtons-showMoreBtn' }),
      deviceButton('camera', 'video-button'),
      deviceButton('microphone', 'microphone-button'),
      hangUp
    ]);
    show('in_call', h('div', { 'class': 'call' }, [toolbar, h('div', { 'class': 'main' }, [call.stage, call.side])]));
    since = 0;
    hearMeeting(media.computerAudio);
    // what the others hear and see follows the pre-join switches and the call's buttons
    publishMedia(function (kind) { return current === 'in_call' && media[kind]; });
    // a benign toast in an alert region shortly after admission: not a removal (Vexa #600)
    var c = call;
    setTimeout(function () {
      if (call !== c) return;
      var toast = h('div', { role: 'alert', 'class': 'toast', text: T.toast });
      document.body.appendChild(toast);
      setTimeout(function () { toast.remove(); }, 3000);
    }, 1500);
    // a lookalike: someone else's removal announced in the call (replica-shapes.ts)
    if (cfg.shape.lookalikes) document.body.appendChild(h('div', { role: 'status', 'class': 'toast notice', text: T.removalNotice }));
  }

  function leaveCallView() {
    if (!call) return;
    stopAudio();
    closeMenus();
    call = null;
  }

  function tile(p) {
    var name = displayName(p.participant_id, p.name);
    var outline = h('div', { 'class': 'outline', 'data-tid': 'voice-level-stream-outline' });
    var t = h('div', { 'class': 'tile', 'data-stream-type': 'Video', 'data-tid': name }, [outline, h('span', { 'class': 'label', text: name })]);
    t.outline = outline;
    return t;
  }

  function updateCall(v) {
    var c = call;
    var key = participantsKey(v);
    if (key !== c.key) {
      c.key = key;
      c.tiles = {};
      c.people = v.participants;
      var tiles = v.participants.map(function (p) { return (c.tiles[p.participant_id] = tile(p)); });
      if (!settings.roster_only) c.stage.replaceChildren.apply(c.stage, tiles);
      if (c.rail === 'people') renderPeople();
    }
    takeNewMessages(v, function (m) {
      c.messages.push({ author: displayName(m.participant_id, m.sender_name), text: m.text });
      if (c.rail === 'chat') appendMessage(c.messages[c.messages.length - 1]);
    });
    if (c.rail === 'chat') renderComposer();
    v.utterances.forEach(function (u) { if (u.active) playSpeech(u); });
    showSpeakers();
  }

  // the outline of each speaking participant glows; Speaker view shows the latest speaker's tile only
  function showSpeakers() {
    var c = call;
    if (!c) return;
    Object.keys(c.tiles).forEach(function (id) {
      var on = !!c.speaking[id];
      if (on) c.spot = id;
      c.tiles[id].outline.classList.toggle('vdi-frame-occlusion', on);
    });
    var spot = c.spot && c.tiles[c.spot] ? c.spot : Object.keys(c.tiles).find(function (id) { return id !== pid; }) || pid;
    Object.keys(c.tiles).forEach(function (id) { c.tiles[id].classList.toggle('spot', id === spot); });
    // roster only: one tile in the page whatever the layout; the People pane lists everyone
    if (settings.roster_only && c.tiles[spot] && (c.stage.children.length !== 1 || c.stage.firstChild !== c.tiles[spot])) c.stage.replaceChildren(c.tiles[spot]);
  }

  function closeMenus() {
    Array.prototype.slice.call(document.querySelectorAll('.menu')).forEach(function (e) { e.remove(); });
  }
  document.addEventListener('click', closeMenus);
  document.addEventListener('keydown', function (ev) { if (ev.key === 'Escape') closeMenus(); });

  function openViewMenu() {
    closeMenus();
    var speaker = h('button', { id: 'SpeakerView-button', role: 'menuitemradio', 'aria-checked': String(call.layout === 'Speaker'), text: T.speakerView });
    var gallery = h('button', { id: 'MixedGrid-button', role: 'menuitemradio', 'aria-checked': String(call.layout === 'Gallery'), text: T.galleryView });
    speaker.addEventListener('click', function () { chooseLayout('Speaker'); });
    gallery.addEventListener('click', function () { chooseLayout('Gallery'); });
    document.body.appendChild(h('div', { role: 'menu', 'class': 'menu' }, [speaker, gallery]));
  }

  function chooseLayout(name) {
    closeMenus();
    if (!call) return;
    call.layout = name;
    call.stage.setAttribute('data-layout', name);
    api('POST', '/layout', { participant_id: pid, layout: name }).catch(function () {});
    showSpeakers();
  }

  // the rail shows one pane at a time: the chat or the People pane; the same button closes its pane
  function toggleRail(which) {
    var c = call;
    if (c.rail === which) { c.side.replaceChildren(); c.rail = null; return; }
    c.rail = which;
    var close = h('button', { 'data-tid': 'rail-header-close-button', 'aria-label': 'Close', text: 'x' });
    close.addEventListener('click', function () { toggleRail(which); });
    if (which === 'people') {
      c.peopleBox = h('div', { 'data-tid': 'people-pane', 'class': 'rail' });
      c.side.replaceChildren(c.peopleBox);
      renderPeople();
      return;
    }
    c.list = h('div', { 'data-tid': 'chat-pane-list' });
    c.compose = h('div', { 'class': 'compose' });
    c.side.replaceChildren(h('div', { 'class': 'rail' }, [h('header', {}, [h('h3', { text: 'Meeting chat' }), close]), c.list, c.compose]));
    c.lastAuthor = null;
    c.composerState = null;
    c.messages.forEach(appendMessage);
    renderComposer();
  }

  // the People pane (3.5 [Vexa]: a tree of treeitems, each labelled with the name as the call shows it)
  function renderPeople() {
    var c = call;
    var items = (c.people || []).map(function (p) {
      var name = displayName(p.participant_id, p.name);
      return h('div', { role: 'treeitem', 'aria-label': name, 'class': 'row' }, [h('span', { 'data-tid': 'roster-participant-name', text: name })]);
    });
    c.peopleBox.replaceChildren(h('header', {}, [h('h3', { text: 'Participants' })]), h('div', { role: 'tree', 'aria-label': 'Participants' }, items));
  }

  // the composer, or the disabled placeholder when the meeting's chat is off (3.6)
  function renderComposer() {
    var c = call;
    var enabled = !lastView || lastView.meeting.chat_enabled;
    if (c.composerState === enabled) return;
    c.composerState = enabled;
    if (!enabled) {
      c.compose.replaceChildren(h('div', { 'data-tid': 'compose-disabled-placeholder-text', text: T.chatDisabled }));
      return;
    }
    var box = h('div', { 'data-tid': 'ckeditor', role: 'textbox', 'aria-label': T.typeMessage, 'aria-multiline': 'true', contenteditable: 'true' });
    var send = h('button', { 'data-tid': 'sendMessageCommands-send', 'aria-label': 'Send', text: 'Send' });
    // CKEditor 5 (3.6): the text is its model's, typed or inserted; a script's innerText is undone
    var editor = modelEditor(box, function () { sendChat(editor); });
    send.addEventListener('click', function () { sendChat(editor); });
    c.compose.replaceChildren(box, send);
  }

  // a group of messages from one author shows the author on its first row
  function appendMessage(m) {
    var c = call;
    var row = h('div', { 'data-tid': 'chat-pane-message' }, [
      m.author !== c.lastAuthor ? h('span', { 'data-tid': 'message-author-name', text: m.author }) : null,
      h('div', { 'data-tid': 'messageBodyContent', text: m.text })
    ]);
    c.lastAuthor = m.author;
    c.list.appendChild(row);
    c.list.scrollTop = c.list.scrollHeight;
  }

  function sendChat(editor) {
    var text = editor.text().replace(/\n+$/, '');
    if (!text.trim()) return;
    api('POST', '/chat', { participant_id: pid, text: text }).then(function (v) {
      if (editor.text().replace(/\n+$/, '') === text) editor.clear();
      apply(v);
    }).catch(function () {});
  }
`;
