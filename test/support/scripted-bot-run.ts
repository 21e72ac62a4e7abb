import assert from 'node:assert/strict';
import { ArtifactStore } from '../../bot-runtime/artifacts';
import { BotLog } from '../../bot-runtime/bot-log';
import { HttpReporter } from '../../bot-runtime/reporters/http-reporter';
import { makeUploader } from '../../bot-runtime/uploaders/make-uploader';
import { asBot } from './as-bot';
import type { ScriptedLaunch } from './scripted-launcher';

export interface ScriptedMeeting {
  /** names the bot saw, and who of them spoke */
  readonly participants: readonly string[];
  readonly speakers: readonly string[];
  /** chat lines as the bot wrote them into its chat_messages artifact */
  readonly chat: readonly { readonly sender_name: string; readonly text: string }[];
  readonly recordedSeconds: number;
}

export const DEFAULT_MEETING: ScriptedMeeting = {
  participants: ['Alice Martin', 'Bob Durand'],
  speakers: ['Alice Martin'],
  chat: [{ sender_name: 'Alice Martin', text: 'Call me at +33 6 12 34 56 78' }],
  recordedSeconds: 42,
};

/** What a scripted run uploaded, by key: the bytes the stores must hold (or no longer hold). */
export type UploadedArtifacts = ReadonlyMap<string, { readonly artifact_type: string; readonly bytes: Buffer }>;

/**
 * Plays a whole run of a launched bot over the bots' internal API, as the runtime would: joins, records,
 * uploads a recording, two screenshots, an audio chunk, the chat, the participants and its log (real
 * uploads by the bot runtime's own uploader, wherever its job says: the service, or a bucket with the
 * ingest key), reports who was there, and ends completed.
 */
export const runScriptedMeeting = async (launch: ScriptedLaunch, meeting: ScriptedMeeting = DEFAULT_MEETING): Promise<UploadedArtifacts> => {
  const bot = asBot(launch);
  const at = () => new Date().toISOString();
  const ok = async (response: Promise<{ status: number; body: unknown }>, what: string) => {
    const answered = await response;
    assert.ok(answered.status < 300, `${what}: ${answered.status} ${JSON.stringify(answered.body)}`);
  };
  for (const status of ['joining_call', 'in_call_not_recording', 'in_call_recording']) await ok(bot.status(status), status);
  const artifacts = new Map<string, { artifact_type: string; bytes: Buffer; content_type: string }>([
    ['recording.mp3', { artifact_type: 'recording', bytes: Buffer.from(`ID3 recording of ${meeting.speakers.join(', ')}`), content_type: 'audio/mpeg' }],
    ['screenshots/1.png', { artifact_type: 'screenshot', bytes: Buffer.from('PNG screenshot one'), content_type: 'image/png' }],
    ['screenshots/2.png', { artifact_type: 'screenshot', bytes: Buffer.from('PNG screenshot two'), content_type: 'image/png' }],
    ['audio_chunks/1.webm', { artifact_type: 'audio_chunk', bytes: Buffer.from('webm audio chunk'), content_type: 'audio/webm' }],
    ['chat_messages.json', { artifact_type: 'chat_messages', bytes: Buffer.from(JSON.stringify(meeting.chat)), content_type: 'application/json' }],
    ['participants.json', { artifact_type: 'participants', bytes: Buffer.from(JSON.stringify(meeting.participants.map((name) => ({ name })))), content_type: 'application/json' }],
    ['bot.log', { artifact_type: 'bot_log', bytes: Buffer.from(`joined as the bot; saw ${meeting.participants.join(', ')}`), content_type: 'text/plain' }],
  ]);
  await ok(bot.status('call_ended'), 'call_ended');
  const botId = launch.job.bot_id;
  const store = new ArtifactStore(makeUploader(launch.job), new HttpReporter({ baseUrl: launch.serviceUrl, token: launch.botToken }, botId), new BotLog(null));
  for (const [key, artifact] of artifacts) assert.equal(await store.store(artifact.artifact_type, key, artifact.content_type, artifact.bytes), true, `upload ${key}`);
  await ok(bot.report({ kind: 'participants', participants: meeting.participants, speakers: meeting.speakers, at: at() }), 'participants');
  await ok(
    bot.report({ kind: 'end', outcome: 'completed', error_code: 'NO_ATTENDEES', error_message: '', recorded_seconds: meeting.recordedSeconds, waiting_room_seconds: 0, at: at() }),
    'end',
  );
  launch.exit({ code: 0 });
  return new Map([...artifacts].map(([key, { artifact_type, bytes }]) => [key, { artifact_type, bytes }]));
};
