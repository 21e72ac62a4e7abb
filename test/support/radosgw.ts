import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import * as Minio from 'minio';
import { freePort } from './free-port';

const run = promisify(execFile);

/**
 * A real S3-compatible server that enforces per-key permissions: Ceph radosgw (Debian's `radosgw`,
 * `ceph-mon`, `ceph-osd`, installed by scripts/install-system-packages.sh) on one monitor and one
 * in-memory OSD, all on loopback, in a temporary folder. Users are made with `radosgw-admin`; per-key
 * permissions are bucket policies (see `bucketPolicy`).
 */
export interface Radosgw {
  /** `http://127.0.0.1:<port>` */
  readonly endpoint: string;
  readonly host: string;
  readonly port: number;
  /** any region works for signatures; buckets are made without a location constraint */
  readonly region: string;
  /** how long the whole start took, measured (ENVIRONMENT.md says about 16 s) */
  readonly startupMs: number;
  /**
   * A new radosgw user with its own random key pair. A user of a tenant has its own bucket namespace: the
   * same bucket name there is another bucket.
   */
  createUser(name?: string, options?: { readonly tenant?: string }): Promise<S3Keys>;
  /** suspends a user: its key stops working (a customer withdrawing access) */
  suspendUser(keys: S3Keys): Promise<void>;
  client(keys: S3Keys): Minio.Client;
  stop(): Promise<void>;
}

export interface S3Keys {
  readonly uid: string;
  readonly tenant?: string;
  readonly accessKey: string;
  readonly secretKey: string;
}

const REGION = 'us-east-1';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every setting a one-machine, throw-away cluster needs; the ms_*_mode lines keep radosgw from looping on auth. */
const cephConf = (dir: string, fsid: string, monPort: number): string => `[global]
fsid = ${fsid}
mon host = v2:127.0.0.1:${monPort}
public addr = 127.0.0.1
auth cluster required = none
auth service required = none
auth client required = none
ms_mon_client_mode = crc
ms_client_mode = crc
ms_mon_cluster_mode = crc
ms_cluster_mode = crc
ms_mon_service_mode = crc
ms_service_mode = crc
run dir = ${dir}/run
admin socket = ${dir}/run/$name.asok
pid file = ${dir}/run/$name.pid
log file = ${dir}/log/$name.log
log to stderr = false
mon data = ${dir}/mon
mon data avail warn = 1
mon data avail crit = 0
mon allow pool size one = true
mon warn on pool no redundancy = false
mon allow pool delete = true
paxos propose interval = 0.05
osd data = ${dir}/osd
osd objectstore = memstore
memstore device bytes = ${3 * 2 ** 30}
osd pool default size = 1
osd pool default min size = 1
osd crush chooseleaf type = 0
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
[client.rgw]
rgw data = ${dir}/rgw
rgw enable usage log = false
`;

interface Daemon {
  readonly name: string;
  readonly child: ChildProcess;
  readonly exited: Promise<void>;
}

const startDaemon = (dir: string, name: string, command: string, args: readonly string[]): Daemon => {
  const out = openSync(path.join(dir, 'log', `${name}.out`), 'a');
  const child = spawn(command, args, { stdio: ['ignore', out, out] });
  closeSync(out);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { name, child, exited };
};

const stopDaemon = async (daemon: Daemon): Promise<void> => {
  if (daemon.child.exitCode !== null || daemon.child.signalCode !== null) return;
  daemon.child.kill('SIGTERM');
  // radosgw waits for the cluster on SIGTERM; the data is thrown away anyway, so a short wait is enough.
  const stopped = await Promise.race([daemon.exited.then(() => true), sleep(3000).then(() => false)]);
  if (!stopped) {
    daemon.child.kill('SIGKILL');
    await daemon.exited;
  }
};

const tail = (file: string, lines = 30): string => {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
};

/** Polls `check` until it answers true; fails early if a daemon it needs has exited. */
const waitFor = async (what: string, check: () => Promise<boolean>, daemons: readonly Daemon[], dir: string, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const dead = daemons.find((d) => d.child.exitCode !== null || d.child.signalCode !== null);
    if (dead) throw new Error(`${dead.name} exited while waiting for ${what}:\n${tail(path.join(dir, 'log', `${dead.name}.out`))}\n${tail(path.join(dir, 'log', `${dead.name === 'radosgw' ? 'client.rgw' : dead.name}.log`))}`);
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(200);
  }
};

/** Starts one throw-away cluster; `stop` ends its processes and removes its folder. */
export const startRadosgw = async (): Promise<Radosgw> => {
  const started = Date.now();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'radosgw-'));
  for (const sub of ['mon', 'osd', 'run', 'log', 'rgw']) mkdirSync(path.join(dir, sub));
  const conf = path.join(dir, 'ceph.conf');
  const daemons: Daemon[] = [];
  const stopAll = async () => {
    for (const daemon of [...daemons].reverse()) await stopDaemon(daemon);
  };
  const ceph = async (...args: string[]) => (await run('ceph', ['-c', conf, '--connect-timeout', '20', ...args], { timeout: 30_000 })).stdout;
  const admin = async (...args: string[]) => (await run('radosgw-admin', ['-c', conf, ...args], { timeout: 30_000 })).stdout;

  try {
    const fsid = randomUUID();
    const monPort = await freePort();
    writeFileSync(conf, cephConf(dir, fsid, monPort));
    await run('monmaptool', ['--create', '--fsid', fsid, '--addv', 'a', `[v2:127.0.0.1:${monPort}]`, path.join(dir, 'monmap')]);
    await run('ceph-mon', ['-c', conf, '--mkfs', '-i', 'a', '--monmap', path.join(dir, 'monmap')]);
    daemons.push(startDaemon(dir, 'mon.a', 'ceph-mon', ['-c', conf, '-i', 'a', '-f']));

    const osdUuid = randomUUID();
    let osdId = '';
    await waitFor('the monitor', async () => ((osdId = (await ceph('osd', 'new', osdUuid)).trim()), true), daemons, dir, 30_000);
    await run('ceph-osd', ['-c', conf, '-i', osdId, '--mkfs', '--osd-uuid', osdUuid]);
    daemons.push(startDaemon(dir, `osd.${osdId}`, 'ceph-osd', ['-c', conf, '-i', osdId, '-f']));
    await waitFor('the OSD', async () => JSON.parse(await ceph('osd', 'stat', '-f', 'json')).num_up_osds === 1, daemons, dir, 30_000);

    const port = await freePort();
    daemons.push(startDaemon(dir, 'radosgw', 'radosgw', ['-c', conf, '-n', 'client.rgw', '-f', `--rgw-frontends=beast endpoint=127.0.0.1:${port}`]));
    const endpoint = `http://127.0.0.1:${port}`;
    await waitFor('radosgw', async () => (await fetch(endpoint)).status === 200, daemons, dir, 60_000);

    const client = (keys: S3Keys) =>
      new Minio.Client({ endPoint: '127.0.0.1', port, useSSL: false, accessKey: keys.accessKey, secretKey: keys.secretKey, region: REGION, pathStyle: true });
    let stopped = false;
    const self: Radosgw = {
      endpoint,
      host: '127.0.0.1',
      port,
      region: REGION,
      startupMs: Date.now() - started,
      createUser: async (name = 'user', options = {}) => {
        const uid = `${name}-${randomBytes(4).toString('hex')}`;
        const keys = { uid, ...(options.tenant ? { tenant: options.tenant } : {}), accessKey: `AK${randomBytes(9).toString('hex').toUpperCase()}`, secretKey: randomBytes(24).toString('base64url') };
        const tenant = options.tenant ? [`--tenant=${options.tenant}`] : [];
        await admin('user', 'create', ...tenant, `--uid=${uid}`, `--display-name=${uid}`, `--access-key=${keys.accessKey}`, `--secret-key=${keys.secretKey}`);
        return keys;
      },
      suspendUser: async (keys) => {
        await admin('user', 'suspend', ...(keys.tenant ? [`--tenant=${keys.tenant}`] : []), `--uid=${keys.uid}`);
      },
      client,
      stop: async () => {
        if (stopped) return;
        stopped = true;
        process.off('exit', killOnExit);
        await stopAll();
        rmSync(dir, { recursive: true, force: true });
      },
    };
    // Mocha's `exit: true` ends the process after the run; never leave daemons behind if `stop` was skipped.
    const killOnExit = () => {
      for (const daemon of daemons) daemon.child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    };
    process.on('exit', killOnExit);
    return self;
  } catch (error) {
    await stopAll();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
};

let shared: Promise<Radosgw> | null = null;

/**
 * One server for the whole test run (starting one takes seconds): tests keep apart by making their own
 * users and buckets. It is stopped by the root `after` hook below, once every suite is done.
 */
export const sharedRadosgw = (): Promise<Radosgw> => {
  shared ??= startRadosgw();
  return shared;
};

if (typeof after === 'function') {
  after(async () => {
    if (shared) await (await shared.catch(() => null))?.stop();
    shared = null;
  });
}

/**
 * A bucket policy granting each principal only the listed actions on the bucket's objects, and explicitly
 * denying everything else S3 can do with objects: radosgw lets an uploader read and delete what it owns
 * unless a Deny says otherwise.
 */
export const bucketPolicy = (bucket: string, grants: readonly { readonly keys: S3Keys; readonly allow: readonly string[] }[]): string => {
  const objects = `arn:aws:s3:::${bucket}/*`;
  const bucketArn = `arn:aws:s3:::${bucket}`;
  const objectActions = ['s3:GetObject', 's3:PutObject', 's3:DeleteObject', 's3:PutObjectTagging', 's3:GetObjectTagging', 's3:AbortMultipartUpload', 's3:ListMultipartUploadParts'];
  const bucketActions = ['s3:ListBucket', 's3:ListBucketMultipartUploads'];
  const statements = grants.flatMap(({ keys, allow }) => {
    const principal = { AWS: [`arn:aws:iam::${keys.tenant ?? ''}:user/${keys.uid}`] };
    const deniedObjects = objectActions.filter((a) => !allow.includes(a));
    const deniedBucket = bucketActions.filter((a) => !allow.includes(a));
    const allowedObjects = allow.filter((a) => objectActions.includes(a));
    const allowedBucket = allow.filter((a) => bucketActions.includes(a));
    return [
      ...(allowedObjects.length ? [{ Effect: 'Allow', Principal: principal, Action: allowedObjects, Resource: [objects] }] : []),
      ...(allowedBucket.length ? [{ Effect: 'Allow', Principal: principal, Action: allowedBucket, Resource: [bucketArn] }] : []),
      ...(deniedObjects.length ? [{ Effect: 'Deny', Principal: principal, Action: deniedObjects, Resource: [objects] }] : []),
      ...(deniedBucket.length ? [{ Effect: 'Deny', Principal: principal, Action: deniedBucket, Resource: [bucketArn] }] : []),
    ];
  });
  return JSON.stringify({ Version: '2012-10-17', Statement: statements });
};

/** A bucket name S3 accepts (3 to 63 lower-case letters, digits and hyphens), unique per call. */
export const bucketName = (purpose: string): string => `${purpose}-${randomBytes(6).toString('hex')}`;
