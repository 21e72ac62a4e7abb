/**
 * The bot's media inside the meeting page, as plain JavaScript (see recorder/in-page.ts for why), in two
 * parts:
 * - in the bot's own world (browser/bot-world.ts), `window.__botTap`: `start(stream)` puts the captured
 *   meeting audio into an AudioContext at the streaming rate and an AudioWorklet that cuts exact 100 ms
 *   S16LE mono frames, each handed to node through the world's function `__botStreamAudio(base64)` in
 *   order; `stop()`. The recorder starts it on the audio it captures, in the same world.
 * - in the page's own world, only when the bot brings a microphone or a camera (the page must get them
 *   from its own `navigator.mediaDevices.getUserMedia`, which this wraps), `window.__botMedia`:
 *   `play(base64)`: S16LE mono at the streaming rate, scheduled gap-free into the bot's microphone;
 *   answers how many seconds of audio now wait to be played (node reads less while that grows).
 *   `setImages(dataUrls, mode, intervalMs)`: the bot's camera shows them (cycled or the first one).
 *   A page can see this part (docs/decisions.md, "Issue 22: the browser a page sees").
 */
export const STREAM_AUDIO_BINDING = '__botStreamAudio';

export interface InPageMediaConfig {
  /** the streaming sample rate (the microphone's) */
  readonly rate: number;
  readonly microphone: boolean;
  readonly camera: boolean;
}

const workletSource = String.raw`
class BotTap extends AudioWorkletProcessor {
  constructor(options) {
    super();
    this.size = options.processorOptions.size;
    this.buf = new Int16Array(this.size);
    this.n = 0;
  }
  push(v) {
    v = v > 1 ? 1 : v < -1 ? -1 : v;
    this.buf[this.n++] = v < 0 ? v * 0x8000 : v * 0x7fff;
    if (this.n === this.size) {
      this.port.postMessage(this.buf.buffer, [this.buf.buffer]);
      this.buf = new Int16Array(this.size);
      this.n = 0;
    }
  }
  process(inputs) {
    const input = inputs[0];
    if (!input || input.length === 0) {
      for (let i = 0; i < 128; i++) this.push(0);
      return true;
    }
    const len = input[0].length;
    for (let i = 0; i < len; i++) {
      let v = 0;
      for (let c = 0; c < input.length; c++) v += input[c][i];
      this.push(v / input.length);
    }
    return true;
  }
}
registerProcessor('bot-tap', BotTap);
`;

/** The streaming tap, for the bot's world: `window.__botTap` (`rate`: the streaming sample rate). */
export const inPageTapSource = (rate: number): string => String.raw`
((rate, workletSource) => {
  if (window.__botTap) return;
  const toBase64 = (buffer) => {
    const bytes = new Uint8Array(buffer);
    let bin = '';
    for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    return btoa(bin);
  };
  let tapCtx = null;
  window.__botTap = {
    async start(stream) {
      const ctx = new AudioContext({ sampleRate: rate });
      tapCtx = ctx;
      const url = URL.createObjectURL(new Blob([workletSource], { type: 'application/javascript' }));
      await ctx.audioWorklet.addModule(url);
      URL.revokeObjectURL(url);
      const node = new AudioWorkletNode(ctx, 'bot-tap', { processorOptions: { size: rate / 10 }, numberOfOutputs: 1 });
      node.port.onmessage = (e) => {
        window.${STREAM_AUDIO_BINDING}(toBase64(e.data)).catch(() => undefined);
      };
      ctx.createMediaStreamSource(stream).connect(node);
      // pulled by the graph through a silent gain; nothing is heard
      const mute = ctx.createGain();
      mute.gain.value = 0;
      node.connect(mute).connect(ctx.destination);
      if (ctx.state !== 'running') await ctx.resume().catch(() => undefined);
      return ctx.sampleRate;
    },
    async stop() {
      if (tapCtx) await tapCtx.close().catch(() => undefined);
      tapCtx = null;
    },
  };
})(${JSON.stringify(rate)}, ${JSON.stringify(workletSource)});
`;

/** The bot's microphone and camera, for the page's own world: `window.__botMedia`. */
export const inPageMediaSource = (config: InPageMediaConfig): string => String.raw`
((cfg) => {
  if (window.__botMedia) return;
  const fromBase64 = (b64) => {
    const bin = atob(b64);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return bytes.buffer;
  };
  const st = { micCtx: null, micDest: null, nextPlay: 0, canvas: null, camStream: null, images: [], shown: 0, cycle: null, paint: null };

  const microphone = () => {
    if (!st.micCtx) {
      st.micCtx = new AudioContext({ sampleRate: cfg.rate });
      st.micDest = st.micCtx.createMediaStreamDestination();
    }
    if (st.micCtx.state !== 'running') st.micCtx.resume().catch(() => undefined);
    return st.micDest.stream;
  };

  const draw = () => {
    const c = st.canvas;
    const g = c.getContext('2d');
    g.fillStyle = '#000';
    g.fillRect(0, 0, c.width, c.height);
    const img = st.images[st.shown % Math.max(1, st.images.length)];
    if (!img) return;
    const scale = Math.min(c.width / img.naturalWidth, c.height / img.naturalHeight);
    const w = img.naturalWidth * scale, h = img.naturalHeight * scale;
    g.drawImage(img, (c.width - w) / 2, (c.height - h) / 2, w, h);
  };

  const camera = () => {
    if (!st.canvas) {
      st.canvas = document.createElement('canvas');
      st.canvas.width = 640;
      st.canvas.height = 360;
      draw();
      st.camStream = st.canvas.captureStream(15);
      // a still canvas makes no new frames: repaint so that a late viewer gets one
      st.paint = setInterval(draw, 500);
    }
    return st.camStream;
  };

  window.__botMedia = {
    play(b64) {
      microphone();
      const ctx = st.micCtx;
      const pcm = new Int16Array(fromBase64(b64));
      if (pcm.length === 0) return Math.max(0, st.nextPlay - ctx.currentTime);
      const buffer = ctx.createBuffer(1, pcm.length, cfg.rate);
      const data = buffer.getChannelData(0);
      for (let i = 0; i < pcm.length; i++) data[i] = pcm[i] / 0x8000;
      const source = ctx.createBufferSource();
      source.buffer = buffer;
      source.connect(st.micDest);
      // a small lead absorbs the arrival jitter; after an underrun playback starts again from now
      const at = Math.max(ctx.currentTime + 0.05, st.nextPlay);
      source.start(at);
      st.nextPlay = at + buffer.duration;
      return st.nextPlay - ctx.currentTime;
    },
    async setImages(urls, mode, intervalMs) {
      const loaded = await Promise.all(urls.map((u) => new Promise((resolve) => {
        const img = new Image();
        img.onload = () => resolve(img);
        img.onerror = () => resolve(null);
        img.src = u;
      })));
      st.images = loaded.filter(Boolean);
      st.shown = 0;
      camera();
      draw();
      if (st.cycle) clearInterval(st.cycle);
      if (mode === 'cycle' && st.images.length > 1) st.cycle = setInterval(() => { st.shown++; draw(); }, intervalMs);
      return st.images.length;
    },
    shownImage() {
      return st.images.length ? st.shown % st.images.length : -1;
    },
  };

  const devices = navigator.mediaDevices;
  if ((cfg.microphone || cfg.camera) && devices && devices.getUserMedia) {
    const original = devices.getUserMedia.bind(devices);
    devices.getUserMedia = async (constraints) => {
      const tracks = [];
      if (constraints && constraints.audio && cfg.microphone) tracks.push(microphone().getAudioTracks()[0].clone());
      if (constraints && constraints.video && cfg.camera) tracks.push(camera().getVideoTracks()[0].clone());
      if (tracks.length === 0) return original(constraints);
      return new MediaStream(tracks);
    };
  }
})(${JSON.stringify(config)});
`;
