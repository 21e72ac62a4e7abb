/**
 * A small client of the sandbox control API that trusts the sandbox certificate. For tests, scripts
 * and the bot runtime's sandbox tests:
 *
 *   const client = new SandboxClient('https://localhost:8443', caPem);
 *   const { meeting_id, url } = await client.createMeeting({ platform: 'vc', lobby: true });
 */
import type { IncomingHttpHeaders } from 'node:http';
import { request } from 'node:https';
import type { Platform, RecordingPolicy } from './meeting-state';
import type { ControlMeetingView, MessageView, ParticipantView } from './meeting-views';
import type { MeetSettings } from './meet/settings';
import type { TeamsSettings } from './teams/settings';
import type { ZoomSettings } from './zoom/settings';
import type { HeardSummary } from './participant-media';
import type { TtsEngine } from './tts';

/** An espeak-ng voice name (the sandbox's first form), or an engine with an optional voice of its own. */
export type VoiceChoice = string | { readonly tts: TtsEngine; readonly voice?: string };

const voiceFields = (voice: VoiceChoice | undefined): { tts?: TtsEngine; voice?: string } =>
  voice === undefined ? {} : typeof voice === 'string' ? { voice } : { tts: voice.tts, ...(voice.voice === undefined ? {} : { voice: voice.voice }) };

export class SandboxApiError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
    this.name = 'SandboxApiError';
  }
}

interface MeetingBasics {
  platform: Platform;
  lobby?: boolean;
  chat_enabled?: boolean;
  host_present?: boolean;
  recording_permission?: RecordingPolicy;
  meeting_id?: string;
  /** a replica flavour of the platform, served under its real host (e.g. `meet`) */
  replica?: string;
  /** only signed-in accounts of this organisation (domain) may join (replicas with identities) */
  organisation_only?: string;
  /** vc: the organisation the meeting belongs to, and its host's user id (whose ZAK starts it) */
  organisation?: string;
  host_user_id?: string;
}

/** vc: an SDK app of the platform (POST /control/vc/apps). */
export interface VcSdkApp {
  sdk_key: string;
  sdk_secret: string;
  name: string;
  organisation: string;
  external: boolean;
}

export interface VcPlatformUser {
  user_id: string;
  name: string;
  organisation: string;
}

/** POST /control/meetings (CONTRACT.md); a replica flavour adds its own settings. */
export type CreateMeetingRequest = MeetingBasics & (Partial<MeetSettings> | Partial<TeamsSettings> | Partial<ZoomSettings>);

export interface CreatedMeeting {
  meeting_id: string;
  platform: Platform;
  url: string;
  replica: string | null;
}

export interface SpeakResult {
  duration_seconds: number;
  started_at: string;
  /** browser participants whose page started playing it */
  listeners: string[];
  /** in-call browser participants whose page did not start playing it in time */
  not_playing: string[];
}

export class SandboxClient {
  constructor(readonly baseUrl: string, private readonly caPem: string) {}

  request<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const url = new URL(path, this.baseUrl);
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    return new Promise<T>((resolve, reject) => {
      const req = request(
        url,
        {
          method,
          ca: this.caPem,
          headers: payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {},
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            const status = res.statusCode ?? 0;
            let json: unknown = text;
            try {
              json = JSON.parse(text);
            } catch {
              /* not JSON (the certificate) */
            }
            if (status >= 400) {
              const message = typeof json === 'object' && json && 'error' in json ? String((json as { error: unknown }).error) : text;
              reject(new SandboxApiError(status, `${method} ${path}: ${status} ${message}`));
            } else resolve(json as T);
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** GET of a binary resource (a WAV, a JPEG): the bytes, or a SandboxApiError. */
  async getBytes(path: string): Promise<Buffer> {
    return (await this.getBytesAndHeaders(path)).body;
  }

  private getBytesAndHeaders(path: string): Promise<{ body: Buffer; headers: IncomingHttpHeaders }> {
    return new Promise((resolve, reject) => {
      const req = request(new URL(path, this.baseUrl), { method: 'GET', ca: this.caPem }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          if ((res.statusCode ?? 0) >= 400) reject(new SandboxApiError(res.statusCode ?? 0, `GET ${path}: ${res.statusCode} ${body.toString('utf8')}`));
          else resolve({ body, headers: res.headers });
        });
      });
      req.on('error', reject);
      req.end();
    });
  }

  private post<T>(path: string, body: unknown = {}): Promise<T> {
    return this.request<T>('POST', path, body);
  }

  private m(meetingId: string): string {
    return `/control/meetings/${encodeURIComponent(meetingId)}`;
  }

  createMeeting(options: CreateMeetingRequest): Promise<CreatedMeeting> {
    return this.post('/control/meetings', options);
  }
  /** What a participant heard of the others' microphones: length, loudness, from whom. */
  heard(meetingId: string, participantId: string): Promise<HeardSummary> {
    return this.request('GET', `${this.m(meetingId)}/participants/${encodeURIComponent(participantId)}/heard`);
  }
  /** The same as a 16 kHz mono WAV. */
  heardWav(meetingId: string, participantId: string): Promise<Buffer> {
    return this.getBytes(`${this.m(meetingId)}/participants/${encodeURIComponent(participantId)}/heard.wav`);
  }
  /** The latest camera frame a participant sent (JPEG). */
  videoFrame(meetingId: string, participantId: string): Promise<Buffer> {
    return this.getBytes(`${this.m(meetingId)}/participants/${encodeURIComponent(participantId)}/video-frame`);
  }
  /** The latest camera frame and how many the participant has sent so far (tells a new frame from a read again). */
  async countedVideoFrame(meetingId: string, participantId: string): Promise<{ jpeg: Buffer; count: number }> {
    const { body, headers } = await this.getBytesAndHeaders(`${this.m(meetingId)}/participants/${encodeURIComponent(participantId)}/video-frame`);
    return { jpeg: body, count: Number(headers['x-frame-count']) };
  }
  getMeeting(meetingId: string): Promise<ControlMeetingView> {
    return this.request('GET', this.m(meetingId));
  }
  hostStart(meetingId: string): Promise<ControlMeetingView> {
    return this.post(`${this.m(meetingId)}/host-start`);
  }
  admit(meetingId: string, participantId: string): Promise<ParticipantView> {
    return this.post(`${this.m(meetingId)}/participants/${participantId}/admit`);
  }
  deny(meetingId: string, participantId: string): Promise<ParticipantView> {
    return this.post(`${this.m(meetingId)}/participants/${participantId}/deny`);
  }
  remove(meetingId: string, participantId: string): Promise<ParticipantView> {
    return this.post(`${this.m(meetingId)}/participants/${participantId}/remove`);
  }
  answerRecording(meetingId: string, participantId: string, grant: boolean): Promise<ParticipantView> {
    return this.post(`${this.m(meetingId)}/participants/${participantId}/recording-permission`, { grant });
  }
  /** vc: an SDK app of an organisation; `external`: the marketplace lets it join other organisations' meetings */
  createVcApp(app: { name: string; organisation?: string; external?: boolean; sdk_key?: string; sdk_secret?: string }): Promise<VcSdkApp> {
    return this.request('POST', '/control/vc/apps', app);
  }
  createVcUser(user: { name: string; organisation?: string; user_id?: string }): Promise<VcPlatformUser> {
    return this.request('POST', '/control/vc/users', user);
  }
  /** what the platform's REST API would hand out: a user's OBF token for an app and a meeting, or the user's ZAK */
  issueVcToken(token: { type: 'onbehalf' | 'zak'; user_id: string; sdk_key?: string; meeting_id?: string; ttl_seconds?: number }): Promise<{ token: string; expires_at: string }> {
    return this.request('POST', '/control/vc/tokens', token);
  }
  revokeVcToken(which: { token: string } | { user_id: string }): Promise<{ revoked: true }> {
    return this.request('POST', '/control/vc/tokens/revoke', which);
  }
  /** vc: a platform user enters the call (an OBF token's user moving in; `simulatedLeave` moves them out) */
  addSimulatedUser(meetingId: string, name: string, userId: string, voice?: VoiceChoice): Promise<ParticipantView> {
    return this.request('POST', `/control/meetings/${encodeURIComponent(meetingId)}/simulated-participants`, { name, user_id: userId, ...voiceFields(voice) });
  }

  addSimulated(meetingId: string, name: string, voice?: VoiceChoice): Promise<ParticipantView> {
    return this.post(`${this.m(meetingId)}/simulated-participants`, { name, ...voiceFields(voice) });
  }
  /** `voice`: this time only, instead of the participant's own */
  speak(meetingId: string, participantId: string, text: string, voice?: VoiceChoice): Promise<SpeakResult> {
    return this.post(`${this.m(meetingId)}/simulated-participants/${participantId}/speak`, { text, ...voiceFields(voice) });
  }
  simulatedLeave(meetingId: string, participantId: string): Promise<ParticipantView> {
    return this.post(`${this.m(meetingId)}/simulated-participants/${participantId}/leave`);
  }
  chat(meetingId: string, participantId: string, text: string): Promise<MessageView> {
    return this.post(`${this.m(meetingId)}/participants/${participantId}/chat`, { text });
  }
  end(meetingId: string): Promise<ControlMeetingView> {
    return this.post(`${this.m(meetingId)}/end`);
  }

  /** A Microsoft organisation account the sign-in replica knows (CONTRACT.md "Identities"). */
  putMicrosoftAccount(account: { email: string; password: string; display_name: string; state?: 'active' | 'locked'; mfa?: boolean }): Promise<unknown> {
    return this.post('/control/identity/microsoft-accounts', account);
  }
  /** A Google Workspace domain, with the SSO profile its accounts sign in through (null: Google passwords). */
  putGoogleDomain(domain: string, sso: { sign_in_url: string; certificate: string } | null): Promise<unknown> {
    return this.post('/control/identity/google-domains', { domain, sso });
  }
  putGoogleAccount(account: { email: string; display_name: string }): Promise<unknown> {
    return this.post('/control/identity/google-accounts', account);
  }
  /** Accounts, domains and every sign-in attempt with its outcome. */
  identity(): Promise<{ sign_ins: { platform: string; email: string; outcome: string; detail?: string }[] }> {
    return this.request('GET', '/control/identity');
  }

  /** Polls the meeting until `predicate` holds; returns the meeting view that satisfied it. */
  async waitFor(meetingId: string, predicate: (m: ControlMeetingView) => boolean, timeoutMs = 10_000, what = 'condition'): Promise<ControlMeetingView> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const meeting = await this.getMeeting(meetingId);
      if (predicate(meeting)) return meeting;
      if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} in meeting ${meetingId}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Waits for a browser participant in `state` (e.g. a bot reaching the lobby) and returns it. */
  async waitForParticipant(meetingId: string, state: ParticipantView['state'], timeoutMs = 10_000, name?: string): Promise<ParticipantView> {
    const match = (p: ParticipantView) => p.kind === 'browser' && p.state === state && (name === undefined || p.name === name);
    const meeting = await this.waitFor(meetingId, (m) => m.participants.some(match), timeoutMs, `a participant in ${state}`);
    return meeting.participants.find(match)!;
  }
}
