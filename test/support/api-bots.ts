/** Bots through the public API in end-to-end tests: create one, wait for a status, fetch and measure its recording. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { apiClient } from './http-client';

const run = promisify(execFile);

type Api = ReturnType<typeof apiClient>;

export const botDetails = async (api: Api, botId: string) => (await api.get(`/v2/bots/${botId}`)).body.data;

export const waitForBot = async (api: Api, botId: string, done: (bot: any) => boolean, timeoutMs = 60_000) => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const bot = await botDetails(api, botId);
    if (done(bot)) return bot;
    if (Date.now() > deadline) throw new Error(`bot ${botId} stuck in ${bot.status}: ${JSON.stringify(bot.status_history)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
};

export const hasEnded = (bot: { status: string }) => bot.status === 'completed' || bot.status === 'failed';

export const createBot = async (api: Api, url: string, body: Record<string, unknown> = {}): Promise<string> => {
  const created = await api.post('/v2/bots', { meeting_url: url, bot_name: 'Recorder Bot', recording_mode: 'audio_only', ...body });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body.data.bot_id as string;
};

/** Downloads an artifact through its signed link into a fresh temporary folder. */
export const download = async (url: string, name: string): Promise<string> => {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'mbs-artifact-')), name);
  writeFileSync(file, Buffer.from(await (await fetch(url)).arrayBuffer()));
  return file;
};

/** Loudness and length of a recording, measured by ffmpeg. */
export const measure = async (file: string) => {
  const { stderr } = await run('ffmpeg', ['-hide_banner', '-i', file, '-af', 'volumedetect', '-f', 'null', '-']);
  const max = Number(/max_volume: (-?[\d.]+) dB/.exec(stderr)?.[1] ?? -91);
  const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file]);
  return { maxVolumeDb: max, durationSeconds: Number(stdout.trim()) };
};

/**
 * The bot's recording, fetched through its signed link: it holds speech (max above -30 dB) and lasts
 * what the bot says it recorded (within 1 s, BotCompleted's usage). Returns its length.
 */
export const checkRecording = async (api: Api, bot: { bot_id: string; artifacts: { artifact_type: string; key: string; url: string }[] }): Promise<number> => {
  const recording = bot.artifacts.find((a) => a.artifact_type === 'recording');
  assert.ok(recording, `a recording among ${JSON.stringify(bot.artifacts.map((a) => a.key))}`);
  const { maxVolumeDb, durationSeconds } = await measure(await download(recording.url, path.basename(recording.key)));
  assert.ok(maxVolumeDb > -30, `the speech is in the recording (max ${maxVolumeDb} dB)`);
  const events = (await api.get(`/v2/bots/${bot.bot_id}/events`)).body.data.events;
  const completed = events.find((e: { type: string }) => e.type === 'BotCompleted');
  assert.ok(Math.abs(durationSeconds - completed.data.usage.recorded_seconds) <= 1, `recording ${durationSeconds} s, in call ${completed.data.usage.recorded_seconds} s`);
  return durationSeconds;
};

/** `status error_code` of an ended bot, e.g. `completed API_REQUEST`. */
export const outcome = (bot: { status: string; error_code: string }): string => `${bot.status} ${bot.error_code}`;

type WithArtifacts = { artifacts: { artifact_type: string; key: string; url: string }[] };

export const artifactOf = (bot: WithArtifacts, type: string) => {
  const found = bot.artifacts.find((a) => a.artifact_type === type);
  assert.ok(found, `a ${type} among ${bot.artifacts.map((a) => a.key).join(', ')}`);
  return found;
};

/** A JSON artifact (chat_messages, participants), downloaded and parsed. */
export const artifactJson = async (bot: WithArtifacts, type: string): Promise<any> =>
  JSON.parse(readFileSync(await download(artifactOf(bot, type).url, `${type}.json`), 'utf8'));

/** The calls above bound to one team's API client. */
export const botsOf = (api: Api) => ({
  create: (url: string, body: Record<string, unknown> = {}) => createBot(api, url, body),
  waitFor: (botId: string, done: (bot: any) => boolean) => waitForBot(api, botId, done),
  ended: (botId: string) => waitForBot(api, botId, hasEnded),
});
