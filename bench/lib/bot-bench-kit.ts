/**
 * What the bot benches share: the sandbox and the whole service on this machine, meetings in the sandbox,
 * bots through the public API, their statuses, and the processes a bot runs.
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import type { CreateMeetingRequest } from '../../sandbox/client';
import type { RunningSandbox } from '../../sandbox/server';
import type { apiClient } from '../../test/support/http-client';
import type { TestService } from '../../test/support/test-service';
import { processTable, processTree, type ProcessEntry } from './proc-stats';

export const intFromEnv = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${name} must be a whole number, got ${process.env[name]}`);
  return value;
};

export type Api = ReturnType<typeof apiClient>;

export interface Bench {
  readonly sandbox: RunningSandbox;
  readonly t: TestService;
  readonly api: Api;
  readonly downloads: string;
}

export interface StatusEntry {
  readonly status: string;
  readonly created_at: string;
}

/** What GET /v2/bots/{id} answers, the fields used here. */
export interface BotDetails {
  readonly bot_id: string;
  readonly status: string;
  readonly error_code: string | null;
  readonly error_message: string | null;
  readonly status_history: readonly StatusEntry[];
  readonly artifacts: readonly { readonly artifact_type: string; readonly key: string; readonly url: string | null }[];
}

export interface Meeting {
  readonly meetingId: string;
  readonly url: string;
  readonly speakerId: string;
}

export const BOT_NAME = 'Bench Bot';
export const JOIN_TIMEOUT_MS = 180_000;
export const END_TIMEOUT_MS = 180_000;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
export const range = (n: number) => Array.from({ length: n }, (_, i) => i);
export const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;
export const seconds = (s: number) => `${s.toFixed(2)} s`;
export const loadAverage = () => os.loadavg()[0]!.toFixed(2);

/** Nearest rank: the smallest value with at least p % of the samples at or below it (p95 of 10 is the largest). */
export const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};

/**
 * A meeting without a lobby (the bot records as soon as it is in) with one simulated participant; `userId`:
 * that participant is this vc user (the OBF token's user, whom a token-URL join needs in the meeting).
 */
export const openMeeting = async (sandbox: RunningSandbox, request: CreateMeetingRequest = { platform: 'mt', lobby: false }, userId: string | null = null): Promise<Meeting> => {
  const meeting = await sandbox.client.createMeeting(request);
  const speaker = userId ? await sandbox.client.addSimulatedUser(meeting.meeting_id, 'Speaker', userId) : await sandbox.client.addSimulated(meeting.meeting_id, 'Speaker');
  return { meetingId: meeting.meeting_id, url: meeting.url, speakerId: speaker.participant_id };
};

/** `extra`: more fields of the creation (vc_config …). */
export const postBot = async (api: Api, meeting: Meeting, recordingMode = 'audio_only', extra: Record<string, unknown> = {}): Promise<{ botId: string; postedAt: number }> => {
  const postedAt = performance.now();
  const created = await api.post('/v2/bots', { meeting_url: meeting.url, bot_name: BOT_NAME, recording_mode: recordingMode, ...extra });
  if (created.status !== 201) throw new Error(`POST /v2/bots answered ${created.status}: ${JSON.stringify(created.body)}`);
  return { botId: created.body.data.bot_id, postedAt };
};

export const botDetails = async (api: Api, botId: string): Promise<BotDetails> => (await api.get(`/v2/bots/${botId}`)).body.data;

export const hasEnded = (bot: BotDetails) => bot.status === 'completed' || bot.status === 'failed';
export const describeBot = (bot: BotDetails) =>
  `${bot.status}${bot.error_code ? ` ${bot.error_code}` : ''}${bot.error_message ? ` (${bot.error_message})` : ''}, history ${bot.status_history.map((s) => s.status).join(' > ')}`;

/** Polls until the bot's history shows `status`; `seenAt` is when this poll first saw it (performance.now()). */
export const waitForStatus = async (api: Api, botId: string, status: string, pollMs: number): Promise<{ bot: BotDetails; seenAt: number }> => {
  const deadline = Date.now() + JOIN_TIMEOUT_MS;
  for (;;) {
    const bot = await botDetails(api, botId);
    if (bot.status_history.some((s) => s.status === status)) return { bot, seenAt: performance.now() };
    if (hasEnded(bot)) throw new Error(`ended before ${status}: ${describeBot(bot)}`);
    if (Date.now() > deadline) throw new Error(`no ${status} after ${JOIN_TIMEOUT_MS / 1000} s: ${describeBot(bot)}`);
    await sleep(pollMs);
  }
};

export const waitForEnd = async (api: Api, botId: string): Promise<BotDetails> => {
  const deadline = Date.now() + END_TIMEOUT_MS;
  for (;;) {
    const bot = await botDetails(api, botId);
    if (hasEnded(bot)) return bot;
    if (Date.now() > deadline) throw new Error(`bot ${botId} did not end within ${END_TIMEOUT_MS / 1000} s: ${describeBot(bot)}`);
    await sleep(250);
  }
};

/** Bots finish their uploads after their status ends; the next measurement starts only once every bot process has exited. */
export const waitUntilNoBotRuns = async (bench: Bench) => {
  const deadline = Date.now() + END_TIMEOUT_MS;
  while (bench.t.service.dispatcher.runningCount > 0 && Date.now() < deadline) await sleep(200);
};

export const statusTimeMs = (bot: BotDetails, status: string): number => {
  const entry = bot.status_history.find((s) => s.status === status);
  if (!entry) throw new Error(`no ${status} in the history of ${bot.bot_id}`);
  return Date.parse(entry.created_at);
};

/** The processes of each bot right now: its node process and all its descendants. */
export const botProcessTrees = async (bench: Bench, botIds: readonly string[]): Promise<ProcessEntry[][]> => {
  const table = await processTable();
  return botIds.map((id) => {
    const pid = bench.t.service.dispatcher.pidOf(id);
    return pid === undefined ? [] : processTree(pid, table);
  });
};

export const chromiumVersion = () => {
  try {
    return execFileSync('/usr/bin/chromium', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'chromium (version unknown)';
  }
};

export const machineLine = (chromium: string) =>
  `machine: ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${chromium}, node ${process.version}, load average ${loadAverage()}`;
