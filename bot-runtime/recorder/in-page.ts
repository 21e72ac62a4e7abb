/**
 * The recorder that runs inside the meeting page, as plain JavaScript (functions written in
 * TypeScript would be rewritten by the TS loader with helpers that do not exist in the page).
 *
 * It runs in the bot's own world of the page (browser/bot-world.ts) and installs `window.__botRecorder` there:
 * - `start({video, chunkMs, mainSliceMs, videoBitsPerSecond, audioBitsPerSecond, streamTap})`: captures the
 *   current tab (getDisplayMedia with preferCurrentTab: audio + video), starts
 *   - the main MediaRecorder (audio + video) when `video` is true, timeslice `mainSliceMs`, data sent
 *     as stream `main`;
 *   - an audio-only MediaRecorder with timeslice `chunkMs`, data sent as stream `audio` (in audio-only
 *     mode it is the recording itself);
 *   - an AnalyserNode on the captured audio, sampled every 100 ms;
 *   - with `streamTap`, the streaming tap on the captured audio (`window.__botTap.start`, in the same world).
 *   Resolves to `{mainMime, audioMime, startedAt}` once every recorder has started (`startedAt`:
 *   epoch ms of the first recorder's start event).
 * - `takeLevel()`: the loudest RMS level (dBFS) sampled since the previous call, or null.
 * - `pause()`, `resume()`, `stop()` (resolves to `{stoppedAt}` after the last chunk has been handed over).
 *
 * Chunks leave the page through the world's function `__botRecorderData(stream, seq, base64)`, one
 * at a time and in order per stream (the page waits for node to take each chunk).
 */
export const RECORDER_BINDING = '__botRecorderData';

export const inPageRecorderSource = String.raw`
(() => {
  if (window.__botRecorder) return;
  const pick = (types) => types.find((t) => MediaRecorder.isTypeSupported(t)) || '';
  const toBase64 = (buffer) => {
    const bytes = new Uint8Array(buffer);
    let bin = '';
    for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    return btoa(bin);
  };
  const st = { stream: null, recorders: [], ctx: null, timer: null, level: null, startedAt: null };

  const startRecorder = (name, stream, mimeType, bits, sliceMs) => {
    const rec = new MediaRecorder(stream, Object.assign({ mimeType }, bits));
    let seq = 0;
    let queue = Promise.resolve();
    rec.ondataavailable = (e) => {
      if (!e.data || e.data.size === 0) return;
      const n = seq++;
      const blob = e.data;
      queue = queue.then(async () => {
        const b64 = toBase64(await blob.arrayBuffer());
        await window.${RECORDER_BINDING}(name, n, b64);
      }).catch((err) => console.error('bot recorder: chunk lost', err));
    };
    const entry = { rec, drained: () => queue };
    st.recorders.push(entry);
    return new Promise((resolve, reject) => {
      rec.onstart = () => {
        if (st.startedAt === null) st.startedAt = Date.now();
        resolve(rec.mimeType || mimeType);
      };
      rec.onerror = (e) => reject(e.error || new Error('MediaRecorder error'));
      rec.start(sliceMs);
    });
  };

  window.__botRecorder = {
    async start(opts) {
      const stream = await navigator.mediaDevices.getDisplayMedia({
        video: opts.video ? { frameRate: 15 } : { frameRate: 1, width: 320, height: 240 },
        audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false },
        preferCurrentTab: true,
        selfBrowserSurface: 'include',
        systemAudio: 'include',
      });
      st.stream = stream;
      const audioTracks = stream.getAudioTracks();
      if (audioTracks.length === 0) throw new Error('the tab capture has no audio track');

      const ctx = new AudioContext();
      st.ctx = ctx;
      const analyser = ctx.createAnalyser();
      analyser.fftSize = 2048;
      ctx.createMediaStreamSource(new MediaStream(audioTracks)).connect(analyser);
      const buf = new Float32Array(analyser.fftSize);
      st.timer = setInterval(() => {
        analyser.getFloatTimeDomainData(buf);
        let sum = 0;
        for (let i = 0; i < buf.length; i++) sum += buf[i] * buf[i];
        const db = 20 * Math.log10(Math.sqrt(sum / buf.length) + 1e-12);
        st.level = st.level === null ? db : Math.max(st.level, db);
      }, 100);
      if (ctx.state !== 'running') await ctx.resume().catch(() => undefined);
      // streaming: the same captured audio, cut into 100 ms frames (streaming/in-page-media.ts)
      if (opts.streamTap && window.__botTap) await window.__botTap.start(new MediaStream(audioTracks));

      const audioMime = pick(['audio/webm;codecs=opus', 'audio/webm']);
      const started = [startRecorder('audio', new MediaStream(audioTracks), audioMime, { audioBitsPerSecond: opts.audioBitsPerSecond }, opts.chunkMs)];
      let mainMime = null;
      if (opts.video) {
        mainMime = pick(['video/x-matroska;codecs=avc1,opus', 'video/webm;codecs=h264,opus', 'video/webm;codecs=vp8,opus', 'video/webm']);
        started.push(startRecorder('main', stream, mainMime, { videoBitsPerSecond: opts.videoBitsPerSecond, audioBitsPerSecond: opts.audioBitsPerSecond }, opts.mainSliceMs));
      } else {
        for (const t of stream.getVideoTracks()) t.enabled = false;
      }
      const mimes = await Promise.all(started);
      return { audioMime: mimes[0], mainMime: opts.video ? mimes[1] : null, startedAt: st.startedAt };
    },
    takeLevel() {
      const v = st.level;
      st.level = null;
      return v;
    },
    pause() {
      for (const r of st.recorders) if (r.rec.state === 'recording') r.rec.pause();
    },
    resume() {
      for (const r of st.recorders) if (r.rec.state === 'paused') r.rec.resume();
    },
    async stop() {
      const stoppedAt = Date.now();
      await Promise.all(st.recorders.map((r) => new Promise((resolve) => {
        if (r.rec.state === 'inactive') return resolve();
        r.rec.addEventListener('stop', () => resolve(), { once: true });
        r.rec.stop();
      })));
      await Promise.all(st.recorders.map((r) => r.drained()));
      if (st.timer) clearInterval(st.timer);
      if (window.__botTap) await window.__botTap.stop();
      if (st.stream) for (const t of st.stream.getTracks()) t.stop();
      if (st.ctx) await st.ctx.close().catch(() => undefined);
      return { stoppedAt };
    },
  };
})();
`;
