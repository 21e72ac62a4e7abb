/**
 * The Zoom replica's in-page script, part 3: the meeting's audio as Zoom's web client delivers it
 * (4.5, 4.7 item 8): one mixed stream, on one `<audio autoplay>` element that exists only once
 * computer audio is joined (and only if the media prompt was allowed). Every speaker's speech is
 * mixed into it; the main tile follows the latest speaker. Until audio is joined the page cannot
 * play speech and does not acknowledge it (`speak` lists it under `not_playing`); it plays what is
 * still running once audio is joined. With `audio_output: "web_audio"` the page plays the mix through
 * the Web Audio API alone, straight to its AudioContext's destination, with no `<audio>` element, as
 * the modern client does (Vexa #318). Shares its closure with client-core.ts and client-call.ts (and
 * pages/utterance-player.ts).
 */
export const zoomClientAudio = String.raw`
  var audio = { ctx: null, dest: null, el: null };

  function startMixedAudio() {
    if (audio.el || audio.dest) return;
    try { audio.ctx = new AudioContext(); } catch (e) { return; }
    if (S.audio_output === 'web_audio') {
      audio.dest = audio.ctx.createGain();
      audio.dest.connect(audio.ctx.destination);
    } else {
      audio.dest = audio.ctx.createMediaStreamDestination();
      audio.el = document.createElement('audio');
      audio.el.autoplay = true;
      audio.el.srcObject = audio.dest.stream;
      document.body.appendChild(audio.el);
    }
    if (audio.ctx.state !== 'running') audio.ctx.resume().catch(function () {});
    if (lastView) lastView.utterances.forEach(function (u) { if (u.active) playSpeech(u); });
  }

  // no computer audio (yet): nothing can be heard, and the speech is left for when audio is joined
  function playSpeech(u) {
    if (audio.dest) playUtterance(u, audio.ctx, function () { return { node: audio.dest, release: function () {} }; });
  }

  // the main tile follows the latest speaker and keeps them after they stop
  function showSpeakers(started) { if (started) spotlight(started); }

  function stopAudio() { stopUtterances(); }
`;
