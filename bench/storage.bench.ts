/**
 * `npm run bench:storage`: a 200 MB recording uploaded the way a bot uploads it (S3Uploader: the put-only
 * ingest key, parts of 16 MiB, no listing) into a local Ceph radosgw, against minio's own fPutObject of
 * the same file into the same server in the same run (the bucket owner's key: minio lists uploads first);
 * and presigned link creation per second, against the service's own HMAC-signed links.
 */
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { S3Uploader } from '../bot-runtime/uploaders/s3-uploader';
import { LocalFolderObjectStore } from '../src/adapters/object-store/local-folder-object-store';
import { S3ObjectStore } from '../src/adapters/object-store/s3-object-store';
import type { ObjectStore } from '../src/adapters/object-store/port';
import { Signer } from '../src/adapters/signing/signer';
import { ServiceKeys } from '../src/adapters/signing/service-keys';
import { serviceSignedLink } from '../src/http/artifacts/artifact-links';
import { customerStorage, SERVICE_ACTIONS } from '../test/support/customer-storage';
import { startRadosgw } from '../test/support/radosgw';

const MB = 1_000_000;
const SIZE = Number(process.env.BENCH_STORAGE_MB ?? 200) * MB;
const RUNS = Number(process.env.BENCH_STORAGE_RUNS ?? 3);
const LINKS = Number(process.env.BENCH_STORAGE_LINKS ?? 20_000);

const writeRandomFile = async (file: string, bytes: number) => {
  const out = createWriteStream(file);
  for (let written = 0; written < bytes; written += 4 * MB) {
    if (!out.write(randomBytes(Math.min(4 * MB, bytes - written)))) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
};

const timed = async (work: () => Promise<unknown>): Promise<number> => {
  const started = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - started) / 1e9;
};

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const linksPerSecond = async (store: ObjectStore): Promise<number> => {
  const signedAt = new Date();
  const seconds = await timed(async () => {
    for (let i = 0; i < LINKS; i++) await store.downloadUrl(`6f1c1c3e-7a53-4d0e-9a43-2b6f3d7f3a10/audio_chunks/${i}.webm`, { contentType: 'audio/webm', signedAt, ttlSeconds: 7200 });
  });
  return LINKS / seconds;
};

const main = async () => {
  const work = mkdtempSync(path.join(os.tmpdir(), 'bench-storage-'));
  const gw = await startRadosgw();
  try {
    console.log(`radosgw ready in ${(gw.startupMs / 1000).toFixed(1)} s; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    // minio's own multipart upload lists unfinished uploads and their parts first: the baseline's key may.
    const customer = await customerStorage(gw, { serviceActions: [...SERVICE_ACTIONS, 's3:ListBucketMultipartUploads', 's3:ListMultipartUploadParts'] });
    const file = path.join(work, 'recording.mp4');
    await writeRandomFile(file, SIZE);
    const bot = new S3Uploader(
      {
        kind: 's3',
        endpoint: gw.endpoint,
        region: gw.region,
        force_path_style: true,
        buckets: { artifacts: customer.artifactsBucket, audio_chunks: customer.audioChunksBucket, logs: customer.logsBucket },
        access_key_id: customer.ingest.accessKey,
        secret_access_key: customer.ingest.secretKey,
        prefix: 'bench-bot',
        spill: null,
      },
      false, // the bench's server is on this machine
    );
    const minio = customer.serviceClient;
    const minioSeconds: number[] = [];
    const botSeconds: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      // Alternated, so that a busy moment of the shared machine falls on both.
      minioSeconds.push(await timed(() => minio.fPutObject(customer.artifactsBucket, `minio-${run}.mp4`, file, { 'Content-Type': 'video/mp4' })));
      botSeconds.push(await timed(() => bot.uploadFile(`recording-${run}.mp4`, file, 'video/mp4', 'recording')));
      await minio.removeObject(customer.artifactsBucket, `minio-${run}.mp4`);
      await minio.removeObject(customer.artifactsBucket, `bench-bot/recording-${run}.mp4`);
    }
    const minioRate = SIZE / MB / median(minioSeconds);
    const botRate = SIZE / MB / median(botSeconds);
    console.log(`upload of ${SIZE / MB} MB into radosgw, median of ${RUNS} runs each (seconds: minio ${minioSeconds.map((s) => s.toFixed(2)).join(', ')}; bot ${botSeconds.map((s) => s.toFixed(2)).join(', ')})`);
    console.log(`  minio fPutObject (owner key)          ${minioRate.toFixed(1).padStart(7)} MB/s`);
    console.log(`  bot path (S3Uploader, put-only key)   ${botRate.toFixed(1).padStart(7)} MB/s`);
    console.log(`  ratio: ${(botRate / minioRate).toFixed(2)} of minio`);

    const signer = new Signer(new ServiceKeys([randomBytes(32)]));
    const local = new LocalFolderObjectStore(work, serviceSignedLink(signer, () => 'http://127.0.0.1:8080'));
    const s3 = new S3ObjectStore(minio, customer.artifactsBucket);
    await linksPerSecond(s3); // warm-up of both
    await linksPerSecond(local);
    const localRate = await linksPerSecond(local);
    const s3Rate = await linksPerSecond(s3);
    console.log(`download links, ${LINKS} each`);
    console.log(`  service-signed (HMAC, local store)    ${localRate.toFixed(0).padStart(7)} links/s`);
    console.log(`  presigned (SigV4, S3 store)           ${s3Rate.toFixed(0).padStart(7)} links/s`);
    console.log(`  ratio: ${(s3Rate / localRate).toFixed(2)} of the service's own links`);
  } finally {
    await gw.stop();
    rmSync(work, { recursive: true, force: true });
  }
};

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
