/**
 * How a replica page plays a simulated participant's speech into the platform's audio pattern: it
 * fetches and decodes the speech, asks the flavour for a WebAudio node to play it into (one of Meet's
 * rotating slots, Teams' and Zoom's one mixed stream), starts where the speaker is now if the page
 * came late, acknowledges playback to the sandbox (`speak` waits for it) and counts who speaks in
 * `call.speaking[participant_id]`, calling `showSpeakers(started)` at each change (`started`: the
 * participant whose speech just began, undefined when one ended). Expects in its closure
 * `api`, `pid`, `call` (null outside the call) and `showSpeakers`. Plain browser JavaScript: no
 * backticks or dollar-brace sequences.
 *
 *   playUtterance(u, ctx, destination)   destination: function () -> { node, release() } | null
 */
export const utterancePlayerScript = String.raw`
  var playedSeq = {};
  var playingSources = [];

  function acknowledgePlayback(u, blocked) {
    api('POST', '/played', { participant_id: pid, seq: u.seq, blocked: blocked }).catch(function () {});
  }

  function playUtterance(u, ctx, destination) {
    if (playedSeq[u.seq]) return;
    playedSeq[u.seq] = true;
    var fetchedAt = performance.now();
    if (!ctx) { acknowledgePlayback(u, true); return; }
    fetch(u.audio_url).then(function (r) { return r.arrayBuffer(); }).then(function (bytes) {
      return ctx.decodeAudioData(bytes);
    }).then(function (buffer) {
      var target = call ? destination() : null;
      if (!target) { acknowledgePlayback(u, true); return; }
      var source = ctx.createBufferSource();
      source.buffer = buffer;
      source.connect(target.node);
      playingSources.push(source);
      source.onended = function () {
        target.release();
        playingSources = playingSources.filter(function (s) { return s !== source; });
        if (call && call.speaking[u.participant_id]) call.speaking[u.participant_id]--;
        showSpeakers();
      };
      // joined late: start where the speaker is now
      var late = (u.elapsed_ms + performance.now() - fetchedAt) / 1000;
      source.start(0, late > 1.5 ? Math.min(late, buffer.duration) : 0);
      acknowledgePlayback(u, false);
      call.speaking[u.participant_id] = (call.speaking[u.participant_id] || 0) + 1;
      showSpeakers(u.participant_id);
    }).catch(function () { acknowledgePlayback(u, true); });
  }

  function stopUtterances() {
    playingSources.forEach(function (s) { try { s.stop(); } catch (e) { /* already stopped */ } });
    playingSources = [];
  }
`;
