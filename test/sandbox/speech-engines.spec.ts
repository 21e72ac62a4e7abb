/**
 * The two speech engines of simulated participants: espeak-ng (the default) and flite, chosen per
 * participant or per speak call. The engine shows in the WAV itself (flite's voices speak at 16 kHz,
 * espeak-ng at 22.05 kHz) and in how long the same text lasts.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { SandboxApiError } from '../../sandbox/client';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { SpeechSynthesizer, type TtsEngine } from '../../sandbox/tts';
import { tmpDir } from '../bot-runtime/support';

const sampleRate = (wavPath: string) => readFileSync(wavPath).readUInt32LE(24);
const TEXT = 'The budget review moves to Thursday afternoon.';

describe('sandbox speech engines (espeak-ng and flite)', function () {
  this.timeout(20_000);
  let dir: string;
  let tts: SpeechSynthesizer;
  let sandbox: RunningSandbox;

  before(async () => {
    dir = tmpDir('speech-engines-');
    tts = new SpeechSynthesizer(dir);
    sandbox = await startSandbox({ port: 0, speechDir: dir });
  });

  after(async () => {
    await sandbox?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const durationOf = async (tts_: TtsEngine, voice: string) => (await tts.synthesize(TEXT, voice, tts_)).duration_ms / 1000;

  describe('the synthesizer', () => {
    it('makes a flite WAV at 16 kHz and an espeak-ng WAV at 22.05 kHz, cached apart', async () => {
      const flite = await tts.synthesize(TEXT, 'slt', 'flite');
      const espeak = await tts.synthesize(TEXT, 'en', 'espeak-ng');
      assert.equal(sampleRate(flite.path), 16000);
      assert.equal(sampleRate(espeak.path), 22050);
      assert.notEqual(flite.id, espeak.id);
      assert.ok(flite.duration_ms > 1000, `flite speech lasts ${flite.duration_ms} ms`);
      assert.equal((await tts.synthesize(TEXT, 'slt', 'flite')).path, flite.path);
    });

    it('keeps espeak-ng as the engine when none is named', async () => {
      assert.equal((await tts.synthesize(TEXT)).id, (await tts.synthesize(TEXT, 'en', 'espeak-ng')).id);
    });

    it('speaks a text that starts with a dash (it is not taken for an option)', async () => {
      const speech = await tts.synthesize('-minus five degrees outside', 'rms', 'flite');
      assert.ok(speech.duration_ms > 500, `${speech.duration_ms} ms`);
    });

    it('refuses a voice the engine does not have', async () => {
      await assert.rejects(tts.synthesize(TEXT, 'en', 'flite'), /invalid flite voice en/);
      assert.equal(SpeechSynthesizer.validVoice('kal16', 'flite'), true);
      assert.equal(SpeechSynthesizer.validVoice('en+f3'), true);
    });
  });

  describe('the control API', () => {
    const addAndSpeak = async (body: { tts?: TtsEngine; voice?: string }, perCall?: { tts: TtsEngine; voice?: string }) => {
      const { meeting_id } = await sandbox.client.createMeeting({ platform: 'mt', lobby: false });
      const voice = body.tts ? { tts: body.tts, ...(body.voice ? { voice: body.voice } : {}) } : body.voice;
      const p = await sandbox.client.addSimulated(meeting_id, 'Speaker', voice);
      return (await sandbox.client.speak(meeting_id, p.participant_id, TEXT, perCall)).duration_seconds;
    };

    it('a participant added with tts flite speaks with flite, in its default voice rms unless one is named', async () => {
      assert.equal(await addAndSpeak({ tts: 'flite' }), await durationOf('flite', 'rms'));
      assert.equal(await addAndSpeak({ tts: 'flite', voice: 'slt' }), await durationOf('flite', 'slt'));
      assert.notEqual(await durationOf('flite', 'rms'), await durationOf('espeak-ng', 'en'));
    });

    it('a participant added as before speaks with espeak-ng', async () => {
      assert.equal(await addAndSpeak({}), await durationOf('espeak-ng', 'en'));
      assert.equal(await addAndSpeak({ voice: 'en+f3' }), await durationOf('espeak-ng', 'en+f3'));
    });

    it('one speak call can use the other engine; the participant keeps its own voice afterwards', async () => {
      const { meeting_id } = await sandbox.client.createMeeting({ platform: 'mt', lobby: false });
      const p = await sandbox.client.addSimulated(meeting_id, 'Switcher');
      const once = await sandbox.client.speak(meeting_id, p.participant_id, TEXT, { tts: 'flite', voice: 'awb' });
      assert.equal(once.duration_seconds, await durationOf('flite', 'awb'));
      const after = await sandbox.client.speak(meeting_id, p.participant_id, TEXT);
      assert.equal(after.duration_seconds, await durationOf('espeak-ng', 'en'));
    });

    it('refuses an unknown engine or a voice of the wrong engine with 400', async () => {
      const { meeting_id } = await sandbox.client.createMeeting({ platform: 'mt', lobby: false });
      const refused = async (call: Promise<unknown>, message: RegExp) => {
        await assert.rejects(call, (e: unknown) => e instanceof SandboxApiError && e.status === 400 && message.test(e.message));
      };
      await refused(sandbox.client.request('POST', `/control/meetings/${meeting_id}/simulated-participants`, { name: 'X', tts: 'festival' }), /tts must be one of espeak-ng, flite/);
      await refused(sandbox.client.addSimulated(meeting_id, 'Y', { tts: 'flite', voice: 'en+f3' }), /voice must be a flite voice: kal, kal16, awb, rms, slt/);
      const p = await sandbox.client.addSimulated(meeting_id, 'Z', { tts: 'flite' });
      await refused(sandbox.client.speak(meeting_id, p.participant_id, TEXT, 'en'), /voice must be a flite voice/);
    });
  });
});
