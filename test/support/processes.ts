/** What Linux shows of a process in /proc (the test runs as root, so it may read any process's). */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

const read = (pid: number, what: string): string | null => {
  try {
    return readFileSync(`/proc/${pid}/${what}`, 'utf8');
  } catch {
    return null; // gone meanwhile
  }
};

/** Its parent's pid. */
const parentOf = (pid: number): number | null => {
  const stat = read(pid, 'stat');
  if (stat === null) return null;
  // the name is in parentheses and may hold spaces: the fields after the last ')' are fixed
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
};

/** Every process below `root`, however deep. */
export const descendantsOf = (root: number): number[] => {
  const pids = readdirSync('/proc').filter((n) => /^\d+$/.test(n)).map(Number);
  const parents = new Map(pids.map((p) => [p, parentOf(p)]));
  const below = (pid: number): boolean => {
    for (let p = parents.get(pid); p !== null && p !== undefined && p > 1; p = parents.get(p)) if (p === root) return true;
    return false;
  };
  return pids.filter(below);
};

export interface ProcessFacts {
  readonly pid: number;
  /**
   * The command line, arguments joined by spaces. Chromium's child processes rewrite theirs (their title),
   * which then runs on into the memory of their environment: for them `env` means nothing, and only the
   * raw texts can be searched.
   */
  readonly commandLine: string;
  readonly environText: string;
  readonly env: Map<string, string>;
  /** real, effective, saved and file-system uids */
  readonly uids: number[];
  readonly groups: number[];
  /** 2: a seccomp-bpf filter confines it */
  readonly seccomp: number;
  readonly userNamespace: string;
}

export const factsOf = (pid: number): ProcessFacts | null => {
  const status = read(pid, 'status');
  const cmdline = read(pid, 'cmdline');
  const environ = read(pid, 'environ');
  if (status === null || cmdline === null || environ === null) return null;
  const field = (name: string) => (new RegExp(`^${name}:[ \\t]*(.*)$`, 'm').exec(status)?.[1] ?? '').trim();
  let userNamespace = '';
  try {
    userNamespace = readlinkSync(`/proc/${pid}/ns/user`);
  } catch {
    return null;
  }
  return {
    pid,
    commandLine: cmdline.split('\0').filter(Boolean).join(' '),
    environText: environ,
    env: new Map(environ.split('\0').filter(Boolean).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)])),
    uids: field('Uid').split(/\s+/).map(Number),
    groups: field('Groups').split(/\s+/).filter(Boolean).map(Number),
    seccomp: Number(field('Seccomp')),
    userNamespace,
  };
};
