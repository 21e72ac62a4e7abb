/** The control API (JSON over HTTPS under /control), see CONTRACT.md. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  addSimulated,
  admit,
  deny,
  endMeeting,
  hostStart,
  leave,
  parseMeetingOptions,
  participant,
  postChat,
  remove,
  SandboxError,
  simulated,
  type Meeting,
} from './meeting-state';
import { pendingListeners, startUtterance } from './meeting-speech';
import { controlView, participantView } from './meeting-views';
import { answerRecording } from './recording-permission';
import type { FingerprintReports } from './fingerprint/reports';
import { readJson, send, sendJson } from './http-util';
import { wavOf } from './participant-media';
import type { MeetingRegistry } from './registry';
import { handleVcControl } from './vc-sdk/vc-control-routes';
import { replicaOptions } from './replicas';
import { defaultVoice, fliteVoices, isTtsEngine, MAX_SPEECH_TEXT, SpeechSynthesizer, ttsEngines, type SpeakingVoice } from './tts';

export interface ControlDeps {
  readonly registry: MeetingRegistry;
  readonly tts: SpeechSynthesizer;
  readonly certPem: string;
  readonly spkiSha256: string;
  /** what the `/fingerprint` pages reported */
  readonly fingerprints: FingerprintReports;
  /** how long `speak` waits for the in-call pages to start playing (default 3 s) */
  readonly speakAckTimeoutMs?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new SandboxError(400, 'malformed path');
  }
}

/** Handles a /control request; returns false when the path is not a control route. */
export async function handleControl(deps: ControlDeps, req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
  const { registry } = deps;
  const method = req.method ?? 'GET';
  const view = (m: Meeting) => controlView(m, registry.urlOf(m), registry.now());

  if (method === 'GET' && path === '/control/certificate') {
    send(res, 200, 'application/x-pem-file', deps.certPem);
    return true;
  }
  if (method === 'GET' && path === '/control/certificate.json') {
    sendJson(res, 200, { pem: deps.certPem, spki_sha256: deps.spkiSha256 });
    return true;
  }
  if (method === 'GET' && path === '/control/fingerprints') {
    const host = new URL(req.url ?? '/', 'https://sandbox.invalid').searchParams.get('host') ?? undefined;
    sendJson(res, 200, { reports: deps.fingerprints.list(host) });
    return true;
  }
  if (path.startsWith('/control/vc/')) return handleVcControl(registry, req, res, path);
  if (path === '/control/meetings') {
    if (method === 'GET') {
      sendJson(res, 200, { meetings: [...registry.meetings.values()].map(view) });
      return true;
    }
    if (method === 'POST') {
      const body = await readJson(req);
      const options = parseMeetingOptions(body);
      const meeting = registry.create({ ...options, ...replicaOptions(body, options.platform) }, body.meeting_id);
      sendJson(res, 201, { meeting_id: meeting.meeting_id, platform: meeting.platform, url: registry.urlOf(meeting), replica: meeting.replica?.flavour ?? null });
      return true;
    }
  }

  const m = /^\/control\/meetings\/([^/]+)(\/.*)?$/.exec(path);
  if (!m) return false;
  const meeting = registry.get(decode(m[1]!));
  const rest = m[2] ?? '';
  const now = registry.now();

  if (method === 'GET' && rest === '') {
    sendJson(res, 200, view(meeting));
    return true;
  }
  const media = /^\/participants\/([^/]+)\/(heard|heard\.wav|video-frame)$/.exec(rest);
  if (method === 'GET' && media) {
    const pid = participant(meeting, decode(media[1]!)).participant_id;
    if (media[2] === 'video-frame') {
      const frame = registry.media.frame(meeting.meeting_id, pid);
      if (!frame) throw new SandboxError(404, 'this participant sent no video');
      res.setHeader('x-frame-count', String(frame.count));
      send(res, 200, 'image/jpeg', frame.jpeg);
      return true;
    }
    const heard = registry.media.heard(meeting.meeting_id, pid, [...meeting.participants.keys()]);
    if (media[2] === 'heard.wav') send(res, 200, 'audio/wav', wavOf(heard.pcm));
    else sendJson(res, 200, registry.media.summary(heard.pcm, heard.from));
    return true;
  }
  if (method !== 'POST') return false;
  const body = await readJson(req);

  if (rest === '/host-start') {
    hostStart(meeting, now);
    sendJson(res, 200, view(meeting));
    return true;
  }
  if (rest === '/end') {
    endMeeting(meeting, now);
    sendJson(res, 200, view(meeting));
    return true;
  }
  if (rest === '/simulated-participants') {
    const voice = speakingVoice(body, { tts: 'espeak-ng', voice: defaultVoice('espeak-ng') });
    // vc: a simulated participant may be a platform user (an OBF token's user moving in and out)
    const userId = body.user_id === undefined ? null : registry.vc.user(body.user_id).user_id;
    const p = addSimulated(meeting, registry.newParticipantId(), body.name, now, userId);
    registry.voices.set(p.participant_id, voice);
    sendJson(res, 201, participantView(p));
    return true;
  }

  const pm = /^\/(participants|simulated-participants)\/([^/]+)\/([a-z-]+)$/.exec(rest);
  if (!pm) return false;
  const [, collection, rawPid, action] = pm;
  const pid = decode(rawPid!);
  if (collection === 'simulated-participants') simulated(meeting, pid);
  else participant(meeting, pid);

  switch (`${collection}/${action}`) {
    case 'participants/admit':
      sendJson(res, 200, participantView(admit(meeting, pid, now)));
      return true;
    case 'participants/deny':
      sendJson(res, 200, participantView(deny(meeting, pid, now)));
      return true;
    case 'participants/remove':
      sendJson(res, 200, participantView(remove(meeting, pid, now)));
      return true;
    case 'participants/recording-permission':
      if (typeof body.grant !== 'boolean') throw new SandboxError(400, 'grant must be a boolean');
      sendJson(res, 200, participantView(answerRecording(meeting, pid, body.grant, now)));
      return true;
    case 'participants/chat': {
      const message = postChat(meeting, pid, body.text, now);
      sendJson(res, 201, { ...message, at: new Date(message.at).toISOString() });
      return true;
    }
    case 'simulated-participants/leave':
      sendJson(res, 200, participantView(leave(meeting, pid, now)));
      return true;
    case 'simulated-participants/speak':
      sendJson(res, 200, await speak(deps, meeting, pid, body.text, speakingVoice(body, deps.registry.voices.get(pid))));
      return true;
  }
  return false;
}

/**
 * The `tts` and `voice` fields of a body over a participant's own voice: a `tts` alone takes that
 * engine's default voice, a `voice` alone keeps the engine.
 */
function speakingVoice(body: Record<string, unknown>, base: SpeakingVoice = { tts: 'espeak-ng', voice: defaultVoice('espeak-ng') }): SpeakingVoice {
  if (body.tts !== undefined && !isTtsEngine(body.tts)) throw new SandboxError(400, `tts must be one of ${ttsEngines.join(', ')}`);
  const tts = body.tts ?? base.tts;
  const voice = body.voice ?? (body.tts === undefined ? base.voice : defaultVoice(tts));
  if (typeof voice !== 'string' || !SpeechSynthesizer.validVoice(voice, tts)) {
    throw new SandboxError(400, tts === 'flite' ? `voice must be a flite voice: ${fliteVoices.join(', ')}` : 'voice must be an espeak-ng voice name');
  }
  return { tts, voice };
}

async function speak(deps: ControlDeps, meeting: Meeting, pid: string, text: unknown, voice: SpeakingVoice) {
  if (typeof text !== 'string' || text.trim().length === 0) throw new SandboxError(400, 'text must be a non-empty string');
  if (text.length > MAX_SPEECH_TEXT) throw new SandboxError(400, `text is longer than ${MAX_SPEECH_TEXT} characters`);
  const p = simulated(meeting, pid);
  if (p.state !== 'in_call') throw new SandboxError(409, `only a participant in the call can speak (state: ${p.state})`);
  const speech = await deps.tts.synthesize(text, voice.voice, voice.tts);
  const u = startUtterance(
    meeting,
    pid,
    { text, audio_url: `/media/speech/${speech.id}`, duration_ms: speech.duration_ms },
    deps.registry.now(),
  );
  // "once playback has started": wait until every in-call page started playing it (or gave up)
  const deadline = Date.now() + (deps.speakAckTimeoutMs ?? 3000);
  while (pendingListeners(meeting, u).length > 0 && Date.now() < deadline && !meeting.ended) await sleep(25);
  return {
    duration_seconds: speech.duration_ms / 1000,
    started_at: new Date(u.started_at).toISOString(),
    listeners: [...u.acks],
    not_playing: pendingListeners(meeting, u),
  };
}
