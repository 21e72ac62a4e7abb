/**
 * The Teams replica's in-page script, part 1: the web client finding its meeting in its URL (the
 * fragment `#/l/meetup-join/<thread>/…` or light-meetings' `coords`), the walls, registration and
 * polling, and the screens before and after the call: AV-confirm modal (before the pre-join or after
 * the join click), pre-join, captcha, lobby, and the end screens, as the research note's replica
 * contract says (3.8 items 2-5, 9). Shares one closure with client-account.ts, client-call.ts and client-audio.ts
 * (pages.ts joins them, after the element builder of pages/replica-page.ts and pages/page-session.ts). Plain browser
 * JavaScript: no backticks or dollar-brace sequences.
 */
export const teamsClientCore = String.raw`
  var cfg = JSON.parse(document.getElementById('replica-config').textContent);
  var T = cfg.texts;
  var app = document.getElementById('app');
  var pid = null;
  var current = null;
  var lastView = null;
  var stopped = false;
  var since = 0;
  var settings = null;
  var media = { camera: true, microphone: true, computerAudio: true };
  var avConfirmedEarly = false;
  // the signed-in account ({display_name}) when the browser has a Microsoft session, else null (a guest)
  var signedIn = null;

  function show(name, node) {
    if (name !== 'in_call') leaveCallView();
    current = name;
    app.replaceChildren(node);
  }

  function page(children) { return h('div', { 'class': 'page' }, children); }

  // the thread of a meetup-join fragment, or the conversation of light-meetings' coords (3.1)
  function meetingFromUrl() {
    var thread = null;
    var m = /^#\/l\/(?:meetup-join|meeting)\/([^/?]+)/.exec(location.hash);
    if (m) { try { thread = decodeURIComponent(m[1]); } catch (e) { thread = null; } }
    else if (/^\/light-meetings\/launch/.test(location.pathname)) {
      try { thread = JSON.parse(atob(new URLSearchParams(location.search).get('coords') || '')).conversationId; } catch (e) { thread = null; }
    }
    var id = /^19:meeting_([A-Za-z0-9_-]{1,128})@thread\.v2$/.exec(thread || '');
    return id ? id[1] : null;
  }

  // asked to join as a guest (MB's anon=true), or the light-meetings flow, which is anonymous
  function anonymous() {
    if (/^\/light-meetings\//.test(location.pathname)) return true;
    return new URLSearchParams(location.hash.split('?')[1] || '').get('anon') === 'true';
  }

  function badUrl() { show('bad_url', page([h('p', { text: T.badUrl })])); }

  function start() {
    var id = meetingFromUrl();
    if (!id) { badUrl(); return; }
    fetch(cfg.configPath + encodeURIComponent(id), { cache: 'no-store' }).then(function (r) {
      return r.ok ? r.json() : null;
    }).then(function (c) {
      if (!c) { badUrl(); return; }
      settings = c.settings;
      signedIn = c.signed_in;
      // the meeting's wordings and page shapes (replica-shapes.ts)
      T = c.texts;
      cfg.shape = c.shape;
      cfg.lobbyText = c.lobby_text;
      // a meeting of the organisation only sends guests to sign in, as the login_redirect wall does
      if (settings.wall === 'login_redirect' || (c.organisation_only && !signedIn)) { location.replace(c.login_url); return; }
      // silent sign-in fails for a guest: Teams goes on to the light-meetings flow (Vexa #226)
      if (!anonymous() && !signedIn) { location.replace(c.light_path); return; }
      renderMeControl(signedIn);
      if (settings.wall === 'unrecognised') {
        show('unrecognised', page([h('p', { text: 'This replica page shows no state of the Teams contract (wall "unrecognised").' })]));
        return;
      }
      if (settings.wall === 'sign_in') { signInModal(); return; }
      cfg.apiBase = '/api/meetings/' + encodeURIComponent(c.meeting_id);
      open();
    }).catch(function () { setTimeout(start, 1000); });
  }

  function signInModal() {
    show('sign_in', h('div', { 'class': 'modal' }, [h('div', { role: 'dialog', 'aria-modal': 'true' }, [
      h('p', { text: T.verifyInfo }), h('button', { 'class': 'primary', text: T.signIn })
    ])]));
  }

  function avModal(onContinue) {
    var go = h('button', { 'class': 'primary', text: T.avContinue });
    var modal = h('div', { 'class': 'modal' }, [h('div', { role: 'dialog', 'aria-modal': 'true', 'aria-label': T.avQuestion }, [
      h('h2', { text: T.avQuestion }), go
    ])]);
    go.addEventListener('click', function () { modal.remove(); onContinue(); });
    return modal;
  }

  // a switch is on while its device is (3.2): checked, aria-checked and the title say so; or a
  // div[role=switch] saying it by aria-checked alone (a toggle that is neither a button nor an input)
  function deviceSwitch(kind, tid) {
    if (settings.device_toggles === 'div_switch') {
      var sw = h('div', { role: 'switch', tabindex: '0', 'data-tid': tid, 'aria-label': kind === 'camera' ? 'Camera' : 'Microphone', 'class': 'switch' });
      var mark = function () { sw.setAttribute('aria-checked', String(media[kind])); };
      sw.addEventListener('click', function () { media[kind] = !media[kind]; mark(); });
      mark();
      return h('div', { 'class': 'row' }, [sw, h('span', { text: kind === 'camera' ? 'Camera' : 'Microphone' })]);
    }
    var input = h('input', { type: 'checkbox', role: 'switch', 'data-tid': tid });
    function label() {
      var on = media[kind];
      var title = kind === 'camera' ? (on ? T.cameraOn : T.cameraOff) : (on ? T.micOn : T.micOff);
      input.checked = on;
      input.setAttribute('aria-checked', String(on));
      input.setAttribute('title', title);
      input.setAttribute('aria-label', title);
    }
    input.addEventListener('change', function () { media[kind] = input.checked; label(); });
    label();
    return h('label', { 'class': 'row' }, [input, h('span', { text: kind === 'camera' ? 'Camera' : 'Microphone' })]);
  }

  function audioChoice() {
    var radios = [[T.computerAudio, true], [T.noAudio, false]].map(function (c) {
      var r = h('div', { role: 'radio', tabindex: '0', 'aria-checked': String(media.computerAudio === c[1]), text: c[0] });
      r.addEventListener('click', function () {
        media.computerAudio = c[1];
        radios.forEach(function (x) { x.setAttribute('aria-checked', String(x === r)); });
      });
      return r;
    });
    return h('div', { role: 'radiogroup', 'class': 'row' }, radios);
  }

  function joinButtons(disabled) {
    var join = h('button', { 'class': 'primary', 'data-tid': 'prejoin-join-button', text: T.joinNow });
    if (disabled) join.setAttribute('disabled', '');
    var cancel = h('button', { 'data-tid': 'prejoin-cancel-button', text: T.cancel });
    cancel.addEventListener('click', function () { api('POST', '/leave', { participant_id: pid }).then(apply).catch(function () {}); });
    return { join: join, cancel: cancel };
  }

  function renderPrejoin() {
    if (settings.av_confirm === 'before_prejoin' && !avConfirmedEarly) {
      show('prejoin', page([h('p', { 'class': 'note', text: T.permissionGate }), avModal(function () { avConfirmedEarly = true; renderPrejoin(); })]));
      return;
    }
    // signed in: no name to type, the account's name is shown (3.2: "absent for signed-in bots")
    var input = signedIn
      ? h('div', { 'data-tid': 'prejoin-signed-in-name', text: signedIn.display_name })
      : h('input', { type: 'text', 'data-tid': 'prejoin-display-name-input', placeholder: T.typeYourName, 'aria-label': T.typeYourName, autocomplete: 'off' });
    var buttons = joinButtons(!signedIn);
    var error = h('div', { 'class': 'error-slot' });
    input.addEventListener('input', function () {
      if (input.value.trim()) buttons.join.removeAttribute('disabled'); else buttons.join.setAttribute('disabled', '');
    });
    var screen = page([
      h('div', { 'class': 'preview' }),
      input,
      h('div', { 'class': 'row' }, [deviceSwitch('camera', 'toggle-video'), deviceSwitch('microphone', 'toggle-mute')]),
      audioChoice(),
      h('div', { 'class': 'row' }, [buttons.join, buttons.cancel]),
      error
    ]);
    buttons.join.addEventListener('click', function () {
      if (buttons.join.hasAttribute('disabled')) return;
      // the AV-confirm modal after the click leaves "Join now" in the DOM behind it (3.8 item 3)
      var name = signedIn ? '' : input.value;
      if (settings.av_confirm === 'after_join') screen.appendChild(avModal(function () { requestJoin(name, buttons.join, error); }));
      else requestJoin(name, buttons.join, error);
    });
    show('prejoin', screen);
  }

  function requestJoin(name, button, error) {
    // a block that sends the page off the meeting: the request never reaches it
    if (settings.wall === 'product_redirect') { redirectTo('product'); return; }
    if (settings.wall === 'captcha') {
      show('captcha', page([h('h2', { text: T.captcha }), h('div', { 'class': 'preview', 'aria-label': 'captcha image' }), h('input', { type: 'text', 'aria-label': 'Enter the characters you see' })]));
      return;
    }
    button.setAttribute('disabled', '');
    error.replaceChildren();
    api('POST', '/join', { participant_id: pid, name: name, microphone: media.microphone, camera: media.camera }).then(apply).catch(function (e) {
      button.removeAttribute('disabled');
      error.replaceChildren(h('div', { role: 'alert', 'class': 'error', text: e.message }));
    });
  }

  // the lobby keeps the pre-join's join button, disabled, and Cancel (3.3, 3.8 item 4)
  function renderLobby(v) {
    var buttons = joinButtons(true);
    var wording = cfg.lobbyText;
    var line = settings.lobby_wording === 'meeting_starts' ? 'Hi, ' + v.me.name + '. ' + wording : wording;
    show('lobby', page([h('div', { 'class': 'preview' }), contained(h('p', { text: line })), h('div', { 'class': 'row' }, [buttons.join, buttons.cancel])]));
  }

  function retryScreen(name, title, buttons) {
    show(name, contained(page([h('h2', { id: 'calling-retry-screen-title', text: title }), h('div', { 'class': 'row' }, buttons)])));
  }

  // the end of the call: its screen, or a navigation to the sign-in page, the landing page or the product site
  function endOrRedirect(render) {
    if (cfg.shape.end_redirect !== 'none') redirectTo(cfg.shape.end_redirect);
    else render();
  }

  function dismissButton() { return h('button', { 'data-tid': 'calling-retry-cancelbutton', text: T.dismiss }); }

  function screenOf(v) {
    var st = v.me.state;
    if (st === 'prejoin' || st === 'lobby' || st === 'denied' || st === 'removed') return st;
    if (st === 'in_call' && !v.meeting.ended) return 'in_call';
    if (v.meeting.ended || v.me.end_reason === 'meeting ended') return 'ended';
    return 'left';
  }

  function apply(v) {
    if (stopped || !v || !v.me) return;
    if (lastView && v.revision < lastView.revision) return;
    lastView = v;
    var target = screenOf(v);
    if (target !== current && !(target === 'prejoin' && current === 'captcha')) {
      switch (target) {
        case 'prejoin': renderPrejoin(); break;
        case 'lobby': renderLobby(v); break;
        case 'in_call': renderCall(); break;
        case 'denied': retryScreen('denied', T.denied, [dismissButton()]); break;
        case 'removed': endOrRedirect(function () { retryScreen('removed', T.removed, [h('button', { 'class': 'primary', text: T.rejoin }), dismissButton()]); }); break;
        case 'ended': endOrRedirect(function () { show('ended', contained(page([h('h2', { text: T.ended })]))); }); break;
        case 'left': show('left', contained(page([h('h2', { text: T.left })]))); break;
      }
    }
    if (target === 'in_call') updateCall(v);
    if (['denied', 'removed', 'ended', 'left'].indexOf(target) >= 0) stopped = true;
  }

  function open() {
    api('POST', '/open', {}).then(function (v) {
      pid = v.me.participant_id;
      apply(v);
      startTicking();
    }).catch(function () { setTimeout(open, 1000); });
  }
`;
