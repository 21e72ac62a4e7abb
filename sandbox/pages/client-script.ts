/**
 * The in-page script of a meeting page (plain browser JavaScript, no build step). It registers the
 * page as a participant, polls the meeting state, renders one screen at a time (screens that are not
 * current are not in the DOM, so `waitForSelector` sees only the current one), posts chat and plays
 * the speech of simulated participants through <audio> elements.
 *
 * Kept as a string: it must not contain backticks or dollar-brace sequences.
 */
import { mediaPublisherScript } from './media-publisher';
import { pageSessionScript } from './page-session';

export const clientScript = String.raw`
(function () {
  'use strict';
  var cfg = JSON.parse(document.getElementById('sandbox-config').textContent);
  var app = document.getElementById('app');
  var pid = null;
  var current = null;
  var lastView = null;
  var stopped = false;
  var call = null;
  var since = 0;
  var played = {};
  var failedSeq = {};
  var audios = [];
  var videoTick = 0;

  function h(tag, attrs, children) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === 'text') e.textContent = attrs[k];
      else if (k === 'testid') e.setAttribute('data-testid', attrs[k]);
      else e.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) { if (c) e.appendChild(c); });
    return e;
  }

${pageSessionScript}
  function show(name, node) {
    if (name !== 'in_call') { stopAudio(); call = null; }
    current = name;
    app.replaceChildren(node);
    document.body.setAttribute('data-screen', name);
  }

  function screen(testid, title, text) {
    return h('div', { testid: testid, 'class': 'screen' }, [h('h2', { text: title }), h('p', { text: text })]);
  }

  function renderPrejoin() {
    var input = h('input', { testid: 'name-input', type: 'text', placeholder: cfg.text.namePlaceholder, autocomplete: 'off' });
    var button = h('button', { testid: 'join-button', 'class': 'primary', text: cfg.text.join });
    var errorSlot = h('div', { 'class': 'error-slot' });
    function submit() {
      if (button.disabled) return;
      button.disabled = true;
      errorSlot.replaceChildren();
      api('POST', '/join', { participant_id: pid, name: input.value }).then(apply).catch(function (e) {
        button.disabled = false;
        errorSlot.replaceChildren(h('div', { testid: 'join-error', 'class': 'error', role: 'alert', text: e.message }));
      });
    }
    button.addEventListener('click', submit);
    input.addEventListener('keydown', function (ev) { if (ev.key === 'Enter') submit(); });
    show('prejoin', h('div', { testid: 'prejoin', 'class': 'screen' }, [
      h('h2', { text: cfg.text.prejoin }),
      h('label', {}, [h('span', { text: cfg.text.nameLabel }), input]),
      button,
      errorSlot
    ]));
    input.focus();
  }

  function renderCall() {
    var c = { rows: {}, tiles: {}, spot: null, listKey: '' };
    c.speaker = h('span', { testid: 'active-speaker', 'data-name': '', 'class': 'speaker' });
    c.list = h('ul', { testid: 'participant-list', 'class': 'participants' });
    c.messages = h('div', { 'class': 'messages' });
    c.input = h('textarea', { testid: 'chat-input', rows: '2', placeholder: cfg.text.chatPlaceholder });
    c.send = h('button', { testid: 'chat-send', text: 'Send' });
    c.chatError = h('div', { 'class': 'error-slot' });
    c.audioBox = h('div', { 'class': 'audio-box' });
    var leave = h('button', { testid: 'leave-button', 'class': 'danger', text: cfg.text.leave });
    leave.addEventListener('click', function () {
      api('POST', '/leave', { participant_id: pid }).then(apply).catch(function () {});
    });
    c.layout = 'speaker';
    c.stage = h('div', { testid: 'stage', 'class': 'stage-tiles', 'data-layout': c.layout });
    c.layoutBox = h('span', { testid: 'layout', 'data-layout': c.layout, 'class': 'layouts' }, [layoutButton('speaker'), layoutButton('gallery')]);
    var bar = [h('span', { 'class': 'brand', text: cfg.text.brand }), h('span', { 'class': 'label', text: 'Speaking:' }), c.speaker, c.layoutBox];
    if (cfg.platform === 'vc') {
      c.rec = h('span', { testid: 'recording-permission', 'data-state': 'none', 'class': 'rec', text: 'recording: none' });
      var ask = h('button', { testid: 'request-recording', text: 'Request recording permission' });
      ask.addEventListener('click', function () {
        api('POST', '/recording-request', { participant_id: pid }).then(apply).catch(function (e) { chatError(e.message); });
      });
      bar.push(ask, c.rec);
    }
    bar.push(leave);
    c.send.addEventListener('click', sendChat);
    c.input.addEventListener('keydown', function (ev) {
      if (ev.key === 'Enter' && !ev.shiftKey) { ev.preventDefault(); sendChat(); }
    });
    var chatChildren = [h('h3', { text: 'Chat' })];
    if (lastView && !lastView.meeting.chat_enabled) {
      chatChildren.push(h('div', { testid: 'chat-disabled', 'class': 'notice', text: cfg.text.chatDisabled }));
    }
    chatChildren.push(c.messages, c.input, c.send, c.chatError);
    c.notice = h('div', { testid: 'app-notice', 'class': 'notice', 'data-apps': '' });
    c.notice.style.display = 'none';
    var view = h('div', { testid: 'call-view', 'class': 'call' }, [
      h('header', { 'class': 'bar' }, bar),
      c.notice,
      c.stage,
      h('main', { 'class': 'stage' }, [
        h('aside', { 'class': 'people' }, [h('h3', { text: 'Participants' }), c.list]),
        h('section', { testid: 'chat-panel', 'class': 'chat' }, chatChildren)
      ]),
      c.audioBox
    ]);
    since = 0;
    show('in_call', view);
    call = c;
    publishMedia(function () { return current === 'in_call'; });
  }

${mediaPublisherScript}
  // Other participants' video: the latest frame each sent, refreshed every second.
  function refreshVideos(c) {
    if (++videoTick % 4 !== 0) return;
    Object.keys(c.rows).forEach(function (id) {
      if (id === pid) return;
      var row = c.rows[id];
      var img = row.querySelector('img');
      if (!img) {
        img = h('img', { testid: 'participant-video', 'data-participant-id': id, width: '160', height: '90', alt: '' });
        img.style.display = 'none';
        img.onload = function () { img.style.display = ''; };
        img.onerror = function () { img.style.display = 'none'; };
        row.appendChild(img);
      }
      img.src = cfg.apiBase + '/video?of=' + encodeURIComponent(id) + '&n=' + videoTick;
    });
  }

  // two layouts: the speaker's tile alone, or everyone's tiles (what speaker_view and gallery_view record)
  function layoutButton(layout) {
    var b = h('button', { testid: 'layout-' + layout, text: layout === 'speaker' ? 'Speaker view' : 'Gallery view' });
    b.addEventListener('click', function () {
      if (!call) return;
      call.layout = layout;
      call.stage.setAttribute('data-layout', layout);
      call.layoutBox.setAttribute('data-layout', layout);
      api('POST', '/layout', { participant_id: pid, layout: layout }).catch(function () {});
      updateSpeaker();
    });
    return b;
  }

  function chatError(text) {
    if (call) call.chatError.replaceChildren(h('div', { testid: 'chat-error', 'class': 'error', role: 'alert', text: text }));
  }

  function sendChat() {
    var c = call;
    if (!c) return;
    c.chatError.replaceChildren();
    if (lastView && !lastView.meeting.chat_enabled) { chatError(cfg.text.chatDisabled); return; }
    var text = c.input.value;
    if (!text.trim()) return;
    api('POST', '/chat', { participant_id: pid, text: text }).then(function (v) {
      if (c.input.value === text) c.input.value = '';
      apply(v);
    }).catch(function (e) { chatError(e.message); });
  }

  function updateCall(v) {
    var c = call;
    var key = participantsKey(v);
    if (key !== c.listKey) {
      c.listKey = key;
      c.rows = {};
      c.tiles = {};
      c.list.replaceChildren.apply(c.list, v.participants.map(function (p) {
        var row = h('li', { testid: 'participant', 'data-name': p.name, 'data-participant-id': p.participant_id, text: p.name });
        if (p.participant_id === pid) row.classList.add('me');
        c.rows[p.participant_id] = row;
        return row;
      }));
      c.stage.replaceChildren.apply(c.stage, v.participants.map(function (p) {
        return (c.tiles[p.participant_id] = h('div', { testid: 'tile', 'class': 'tile', 'data-name': p.name }, [h('span', { text: p.name })]));
      }));
    }
    // vc: the platform's notice banner names every SDK app in the call (the app that signed its join)
    var apps = (v.apps || []).join(', ');
    if (c.notice.getAttribute('data-apps') !== apps) {
      c.notice.setAttribute('data-apps', apps);
      c.notice.textContent = apps ? apps + (v.apps.length > 1 ? ' have' : ' has') + ' access to the content of this meeting' : '';
      c.notice.style.display = apps ? '' : 'none';
    }
    takeNewMessages(v, function (m) {
      c.messages.appendChild(h('div', { 'class': 'message' }, [
        h('span', { 'class': 'sender', text: m.sender_name }),
        h('div', { testid: 'chat-message', 'data-sender': m.sender_name, 'data-participant-id': m.participant_id, text: m.text })
      ]));
      c.messages.scrollTop = c.messages.scrollHeight;
    });
    if (c.rec && c.rec.getAttribute('data-state') !== v.me.recording_permission) {
      c.rec.setAttribute('data-state', v.me.recording_permission);
      c.rec.textContent = 'recording: ' + v.me.recording_permission;
    }
    v.utterances.forEach(function (u) { if (u.active && !played[u.seq]) playUtterance(u); });
    updateSpeaker();
    refreshVideos(c);
  }

  function playUtterance(u) {
    played[u.seq] = true;
    var a = h('audio', { testid: 'speech-audio', preload: 'auto', 'data-name': u.name, 'data-seq': String(u.seq) });
    var rec = { seq: u.seq, name: u.name, participant_id: u.participant_id, el: a, playing: false, startedAt: 0, acked: false };
    function ack(blocked) {
      if (rec.acked) return;
      rec.acked = true;
      api('POST', '/played', { participant_id: pid, seq: u.seq, blocked: blocked }).catch(function () {});
    }
    function finish(failed) {
      if (failed) { failedSeq[u.seq] = true; ack(true); }
      rec.playing = false;
      audios = audios.filter(function (x) { return x !== rec; });
      if (a.parentNode) a.parentNode.removeChild(a);
      updateSpeaker();
    }
    a.addEventListener('playing', function () {
      rec.playing = true;
      rec.startedAt = performance.now();
      ack(false);
      updateSpeaker();
    });
    a.addEventListener('ended', function () { finish(false); });
    a.addEventListener('error', function () { finish(true); });
    a.src = u.audio_url;
    if (u.elapsed_ms > 1500) a.currentTime = u.elapsed_ms / 1000;
    audios.push(rec);
    call.audioBox.appendChild(a);
    var p = a.play();
    if (p && p.catch) p.catch(function () { finish(true); });
  }

  function stopAudio() {
    audios.forEach(function (r) { r.el.pause(); if (r.el.parentNode) r.el.parentNode.removeChild(r.el); });
    audios = [];
  }

  function updateSpeaker() {
    if (!call) return;
    var best = null;
    audios.forEach(function (r) { if (r.playing && (!best || r.startedAt >= best.startedAt)) best = r; });
    var name = best ? best.name : '';
    var speakerId = best ? best.participant_id : '';
    if (!best && lastView) {
      // speech this page could not play: follow the server's timing
      lastView.utterances.forEach(function (u) {
        if (u.active && failedSeq[u.seq]) { name = u.name; speakerId = u.participant_id; }
      });
    }
    if (call.speaker.getAttribute('data-name') !== name) {
      call.speaker.setAttribute('data-name', name);
      call.speaker.textContent = name;
    }
    Object.keys(call.rows).forEach(function (id) {
      var speaking = id === speakerId ? 'true' : 'false';
      if (call.rows[id].getAttribute('data-speaking') !== speaking) call.rows[id].setAttribute('data-speaking', speaking);
    });
    // speaker view: the speaker's tile, else the last one who spoke, else the first other participant
    if (speakerId) call.spot = speakerId;
    var spot = call.spot && call.tiles[call.spot] ? call.spot : Object.keys(call.tiles).find(function (id) { return id !== pid; }) || pid;
    Object.keys(call.tiles).forEach(function (id) { call.tiles[id].classList.toggle('spot', id === spot); });
  }

  function apply(v) {
    if (stopped || !v || !v.me) return;
    // responses can arrive out of order: never go back to an older state of the meeting
    if (lastView && v.revision < lastView.revision) return;
    lastView = v;
    var state = v.me.state;
    var target = state === 'removed' || state === 'denied' ? state : v.meeting.ended ? 'ended' : state;
    if (target !== current) {
      switch (target) {
        case 'prejoin': renderPrejoin(); break;
        case 'waiting_for_host': show(target, screen('waiting-for-host', cfg.text.waitingForHostTitle, cfg.text.waitingForHost)); break;
        case 'lobby': show(target, screen('lobby', cfg.text.lobbyTitle, cfg.text.lobby)); break;
        case 'in_call': renderCall(); break;
        case 'denied': show(target, screen('denied', cfg.text.deniedTitle, cfg.text.denied)); break;
        case 'removed': show(target, screen('removed', cfg.text.removedTitle, cfg.text.removed)); break;
        case 'ended': show(target, screen('meeting-ended', cfg.text.endedTitle, cfg.text.ended)); break;
        case 'left': show(target, screen('left', cfg.text.leftTitle, cfg.text.left)); break;
      }
    }
    if (target === 'in_call') updateCall(v);
    if (target === 'denied' || target === 'removed' || target === 'ended' || target === 'left') stopped = true;
  }

  function open() {
    api('POST', '/open', {}).then(function (v) {
      pid = v.me.participant_id;
      document.body.setAttribute('data-participant-id', pid);
      apply(v);
      startTicking();
    }).catch(function () { setTimeout(open, 1000); });
  }

  open();
})();
`;
