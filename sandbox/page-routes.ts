/**
 * What a platform host (vc.localhost, tm.localhost, mt.localhost) serves: the meeting pages and the
 * JSON API their in-page script uses (/api/meetings/:id/...). Replica pages use the same API on
 * their own hosts (replicas.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  leave,
  meetingIdPattern,
  openPage,
  participant,
  postChat,
  requestJoin,
  SandboxError,
  setLayout,
  setMedia,
  touch,
  type Platform,
} from './meeting-state';
import type { JoinIdentity } from './identity/organisation-meetings';
import { pageView } from './meeting-views';
import { requestRecording } from './recording-permission';
import { readJson, send, sendHtml, sendJson } from './http-util';
import { meetingPage, notFoundPage } from './pages/meeting-page';
import type { MeetingRegistry } from './registry';
import { sdkJoin } from './vc-sdk/sdk-join';

/** The meeting id in a page path of the platform, or null. */
export function meetingIdFromPath(platform: Platform, path: string): string | null {
  let m: RegExpExecArray | null;
  switch (platform) {
    case 'vc':
      m = /^\/j\/([^/]+)\/?$/.exec(path);
      break;
    case 'tm':
      m = /^\/l\/meetup-join\/([^/]+)(?:\/.*)?$/.exec(path);
      break;
    case 'mt':
      m = /^\/([^/]+)\/?$/.exec(path);
      break;
  }
  if (!m) return null;
  let id: string;
  try {
    id = decodeURIComponent(m[1]!);
  } catch {
    return null;
  }
  return meetingIdPattern(platform).test(id) ? id : null;
}

export async function handlePage(
  registry: MeetingRegistry,
  platform: Platform,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  query: URLSearchParams,
  /** the page's signed-in account, on replicas with identities */
  identity: JoinIdentity | null = null,
): Promise<void> {
  const api = /^\/api\/meetings\/([^/]+)\/([a-z-]+)$/.exec(path);
  if (api) {
    // The vc Meeting SDK stand-in (vc-sdk/) runs in a page of another origin (the bot's own): it may call.
    res.setHeader('access-control-allow-origin', '*');
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { 'access-control-allow-methods': 'GET, POST', 'access-control-allow-headers': 'content-type', 'access-control-max-age': '600' }).end();
      return;
    }
    let meetingId: string;
    try {
      meetingId = decodeURIComponent(api[1]!);
    } catch {
      throw new SandboxError(400, 'malformed path');
    }
    await handlePageApi(registry, platform, meetingId, api[2]!, req, res, query, identity);
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    sendJson(res, 405, { error: 'method not allowed' });
    return;
  }
  const id = meetingIdFromPath(platform, path);
  const meeting = id ? registry.find(id, platform) : null;
  if (!meeting) {
    sendHtml(res, 404, notFoundPage(platform, id ? `There is no meeting ${id}.` : 'This is not a meeting link.'));
    return;
  }
  sendHtml(res, 200, meetingPage(platform, meeting.meeting_id));
}

async function handlePageApi(
  registry: MeetingRegistry,
  platform: Platform,
  meetingId: string,
  action: string,
  req: IncomingMessage,
  res: ServerResponse,
  query: URLSearchParams,
  identity: JoinIdentity | null,
): Promise<void> {
  const meeting = registry.get(meetingId, platform);
  const now = registry.now();
  const since = Number(query.get('since') ?? 0) || 0;
  if (req.method === 'GET' && action === 'video') {
    const frame = registry.media.frame(meeting.meeting_id, query.get('of') ?? '');
    if (!frame) throw new SandboxError(404, 'no video from this participant');
    send(res, 200, 'image/jpeg', frame.jpeg);
    return;
  }
  if (req.method === 'GET' && action === 'state') {
    const pid = query.get('participant_id') ?? '';
    const p = participant(meeting, pid);
    if (p.kind !== 'browser') throw new SandboxError(400, 'not a browser participant');
    touch(meeting, pid, now);
    sendJson(res, 200, pageView(meeting, pid, since, now));
    return;
  }
  if (req.method !== 'POST') throw new SandboxError(404, 'no such page API');
  const body = await readJson(req);
  if (action === 'open') {
    const p = openPage(meeting, registry.newParticipantId(), now);
    sendJson(res, 201, pageView(meeting, p.participant_id, 0, now));
    return;
  }
  if (action === 'sdk-join') {
    if (platform !== 'vc') throw new SandboxError(404, 'the Meeting SDK joins vc meetings only');
    const p = openPage(meeting, registry.newParticipantId(), now);
    const joined = sdkJoin(meeting, registry.vc, p.participant_id, body, (pw) => registry.sdkPasscodeOk(meeting, pw), now);
    if (!joined.ok) {
      leave(meeting, p.participant_id, now, `sdk join refused: ${joined.errorCode}`);
      sendJson(res, 403, { error: joined.errorMessage, errorCode: joined.errorCode, errorMessage: joined.errorMessage });
      return;
    }
    sendJson(res, 200, pageView(meeting, p.participant_id, 0, now));
    return;
  }
  const pid = typeof body.participant_id === 'string' ? body.participant_id : '';
  const p = participant(meeting, pid);
  if (p.kind !== 'browser') throw new SandboxError(400, 'not a browser participant');
  touch(meeting, pid, now);
  if (action === 'microphone' || action === 'camera') {
    const data = typeof body.data === 'string' ? Buffer.from(body.data, 'base64') : null;
    if (!data || data.length === 0) throw new SandboxError(400, 'data must be base64');
    if (p.state === 'in_call') {
      if (action === 'microphone') registry.media.addAudio(meeting.meeting_id, pid, data, now);
      else registry.media.setFrame(meeting.meeting_id, pid, data);
    }
    sendJson(res, 200, { ok: true });
    return;
  }
  switch (action) {
    case 'join':
      requestJoin(meeting, pid, body.name, now, { microphone: body.microphone, camera: body.camera }, identity);
      break;
    case 'layout':
      setLayout(meeting, pid, body.layout, now);
      break;
    case 'media':
      setMedia(meeting, pid, { microphone: body.microphone, camera: body.camera }, now);
      break;
    case 'chat':
      postChat(meeting, pid, body.text, now);
      break;
    case 'leave':
      leave(meeting, pid, now);
      break;
    case 'recording-request':
      requestRecording(meeting, pid, now);
      break;
    case 'played': {
      const u = meeting.utterances.find((x) => x.seq === body.seq);
      if (u) u.acks.add(pid);
      break;
    }
    default:
      throw new SandboxError(404, 'no such page API');
  }
  sendJson(res, 200, pageView(meeting, pid, since, now));
}
