/**
 * A stand-in for the vc platform's Meeting SDK for Web (Client View), served at
 * `/meetingsdk/zoom-meeting.js` on every host of the sandbox: the same global `ZoomMtg` and the calls a
 * bot makes of the real one (`init`, `join` with `{signature, meetingNumber, userName, passWord, obfToken,
 * zak}`, `leaveMeeting`, `inMeetingServiceListener`, `sendChat`, `getAttendeeslist`, `getCurrentUser`,
 * `mediaCapture`, `mediaCapturePermission`), events in its shapes (`onMeetingStatus` with `errorCode`,
 * `onJoinSpeed` levels 6 and 13, `onUserJoin`/`onUserLeave` with `reasonCode`, `onActiveSpeaker`,
 * `onReceiveChatMsg`, `onMediaCapturePermissionChange`), and its error codes. The real SDK speaks the
 * platform's own protocol, which no replica can; this one speaks the sandbox's page API (CORS), where the
 * platform's rules are enforced (sdk-join.ts). It renders a small call into `#zmmtg-root`: the notice
 * banner, the participants, the chat, and the meeting's speech through <audio> elements (so a tab capture
 * records it).
 *
 * Kept as a string: it must not contain backticks or dollar-brace sequences.
 */
export const meetingSdkStandIn = String.raw`
(function () {
  'use strict';
  var origin = new URL(document.currentScript.src).origin;
  var listeners = {};
  var s = { meetingId: null, pid: null, since: 0, timer: null, state: null, users: {}, speaker: null, played: {}, permission: 'none', chatEnabled: true, ended: false, root: null, seenMessages: 0 };

  function emit(event, data) {
    (listeners[event] || []).forEach(function (fn) { try { fn(data); } catch (e) { console.error(e); } });
  }

  function api(method, path, body) {
    return fetch(origin + '/api/meetings/' + encodeURIComponent(s.meetingId) + path, {
      method: method,
      headers: body ? { 'content-type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined
    }).then(function (r) {
      return r.json().then(function (j) {
        if (!r.ok) { var e = new Error(j.errorMessage || j.error || ('HTTP ' + r.status)); e.body = j; throw e; }
        return j;
      });
    });
  }

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function renderFrame() {
    s.root = document.getElementById('zmmtg-root');
    if (!s.root) { s.root = el('div', { id: 'zmmtg-root' }); document.body.appendChild(s.root); }
    s.root.replaceChildren();
    s.notice = el('div', { 'class': 'sdk-app-notice', role: 'status' });
    s.status = el('div', { 'class': 'sdk-status' }, 'Joining...');
    s.list = el('ul', { 'class': 'sdk-participants' });
    s.chat = el('div', { 'class': 'sdk-chat' });
    s.audio = el('div', { 'class': 'sdk-audio' });
    [s.notice, s.status, s.list, s.chat, s.audio].forEach(function (n) { s.root.appendChild(n); });
  }

  function fail(cb, code, message) {
    if (cb) cb({ method: 'join', status: false, result: null, errorCode: code, errorMessage: message });
  }

  function stop() {
    if (s.timer) clearInterval(s.timer);
    s.timer = null;
    Object.keys(s.played).forEach(function (k) { var a = s.played[k]; if (a && a.pause) a.pause(); });
  }

  function playSpeech(u) {
    if (s.played[u.seq]) return;
    var audio = el('audio', { 'data-seq': String(u.seq) });
    s.played[u.seq] = audio;
    audio.src = new URL(u.audio_url, origin).href;
    audio.currentTime = Math.max(0, u.elapsed_ms / 1000);
    s.audio.appendChild(audio);
    var ack = function () { api('POST', '/played', { participant_id: s.pid, seq: u.seq }).catch(function () {}); };
    audio.onended = function () { audio.remove(); };
    audio.play().then(ack, ack);
  }

  function applyCall(v) {
    var present = {};
    v.participants.forEach(function (p) {
      present[p.participant_id] = p;
      if (!s.users[p.participant_id]) {
        s.users[p.participant_id] = p;
        emit('onUserJoin', { userId: p.participant_id, userName: p.name, self: p.participant_id === s.pid, isHost: false });
      }
    });
    Object.keys(s.users).forEach(function (id) {
      if (!present[id]) {
        var gone = s.users[id];
        delete s.users[id];
        emit('onUserLeave', { userId: id, userName: gone.name, reasonCode: 2 });
      }
    });
    s.list.replaceChildren.apply(s.list, v.participants.map(function (p) { return el('li', { 'data-user-id': p.participant_id }, p.name); }));
    var apps = v.apps.join(', ');
    s.notice.textContent = apps ? apps + (v.apps.length > 1 ? ' have' : ' has') + ' access to the content of this meeting' : '';
    var start = v.message_count - v.messages.length;
    v.messages.forEach(function (m, i) {
      if (start + i !== s.since) return;
      s.since++;
      s.chat.appendChild(el('div', { 'class': 'sdk-chat-message' }, m.sender_name + ': ' + m.text));
      emit('onReceiveChatMsg', { senderId: m.participant_id, senderName: m.sender_name, content: { text: m.text, t: String(Date.parse(m.at)), messageId: String(start + i) } });
    });
    var speaking = null;
    v.utterances.forEach(function (u) { if (u.active) { playSpeech(u); speaking = u; } });
    var who = speaking ? speaking.participant_id : null;
    if (who !== s.speaker) {
      s.speaker = who;
      if (speaking) emit('onActiveSpeaker', [{ userId: speaking.participant_id, userName: speaking.name }]);
    }
    if (v.me.recording_permission !== s.permission) {
      s.permission = v.me.recording_permission;
      if (s.permission === 'granted' || s.permission === 'denied') emit('onMediaCapturePermissionChange', { allow: s.permission === 'granted' });
    }
  }

  function apply(v) {
    s.chatEnabled = v.meeting.chat_enabled;
    var state = v.me.state;
    var changed = state !== s.state;
    var previous = s.state;
    s.state = state;
    if (changed) s.status.textContent = state.replace(/_/g, ' ');
    if (state === 'in_call') {
      if (changed) {
        emit('onJoinSpeed', { level: 13 });
        emit('onMeetingStatus', { meetingStatus: 2 });
      }
      applyCall(v);
      return;
    }
    if (!changed) return;
    if (state === 'waiting_for_host') emit('onMeetingStatus', { meetingStatus: 1, errorCode: 3008, reason: 'Meeting has not started' });
    else if (state === 'lobby') { emit('onJoinSpeed', { level: 6 }); emit('onUserIsInWaitingRoom', { userId: s.pid }); }
    else if (state === 'removed' && v.me.end_reason === 'authorized_user_left') { stop(); emit('onMeetingStatus', { meetingStatus: 3, errorCode: 4019, reason: 'The authorized user left the meeting.' }); }
    else if (state === 'removed' || state === 'denied') { stop(); emit('onUserLeave', { reasonCode: previous === 'lobby' ? 7 : 6 }); emit('onMeetingStatus', { meetingStatus: 3 }); }
    else if (state === 'left') { stop(); emit('onUserLeave', { reasonCode: v.meeting.ended ? 1 : 2 }); emit('onMeetingStatus', { meetingStatus: 3 }); }
  }

  function poll() {
    api('GET', '/state?participant_id=' + encodeURIComponent(s.pid) + '&since=' + s.since).then(apply).catch(function () {});
  }

  window.ZoomMtg = {
    preLoadWasm: function () {},
    prepareWebSDK: function () {},
    setZoomJSLib: function () {},
    i18n: { load: function () { return Promise.resolve(); }, reload: function () { return Promise.resolve(); } },
    init: function (args) {
      renderFrame();
      setTimeout(function () { if (args.success) args.success({ method: 'init', status: true, errorCode: 0 }); }, 0);
    },
    join: function (args) {
      if (args.obfToken && args.zak) { fail(args.error, 3636, 'Token error'); return; }
      s.meetingId = String(args.meetingNumber);
      emit('onMeetingStatus', { meetingStatus: 1 });
      api('POST', '/sdk-join', {
        signature: args.signature, meetingNumber: String(args.meetingNumber), userName: args.userName,
        passWord: args.passWord || '', obfToken: args.obfToken || '', zak: args.zak || ''
      }).then(function (v) {
        s.pid = v.me.participant_id;
        if (args.success) args.success({ method: 'join', status: true, result: null, errorCode: 0 });
        apply(v);
        s.timer = setInterval(poll, 250);
      }).catch(function (e) {
        var code = (e.body && e.body.errorCode) || 1;
        emit('onMeetingStatus', { meetingStatus: 3, errorCode: code, reason: e.message });
        fail(args.error, code, e.message);
      });
    },
    leaveMeeting: function (args) {
      stop();
      var done = function () { if (args && args.success) args.success({ method: 'leaveMeeting', status: true }); };
      if (!s.pid) return done();
      api('POST', '/leave', { participant_id: s.pid }).then(done, done);
    },
    inMeetingServiceListener: function (event, fn) { (listeners[event] = listeners[event] || []).push(fn); },
    getAttendeeslist: function (args) {
      var list = Object.keys(s.users).map(function (id) { return { userId: id, userName: s.users[id].name, isHost: false }; });
      args.success({ method: 'getAttendeeslist', status: true, result: { attendeesList: list } });
    },
    getCurrentUser: function (args) {
      var me = s.users[s.pid];
      args.success({ method: 'getCurrentUser', status: true, result: { currentUser: { userId: s.pid, userName: me ? me.name : '' } } });
    },
    sendChat: function (args) {
      if (!s.chatEnabled) { if (args.error) args.error({ method: 'sendChat', status: false, errorCode: 1, errorMessage: 'Chat is disabled in this meeting' }); return; }
      api('POST', '/chat', { participant_id: s.pid, text: args.message }).then(function (v) {
        apply(v);
        if (args.success) args.success({ method: 'sendChat', status: true });
      }).catch(function (e) { if (args.error) args.error({ method: 'sendChat', status: false, errorCode: 1, errorMessage: e.message }); });
    },
    mediaCapture: function (args) {
      if (s.permission === 'granted') { if (args.success) args.success({ method: 'mediaCapture', status: true }); }
      else if (args.error) args.error({ method: 'mediaCapture', status: false, errorCode: 1, errorMessage: 'Permission needed from Meeting Host' });
    },
    mediaCapturePermission: function (args) {
      api('POST', '/recording-request', { participant_id: s.pid }).then(function (v) {
        apply(v);
        if (args.success) args.success({ method: 'mediaCapturePermission', status: true });
      }).catch(function (e) { if (args.error) args.error({ method: 'mediaCapturePermission', status: false, errorCode: 1, errorMessage: e.message }); });
    }
  };
})();
`;
