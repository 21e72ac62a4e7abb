/**
 * The part of a meeting page's script (the sandbox's pages and the replicas') that sends the page's
 * own microphone and camera into the meeting, as a person's would: audio as 16 kHz S16LE chunks
 * (`POST …/microphone`), video as a 320x180 JPEG a second (`POST …/camera`). A browser without them
 * (or refusing) sends nothing. `publishMedia(live)` starts it once the page is in the call; `live(kind)`
 * (`microphone` or `camera`) says whether that device is on right now (in the call, not muted), so a
 * replica's pre-join switches and in-call buttons decide what the others hear and see.
 * It expects in its closure `api`, `pid` and `stopped`. Plain browser JavaScript: no backticks or
 * dollar-brace sequences.
 */
export const mediaPublisherScript = String.raw`
  var publishing = false;
  function publishMedia(live) {
    if (publishing || !navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) return;
    publishing = true;
    navigator.mediaDevices.getUserMedia({ audio: true, video: true }).then(function (stream) {
      if (stream.getAudioTracks().length) sendMicrophone(new MediaStream(stream.getAudioTracks()), live);
      if (stream.getVideoTracks().length) sendCamera(new MediaStream(stream.getVideoTracks()), live);
    }).catch(function () {});
  }

  function toBase64(bytes) {
    var bin = '';
    for (var i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    return btoa(bin);
  }

  function sendMicrophone(stream, live) {
    var ctx = new AudioContext({ sampleRate: 16000 });
    var source = ctx.createMediaStreamSource(stream);
    var node = ctx.createScriptProcessor(4096, 1, 1);
    var mute = ctx.createGain();
    mute.gain.value = 0;
    node.onaudioprocess = function (e) {
      if (stopped || !live('microphone')) return;
      var input = e.inputBuffer.getChannelData(0);
      var pcm = new Int16Array(input.length);
      for (var i = 0; i < input.length; i++) {
        var v = Math.max(-1, Math.min(1, input[i]));
        pcm[i] = v < 0 ? v * 0x8000 : v * 0x7fff;
      }
      api('POST', '/microphone', { participant_id: pid, data: toBase64(new Uint8Array(pcm.buffer)) }).catch(function () {});
    };
    source.connect(node);
    node.connect(mute);
    mute.connect(ctx.destination);
    if (ctx.state !== 'running') ctx.resume().catch(function () {});
  }

  function sendCamera(stream, live) {
    var video = document.createElement('video');
    video.muted = true;
    video.srcObject = stream;
    video.play().catch(function () {});
    var canvas = document.createElement('canvas');
    canvas.width = 320;
    canvas.height = 180;
    var timer = setInterval(function () {
      if (stopped) { clearInterval(timer); return; }
      if (!live('camera') || video.readyState < 2) return;
      canvas.getContext('2d').drawImage(video, 0, 0, canvas.width, canvas.height);
      var data = canvas.toDataURL('image/jpeg', 0.85).split(',')[1];
      api('POST', '/camera', { participant_id: pid, data: data }).catch(function () {});
    }, 1000);
  }
`;
