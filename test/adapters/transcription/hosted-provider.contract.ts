/**
 * What every hosted provider's client must do against its provider (here: the local fake speaking the
 * provider's protocol): transcribe audio it fetches by signed URL, normalise the provider's units and
 * speaker labels into our words, keep the provider's answer verbatim, and end every failure as a
 * TranscriptionFailed that says why without ever showing a key.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { HostedClientOptions } from '../../../src/adapters/transcription/hosted-provider-kit';
import { TranscriptionFailed, type TranscriptionProvider, type TranscriptionRequest } from '../../../src/adapters/transcription/port';
import { attributeSpeakers } from '../../../src/domain/transcription/attribute-speakers';
import { tmpDir } from '../../bot-runtime/support';
import type { FakeProviderServer, ScriptedWord } from '../../fakes/transcription/fake-provider-kit';
import { SignedAudioServer } from '../../fakes/transcription/signed-audio-server';
import { freePort } from '../../support/free-port';

export const KEY = 'team-key-9f8e7d6c5b4a';
export const WRONG_KEY = 'someone-elses-key-000';

/** patient enough for a loaded machine, quick enough for a test */
export const quickPolicies: Omit<HostedClientOptions, 'baseUrl'> = {
  http: { attempts: 3, backoffMs: 20, requestTimeoutMs: 10_000 },
  poll: { intervalMs: 20, timeoutMs: 10_000 },
};

/** Alice, then Bob, as the fake "hears" them: provider speakers 0 and 1. */
export const script: ScriptedWord[] = [
  { word: 'Good', start: 0.5, end: 0.8, speaker: 0, confidence: 0.99 },
  { word: 'morning,', start: 0.85, end: 1.3, speaker: 0, confidence: 0.97 },
  { word: 'everyone.', start: 1.35, end: 2, speaker: 0, confidence: 0.93 },
  { word: 'Morning', start: 3, end: 3.4, speaker: 1, confidence: 0.9 },
  { word: 'Alice.', start: 3.45, end: 3.9, speaker: 1, confidence: 0.88 },
];

/** the bot's timeline for the same stretch, a tick late as it really is */
const turns = [
  { name: 'Alice', participant_id: 'p-alice', start: 0.7, end: 2.2 },
  { name: 'Bob', participant_id: 'p-bob', start: 3.2, end: 4.1 },
];

export interface HostedContractSubject {
  readonly name: string;
  readonly fake: (apiKey: string) => FakeProviderServer;
  readonly provider: (options: HostedClientOptions) => TranscriptionProvider;
  /** how the provider writes speaker 0, 1, ... */
  readonly label: (speaker: number) => string;
  /** whether the client polls a job (Deepgram answers at once) */
  readonly polls: boolean;
  /** the provider's status for a created job (or the synchronous answer) */
  readonly createdStatus: number;
}

export const hostedProviderContract = (subject: HostedContractSubject): void => {
  describe(`${subject.name} client against a local ${subject.name} (the provider's protocol)`, function () {
    this.timeout(20_000);
    let dir: string;
    let audio: SignedAudioServer;
    let fake: FakeProviderServer;
    let provider: TranscriptionProvider;

    before(async () => {
      dir = tmpDir('hosted-provider-');
      const mp3 = join(dir, 'recording.mp3');
      execFileSync('flite', ['-voice', 'slt', '-t', 'Good morning everyone. Morning Alice.', '-o', join(dir, 'speech.wav')]);
      execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-i', join(dir, 'speech.wav'), '-codec:a', 'libmp3lame', mp3]);
      audio = await new SignedAudioServer(mp3).start();
      fake = await subject.fake(KEY).start();
      provider = subject.provider({ baseUrl: fake.url, ...quickPolicies });
    });

    after(async () => {
      await fake?.stop();
      await audio?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    const request = (overrides: Partial<TranscriptionRequest> = {}): TranscriptionRequest => ({ audio: { url: audio.signedUrl }, apiKey: KEY, language: 'en', ...overrides });

    const failure = async (attempt: Promise<unknown>): Promise<TranscriptionFailed> => {
      const error = await attempt.then(
        () => assert.fail('expected the transcription to fail'),
        (e: unknown) => e,
      );
      assert.ok(error instanceof TranscriptionFailed, `a TranscriptionFailed, got ${String(error)}`);
      assert.ok(!error.message.includes(KEY) && !error.message.includes(WRONG_KEY), `no key in "${error.message}"`);
      return error;
    };

    it('transcribes the audio it fetched by signed URL: words in seconds with the provider speaker labels, the answer kept verbatim', async () => {
      fake.setScript({ words: script });
      const downloadsBefore = audio.downloads;
      const result = await provider.transcribe(request());
      assert.equal(result.provider, subject.name);
      assert.deepEqual(
        result.words,
        script.map((w) => ({ word: w.word, start: w.start, end: w.end, confidence: w.confidence, speaker_label: subject.label(w.speaker) })),
      );
      assert.equal(result.language, 'en');
      assert.equal(audio.downloads, downloadsBefore + 1, 'the provider fetched the audio once');
      assert.equal(result.jobIds.length, 1);
      // the raw transcript is the provider's last answer, as it came
      assert.deepEqual(result.raw, fake.answers[fake.answers.length - 1]!.body);
      assert.ok(JSON.stringify(result.raw).includes(result.jobIds[0]!), 'the raw answer names the job');
    });

    it('the transcript comes out in our schema, speakers named from the bot timeline', async () => {
      fake.setScript({ words: script });
      const result = await provider.transcribe(request());
      const diarized = attributeSpeakers({ words: result.words, turns, language: result.language, duration: 4 });
      assert.deepEqual(
        diarized.utterances.map((u) => ({ speaker: u.speaker, participant_id: u.participant_id, text: u.text, start: u.start, end: u.end, words: u.words.length })),
        [
          { speaker: 'Alice', participant_id: 'p-alice', text: 'Good morning, everyone.', start: 0.5, end: 2, words: 3 },
          { speaker: 'Bob', participant_id: 'p-bob', text: 'Morning Alice.', start: 3, end: 3.9, words: 2 },
        ],
      );
      assert.deepEqual(diarized.utterances[0]!.words[1], { word: 'morning,', start: 0.85, end: 1.3, confidence: 0.97 });
    });

    if (subject.polls) {
      it('looks at the job until it is done, through its waiting states', async () => {
        fake.setScript({ words: script, pendingLooks: 3 });
        const before = fake.requests.length;
        await provider.transcribe(request());
        const looks = fake.requests.slice(before).filter((r) => r.method === 'GET');
        assert.equal(looks.length, 4, 'three looks while it works, one when done');
      });

      it('tells the caller the job it created before it waits for it, so that the caller can record it', async () => {
        fake.setScript({ words: script, pendingLooks: 1 });
        const before = fake.requests.length;
        const told: { jobId: string; requestsSoFar: string[] }[] = [];
        const result = await provider.transcribe(
          request({ onJobCreated: async (jobId) => void told.push({ jobId, requestsSoFar: fake.requests.slice(before).map((r) => r.method) }) }),
        );
        assert.deepEqual(told, [{ jobId: result.jobIds[0], requestsSoFar: ['POST'] }], 'told once, after the creation and before any look');
      });

      it('waits for the job a request already has (an earlier owner created it) and creates none', async () => {
        fake.setScript({ words: script, pendingLooks: 0 });
        const stop = new AbortController();
        let created = '';
        // The earlier owner: creates the job, then stops while the provider still works on it.
        fake.holdJobs = true;
        try {
          await failure(provider.transcribe(request({ signal: stop.signal, onJobCreated: async (jobId) => void ((created = jobId), setTimeout(() => stop.abort(), 50)) })));
        } finally {
          fake.holdJobs = false;
        }
        const before = fake.requests.length;
        const told: string[] = [];
        const result = await provider.transcribe(request({ job: created, onJobCreated: async (jobId) => void told.push(jobId) }));
        const after = fake.requests.slice(before);
        assert.deepEqual(after.map((r) => r.method), ['GET'], 'one look at the job, done: no second creation');
        assert.ok(after[0]!.url.includes(created));
        assert.deepEqual(result.jobIds, [created]);
        assert.deepEqual(told, [], 'nothing new to record');
        assert.equal(result.words.length, script.length);
      });

      it('gives up on a job that never ends, saying so', async () => {
        fake.setScript({ words: script, pendingLooks: 1_000_000 });
        const slow = subject.provider({ baseUrl: fake.url, http: quickPolicies.http, poll: { intervalMs: 20, timeoutMs: 300 } });
        const error = await failure(slow.transcribe(request()));
        assert.match(error.message, /still (queued|processing) after 0 s; gave up/);
      });

      it('stops when asked to, while the job is still working', async () => {
        fake.setScript({ words: script, pendingLooks: 1_000_000 });
        const stop = new AbortController();
        setTimeout(() => stop.abort(new Error('shutting down')), 150);
        const error = await failure(provider.transcribe(request({ signal: stop.signal })));
        assert.match(error.message, /stopped/);
      });
    }

    it('a wrong key is refused by the provider: 401 with its message, the key never shown', async () => {
      fake.setScript({ words: script });
      const error = await failure(provider.transcribe(request({ apiKey: WRONG_KEY })));
      assert.equal(error.status, 401);
      assert.match(error.message, /answered 401/);
    });

    it('no key: refused before any request', async () => {
      const before = fake.requests.length;
      assert.equal(provider.problemWith({ apiKey: null }), 'api_key is required for this provider');
      const error = await failure(provider.transcribe(request({ apiKey: undefined })));
      assert.match(error.message, /api_key is required/);
      assert.equal(fake.requests.length, before);
    });

    it('audio the provider cannot download (a signature that is not valid) fails with the provider reason', async () => {
      fake.setScript({ words: script });
      const error = await failure(provider.transcribe(request({ audio: { url: audio.forgedUrl } })));
      assert.match(error.message, /download|REMOTE_CONTENT_ERROR|error code 400/i);
    });

    it('a job the provider fails is a failure with its reason', async () => {
      fake.setScript({ words: script, failJob: true });
      const error = await failure(provider.transcribe(request()));
      assert.match(error.message, /failed|error/i);
    });

    it('retries while the provider is unavailable (503), then transcribes', async () => {
      fake.setScript({ words: script, unavailableTimes: 2 });
      const result = await provider.transcribe(request());
      assert.equal(result.words.length, script.length);
      // two refusals, then the creation and (for a job) its three looks
      const expected = subject.polls ? [503, 503, subject.createdStatus, 200, 200, 200] : [503, 503, subject.createdStatus];
      assert.deepEqual(
        fake.answers.slice(-expected.length).map((a) => a.status),
        expected,
      );
    });

    it('gives up after its tries when the provider stays unavailable', async () => {
      fake.setScript({ words: script, unavailableTimes: 10 });
      const error = await failure(provider.transcribe(request()));
      assert.equal(error.status, 503);
    });

    it('an unreachable provider is a failure that names where it looked', async () => {
      const baseUrl = `http://127.0.0.1:${await freePort()}`;
      const nowhere = subject.provider({ baseUrl, ...quickPolicies });
      const error = await failure(nowhere.transcribe(request()));
      assert.ok(error.message.includes(`could not reach ${baseUrl} (ECONNREFUSED)`), error.message);
    });
  });
};
