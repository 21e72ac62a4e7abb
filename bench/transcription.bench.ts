/**
 * `npm run bench:transcription`: the Default provider's real-time factor on 10 minutes of flite speech,
 * against `pocketsphinx_continuous` run directly on the same file in the same run. The ratio is the
 * figure: what our wrapping (ffmpeg decoding into a named pipe, parsing) costs over the bare decoder.
 * Both CPU time (the work's cost, steady on a shared machine) and wall time (what a caller waits) are
 * reported.
 * The provider also runs on the same speech as a 48 kHz MP3, the file audio_only bots store, beside the
 * bare decoder on that MP3's audio.
 *
 * BENCH_MINUTES (default 10) sets the length, BENCH_ROUNDS (default 2) how many times each is run; runs
 * alternate so that a change in the machine's load falls on both sides.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { POCKETSPHINX_ARGS, PocketSphinxProvider } from '../src/adapters/transcription/default-pocketsphinx';
import { parsePocketSphinxTimes } from '../src/adapters/transcription/pocketsphinx-output';
import { wordErrorRate } from '../src/domain/transcription/word-error-rate';

const run = promisify(execFile);
const MINUTES = Number(process.env.BENCH_MINUTES ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);

const SENTENCES = [
  'good morning everyone this is the weekly planning meeting',
  'the customer reported that the recording stopped after ten minutes',
  'we need to fix the bot before friday',
  'let us review the action items from last week',
  'the new design looks good to me',
  'i will send the report to the team this afternoon',
  'can everyone hear me clearly',
  'the budget for the next quarter is ready',
  'please share your screen so we can see the numbers',
  'thank you all for joining the call today',
  'the release is planned for the end of the month',
  'i think we should talk to the sales team first',
  'the server was down for two hours last night',
  'we will meet again next monday morning',
  'does anyone have questions about the project',
  'the marketing team needs more time for the launch',
];
const VOICES = ['slt', 'rms'];
/** a bare 44-byte WAV header: the decoder skips exactly that much of a .wav, so ffmpeg's LIST chunk would be read as samples */
const BARE_WAV = ['-map_metadata', '-1', '-fflags', '+bitexact', '-flags:a', '+bitexact'];

/** Sentences in two voices, a second of silence after each, until `minutes` are filled: a WAV (16 kHz mono S16) and its script. */
const makeSpeech = async (dir: string, minutes: number): Promise<{ wav: string; mp3: string; seconds: number; script: string }> => {
  const silence = path.join(dir, 'silence.wav');
  await run('ffmpeg', ['-nostdin', '-loglevel', 'error', '-f', 'lavfi', '-t', '1', '-i', 'anullsrc=r=16000:cl=mono', '-c:a', 'pcm_s16le', silence]);
  const clips: { file: string; text: string; seconds: number }[] = [];
  for (const [i, text] of SENTENCES.entries()) {
    for (const voice of VOICES) {
      const file = path.join(dir, `s${i}-${voice}.wav`);
      await run('flite', ['-voice', voice, '-t', text, '-o', file]);
      clips.push({ file, text, seconds: (statSync(file).size - 44) / 32000 });
    }
  }
  const list: string[] = [];
  const script: string[] = [];
  let seconds = 0;
  for (let n = 0; seconds < minutes * 60; n++) {
    // walk the sentences and alternate the voices, so neighbours differ in both
    const clip = clips[(n % SENTENCES.length) * VOICES.length + (Math.floor(n / SENTENCES.length) + n) % VOICES.length]!;
    list.push(`file '${clip.file}'`, `file '${silence}'`);
    script.push(clip.text);
    seconds += clip.seconds + 1;
  }
  const listFile = path.join(dir, 'list.txt');
  writeFileSync(listFile, list.join('\n') + '\n');
  const wav = path.join(dir, 'speech.wav');
  const mp3 = path.join(dir, 'speech.mp3');
  await run('ffmpeg', ['-nostdin', '-loglevel', 'error', '-f', 'concat', '-safe', '0', '-i', listFile, '-c:a', 'pcm_s16le', ...BARE_WAV, wav]);
  await run('ffmpeg', ['-nostdin', '-loglevel', 'error', '-i', wav, '-ar', '48000', '-c:a', 'libmp3lame', '-b:a', '128k', mp3]);
  return { wav, mp3, seconds: (statSync(wav).size - 44) / 32000, script: script.join(' ') };
};

/** The bare decoder on the WAV, as the research measured it; its words. */
const pocketsphinxDirect = (wav: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const child = spawn('pocketsphinx_continuous', ['-infile', wav, ...POCKETSPHINX_ARGS, '-logfn', '/dev/null'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(parsePocketSphinxTimes(out).map((w) => w.word).join(' ')) : reject(new Error(`pocketsphinx exit ${code}`))));
  });

/**
 * CPU seconds spent so far by this process and by its children that have ended (cutime and cstime of
 * /proc/self/stat, in clock ticks of 1/100 s): the work's own cost, which other load on a shared
 * machine stretches in wall time but hardly changes.
 */
const cpuSeconds = (): number => {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[13]) + Number(fields[14]);
  const own = process.cpuUsage();
  return ticks / 100 + (own.user + own.system) / 1e6;
};

const timed = async (work: () => Promise<string>): Promise<{ seconds: number; cpu: number; text: string }> => {
  const started = process.hrtime.bigint();
  const cpuBefore = cpuSeconds();
  const text = await work();
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, cpu: cpuSeconds() - cpuBefore, text };
};

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

const main = async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-transcription-'));
  try {
    console.log(`making ${MINUTES} min of flite speech (voices ${VOICES.join(', ')}) ...`);
    const speech = await makeSpeech(dir, MINUTES);
    console.log(`${speech.seconds.toFixed(1)} s of audio; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}; ${os.cpus().length} cores`);
    const provider = new PocketSphinxProvider();
    const viaProvider = (file: string) => async () => (await provider.transcribe({ audio: { path: file } })).words.map((w) => w.word).join(' ');
    // the MP3's audio as the bare decoder takes it: lossy coding changes the decoder's work, not ours
    const mp3Wav = path.join(dir, 'speech-from-mp3.wav');
    await run('ffmpeg', ['-nostdin', '-loglevel', 'error', '-i', speech.mp3, '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le', ...BARE_WAV, mp3Wav]);
    const kinds = {
      'pocketsphinx_continuous on the WAV (baseline)': () => pocketsphinxDirect(speech.wav),
      'Default provider on the WAV': viaProvider(speech.wav),
      'pocketsphinx_continuous on the MP3, decoded to a WAV first': () => pocketsphinxDirect(mp3Wav),
      'Default provider on the MP3 (48 kHz, 128k)': viaProvider(speech.mp3),
    };
    const results = new Map<string, { seconds: number[]; cpu: number[]; text: string }>();
    for (let round = 0; round < ROUNDS; round++) {
      const order = Object.entries(kinds);
      if (round % 2 === 1) order.reverse();
      for (const [name, work] of order) {
        const r = await timed(work);
        const entry = results.get(name) ?? { seconds: [], cpu: [], text: r.text };
        entry.seconds.push(r.seconds);
        entry.cpu.push(r.cpu);
        results.set(name, entry);
        console.log(`  round ${round + 1}: ${name}: ${r.seconds.toFixed(1)} s wall, ${r.cpu.toFixed(1)} s CPU (load ${os.loadavg()[0]!.toFixed(2)})`);
      }
    }
    const base = results.get('pocketsphinx_continuous on the WAV (baseline)')!;
    const [baseWall, baseCpu] = [median(base.seconds), median(base.cpu)];
    console.log(`\n| run (medians of ${ROUNDS}) | CPU | CPU real-time factor | CPU against the baseline | wall | wall against the baseline | WER on the script |`);
    console.log('|---|---|---|---|---|---|---|');
    for (const [name, r] of results) {
      const [wall, cpu] = [median(r.seconds), median(r.cpu)];
      const wer = wordErrorRate(speech.script, r.text).wer;
      console.log(
        `| ${name} | ${cpu.toFixed(1)} s | ${(cpu / speech.seconds).toFixed(3)} | **x${(cpu / baseCpu).toFixed(3)}** | ${wall.toFixed(1)} s | x${(wall / baseWall).toFixed(3)} | ${wer.toFixed(3)} |`,
      );
    }
    const same = (a: string, b: string) => (results.get(a)!.text === results.get(b)!.text ? 'are' : 'are NOT');
    console.log(`\nthe provider's words on the WAV ${same('Default provider on the WAV', 'pocketsphinx_continuous on the WAV (baseline)')} the bare decoder's`);
    console.log(`the provider's words on the MP3 ${same('Default provider on the MP3 (48 kHz, 128k)', 'pocketsphinx_continuous on the MP3, decoded to a WAV first')} the bare decoder's on its audio`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
