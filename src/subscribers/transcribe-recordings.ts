import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type Logger from 'bunyan';
import * as E from 'fp-ts/Either';
import type { SecretBox } from '../adapters/crypto/secret-box';
import type { ArtifactStores } from '../adapters/object-store/artifact-stores';
import { ObjectStoreError, type ObjectStore } from '../adapters/object-store/port';
import { TranscriptionFailed, type AudioSource, type ProviderName, type TranscriptionProvider } from '../adapters/transcription/port';
import { providerNameOf } from '../adapters/transcription/providers';
import { handleBotCommand, loadBotFacts, readBotEvents } from '../commands/bot-commands';
import type { CommandDeps } from '../commands/command-deps';
import type { BotConfig } from '../domain/bot/bot-config';
import type { BotCommand } from '../domain/bot/bot-decider';
import { INITIAL_TRANSCRIPTION, type BotEvent } from '../domain/bot/bot-events';
import { botFactsOf, wasQueued } from '../domain/bot/bot-facts';
import { attributeSpeakers } from '../domain/transcription/attribute-speakers';
import { speakerTimeline, type SpeakerTurn } from '../domain/transcription/speaker-timeline';
import {
  diarizedTranscriptDocument,
  RAW_TRANSCRIPTION,
  rawTranscriptionDocument,
  TRANSCRIPTION,
} from '../domain/transcription/transcript-artifacts';
import { providerJobOf, transcriptionInputsOf, type KeptArtifact } from '../domain/transcription/transcription-inputs';
import { FairQueue, type FairQueueOptions } from './fair-queue';
import type { Subscriber } from './subscriber-runner';

export interface TranscriberDeps {
  readonly commands: CommandDeps;
  readonly stores: ArtifactStores;
  readonly secretBox: SecretBox;
  readonly providers: Readonly<Record<ProviderName, TranscriptionProvider>>;
  readonly log: Logger;
  /** transcriptions at once, in all and per team (default 2 and 1) */
  readonly slots?: Partial<Pick<FairQueueOptions, 'total' | 'perTeam'>>;
}

/** A hosted provider fetches the recording from a link that lasts as long as a job may (2 h) and then some. */
const AUDIO_LINK_TTL_SECONDS = 6 * 60 * 60;

type Requested = Extract<BotEvent, { type: 'TranscriptionRequested' }>['data'];

/** Why a transcription gave no transcript, in words the team can act on (never a key). */
class NoTranscript extends Error {}

/**
 * Transcribes completed bots' recordings. A bot that asked for transcription gets its first transcription
 * asked for when it ends completed; every TranscriptionRequested (first or re-transcribe) is then carried
 * out: the provider runs on the recording, the speakers come from the bot's speaker timeline, and the raw
 * and diarized transcripts go to the bot's storage (its team's bucket or the service's store, as fixed at
 * its creation). Progress is the bot's own stream: a request that has ended is never run again, and one a
 * restart or a takeover interrupted (no end recorded) runs again from the start, except that a hosted
 * provider's job recorded for it (TranscriptionJobSubmitted) is waited for rather than created again. A
 * failure ends the transcription with TRANSCRIPTION_FAILED; the bot stays completed.
 *
 * Requests wait in a FairQueue: teams take turns and each runs one transcription at a time, so a team's
 * hundred recordings do not queue another team's one behind them. The subscriber's checkpoint stays before
 * the oldest request not done (replayFrom), so a restart runs again what waited or ran; `stop()` aborts
 * what runs.
 */
export const transcribeRecordings = (deps: TranscriberDeps): Subscriber & { stop(): void } => {
  const stopping = new AbortController();
  const now = () => deps.commands.clock().toISOString();
  const queue = new FairQueue({ total: 2, perTeam: 1, retryMs: 5_000, ...deps.slots }, deps.log);

  const record = async (botId: string, command: BotCommand) => {
    const result = await handleBotCommand(deps.commands, botId, command);
    if (E.isLeft(result)) throw new Error(`cannot record ${command.type} of bot ${botId}: ${result.left.message}`);
  };

  const storeOf = (config: BotConfig, artifact: KeptArtifact): ObjectStore =>
    artifact.held_by === 'service' ? deps.stores.service : deps.stores.forBot(config.storage, artifact.artifact_type);

  const download = async (store: ObjectStore, objectKey: string, file: string): Promise<void> => {
    const object = await store.get(objectKey);
    if (!object) throw new NoTranscript(`the recording ${objectKey} is not in the bot's storage`);
    await pipeline(object.body, createWriteStream(file), { signal: stopping.signal });
  };

  const speakerTurns = async (config: BotConfig, botId: string, artifact: KeptArtifact | null): Promise<readonly SpeakerTurn[]> => {
    if (artifact === null) return [];
    const object = await storeOf(config, artifact).get(`${botId}/${artifact.key}`);
    if (!object) return [];
    const chunks: Buffer[] = [];
    for await (const chunk of object.body) chunks.push(chunk as Buffer);
    try {
      const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { speakers?: unknown };
      return Array.isArray(parsed.speakers) ? (parsed.speakers as SpeakerTurn[]) : [];
    } catch {
      deps.log.warn({ bot_id: botId, key: artifact.key }, 'the participants artifact is not JSON: no speaker names');
      return [];
    }
  };

  const transcribe = async (request: Requested, history: readonly BotEvent[], workDir: string) => {
    const facts = botFactsOf(history);
    if (!wasQueued(facts)) throw new Error(`bot ${request.bot_id} was never queued: it has no recording to transcribe`);
    const config = facts.run_config;
    const name = providerNameOf(request.provider);
    if (name === null) throw new NoTranscript(`unknown provider "${request.provider}"`);
    const provider = deps.providers[name];
    const options = { apiKey: request.api_key && deps.secretBox.open(request.api_key), customParams: request.custom_params };
    const problem = provider.problemWith(options);
    if (problem !== null) throw new NoTranscript(problem);

    const inputs = transcriptionInputsOf(history);
    if (inputs.recording === null || inputs.clock === null) throw new NoTranscript('the bot has no recording to transcribe');
    const recordingStore = storeOf(config, inputs.recording);
    const objectKey = `${request.bot_id}/${inputs.recording.key}`;
    let audio: AudioSource;
    if (name === 'Default') {
      const file = path.join(workDir, path.basename(inputs.recording.key));
      await download(recordingStore, objectKey, file);
      audio = { path: file };
    } else {
      const signedAt = deps.commands.clock();
      audio = { url: await recordingStore.downloadUrl(objectKey, { contentType: inputs.recording.content_type, signedAt, ttlSeconds: AUDIO_LINK_TTL_SECONDS }) };
    }
    const turns = await speakerTurns(config, request.bot_id, inputs.participants);

    // A job an earlier owner created is waited for; a new one is recorded before it is waited for, so
    // that whoever carries the request on after this owner dies does the same (no second provider job).
    const transcript = await provider.transcribe({
      audio,
      ...options,
      signal: stopping.signal,
      job: providerJobOf(history, request.request_id),
      onJobCreated: (jobId) => record(request.bot_id, { type: 'RecordTranscriptionJob', request_id: request.request_id, provider: name, job_id: jobId, now: now() }),
    });
    const endMs = Date.parse(inputs.ended_at ?? now());
    const result = attributeSpeakers({
      words: transcript.words,
      turns: speakerTimeline(turns, inputs.clock, endMs),
      language: transcript.language,
      ...(transcript.duration === null ? {} : { duration: transcript.duration }),
    });
    const origin = { bot_id: request.bot_id, provider: name, created_at: now() };
    const documents = [
      { ...RAW_TRANSCRIPTION, body: rawTranscriptionDocument(origin, transcript.jobIds, transcript.raw) },
      { ...TRANSCRIPTION, body: diarizedTranscriptDocument(origin, result) },
    ];
    const artifacts = [];
    for (const document of documents) {
      const contentType = 'application/json';
      const store = deps.stores.forBot(config.storage, document.artifact_type);
      const { sizeBytes } = await store.put(`${request.bot_id}/${document.key}`, Buffer.from(JSON.stringify(document.body)), contentType);
      artifacts.push({ artifact_type: document.artifact_type, key: document.key, content_type: contentType, size_bytes: sizeBytes });
    }
    return { provider: name, artifacts, utterances: result.total_utterances };
  };

  const carryOut = async (request: Requested) => {
    const history = await readBotEvents(deps.commands, request.bot_id);
    const ended = history.some((e) => (e.type === 'TranscriptionCompleted' || e.type === 'TranscriptionFailed') && e.data.request_id === request.request_id);
    if (ended) return;
    const log = deps.log.child({ bot_id: request.bot_id, request_id: request.request_id, provider: request.provider });
    const workDir = mkdtempSync(path.join(os.tmpdir(), 'mbs-transcribe-'));
    const started = Date.now();
    try {
      const done = await transcribe(request, history, workDir);
      await record(request.bot_id, { type: 'CompleteTranscription', request_id: request.request_id, ...done, now: now() });
      log.info({ utterances: done.utterances, ms: Date.now() - started }, 'transcription completed');
    } catch (err) {
      // Stopping is not a failure: the request runs again after the restart.
      if (stopping.signal.aborted) throw err;
      const message = failureMessage(err);
      if (message === null) throw err;
      log.warn({ reason: message }, 'transcription failed');
      await record(request.bot_id, { type: 'FailTranscription', request_id: request.request_id, provider: request.provider, error_message: message, now: now() });
    } finally {
      rmSync(workDir, { recursive: true, force: true });
    }
  };

  return {
    name: 'transcribe-recordings',
    handle: async (event, recorded) => {
      if (event.type === 'BotCompleted') {
        // What the bot runs with, whichever way it was created (at once, scheduled, from a calendar).
        const wanted = (await loadBotFacts(deps.commands, event.data.bot_id))?.run_config?.transcription ?? null;
        if (wanted === null) return;
        const { provider, api_key, custom_params } = wanted;
        const command: BotCommand = { type: 'RequestTranscription', request_id: INITIAL_TRANSCRIPTION, provider, api_key, custom_params, retranscribe: false, now: event.data.at };
        await record(event.data.bot_id, command);
      } else if (event.type === 'TranscriptionRequested') {
        const request = event.data;
        const teamId = (await loadBotFacts(deps.commands, request.bot_id))?.team_id ?? '';
        queue.add({ key: `${request.bot_id}/${request.request_id}`, teamId, position: recorded.position, run: () => carryOut(request) });
      }
    },
    replayFrom: () => queue.oldestPosition(),
    stop: () => {
      queue.stop();
      stopping.abort();
    },
  };
};

/** What the team is told when no transcript came out; null for a defect of ours (retried, not blamed on them). */
const failureMessage = (err: unknown): string | null => {
  if (err instanceof TranscriptionFailed || err instanceof NoTranscript) return err.message;
  if (err instanceof ObjectStoreError) return `the bot's storage refused: ${err.message}`;
  return null;
};
