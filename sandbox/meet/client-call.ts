/**
 * The Meet replica's in-page script, part 2: the call (2.11 items 5-7). Tiles carrying the
 * participant id with the name in `span.notranslate` (the page's own with `data-self-name`), the
 * region "Call controls" that hides when the pointer rests, a `nav` with People and Chat, one side
 * panel at a time (people list or chat; messages exist in the DOM only while the chat is open),
 * More options -> Change layout. Shares its closure with client-core.ts and client-audio.ts.
 */
export const meetClientCall = String.raw`
  var call = null;

  function button(label, iconName, attrs) {
    var b = h('button', Object.assign({ 'aria-label': label, 'class': 'icon' }, attrs || {}), [icon(iconName)]);
    return b;
  }

  // the controls region; in the lobby (trap) it is rendered but does nothing but leave
  function controlRegion(inLobby) {
    var leave = button('Leave call', 'call_end', { jsname: 'CQylAd', 'class': 'icon danger' });
    leave.addEventListener('click', function () { api('POST', '/leave', { participant_id: pid }).then(apply).catch(function () {}); });
    var more = button('More options', 'more_vert', { jsname: 'NakZHc' });
    var people = button('People', 'people', { 'data-panel-id': '1' });
    var chat = button(T.chatWithEveryone, 'chat', { 'data-panel-id': '2' });
    var region = h('div', { role: 'region', 'aria-label': 'Call controls', 'class': 'controls' }, [
      toggle('microphone', 'button'), toggle('camera', 'button'),
      button('Turn on captions', 'closed_caption_off'), button('Raise hand', 'back_hand'), button('Send a reaction', 'mood'),
      button('Share screen', 'present_to_all'), more, leave,
      h('nav', {}, [button('Meeting details', 'info'), people, chat, button('Meeting tools', 'category')])
    ]);
    if (!inLobby) {
      more.addEventListener('click', function (ev) { ev.stopPropagation(); openMenu(); });
      people.addEventListener('click', function () { openPanel(call.panel === 'people' ? null : 'people'); });
      chat.addEventListener('click', function () { openPanel(call.panel === 'chat' ? null : 'chat'); });
      call.chatButton = chat;
      call.region = region;
    }
    return region;
  }

  // Meet hides its toolbar when the pointer rests (2.4 [Vexa])
  function wakeToolbar() {
    if (!call) return;
    call.region.classList.remove('hidden');
    clearTimeout(call.hideTimer);
    if (cfg.settings.toolbar_autohide_seconds > 0) {
      call.hideTimer = setTimeout(function () { if (call) call.region.classList.add('hidden'); }, cfg.settings.toolbar_autohide_seconds * 1000);
    }
  }
  document.addEventListener('mousemove', wakeToolbar);

  function renderCall() {
    call = { tiles: {}, key: '', panel: null, messages: [], unread: false, speaking: {}, hideTimer: null, layout: 'Auto' };
    call.grid = h('div', { 'class': 'grid', 'data-layout': 'Auto' });
    call.count = h('div', { 'class': 'count', 'data-avatar-count': '0', text: '0' });
    call.side = h('aside', { 'class': 'side' });
    var region = controlRegion(false);
    show('in_call', h('div', { 'class': 'call' }, [h('div', { 'class': 'stage' }, [call.grid, call.side]), call.count, region]));
    since = 0;
    wakeToolbar();
    // what the others hear and see follows the pre-join toggles and the call's buttons
    publishMedia(function (kind) { return current === 'in_call' && media[kind]; });
  }

  function leaveCallView() {
    if (!call) return;
    clearTimeout(call.hideTimer);
    stopAudio();
    call = null;
  }

  function tile(p) {
    var lvl = h('div', { 'class': 'lvl gjg47c', 'data-audio-level': '0' });
    var t = h('div', { 'class': 'tile', 'data-participant-id': p.participant_id }, [
      h('div', { 'class': 'name' }, [h('span', { 'class': 'notranslate', text: p.name })]), lvl
    ]);
    if (p.participant_id === pid) t.setAttribute('data-self-name', p.name);
    t.lvl = lvl;
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
      if (!cfg.settings.roster_only) c.grid.replaceChildren.apply(c.grid, tiles);
      c.count.setAttribute('data-avatar-count', String(v.participants.length));
      c.count.textContent = String(v.participants.length);
      if (c.panel === 'people') renderPeople();
    }
    takeNewMessages(v, function (m, index) {
      c.messages.push({ id: 'm-' + index, sender: m.sender_name, text: m.text });
      if (c.panel === 'chat') appendMessage(c.messages[c.messages.length - 1]);
      else if (!c.unread) { c.unread = true; c.chatButton.setAttribute('aria-label', T.chatNewMessage); }
    });
    if (c.input) c.input.disabled = !v.meeting.chat_enabled;
    v.utterances.forEach(function (u) { if (u.active) playSpeech(u); });
    showSpeakers();
  }

  function openPanel(which) {
    var c = call;
    c.panel = which;
    c.side.replaceChildren();
    c.input = null;
    c.chatList = null;
    if (which === 'people') renderPeople();
    if (which === 'chat') {
      c.unread = false;
      c.chatButton.setAttribute('aria-label', T.chatWithEveryone);
      c.chatList = h('div', { 'class': 'chat-list' });
      c.input = h('textarea', { 'aria-label': T.sendMessage, placeholder: T.sendMessage, rows: '2' });
      // React's controlled textarea: a value set by script is not the message (its own state is)
      c.composer = controlledTextarea(c.input);
      if (lastView && !lastView.meeting.chat_enabled) c.input.disabled = true;
      c.input.addEventListener('keydown', function (ev) {
        if (ev.key === 'Enter' && !ev.shiftKey) { ev.preventDefault(); sendChat(); }
      });
      c.side.replaceChildren(h('div', { 'class': 'panel' }, [h('h2', { text: 'In-call messages' }), c.chatList, c.input]));
      c.lastGroup = null;
      c.messages.forEach(appendMessage);
    }
  }

  function renderPeople() {
    var list = h('div', { role: 'list', 'aria-label': 'Participants' }, (call.people || []).map(function (p) {
      return h('div', { role: 'listitem', 'aria-label': p.name, text: p.name });
    }));
    call.side.replaceChildren(h('div', { 'class': 'panel' }, [h('h2', { text: 'People' }), list]));
  }

  // messages grouped by sender: a header, then rows carrying the message id (the pin button too, 2.9)
  function appendMessage(m) {
    var c = call;
    if (!c.lastGroup || c.lastGroup.sender !== m.sender) {
      var rows = h('div', { 'class': 'rows' });
      c.chatList.appendChild(h('div', { 'class': 'Ss4fHf' }, [h('div', { 'class': 'poVWob', text: m.sender }), rows]));
      c.lastGroup = { sender: m.sender, rows: rows };
    }
    c.lastGroup.rows.appendChild(h('div', { 'data-message-id': m.id }, [
      h('div', { 'class': 'jO4O1', text: m.text }),
      h('button', { 'data-message-id': m.id, 'aria-label': 'Pin message', 'class': 'icon pin' }, [icon('keep')])
    ]));
  }

  function sendChat() {
    var c = call;
    var composer = c.composer;
    var text = composer.text();
    if (!text.trim() || c.input.disabled) return;
    api('POST', '/chat', { participant_id: pid, text: text }).then(function (v) {
      if (c.composer === composer && composer.text() === text) composer.clear();
      apply(v);
    }).catch(function () {});
  }

  function closeMenus() {
    Array.prototype.slice.call(document.querySelectorAll('.menu, .dialog')).forEach(function (e) { e.remove(); });
  }
  document.addEventListener('keydown', function (ev) { if (ev.key === 'Escape') closeMenus(); });
  document.addEventListener('click', function (ev) { if (!ev.target.closest || !ev.target.closest('.menu, .dialog')) Array.prototype.slice.call(document.querySelectorAll('.menu')).forEach(function (e) { e.remove(); }); });

  function openMenu() {
    closeMenus();
    var item = h('li', { role: 'menuitem', tabindex: '0' }, [icon('dashboard'), h('span', { text: T.changeLayout })]);
    item.addEventListener('click', function (ev) { ev.stopPropagation(); closeMenus(); openLayoutDialog(); });
    var settings = h('li', { role: 'menuitem', tabindex: '0' }, [icon('settings'), h('span', { text: 'Settings' })]);
    document.body.appendChild(h('ul', { role: 'menu', 'class': 'menu' }, [item, settings]));
  }

  function openLayoutDialog() {
    var choices = T.layouts.map(function (name) {
      var radio = h('input', { type: 'radio', name: 'layout', value: name });
      if (call && call.layout === name) radio.checked = true;
      radio.addEventListener('change', function () { chooseLayout(name); });
      return h('label', {}, [radio, h('span', { text: name })]);
    });
    var close = h('button', { 'aria-label': 'Close dialog', 'class': 'icon' }, [icon('close')]);
    close.addEventListener('click', closeMenus);
    document.body.appendChild(h('div', { role: 'dialog', 'aria-modal': 'true', 'aria-label': T.changeLayout, 'class': 'dialog' }, [h('h2', { text: T.changeLayout })].concat(choices, [close])));
  }

  function chooseLayout(name) {
    if (!call) return;
    call.layout = name;
    call.grid.setAttribute('data-layout', name);
    api('POST', '/layout', { participant_id: pid, layout: name }).catch(function () {});
    showSpeakers();
  }

  // the lit tiles follow the speakers; Spotlight shows the latest speaker only
  function showSpeakers() {
    var c = call;
    if (!c) return;
    var spot = c.spot && c.tiles[c.spot] ? c.spot : Object.keys(c.tiles).find(function (id) { return id !== pid; }) || pid;
    Object.keys(c.tiles).forEach(function (id) {
      var t = c.tiles[id];
      var on = !!c.speaking[id];
      if (on) spot = c.spot = id;
      t.lvl.className = on ? 'lvl Oaajhc' : 'lvl gjg47c';
      t.lvl.setAttribute('data-audio-level', on ? '2' : '0');
    });
    Object.keys(c.tiles).forEach(function (id) { c.tiles[id].classList.toggle('spot', id === spot); });
    // roster only: one tile in the page whatever the layout; the People panel lists everyone
    if (cfg.settings.roster_only && c.tiles[spot] && (c.grid.children.length !== 1 || c.grid.firstChild !== c.tiles[spot])) c.grid.replaceChildren(c.tiles[spot]);
  }
`;
