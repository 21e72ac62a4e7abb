import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { descendantsOf } from './processes';
import { ADMIN_TOKEN } from './test-service';

export { freePort } from './free-port';

const root = path.resolve(__dirname, '../..');

/**
 * The service as its own process (`src/main.ts`, as `npm start` runs it), for what only a real process can
 * show: a SIGKILL leaves no chance to clean up, what a start refuses. Its own secret (kept across
 * restarts, never a file in the user's home) and no development convenience unless `env` turns it on.
 */
export class ServiceProcess {
  private child: ChildProcess | null = null;
  private output = '';
  private readonly secret = randomBytes(32).toString('hex');

  constructor(
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Started, and not exited since. */
  get running(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  async start(): Promise<void> {
    this.output = '';
    this.child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src/main.ts')], {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        PORT: String(this.port),
        HOST: '127.0.0.1',
        ADMIN_TOKEN,
        SERVICE_SECRET: this.secret,
        LOG_LEVEL: 'warn',
        ...this.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout!.on('data', (c: Buffer) => (this.output += c.toString()));
    this.child.stderr!.on('data', (c: Buffer) => (this.output += c.toString()));
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (this.child.exitCode !== null) throw new Error(`the service exited: ${this.output}`);
      try {
        if ((await fetch(`${this.url}/health`)).ok) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`the service did not start: ${this.output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Ends it at once, as a crash or an OOM killer would. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  /**
   * Ends it and every process it started (its bots, their browsers) at once, as the loss of its machine
   * would: the bots run in process groups of their own, so they would outlive a kill of the service alone.
   */
  async killWithItsProcesses(): Promise<number[]> {
    const child = this.child;
    if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return [];
    const signal = (pid: number, name: NodeJS.Signals) => {
      try {
        process.kill(pid, name);
      } catch {
        // gone meanwhile
      }
    };
    // Frozen first, so that none of them starts another process while the tree is read.
    const frozen = new Set<number>([child.pid]);
    signal(child.pid, 'SIGSTOP');
    for (let found = descendantsOf(child.pid); found.some((pid) => !frozen.has(pid)); found = descendantsOf(child.pid)) {
      for (const pid of found) if (!frozen.has(pid)) (frozen.add(pid), signal(pid, 'SIGSTOP'));
    }
    const exited = new Promise((resolve) => child.once('exit', resolve));
    for (const pid of frozen) signal(pid, 'SIGKILL');
    await exited;
    return [...frozen].filter((pid) => pid !== child.pid);
  }

  logText(): string {
    return this.output;
  }
}
