/**
 * The script of the bot's Meeting SDK page (plain browser JavaScript): it drives the platform's Meeting
 * SDK for Web (Client View, global `ZoomMtg`) the way its documentation and the peers do it (Attendee's
 * zoom_web_chromedriver_page.js): `preLoadWasm`, `prepareWebSDK`, `init` then `join` in its success
 * callback, and the in-meeting listeners; and it keeps what the bot's driver reads in `window.botSdk.state()`.
 * The same script drives the real SDK (served from the npm package) and the sandbox's stand-in.
 *
 * Kept as a string: it must not contain backticks or dollar-brace sequences.
 */
export const sdkHostScript = String.raw`
(function () {
  'use strict';
  var st = {
    phase: 'loading', error: null, participants: {}, selfId: null, activeSpeaker: null, chat: [],
    chatDisabled: false, recordingPermission: 'none', leftCode: null, leftReason: null
  };
  var calls = [];

  function fail(code, message) {
    if (st.phase === 'in_call' && code !== 4019) return;
    st.phase = 'failed';
    st.error = { code: Number(code) || 1, message: String(message || 'join failed') };
  }

  function out(phase, code, reason) {
    st.phase = phase;
    st.leftCode = code === undefined ? null : code;
    st.leftReason = reason || null;
  }

  function listen() {
    ZoomMtg.inMeetingServiceListener('onMeetingStatus', function (d) {
      // 1 connecting, 2 connected, 3 disconnected (with an errorCode when the platform refused or ended it)
      if (d.errorCode === 4017) return fail(4017, d.reason || 'Authorized user not in meeting.');
      if (d.errorCode === 4019) return out('removed', 4019, d.reason || 'The authorized user left the meeting.');
      if (d.errorCode === 3008 && st.phase === 'joining') { st.phase = 'waiting_for_host'; return; }
      if (d.meetingStatus === 2 && (st.phase === 'joining' || st.phase === 'waiting_for_host')) st.phase = 'in_call';
      if (d.meetingStatus === 3 && d.errorCode && st.phase !== 'in_call') return fail(d.errorCode, d.reason);
      if (d.meetingStatus === 3 && st.phase === 'in_call') out('ended', 3, d.reason);
    });
    ZoomMtg.inMeetingServiceListener('onJoinSpeed', function (d) {
      if (d.level === 6) st.phase = 'lobby';
      if (d.level === 13) st.phase = 'in_call';
    });
    ZoomMtg.inMeetingServiceListener('onUserIsInWaitingRoom', function () { if (st.phase !== 'in_call') st.phase = 'lobby'; });
    ZoomMtg.inMeetingServiceListener('onUserJoin', function (d) {
      if (!d.userId) return;
      st.participants[d.userId] = { id: String(d.userId), name: d.userName || '' };
      if (d.self) st.selfId = String(d.userId);
    });
    ZoomMtg.inMeetingServiceListener('onUserLeave', function (d) {
      if (d.userId) { delete st.participants[d.userId]; return; }
      // the bot itself: 1 host ended the meeting, 6 removed from the meeting, 7 removed from the waiting room
      if (d.reasonCode === 1) out('ended', 1);
      else if (d.reasonCode === 6 || d.reasonCode === 7) out('removed', d.reasonCode);
      else out('left', d.reasonCode);
    });
    ZoomMtg.inMeetingServiceListener('onActiveSpeaker', function (list) {
      var first = (list || [])[0];
      st.activeSpeaker = first ? (first.userName || null) : null;
    });
    ZoomMtg.inMeetingServiceListener('onReceiveChatMsg', function (m) {
      st.chat.push({ senderId: String(m.senderId), senderName: m.senderName || '', text: (m.content && m.content.text) || '' });
    });
    ZoomMtg.inMeetingServiceListener('onMediaCapturePermissionChange', function (d) {
      if (d.allow) {
        ZoomMtg.mediaCapture({ record: 'start', success: function () { st.recordingPermission = 'granted'; }, error: function () { st.recordingPermission = 'granted'; } });
      } else st.recordingPermission = 'denied';
    });
  }

  function load() {
    if (!window.ZoomMtg) { fail(-1, 'the Meeting SDK did not load'); return; }
    if (window.botSdkLib) ZoomMtg.setZoomJSLib(window.botSdkLib, '/av');
    ZoomMtg.preLoadWasm();
    ZoomMtg.prepareWebSDK();
    listen();
    st.phase = 'ready';
  }

  window.botSdk = {
    state: function () {
      var people = Object.keys(st.participants).map(function (k) { return st.participants[k]; });
      return {
        phase: st.phase, error: st.error, selfId: st.selfId, participants: people, activeSpeaker: st.activeSpeaker,
        chatCount: st.chat.length, chat: st.chat, chatDisabled: st.chatDisabled, recordingPermission: st.recordingPermission,
        leftCode: st.leftCode, leftReason: st.leftReason
      };
    },
    /** the SDK's join, with exactly the documented parameters; no sdkKey (deprecated since v4: the signature carries it) */
    join: function (p) {
      st.phase = 'joining';
      st.error = null;
      ZoomMtg.init({
        leaveUrl: p.leaveUrl, patchJsMedia: true, leaveOnPageUnload: true, disablePreview: true,
        enableWaitingRoomPreview: false, defaultView: p.defaultView,
        success: function () {
          var params = {
            meetingNumber: p.meetingNumber, userName: p.userName, passWord: p.passWord, signature: p.signature,
            success: function () { if (st.phase === 'joining') st.phase = 'joining'; },
            error: function (e) { fail(e && e.errorCode, e && (e.errorMessage || e.reason)); }
          };
          if (p.obfToken) params.obfToken = p.obfToken;
          if (p.zak) params.zak = p.zak;
          calls.push({ meetingNumber: params.meetingNumber, userName: params.userName, passWord: params.passWord, signature: params.signature, obfToken: params.obfToken, zak: params.zak });
          ZoomMtg.join(params);
        },
        error: function (e) { fail(e && e.errorCode, 'the Meeting SDK did not start: ' + ((e && e.errorMessage) || 'unknown reason')); }
      });
    },
    leave: function () {
      return new Promise(function (resolve) {
        try { ZoomMtg.leaveMeeting({ success: function () { resolve(true); }, error: function () { resolve(false); } }); } catch (e) { resolve(false); }
        setTimeout(function () { resolve(false); }, 3000);
      });
    },
    sendChat: function (text) {
      return new Promise(function (resolve, reject) {
        ZoomMtg.sendChat({
          message: text, userId: 0,
          success: function () { resolve(true); },
          error: function (e) { if (/disabled/i.test((e && e.errorMessage) || '')) st.chatDisabled = true; reject(new Error((e && e.errorMessage) || 'the message was not sent')); }
        });
      });
    },
    /** the platform's recording permission: start capture if allowed, else ask the host (onMediaCapturePermissionChange answers) */
    requestRecording: function () {
      ZoomMtg.mediaCapture({
        record: 'start',
        success: function () { st.recordingPermission = 'granted'; },
        error: function () {
          st.recordingPermission = 'pending';
          ZoomMtg.mediaCapturePermission({ operate: 'request', success: function () {}, error: function () { st.recordingPermission = 'denied'; } });
        }
      });
    },
    /** what join passed to the SDK, tokens included (read by tests of the page only) */
    joinCalls: function () { return calls; }
  };

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', load); else load();
})();
`;
