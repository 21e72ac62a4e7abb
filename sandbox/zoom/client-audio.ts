/**
 * The Zoom replica's in-page script, part 3: the meeting's audio as Zoom's web client delivers it
 * (4.5, 4.7 item 8): one mixed stream, on one `<audio autoplay>` element that exists only once
 * computer audio is joined (and only if the media prompt was allowed). Every speaker's speech is
 * mixed into it; the main tile follows the latest speaker. Until audio is joined the page cannot
 * play speech and does not acknowledge it (`speak` lists it under `not_playing`); it plays what is
 * still running once audio is joined. Shares its closure with client-core.ts and
 * client-call.ts.
 */
export const zoomClientAudio = String.raw`
  var audio = { ctx: null, dest: null, el: null, sources: [], played: {} };

  function startMixedAudio() {
    if (audio.el) return;
    try { audio.ctx = new AudioContext(); } catch (e) { return; }
    audio.dest = audio.ctx.createMediaStreamDestination();
    audio.el = document.createElement('audio');
    audio.el.autoplay = true;
    audio.el.srcObject = audio.dest.stream;
    document.body.appendChild(audio.el);
    if (audio.ctx.state !== 'running') audio.ctx.resume().catch(function () {});
    if (lastView) lastView.utterances.forEach(function (u) { if (u.active) playUtterance(u); });
  }

  function acknowledge(u, blocked) {
    api('POST', '/played', { participant_id: pid, seq: u.seq, blocked: blocked }).catch(function () {});
  }

  function playUtterance(u) {
    if (audio.played[u.seq]) return;
    // no computer audio (yet): nothing can be heard
    if (!audio.dest) return;
    audio.played[u.seq] = true;
    var fetchedAt = performance.now();
    fetch(u.audio_url).then(function (r) { return r.arrayBuffer(); }).then(function (bytes) {
      return audio.ctx.decodeAudioData(bytes);
    }).then(function (buffer) {
      if (!call) { acknowledge(u, true); return; }
      var source = audio.ctx.createBufferSource();
      source.buffer = buffer;
      source.connect(audio.dest);
      audio.sources.push(source);
      source.onended = function () { audio.sources = audio.sources.filter(function (s) { return s !== source; }); };
      // joined late: start where the speaker is now
      var late = (u.elapsed_ms + performance.now() - fetchedAt) / 1000;
      source.start(0, late > 1.5 ? Math.min(late, buffer.duration) : 0);
      acknowledge(u, false);
      spotlight(u.participant_id);
    }).catch(function () { acknowledge(u, true); });
  }

  function stopAudio() {
    audio.sources.forEach(function (s) { try { s.stop(); } catch (e) { /* already stopped */ } });
    audio.sources = [];
  }
`;
