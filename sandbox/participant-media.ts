/**
 * What browser participants send into a meeting from their microphone and camera (their pages publish
 * it: 16 kHz S16LE audio chunks and a JPEG frame a second), and what a participant hears: everyone
 * else's microphone since it joined. Lets a test check a bot's voice and picture in the meeting.
 */
export const MIC_RATE = 16_000;
/** at most this much of one sender's audio is kept (10 min) */
const MAX_AUDIO_BYTES = MIC_RATE * 2 * 600;

interface Sent {
  readonly audio: Buffer[];
  audioBytes: number;
  /** epoch ms of the first audio chunk */
  audioSince: number | null;
  frame: Buffer | null;
  frames: number;
}

export interface HeardSummary {
  readonly seconds: number;
  /** RMS over everything heard (0..1) and the loudest 100 ms */
  readonly rms: number;
  readonly peak_rms_100ms: number;
  /** participant ids whose microphone was heard */
  readonly from: string[];
}

export class ParticipantMedia {
  private readonly sent = new Map<string, Sent>();

  private of(meetingId: string, pid: string): Sent {
    const key = `${meetingId}\u0000${pid}`;
    let s = this.sent.get(key);
    if (!s) {
      s = { audio: [], audioBytes: 0, audioSince: null, frame: null, frames: 0 };
      this.sent.set(key, s);
    }
    return s;
  }

  addAudio(meetingId: string, pid: string, pcm: Buffer, now: number): void {
    const s = this.of(meetingId, pid);
    if (s.audioBytes + pcm.length > MAX_AUDIO_BYTES) return;
    s.audioSince ??= now;
    s.audio.push(pcm);
    s.audioBytes += pcm.length;
  }

  setFrame(meetingId: string, pid: string, jpeg: Buffer): void {
    const s = this.of(meetingId, pid);
    s.frame = jpeg;
    s.frames++;
  }

  /** the latest camera frame of a participant (JPEG) and how many were sent */
  frame(meetingId: string, pid: string): { jpeg: Buffer; count: number } | null {
    const s = this.sent.get(`${meetingId}\u0000${pid}`);
    return s?.frame ? { jpeg: s.frame, count: s.frames } : null;
  }

  /** What `listener` hears: the other senders' audio, mixed sample by sample from each one's start. */
  heard(meetingId: string, listener: string, senders: readonly string[]): { pcm: Buffer; from: string[] } {
    const from = senders.filter((p) => p !== listener && (this.sent.get(`${meetingId}\u0000${p}`)?.audioBytes ?? 0) > 0);
    const streams = from.map((p) => Buffer.concat(this.sent.get(`${meetingId}\u0000${p}`)!.audio));
    const length = Math.max(0, ...streams.map((b) => b.length));
    const mix = Buffer.alloc(length - (length % 2));
    for (let i = 0; i + 1 < mix.length; i += 2) {
      let v = 0;
      for (const b of streams) if (i + 1 < b.length) v += b.readInt16LE(i);
      mix.writeInt16LE(Math.max(-32768, Math.min(32767, v)), i);
    }
    return { pcm: mix, from };
  }

  summary(pcm: Buffer, from: string[]): HeardSummary {
    const samples = Math.floor(pcm.length / 2);
    const window = MIC_RATE / 10;
    let sum = 0;
    let peak = 0;
    for (let start = 0; start < samples; start += window) {
      let w = 0;
      const end = Math.min(samples, start + window);
      for (let i = start; i < end; i++) w += (pcm.readInt16LE(i * 2) / 32768) ** 2;
      sum += w;
      peak = Math.max(peak, Math.sqrt(w / (end - start)));
    }
    return { seconds: samples / MIC_RATE, rms: samples ? Math.sqrt(sum / samples) : 0, peak_rms_100ms: peak, from };
  }

  forget(meetingId: string): void {
    for (const key of this.sent.keys()) if (key.startsWith(`${meetingId}\u0000`)) this.sent.delete(key);
  }
}

/** A 16 kHz mono S16LE WAV of `pcm`. */
export const wavOf = (pcm: Buffer, rate = MIC_RATE): Buffer => {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + pcm.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(pcm.length, 40);
  return Buffer.concat([header, pcm]);
};
