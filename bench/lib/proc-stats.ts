/**
 * Memory and CPU of processes on this machine, read from /proc (Linux only).
 *
 * PSS (proportional set size) is the figure for "memory per bot": Chromium's processes share most of
 * their pages (the binary, the zygote's forked heap), so summed RSS counts those pages many times
 * over, while PSS charges each shared page in equal parts to the processes that map it.
 */
import { readdir, readFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface ProcessEntry {
  readonly pid: number;
  readonly ppid: number;
  /** the executable's short name (`comm`), to recognise a process again later */
  readonly name: string;
  /** CPU time used so far (user + system), in clock ticks */
  readonly cpuTicks: number;
}

/** The stat line is `pid (comm) state ppid ...`; comm may hold spaces and parentheses, so parse after the last ')'. */
const parseStat = (pid: number, stat: string): ProcessEntry | null => {
  const open = stat.indexOf('(');
  const close = stat.lastIndexOf(')');
  if (open < 0 || close < 0) return null;
  // fields after comm, from `state` (field 3 of proc(5)): ppid is field 4, utime 14, stime 15
  const fields = stat.slice(close + 2).split(' ');
  return { pid, ppid: Number(fields[1]), name: stat.slice(open + 1, close), cpuTicks: Number(fields[11]) + Number(fields[12]) };
};

/** Every process of the machine with its parent. Processes that end while we read are skipped. */
export const processTable = async (): Promise<ProcessEntry[]> => {
  const pids = (await readdir('/proc')).filter((d) => /^\d+$/.test(d)).map(Number);
  const entries = await Promise.all(
    pids.map(async (pid) => {
      try {
        return parseStat(pid, await readFile(`/proc/${pid}/stat`, 'utf8'));
      } catch {
        return null;
      }
    }),
  );
  return entries.filter((e): e is ProcessEntry => e !== null);
};

/**
 * `root` and everything below it by parent links. Process groups are no help here: puppeteer starts
 * Chromium detached (its own group), but it stays a child of the bot process while the bot lives.
 * Not found this way: Chromium's two `chrome_crashpad_handler`s, which detach to init (about 1 MB PSS each).
 */
export const processTree = (root: number, table: readonly ProcessEntry[]): ProcessEntry[] => {
  const children = new Map<number, ProcessEntry[]>();
  for (const p of table) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const self = table.find((p) => p.pid === root);
  if (!self) return [];
  const tree: ProcessEntry[] = [];
  const pending = [self];
  while (pending.length > 0) {
    const p = pending.pop()!;
    tree.push(p);
    pending.push(...(children.get(p.pid) ?? []));
  }
  return tree;
};

/** PSS of one process in kB, from the `Pss:` line of smaps_rollup; 0 when the process is gone. */
export const pssKb = async (pid: number | 'self'): Promise<number> => {
  try {
    const rollup = await readFile(`/proc/${pid}/smaps_rollup`, 'utf8');
    return Number(/^Pss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0);
  } catch {
    return 0;
  }
};

export const sumPssKb = async (pids: readonly number[]): Promise<number> => (await Promise.all(pids.map(pssKb))).reduce((a, b) => a + b, 0);

/** Whether a process seen earlier still runs (same pid and the same executable name, so a reused pid does not count). */
export const stillRunning = async (p: ProcessEntry): Promise<boolean> => {
  try {
    return parseStat(p.pid, await readFile(`/proc/${p.pid}/stat`, 'utf8'))?.name === p.name;
  } catch {
    return false;
  }
};

export const CLOCK_TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

export interface CpuTimes {
  readonly busy: number;
  readonly total: number;
}

/** Machine-wide CPU time so far (all cores), in clock ticks: idle and iowait are not busy. */
export const cpuTimes = (): CpuTimes => {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  // user nice system idle iowait irq softirq steal (guest times are already inside user and nice)
  const [user, nice, system, idle, iowait, irq, softirq, steal] = fields.map(Number) as number[];
  const total = user! + nice! + system! + idle! + iowait! + irq! + softirq! + steal!;
  return { busy: total - idle! - iowait!, total };
};

/** Busy share of the whole machine between two readings, 0..100 (100 = every core busy). */
export const busyPercent = (from: CpuTimes, to: CpuTimes): number => (100 * (to.busy - from.busy)) / Math.max(1, to.total - from.total);
