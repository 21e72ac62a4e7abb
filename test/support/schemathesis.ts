import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Where scripts/install-schemathesis.sh puts it (or SCHEMATHESIS_BIN). */
export const SCHEMATHESIS_VERSION = '4.32.5';

export const schemathesisBin = (): string | null => {
  if (process.env.SCHEMATHESIS_BIN) return process.env.SCHEMATHESIS_BIN;
  const cache = process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache');
  const bin = path.join(cache, 'meeting-bot-service', `schemathesis-${SCHEMATHESIS_VERSION}`, 'bin', 'schemathesis');
  return existsSync(bin) ? bin : null;
};

export interface FuzzRun {
  readonly exitCode: number;
  /** what Schemathesis printed: its failures with the curl command that reproduces each */
  readonly output: string;
  /** test cases generated and sent, from its NDJSON report */
  readonly requests: number;
  readonly operations: number;
}

/**
 * Values the fuzzer draws for some parameters, half the time: ids of what exists, so that 2xx answers are met
 * too. `paths` (a regular expression) keeps a dictionary to the operations of those paths: a tm login's id on
 * the tm routes, an mt one's on the mt routes, each drawn as often as the other.
 */
export type Dictionaries = Readonly<Record<string, { readonly values: readonly string[]; readonly parameters: readonly string[]; readonly paths?: string }>>;

const toml = (value: string) => JSON.stringify(value);

const bindings = (entries: [string, Dictionaries[string]][]): Map<string, string> =>
  new Map(entries.flatMap(([name, d]) => d.parameters.map((p): [string, string] => [p, `{ dictionary = ${toml(name)}, probability = 0.5 }`])));

const configOf = (dictionaries: Dictionaries): string => {
  const lines: string[] = [];
  const entries = Object.entries(dictionaries);
  for (const [name, d] of entries) lines.push(`[dictionaries.${name}]`, `values = [${d.values.map(toml).join(', ')}]`, '');
  const everywhere = bindings(entries.filter(([, d]) => d.paths === undefined));
  lines.push('[parameters]', ...[...everywhere].map(([p, b]) => `${toml(p)} = ${b}`), '');
  // An operation's own parameters replace the project's: each block repeats those and adds its own.
  for (const paths of new Set(entries.flatMap(([, d]) => (d.paths === undefined ? [] : [d.paths])))) {
    const own = new Map([...everywhere, ...bindings(entries.filter(([, d]) => d.paths === paths))]);
    lines.push('[[operations]]', `include-path-regex = ${toml(paths)}`, '[operations.parameters]', ...[...own].map(([p, b]) => `${toml(p)} = ${b}`), '');
  }
  return `${lines.join('\n')}\n`;
};

const countEvents = (folder: string): { requests: number; operations: number } => {
  let requests = 0;
  const operations = new Set<string>();
  for (const file of readdirSync(folder).filter((f) => f.endsWith('.ndjson'))) {
    for (const line of readFileSync(path.join(folder, file), 'utf8').split('\n')) {
      if (!line.includes('"ScenarioFinished"')) continue;
      const event = JSON.parse(line) as { ScenarioFinished?: { recorder?: { label?: string; interactions?: Record<string, unknown> } } };
      const recorder = event.ScenarioFinished?.recorder;
      if (!recorder) continue;
      requests += Object.keys(recorder.interactions ?? {}).length;
      if (recorder.label) operations.add(recorder.label);
    }
  }
  return { requests, operations: operations.size };
};

/**
 * Runs Schemathesis against a live service's /openapi.json with one key: every operation, the checks named,
 * a bounded number of examples, a fixed seed (a failure can be replayed), one worker (the machine is shared).
 */
export const runSchemathesis = (options: {
  readonly bin: string;
  readonly url: string;
  readonly apiKey: string;
  readonly checks: readonly string[];
  readonly maxExamples: number;
  readonly phases: readonly string[];
  readonly dictionaries: Dictionaries;
  readonly seed: number;
  readonly excludeChecks?: readonly string[];
}): Promise<FuzzRun> => {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'mbs-schemathesis-'));
  const config = path.join(folder, 'schemathesis.toml');
  writeFileSync(config, configOf(options.dictionaries));
  const args = [
    '--no-color',
    '--config-file', config,
    'run', `${options.url}/openapi.json`,
    '--header', `x-service-api-key: ${options.apiKey}`,
    '--checks', options.checks.join(','),
    '--max-examples', String(options.maxExamples),
    '--phases', options.phases.join(','),
    '--seed', String(options.seed),
    '--workers', '1',
    '--request-timeout', '60',
    '--report', 'ndjson',
    '--report-dir', folder,
    '--output-truncate', 'false',
    '--suppress-health-check', 'all',
  ];
  return new Promise((resolve, reject) => {
    execFile(options.bin, args, { cwd: folder, maxBuffer: 64 * 2 ** 20, env: { ...process.env, NO_COLOR: '1' } }, (error, stdout, stderr) => {
      const exitCode = error ? (typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : -1) : 0;
      if (exitCode === -1) return reject(error);
      const counted = countEvents(folder);
      // a passing run's report is counted, not kept; a failing run's stays for replaying, and the output says where
      if (exitCode === 0) rmSync(folder, { recursive: true, force: true });
      resolve({ exitCode, output: exitCode === 0 ? `${stdout}${stderr}` : `${stdout}${stderr}\nreport: ${folder}`, ...counted });
    });
  });
};
