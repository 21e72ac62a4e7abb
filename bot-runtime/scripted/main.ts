/**
 * A scripted stand-in for the bot (development and tests: the service's `SCRIPTED_BOTS`). The service
 * starts it exactly as it starts the real bot (the launch on standard input, as the bot user, in its own
 * process group), and it speaks the real internal API with the bot's own reporter, control channel and
 * uploader, but it opens no browser and joins no meeting: where a test or a bench needs many bots at
 * once on a small machine, it stands in for Chromium.
 *
 * Its script: `joining_call`, then `in_call_recording` at once; every chat message it is asked to post is
 * answered ok and kept; a leave ends it `completed API_REQUEST` after it stored `chat_messages.json` (the
 * messages it posted) and a recording (a second of silence, `recording.wav`: something for a transcription
 * to fetch) and reported the seconds it "recorded". SIGTERM ends it `failed SIGTERM`, as the real bot. The end of standard input (its service died) changes nothing: like the real bot it carries on
 * with whichever instance answers.
 */
import type { ControlRequest, ControlResult, EndReport, LiveStatus } from '../../contract/bot-contract';
import { HttpControl } from '../control/http-control';
import { DEFAULT_SERVICE_PATIENCE_MS } from '../http-client';
import { jobFromService } from '../job-from-service';
import { HttpReporter } from '../reporters/http-reporter';
import { readJobLine } from '../service-pipe';
import { makeUploader } from '../uploaders/make-uploader';

type Ending = { readonly outcome: 'completed'; readonly code: 'API_REQUEST' } | { readonly outcome: 'failed'; readonly code: 'SIGTERM' };

const main = async (): Promise<number> => {
  const launch = jobFromService(await readJobLine(process.stdin));
  if (!launch.ok) {
    process.stderr.write(`${launch.error}\n`);
    return 2;
  }
  const { job } = launch;
  const target = { baseUrl: launch.serviceUrl, token: launch.token };
  const reporter = new HttpReporter(target, job.bot_id, DEFAULT_SERVICE_PATIENCE_MS);
  const now = () => new Date().toISOString();
  const status = (s: LiveStatus) => reporter.report({ kind: 'status', status: s, at: now() });

  let end!: (ending: Ending) => void;
  const ended = new Promise<Ending>((resolve) => (end = resolve));
  process.once('SIGTERM', () => end({ outcome: 'failed', code: 'SIGTERM' }));
  process.once('SIGINT', () => end({ outcome: 'failed', code: 'SIGTERM' }));

  await status('joining_call');
  await status('in_call_recording');
  const recordingSince = Date.now();
  const posted: { sender_id: null; sender_name: string; text: string; seen_at: string }[] = [];
  const control = new HttpControl(target, job.bot_id, { log: (m) => process.stderr.write(`${m}\n`) });
  control.start(async (request: ControlRequest): Promise<ControlResult> => {
    if (request.kind === 'chat') posted.push({ sender_id: null, sender_name: job.bot_name, text: request.message, seen_at: now() });
    else end({ outcome: 'completed', code: 'API_REQUEST' });
    return { id: request.id, ok: true };
  });

  const ending = await ended;
  const recordedSeconds = (Date.now() - recordingSince) / 1000;
  // The leave's answer is delivered before the end: the service records the acknowledgement first.
  await control.stop();
  const uploader = makeUploader(job);
  const store = async (artifact_type: string, key: string, content_type: string, bytes: Buffer) => {
    await uploader.upload(key, bytes, content_type, artifact_type);
    await reporter.report({ kind: 'artifact', artifact_type, key, content_type, size_bytes: bytes.length, at: now() });
  };
  await store('chat_messages', 'chat_messages.json', 'application/json', Buffer.from(JSON.stringify(posted)));
  await store('recording', 'recording.wav', 'audio/wav', secondOfSilence());
  const report: EndReport = {
    kind: 'end',
    outcome: ending.outcome,
    error_code: ending.code,
    error_message: ending.code === 'API_REQUEST' ? 'The bot was asked to leave.' : 'The bot process received SIGTERM.',
    recorded_seconds: recordedSeconds,
    waiting_room_seconds: 0,
    at: now(),
  };
  await reporter.report(report);
  return 0;
};

/** One second of silence as a WAV file: 8 kHz, 8-bit unsigned mono PCM (128 is silence). */
const secondOfSilence = (): Buffer => {
  const rate = 8000;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + rate, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16); // the fmt chunk's size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate, 28); // bytes a second
  header.writeUInt16LE(1, 32); // bytes a frame
  header.writeUInt16LE(8, 34); // bits a sample
  header.write('data', 36);
  header.writeUInt32LE(rate, 40);
  return Buffer.concat([header, Buffer.alloc(rate, 128)]);
};

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`scripted bot crashed: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
