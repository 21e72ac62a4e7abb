/**
 * The Default provider: the real ffmpeg and Debian's PocketSphinx on flite speech of known sentences.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PocketSphinxProvider } from '../../../src/adapters/transcription/default-pocketsphinx';
import { parsePocketSphinxTimes } from '../../../src/adapters/transcription/pocketsphinx-output';
import { TranscriptionFailed } from '../../../src/adapters/transcription/port';
import { wordErrorRate } from '../../../src/domain/transcription/word-error-rate';
import { tmpDir } from '../../bot-runtime/support';
import { SignedAudioServer } from '../../fakes/transcription/signed-audio-server';

const SENTENCES = ['the customer reported that the recording stopped after ten minutes', 'good morning everyone this is the weekly planning meeting'];

const failure = async (attempt: Promise<unknown>): Promise<TranscriptionFailed> => {
  const error = await attempt.then(
    () => assert.fail('expected the transcription to fail'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof TranscriptionFailed, `a TranscriptionFailed, got ${String(error)}`);
  return error;
};

describe('Default provider (ffmpeg + PocketSphinx, offline)', function () {
  this.timeout(60_000);
  const provider = new PocketSphinxProvider();
  let dir: string;
  let mp3: string;
  let seconds: number;

  before(() => {
    dir = tmpDir('pocketsphinx-');
    // two sentences in two flite voices, a second of silence between, as an MP3 like audio_only bots store
    // (48 kHz, 128 kb/s; a 16 kHz MP3 gets lame's 24 kb/s, which costs PocketSphinx a third of the words)
    execFileSync('flite', ['-voice', 'rms', '-t', SENTENCES[0]!, '-o', join(dir, 'a.wav')]);
    execFileSync('flite', ['-voice', 'slt', '-t', SENTENCES[1]!, '-o', join(dir, 'b.wav')]);
    mp3 = join(dir, 'speech.mp3');
    execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-i', join(dir, 'a.wav'), '-f', 'lavfi', '-t', '1', '-i', 'anullsrc=r=16000:cl=mono', '-i', join(dir, 'b.wav'),
      '-filter_complex', '[0:a][1:a][2:a]concat=n=3:v=0:a=1', '-ar', '48000', '-codec:a', 'libmp3lame', '-b:a', '128k', mp3]);
    seconds = Number(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', mp3]).toString());
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('transcribes a recording file: the words with times in order, English, the duration of the audio', async () => {
    const result = await provider.transcribe({ audio: { path: mp3 } });
    const text = result.words.map((w) => w.word).join(' ');
    const errors = wordErrorRate(SENTENCES.join(' '), text);
    console.log(`      PocketSphinx heard: "${text}" (WER ${errors.wer.toFixed(3)})`);
    assert.ok(errors.wer < 0.2, `WER ${errors.wer}`);
    assert.equal(result.provider, 'Default');
    assert.deepEqual(result.jobIds, []);
    assert.equal(result.language, 'en');
    assert.ok(Math.abs(result.duration! - seconds) < 0.1, `duration ${result.duration} s, file ${seconds} s`);
    for (const [i, w] of result.words.entries()) {
      assert.ok(w.start < w.end && w.end <= result.duration! + 0.05, `times of ${JSON.stringify(w)}`);
      assert.ok(i === 0 || w.start >= result.words[i - 1]!.end, 'in order');
      assert.ok(w.confidence !== null && w.confidence >= 0 && w.confidence <= 1);
      assert.equal(w.speaker_label, null);
      assert.match(w.word, /^[a-z']+$/, 'no fillers or pronunciation numbers');
    }
    // the two sentences fall either side of the silence
    const firstOfSecond = result.words.find((w) => w.word === 'morning')!;
    const lastOfFirst = result.words.find((w) => w.word === 'minutes')!;
    assert.ok(firstOfSecond.start - lastOfFirst.end > 0.8, `a pause between ${lastOfFirst.end} and ${firstOfSecond.start}`);
    assert.match((result.raw as { output: string }).output, /^good(\(\d\))? \d+\.\d+ \d+\.\d+ /m, 'the raw output is what the decoder printed');
  });

  it('reads the same recording from a URL', async () => {
    const audio = await new SignedAudioServer(mp3).start();
    try {
      const fromFile = await provider.transcribe({ audio: { path: mp3 } });
      const fromUrl = await provider.transcribe({ audio: { url: audio.signedUrl } });
      assert.deepEqual(fromUrl.words, fromFile.words);
      assert.equal(audio.downloads, 1);
      const error = await failure(provider.transcribe({ audio: { url: audio.forgedUrl } }));
      assert.match(error.message, /could not be decoded .*403/);
    } finally {
      await audio.stop();
    }
  });

  it('silence is a transcript without words, not a failure', async () => {
    const silence = join(dir, 'silence.mp3');
    execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-f', 'lavfi', '-t', '3', '-i', 'anullsrc=r=48000:cl=mono', '-codec:a', 'libmp3lame', silence]);
    const result = await provider.transcribe({ audio: { path: silence } });
    assert.deepEqual(result.words, []);
    assert.ok(Math.abs(result.duration! - 3) < 0.1, `duration ${result.duration}`);
  });

  it('a missing file or one that is not audio fails, saying what ffmpeg said', async () => {
    const missing = await failure(provider.transcribe({ audio: { path: join(dir, 'nothing-here.mp3') } }));
    assert.match(missing.message, /^Default: the recording could not be decoded \(ffmpeg exit 1\): .*No such file or directory/);
    const text = join(dir, 'notes.mp3');
    writeFileSync(text, 'these are meeting notes, not audio\n'.repeat(50));
    const notAudio = await failure(provider.transcribe({ audio: { path: text } }));
    assert.match(notAudio.message, /could not be decoded/);
  });

  it('a recording replaced by a playlist in disguise makes ffmpeg read no other file', async () => {
    // an HLS playlist named like a recording, pointing at a file of this machine (here: speech it would transcribe)
    const disguised = join(dir, 'replaced.mp3');
    writeFileSync(disguised, `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\nfile://${mp3}\n#EXT-X-ENDLIST\n`);
    const refused = await failure(provider.transcribe({ audio: { path: disguised } }));
    assert.match(refused.message, /could not be decoded.*not on whitelist/);
  });

  it('a decoder that is not installed fails, saying how to install it', async () => {
    const error = await failure(new PocketSphinxProvider({ pocketsphinxPath: 'pocketsphinx-not-installed' }).transcribe({ audio: { path: mp3 } }));
    assert.match(error.message, /pocketsphinx-not-installed could not start .*install-system-packages\.sh/);
  });

  it('a decoder that fails says why, from its log', async () => {
    // the real decoder, pointed at an acoustic model that is not there
    const wrapper = join(dir, 'pocketsphinx-without-model');
    writeFileSync(wrapper, '#!/bin/sh\nexec pocketsphinx_continuous "$@" -hmm /nonexistent/model\n', { mode: 0o755 });
    const error = await failure(new PocketSphinxProvider({ pocketsphinxPath: wrapper }).transcribe({ audio: { path: mp3 } }));
    assert.match(error.message, /^Default: PocketSphinx failed \(exit 1\): .*(ERROR|FATAL).*\/nonexistent\/model/);
  });

  it('stops when asked, killing its processes', async () => {
    const stop = new AbortController();
    const started = Date.now();
    setTimeout(() => stop.abort(new Error('shutting down')), 200);
    const error = await failure(provider.transcribe({ audio: { path: mp3 }, signal: stop.signal }));
    assert.match(error.message, /stopped/);
    assert.ok(Date.now() - started < 2000, 'it did not finish the work first');
  });

  it('takes English only and no custom params; a URL must be http(s)', async () => {
    assert.equal(provider.problemWith({ language: 'fr' }), 'language "fr": the Default provider (PocketSphinx) transcribes English only');
    assert.equal(provider.problemWith({ language: 'en-US' }), null);
    assert.equal(provider.problemWith({ language: null, customParams: {} }), null);
    assert.equal(provider.problemWith({ customParams: { beam: 1e-40 } }), 'custom_params must be empty: the Default provider takes none');
    assert.match((await failure(provider.transcribe({ audio: { path: mp3 }, language: 'de' }))).message, /English only/);
    assert.match((await failure(provider.transcribe({ audio: { url: 'file:///etc/passwd' } }))).message, /must be http or https/);
    assert.match((await failure(provider.transcribe({ audio: {} }))).message, /needs the recording/);
  });
});

describe('PocketSphinx -time output', () => {
  it('keeps the words with their times, without sentence, silence and noise markers or pronunciation numbers', () => {
    const output = [
      'good morning for you',
      '<s> 0.000 0.140 1.000100',
      'good 0.150 0.390 1.000200',
      '[NOISE] 0.400 0.500 0.300000',
      'morning 0.510 0.900 0.998000',
      '<sil> 0.910 1.000 0.763203',
      'for(3) 1.010 1.200 0.430000',
      "o'clock 1.210 1.600 0.900000",
      '</s> 1.610 1.700 1.000000',
      '',
    ].join('\n');
    assert.deepEqual(parsePocketSphinxTimes(output), [
      { word: 'good', start: 0.15, end: 0.39, confidence: 1, speaker_label: null },
      { word: 'morning', start: 0.51, end: 0.9, confidence: 0.998, speaker_label: null },
      { word: 'for', start: 1.01, end: 1.2, confidence: 0.43, speaker_label: null },
      { word: "o'clock", start: 1.21, end: 1.6, confidence: 0.9, speaker_label: null },
    ]);
  });
});
