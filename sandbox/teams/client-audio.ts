/**
 * The Teams replica's in-page script, part 3: the meeting's audio as Teams delivers it (3.5, 3.8 item
 * 10): one `<audio autoplay>` element playing one live MediaStream, the server-side mix; every
 * speaker's speech is mixed into it (a WebAudio destination), overlapping speech included. "Don't use
 * audio" at the pre-join leaves the element muted: the page then hears nothing. A speaker's outline
 * glows while their speech plays. Shares its closure with client-core.ts and client-call.ts (and
 * pages/utterance-player.ts).
 */
export const teamsClientAudio = String.raw`
  var mix = { ctx: null, dest: null, el: null };

  function startAudio() {
    try { mix.ctx = new AudioContext(); } catch (e) { return; }
    mix.dest = mix.ctx.createMediaStreamDestination();
    mix.el = document.createElement('audio');
    mix.el.autoplay = true;
    mix.el.srcObject = mix.dest.stream;
    document.body.appendChild(mix.el);
    if (mix.ctx.state !== 'running') mix.ctx.resume().catch(function () {});
  }

  function hearMeeting(on) { if (mix.el) mix.el.muted = !on; }

  function mixForSpeech() { return mix.dest ? { node: mix.dest, release: function () {} } : null; }

  function playSpeech(u) { playUtterance(u, mix.ctx, mixForSpeech); }

  function stopAudio() { stopUtterances(); }
`;
