/**
 * The Meet replica's in-page script, part 3: remote audio as Meet delivers it (2.8, 2.11 item 9): a
 * small pool of `<audio autoplay>` elements, present from the lobby on, each playing a live
 * MediaStream (a WebAudio destination). A speaker's speech goes to a free slot, the least recently
 * used one, so slots rotate between speakers ("channel is not speaker"); the speaker's tile is lit
 * while it plays. Shares its closure with client-core.ts and client-call.ts (and pages/utterance-player.ts).
 */
export const meetClientAudio = String.raw`
  var audio = { ctx: null, slots: [] };

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

  function slotForSpeech() {
    if (!audio.slots.length) return null;
    var slot = pickSlot();
    slot.busy++;
    slot.lastUsed = performance.now();
    return { node: slot.dest, release: function () { slot.busy--; } };
  }

  function playSpeech(u) { playUtterance(u, audio.ctx, slotForSpeech); }

  function stopAudio() { stopUtterances(); }
`;
