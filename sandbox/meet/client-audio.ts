/**
 * The Meet replica's in-page script, part 3: remote audio as Meet delivers it (2.8, 2.11 item 9): a
 * small pool of `<audio autoplay>` elements, present from the lobby on, each playing a live
 * MediaStream (a WebAudio destination). A speaker's speech goes to a free slot, the least recently
 * used one, so slots rotate between speakers ("channel is not speaker"); the speaker's tile is lit
 * while it plays. Shares its closure with client-core.ts and client-call.ts.
 */
export const meetClientAudio = String.raw`
  var audio = { ctx: null, slots: [], sources: [], played: {} };

  function startAudio() {
    try { audio.ctx = new AudioContext(); } catch (e) { return; }
    for (var i = 0; i < cfg.settings.audio_slots; i++) {
      var dest = audio.ctx.createMediaStreamDestination();
      var el = document.createElement('audio');
      el.autoplay = true;
      el.srcObject = dest.stream;
      document.body.appendChild(el);
      audio.slots.push({ dest: dest, el: el, busy: 0, lastUsed: -1 - i });
    }
    if (audio.ctx.state !== 'running') audio.ctx.resume().catch(function () {});
  }

  function pickSlot() {
    var free = audio.slots.filter(function (s) { return s.busy === 0; });
    var from = free.length ? free : audio.slots;
    return from.reduce(function (a, b) { return b.lastUsed < a.lastUsed ? b : a; });
  }

  function acknowledge(u, blocked) {
    api('POST', '/played', { participant_id: pid, seq: u.seq, blocked: blocked }).catch(function () {});
  }

  function playUtterance(u) {
    if (audio.played[u.seq]) return;
    audio.played[u.seq] = true;
    var fetchedAt = performance.now();
    if (!audio.ctx || !audio.slots.length) { acknowledge(u, true); return; }
    fetch(u.audio_url).then(function (r) { return r.arrayBuffer(); }).then(function (bytes) {
      return audio.ctx.decodeAudioData(bytes);
    }).then(function (buffer) {
      if (!call) { acknowledge(u, true); return; }
      var slot = pickSlot();
      var source = audio.ctx.createBufferSource();
      source.buffer = buffer;
      source.connect(slot.dest);
      slot.busy++;
      slot.lastUsed = performance.now();
      var speaker = u.participant_id;
      call.speaking[speaker] = (call.speaking[speaker] || 0) + 1;
      audio.sources.push(source);
      source.onended = function () {
        slot.busy--;
        audio.sources = audio.sources.filter(function (s) { return s !== source; });
        if (call && call.speaking[speaker]) call.speaking[speaker]--;
        showSpeakers();
      };
      // joined late: start where the speaker is now
      var late = (u.elapsed_ms + performance.now() - fetchedAt) / 1000;
      source.start(0, late > 1.5 ? Math.min(late, buffer.duration) : 0);
      acknowledge(u, false);
      showSpeakers();
    }).catch(function () { acknowledge(u, true); });
  }

  function stopAudio() {
    audio.sources.forEach(function (s) { try { s.stop(); } catch (e) { /* already stopped */ } });
    audio.sources = [];
    audio.slots.forEach(function (s) { s.busy = 0; });
  }
`;
