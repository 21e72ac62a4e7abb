/**
 * The Zoom replica's in-page script, part 1: registration, polling, and everything before and after
 * the call, as the research note's replica contract says (4.7 items 2-5): the admin disclaimer, the
 * media prompts, the React form (Join disabled until the name is typed with real keys; a value set
 * by script leaves it disabled and `.preview-meeting-info` takes the clicks) or the classic form under
 * OneTrust's banner, the "Joining Meeting…" spinner with an empty video player behind it, the waiting
 * room inside `.meeting-app` with the bot's live microphone-preview audio, the walls and the end
 * modals. Shares one closure with client-call.ts and client-audio.ts (pages.ts joins them); the
 * sandbox's page API does the meeting's rules. Plain browser JavaScript, no build step: it must not
 * contain backticks or dollar-brace sequences.
 */
import { pageSessionScript } from '../pages/page-session';
import { domBuilderScript } from '../pages/replica-page';

export const zoomClientCore = String.raw`
  var cfg = JSON.parse(document.getElementById('replica-config').textContent);
  var T = cfg.texts;
  var S = cfg.settings;
  var app = document.getElementById('app');
  var pid = null;
  var current = null;
  var lastView = null;
  var stopped = false;
  var since = 0;
  var media = { allowed: false, microphone: true, camera: true };
  var joiningUntil = 0;

${domBuilderScript}
${pageSessionScript}
  function show(name, node) {
    if (name !== 'in_call') leaveCallView();
    current = name;
    app.replaceChildren(node);
  }

  // ---- before the form: the admin disclaimer, then the media prompts (4.2)

  function layers() {
    var steps = [];
    if (S.disclaimer) steps.push(disclaimer);
    for (var i = 0; i < S.permission_prompts; i++) steps.push(permissionPrompt.bind(null, i));
    var next = function () {
      var step = steps.shift();
      if (step) step(next); else renderForm();
    };
    next();
  }

  function disclaimer(next) {
    var agree = h('button', { id: 'disclaimer_agree', 'class': 'blue', text: T.disclaimerAgree });
    agree.addEventListener('click', next);
    show('prejoin', h('div', { role: 'dialog', 'aria-modal': 'true', 'class': 'dialog' }, [h('p', { text: T.disclaimerLine }), agree]));
  }

  function permissionPrompt(i, next) {
    var allow = h('button', { 'class': 'blue', text: T.allow });
    var without = h('button', { text: T.withoutDevices });
    allow.addEventListener('click', function () { media.allowed = true; next(); });
    // without devices Zoom never creates participant audio (4.2)
    without.addEventListener('click', function () { media.allowed = false; media.microphone = false; media.camera = false; next(); });
    show('prejoin', h('div', { role: 'dialog', 'aria-modal': 'true', 'class': 'dialog permission-dialog' }, [h('h3', { text: T.permissionTitles[i] }), allow, without]));
  }

  // ---- the form (4.3)

  function passcodeField(update) {
    if (cfg.passcode !== 'wrong' && cfg.passcode !== 'missing' && cfg.passcode !== 'asked_anyway') return null;
    var input = h('input', { type: 'password', id: 'input-for-pwd', placeholder: T.passcode, 'aria-label': T.passcode, autocomplete: 'off' });
    input.addEventListener('input', update);
    return input;
  }

  function submitJoin(name, passcode, onRefused) {
    if (passcode && cfg.acceptedPasscodes.indexOf(passcode.value) < 0) { onRefused(T.passcodeWrong); return; }
    var body = { participant_id: pid, name: name };
    if (cfg.client === 'react') { body.microphone = media.microphone; body.camera = media.camera; }
    api('POST', '/join', body).then(function (v) {
      joiningUntil = performance.now() + S.joining_seconds * 1000;
      renderJoining();
      apply(v);
    }).catch(function (e) { onRefused(e.message); });
  }

  function renderForm() {
    if (cfg.client === 'classic') renderClassicForm(); else renderReactForm();
  }

  function previewToggle(id, kind, on, off) {
    var b = h('button', { id: id, type: 'button' });
    function label() {
      b.setAttribute('aria-label', media[kind] ? on : off);
      b.textContent = media[kind] ? on : off;
    }
    b.addEventListener('click', function () { media[kind] = !media[kind]; label(); });
    label();
    return b;
  }

  function renderReactForm() {
    var name = h('input', { type: 'text', id: 'input-for-name', placeholder: T.yourName, 'aria-label': T.yourName, autocomplete: 'off' });
    var typed = null;
    var trustedKey = false;
    var join = h('button', { type: 'button', 'class': 'preview-join-button disabled', text: T.join });
    // lies over the button while it is disabled, as Zoom's info block takes clicks (4.3)
    var cover = h('div', { 'class': 'preview-meeting-info' });
    var error = h('div', { 'class': 'error', role: 'alert' });
    var passcode = passcodeField(update);
    if (cfg.passcode === 'wrong') error.textContent = T.passcodeWrong;
    function update() {
      var ok = !!name.value.trim() && name.value === typed && (!passcode || !!passcode.value);
      join.classList.toggle('disabled', !ok);
      cover.classList.toggle('gone', ok);
    }
    // only a name typed with real keys counts: a value set by script does not (4.3)
    name.addEventListener('keydown', function (ev) { if (ev.isTrusted) trustedKey = true; });
    name.addEventListener('input', function (ev) { if (ev.isTrusted && trustedKey) typed = name.value; update(); });
    join.addEventListener('click', function () {
      if (join.classList.contains('disabled')) return;
      join.classList.add('disabled');
      submitJoin(name.value, passcode, function (why) { error.textContent = why; update(); });
    });
    show('prejoin', h('div', { 'class': 'preview' }, [
      h('div', { 'class': 'preview-video' }, [h('video-player', {}), h('span', { 'class': 'me', text: T.yourName })]),
      h('div', { 'class': 'preview-form' }, [
        name, passcode,
        h('div', { 'class': 'preview-toggles' }, [
          previewToggle('preview-audio-control-button', 'microphone', T.mute, T.unmute),
          previewToggle('preview-video-control-button', 'camera', T.stopVideo, T.startVideo)
        ]),
        h('div', { 'class': 'join-slot' }, [join, cover]),
        error
      ])
    ]));
    update();
  }

  // the classic client (4.3): #inputname, #joinBtn, under OneTrust's banner (4.2)
  function renderClassicForm() {
    var name = h('input', { type: 'text', id: 'inputname', placeholder: T.yourName, autocomplete: 'off' });
    var join = h('button', { type: 'button', id: 'joinBtn', 'class': 'blue', text: T.join });
    var error = h('div', { 'class': 'error', role: 'alert' });
    var passcode = passcodeField(function () {});
    if (cfg.passcode === 'wrong') error.textContent = T.passcodeWrong;
    join.addEventListener('click', function () {
      if (!name.value.trim() || (passcode && !passcode.value)) return;
      submitJoin(name.value, passcode, function (why) { error.textContent = why; });
    });
    var parts = [h('form', { id: 'join-form', 'class': 'preview-form', onsubmit: 'return false' }, [name, passcode, join, error])];
    if (S.cookie_banner) parts.push(cookieBanner());
    show('prejoin', h('div', { 'class': 'preview' }, parts));
  }

  function cookieBanner() {
    var box = h('div', { id: 'onetrust-consent-sdk' });
    var accept = h('button', { id: 'onetrust-accept-btn-handler', text: T.acceptCookies });
    var reject = h('button', { id: 'onetrust-reject-all-handler', text: T.rejectCookies });
    var close = function () { box.remove(); };
    accept.addEventListener('click', close);
    reject.addEventListener('click', close);
    box.appendChild(h('div', { 'class': 'onetrust-pc-dark-filter' }));
    box.appendChild(h('div', { id: 'onetrust-banner-sdk', role: 'region', 'aria-label': 'Cookie banner' }, [h('p', { text: T.cookieBanner }), reject, accept]));
    return box;
  }

  // ---- after Join (4.4)

  function renderJoining() {
    show('joining', h('div', { 'class': 'meeting-app' }, [
      h('div', { id: 'video-share-layout' }, [h('video-player', {})]),
      h('div', { 'class': 'loading-layer' }, [h('div', { 'class': 'spinner' }), h('span', { text: T.joining })])
    ]));
  }

  // the bot's own microphone preview stays live across the transition (a trap: live audio is no admission)
  function previewAudio() {
    var el = document.createElement('audio');
    el.autoplay = true;
    try { el.srcObject = new AudioContext().createMediaStreamDestination().stream; } catch (e) { /* no audio here */ }
    return el;
  }

  function renderWaitingRoom() {
    show('waiting_room', h('div', { 'class': 'meeting-app' }, [
      h('div', { id: 'video-share-layout' }, [h('video-player', {})]),
      contained(h('div', { 'class': 'wr-container' }, [h('h2', { text: cfg.waitingRoom })])),
      previewAudio()
    ]));
  }

  function renderWaitingForHost() {
    show('waiting_for_host', h('div', { 'class': 'meeting-app' }, [contained(h('div', { 'class': 'wr-container' }, [h('h2', { text: T.waitingForHost })]))]));
  }

  function renderWall() {
    // a block that sends the page off the web client
    if (S.wall === 'product_redirect') { redirectTo('product'); return; }
    if (S.wall === 'captcha') {
      show('wall', h('div', { 'class': 'page' }, [h('div', { 'class': 'component_smart_captcha' }, [
        h('div', { 'class': 'CaptchaContainer' }, [h('p', { text: T.captcha }), h('div', { 'class': 'captcha-image', text: 'x7Qk2' })]),
        h('input', { type: 'text', placeholder: T.captchaPlaceholder }),
        h('button', { 'class': 'blue', text: T.join })
      ])]));
      return;
    }
    show('wall', h('div', { 'class': 'page' }, [h('h2', { text: T.botWall }), h('p', { text: T.botWallLine }), h('button', { 'class': 'blue', text: T.signIn })]));
  }

  // the end modals (4.6): OK goes to the post-meeting page
  function endModal(name, title) {
    // or, as the shape says, straight to the sign-in page, Zoom's home or its product site
    if (cfg.shape.end_redirect !== 'none') { redirectTo(cfg.shape.end_redirect); return; }
    var ok = h('button', { 'class': 'blue', text: T.ok });
    ok.addEventListener('click', function () { location.href = '/signin'; });
    var modal = h('div', { 'class': 'zm-modal', role: 'dialog', 'aria-modal': 'true' }, [h('div', { 'class': 'zm-modal-body-title', text: title }), ok]);
    show(name, h('div', { 'class': 'meeting-app' }, [contained(modal)]));
  }

  function screenOf(v) {
    var st = v.me.state, why = v.me.end_reason;
    if (st === 'prejoin') return 'prejoin';
    if (st === 'waiting_for_host') return 'waiting_for_host';
    if (st === 'lobby') return 'waiting_room';
    if (st === 'in_call' && !v.meeting.ended) return 'in_call';
    if (st === 'denied') return why === 'blocked' ? 'wall' : 'removed';
    if (st === 'removed') return 'removed';
    if (v.meeting.ended || why === 'meeting ended') return 'ended';
    return 'left';
  }

  function apply(v) {
    if (stopped || !v || !v.me) return;
    if (lastView && v.revision < lastView.revision) return;
    var target = screenOf(v);
    // the spinner holds for its time whatever the answer (4.4)
    if (target !== 'prejoin' && performance.now() < joiningUntil) return;
    lastView = v;
    if (target !== current && target !== 'prejoin') {
      switch (target) {
        case 'waiting_for_host': renderWaitingForHost(); break;
        case 'waiting_room': renderWaitingRoom(); break;
        case 'in_call': renderCall(); break;
        case 'wall': renderWall(); break;
        // Zoom has no denial of its own: the host removes people from the waiting room
        case 'removed': endModal('removed', T.removed); break;
        case 'ended': endModal('ended', T.ended); break;
        case 'left': location.href = '/signin'; break;
      }
    }
    if (target === 'in_call') updateCall(v);
    if (['wall', 'removed', 'ended', 'left'].indexOf(target) >= 0) stopped = true;
  }

  function open() {
    api('POST', '/open', {}).then(function (v) {
      pid = v.me.participant_id;
      startTicking();
      layers();
    }).catch(function () { setTimeout(open, 1000); });
  }

`;
