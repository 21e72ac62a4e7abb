/**
 * The Meet replica's in-page script, part 1: registration, polling, and the screens before and after
 * the call (pre-join "green room", waiting, and the end pages), built as the research note's replica
 * contract says (2.11). Shares one closure with client-call.ts and client-audio.ts (page.ts joins
 * them); the sandbox's page API does the meeting's rules. Plain browser JavaScript, no build step: it
 * must not contain backticks or dollar-brace sequences.
 */
import { pageSessionScript } from '../pages/page-session';
import { domBuilderScript } from '../pages/replica-page';

export const meetClientCore = String.raw`
  var cfg = JSON.parse(document.getElementById('replica-config').textContent);
  var T = cfg.texts;
  var app = document.getElementById('app');
  var pid = null;
  var current = null;
  var lastView = null;
  var stopped = false;
  var since = 0;
  var media = { microphone: true, camera: true };
  var onHostChange = null;

${domBuilderScript}
  function icon(name) { return h('i', { 'class': 'google-material-icons', 'aria-hidden': 'true', text: name }); }

${pageSessionScript}
  function show(name, node) {
    if (name !== 'in_call') leaveCallView();
    current = name;
    app.replaceChildren(node);
  }

  // the self-preview: already a participant tile in the lobby, labelled as the effects button (trap, 2.2)
  function preview() {
    return h('div', { 'class': 'preview', 'data-participant-id': pid }, [
      h('button', { 'class': 'effects', 'aria-label': T.effects }, [icon(T.effectsIcon)])
    ]);
  }

  // lobby toggles are div role-buttons whose label says what a click does (2.2)
  function toggle(kind, tag) {
    var el = h(tag, tag === 'div' ? { role: 'button', tabindex: '0', 'class': 'toggle' } : { 'class': 'toggle' });
    function label() {
      el.setAttribute('aria-label', (media[kind] ? 'Turn off ' : 'Turn on ') + kind);
      el.setAttribute('data-is-muted', String(!media[kind]));
      el.replaceChildren(icon(kind === 'microphone' ? (media[kind] ? 'mic' : 'mic_off') : (media[kind] ? 'videocam' : 'videocam_off')));
    }
    el.addEventListener('click', function () {
      media[kind] = !media[kind];
      label();
      if (current === 'in_call') api('POST', '/media', { participant_id: pid, microphone: media.microphone, camera: media.camera }).catch(function () {});
    });
    label();
    return el;
  }

  function renderPrejoin() {
    // signed in: no name to type, the account's name is shown and used
    var input = cfg.signedIn
      ? h('div', { 'class': 'signed-in', 'data-signed-in-name': cfg.signedIn.display_name, text: cfg.signedIn.display_name, value: '' })
      : h('input', { type: 'text', jsname: 'YPqjbf', 'aria-label': T.yourName, placeholder: T.yourName, autocomplete: 'off' });
    var cta = h('button', { jsname: 'Qx7uuf', 'class': 'cta', disabled: '' }, [h('span', { text: cfg.knock ? T.askToJoin : T.joinNow })]);
    var hostNote = h('div', { 'class': 'note', text: T.waitingForHost });
    var error = h('div', { 'class': 'error-slot' });
    function update() {
      var hostHere = !lastView || lastView.meeting.host_present;
      cta.hidden = !hostHere;
      hostNote.hidden = hostHere;
      // the CTA waits for a name (an assumption of the contract, not a verified fact)
      if (cfg.signedIn || input.value.trim()) cta.removeAttribute('disabled'); else cta.setAttribute('disabled', '');
    }
    input.addEventListener('input', update);
    cta.addEventListener('click', function () {
      if (cta.hasAttribute('disabled')) return;
      cta.setAttribute('disabled', '');
      error.replaceChildren();
      api('POST', '/join', { participant_id: pid, name: cfg.signedIn ? '' : input.value, microphone: media.microphone, camera: media.camera }).then(apply).catch(function (e) {
        update();
        error.replaceChildren(h('div', { role: 'alert', 'class': 'error', text: e.message }));
      });
    });
    show('prejoin', h('div', { 'class': 'green-room' }, [
      h('div', { 'class': 'left' }, [preview(), h('div', { 'class': 'toggles' }, [toggle('microphone', 'div'), toggle('camera', 'div')])]),
      h('div', { 'class': 'right' }, [
        h('button', { jsname: 'lbFRPb', 'class': 'icon three-dots', 'aria-label': 'More options' }, [icon('more_vert')]),
        input, hostNote, cta, error
      ]),
      cfg.shape.lookalikes ? signInUpsell() : null
    ]));
    onHostChange = update;
    update();
  }

  // the sign-in upsell over the pre-join page: it mentions waiting, and is no lobby (MB PR #90)
  function signInUpsell() {
    var dismiss = h('button', { text: T.upsell.dismiss });
    var dialog = h('div', { role: 'dialog', 'aria-modal': 'true', 'class': 'dialog' }, [
      h('h2', { text: T.upsell.heading }), h('p', { text: T.upsell.line }), h('button', { text: T.upsell.signIn }), dismiss
    ]);
    dismiss.addEventListener('click', function () { dialog.remove(); });
    return dialog;
  }

  function homeButton() {
    var b = h('button', { 'class': 'plain', text: T.returnHome });
    b.addEventListener('click', function () { location.href = '/'; });
    return b;
  }

  function renderWaiting() {
    var w = cfg.wording;
    var box = h('div', { 'class': 'waiting', 'aria-label': w.heading.indexOf('Please wait') === 0 ? w.heading : null }, [
      h('div', { role: 'heading', 'aria-level': '2', text: w.heading }),
      w.line ? h('div', { text: w.line }) : null,
      homeButton()
    ]);
    // the lobby renders the call's control region too (trap, MB #198)
    show('waiting', h('div', { 'class': 'green-room' }, [h('div', { 'class': 'left' }, [preview()]), h('div', { 'class': 'right' }, [contained(box)]), controlRegion(true)]));
  }

  function endPage(name, text, extra) {
    show(name, contained(h('div', { 'class': 'end' }, [h('h1', { text: text }), homeButton()].concat(extra || []))));
  }

  // the end of the call: its page, or a navigation to the sign-in page, the landing page or the product site
  function endOrRedirect(name, text) {
    if (cfg.shape.end_redirect !== 'none') redirectTo(cfg.shape.end_redirect);
    else endPage(name, text);
  }

  function screenOf(v) {
    var st = v.me.state, why = v.me.end_reason;
    if (st === 'prejoin') return 'prejoin';
    if (st === 'lobby' || st === 'waiting_for_host') return 'waiting';
    if (st === 'in_call' && !v.meeting.ended) return 'in_call';
    if (st === 'denied') return why === 'blocked' ? 'blocked' : 'denied';
    if (st === 'removed') return 'removed';
    if (v.meeting.ended || why === 'meeting ended') return 'ended';
    if (why === 'lobby_timeout') return 'lobby_expired';
    return 'left';
  }

  function apply(v) {
    if (stopped || !v || !v.me) return;
    if (lastView && v.revision < lastView.revision) return;
    var hostChanged = lastView && lastView.meeting.host_present !== v.meeting.host_present;
    lastView = v;
    var target = screenOf(v);
    if (target !== current) {
      switch (target) {
        case 'prejoin': renderPrejoin(); break;
        case 'waiting': renderWaiting(); break;
        case 'in_call': renderCall(); break;
        case 'denied':
          endPage('denied', T.denied);
          // then Meet shows that the bot left (2.5 [Attendee])
          setTimeout(function () { endPage('left', T.left); }, 2000);
          break;
        case 'blocked':
          if (cfg.settings.wall === 'landing_redirect') redirectTo('landing');
          else if (cfg.settings.wall === 'product_redirect') redirectTo('product');
          else endPage('blocked', T.blocked);
          break;
        case 'lobby_expired': endPage('lobby_expired', T.lobbyExpired); break;
        case 'removed': endOrRedirect('removed', T.removed); break;
        case 'ended': endOrRedirect('ended', T.ended); break;
        case 'left': endPage('left', T.left, [h('button', { 'class': 'plain', text: T.rejoin })]); break;
      }
    } else if (hostChanged && target === 'prejoin' && onHostChange) onHostChange();
    if (target === 'in_call') updateCall(v);
    if (['denied', 'blocked', 'lobby_expired', 'removed', 'ended', 'left'].indexOf(target) >= 0) stopped = true;
  }

  function open() {
    api('POST', '/open', {}).then(function (v) {
      pid = v.me.participant_id;
      apply(v);
      startTicking();
    }).catch(function () { setTimeout(open, 1000); });
  }

`;
