/** Standalone command line -> BotJob (UploadTarget kind folder). Pure: no I/O. */
import { parseArgs } from 'node:util';
import type { BotJob, RecordingMode, TimeoutConfig } from '../contract/bot-contract';
import { checkMeetingUrl } from './meeting-url';
import type { RunOptions } from './run-bot';

export const usage = `usage: npm run bot -- --meeting-url <url> --name <name> [options]

  --out <dir>                       artifacts folder (default ./bot-output/<bot id>)
  --recording-mode <mode>           speaker_view (default, MP4) | audio_only (MP3) | gallery_view
  --trust-sandbox-certificate       trust the local sandbox's self-signed certificate
  --entry-message <text>            posted in the chat once in the call
  --ignore-name <name>              not counted as an attendee (repeatable)
  --waiting-room-timeout <s>        default 600
  --no-one-joined-timeout <s>       default 600
  --silence-timeout <s>             default 600
  --grace-period <s>                default 0
  --max-recording-duration <s>      default none (12 h cap)
  --chunk-seconds <s>               audio chunk length (default 10)
  --screenshot-seconds <s>          screenshot interval, 0 for none (default 5)

SIGINT / SIGTERM: the bot leaves the meeting and writes its artifacts.`;

export const defaultTimeouts: TimeoutConfig = {
  waiting_room_timeout: 600,
  no_one_joined_timeout: 600,
  silence_timeout: 600,
  grace_period: 0,
  max_recording_duration: null,
};

export type CliParse =
  | { readonly ok: true; readonly job: BotJob; readonly options: Partial<RunOptions> }
  | { readonly ok: false; readonly error: string };

const modes: readonly RecordingMode[] = ['speaker_view', 'audio_only', 'gallery_view'];

export const parseCli = (argv: readonly string[], botId: string): CliParse => {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      options: {
        'meeting-url': { type: 'string' },
        name: { type: 'string' },
        out: { type: 'string' },
        'recording-mode': { type: 'string' },
        'trust-sandbox-certificate': { type: 'boolean' },
        'entry-message': { type: 'string' },
        'ignore-name': { type: 'string', multiple: true },
        'waiting-room-timeout': { type: 'string' },
        'no-one-joined-timeout': { type: 'string' },
        'silence-timeout': { type: 'string' },
        'grace-period': { type: 'string' },
        'max-recording-duration': { type: 'string' },
        'chunk-seconds': { type: 'string' },
        'screenshot-seconds': { type: 'string' },
        help: { type: 'boolean' },
      },
    }));
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
  if (values.help) return { ok: false, error: '' };
  const url = values['meeting-url'];
  const name = values.name;
  if (!url) return { ok: false, error: '--meeting-url is required' };
  if (!name || name.trim() === '' || name.length > 255) return { ok: false, error: '--name is required (1 to 255 characters)' };
  const check = checkMeetingUrl(url);
  if (!check.ok) return { ok: false, error: `invalid meeting URL: ${check.reason}` };
  const mode = (values['recording-mode'] ?? 'speaker_view') as RecordingMode;
  if (!modes.includes(mode)) return { ok: false, error: `--recording-mode must be one of ${modes.join(', ')}` };

  const numbers: Record<string, number> = {};
  for (const key of ['waiting-room-timeout', 'no-one-joined-timeout', 'silence-timeout', 'grace-period', 'max-recording-duration', 'chunk-seconds', 'screenshot-seconds'] as const) {
    const raw = values[key];
    if (raw === undefined) continue;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < 0) return { ok: false, error: `--${key} must be a number of seconds` };
    numbers[key] = n;
  }
  if (numbers['chunk-seconds'] === 0) return { ok: false, error: '--chunk-seconds must be more than 0' };
  const entry = values['entry-message'];
  if (entry !== undefined && entry.length > 4096) return { ok: false, error: '--entry-message is at most 4096 characters' };

  const job: BotJob = {
    bot_id: botId,
    meeting_url: check.meeting.url,
    platform: check.meeting.platform,
    bot_name: name,
    bot_image: [],
    entry_message: entry ?? null,
    recording_mode: mode,
    timeout_config: {
      waiting_room_timeout: numbers['waiting-room-timeout'] ?? defaultTimeouts.waiting_room_timeout,
      no_one_joined_timeout: numbers['no-one-joined-timeout'] ?? defaultTimeouts.no_one_joined_timeout,
      silence_timeout: numbers['silence-timeout'] ?? defaultTimeouts.silence_timeout,
      grace_period: numbers['grace-period'] ?? defaultTimeouts.grace_period,
      max_recording_duration: numbers['max-recording-duration'] ?? defaultTimeouts.max_recording_duration,
    },
    ignored_participant_names: values['ignore-name'] ?? [],
    upload: { kind: 'folder', path: values.out ?? `bot-output/${botId}` },
    trust_sandbox_certificate: values['trust-sandbox-certificate'] ?? false,
  };
  const options: Partial<RunOptions> = {
    ...(numbers['chunk-seconds'] !== undefined ? { chunkSeconds: numbers['chunk-seconds'] } : {}),
    ...(numbers['screenshot-seconds'] !== undefined ? { screenshotSeconds: numbers['screenshot-seconds'] } : {}),
  };
  return { ok: true, job, options };
};
