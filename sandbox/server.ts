/**
 * The sandbox meeting platform: one HTTPS server that routes by the Host header (vc.localhost,
 * tm.localhost, mt.localhost: the sandbox's meeting pages; a real platform's host, e.g.
 * meet.google.com: its replica flavour (replicas.ts); any host: /control API and /media).
 *
 *   const sandbox = await startSandbox({ port: 0 });
 *   sandbox.urlFor('vc', meetingId); sandbox.caPem; await sandbox.stop();
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { makeCertificate, type SandboxCertificate } from './certificate';
import { handleControl } from './control-routes';
import { handleIdentityControl } from './identity/identity-control';
import { FingerprintReports, handleFingerprint } from './fingerprint/reports';
import { send, sendError, sendHtml, sendJson } from './http-util';
import { platforms, type Platform } from './meeting-state';
import { handlePage } from './page-routes';
import { consolePage } from './pages/console-page';
import { IdentityRegistry } from './identity/identity-registry';
import { MeetingRegistry } from './registry';
import { replicaForHost } from './replicas';
import { SpeechSynthesizer } from './tts';
import { SandboxClient } from './client';
import { meetingSdkStandIn } from './vc-sdk/meeting-sdk-standin';

/** Where the vc Meeting SDK stand-in is served (CONTRACT.md). */
export const MEETING_SDK_PATH = '/meetingsdk/zoom-meeting.js';

export interface SandboxOptions {
  /** 0: any free port (default: SANDBOX_PORT or 8443) */
  readonly port?: number;
  /** listen address (default 127.0.0.1) */
  readonly host?: string;
  /** where espeak-ng WAVs are cached (default: <tmpdir>/meeting-sandbox-speech) */
  readonly speechDir?: string;
  /** browser participants whose page is silent for longer become `left` (default 10000) */
  readonly staleAfterMs?: number;
  /** reuse a certificate instead of making one */
  readonly certificate?: SandboxCertificate;
  readonly log?: (line: string) => void;
}

export interface RunningSandbox {
  readonly port: number;
  /** https://localhost:PORT: the control API */
  readonly controlUrl: string;
  /** PEM of the self-signed certificate (trust it as a CA) */
  readonly caPem: string;
  /** base64 SHA-256 of its public key: Chromium `--ignore-certificate-errors-spki-list=<this>` */
  readonly spkiSha256: string;
  readonly registry: MeetingRegistry;
  /** accounts, Google Workspace domains and sign-in sessions of the replicas' sign-in pages */
  readonly identity: IdentityRegistry;
  /** a control API client that trusts the certificate */
  readonly client: SandboxClient;
  urlFor(platform: Platform, meetingId: string): string;
  stop(): Promise<void>;
}

/** The Host header's name: lower case, without port or trailing dot. */
export const hostName = (hostHeader: string | undefined): string => (hostHeader ?? '').replace(/:\d+$/, '').toLowerCase().replace(/\.$/, '');

export function platformOfHost(hostHeader: string | undefined): Platform | null {
  const m = /^(vc|tm|mt)\.localhost$/.exec(hostName(hostHeader));
  return m && platforms.includes(m[1] as Platform) ? (m[1] as Platform) : null;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const certificate = options.certificate ?? (await makeCertificate());
  const port = options.port ?? Number(process.env.SANDBOX_PORT ?? 8443);
  const host = options.host ?? '127.0.0.1';
  let actualPort = port;
  const registry = new MeetingRegistry({
    originFor: (platform) => `https://${platform}.localhost:${actualPort}`,
    staleAfterMs: options.staleAfterMs,
  });
  const tts = new SpeechSynthesizer(options.speechDir);
  const identity = new IdentityRegistry(() => registry.now());
  const fingerprints = new FingerprintReports();
  const deps = { registry, identity, tts, certPem: certificate.certPem, spkiSha256: certificate.spkiSha256, fingerprints };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'https://sandbox.invalid');
    const path = url.pathname;
    try {
      if (path.startsWith('/control/')) {
        const handled = path.startsWith('/control/identity') ? await handleIdentityControl(identity, req, res, path) : await handleControl(deps, req, res, path);
        if (!handled) sendJson(res, 404, { error: `no control route ${req.method} ${path}` });
        return;
      }
      if (path.startsWith('/media/speech/')) {
        await serveSpeech(tts, req, res, path.slice('/media/speech/'.length));
        return;
      }
      if (path === MEETING_SDK_PATH) {
        // the vc Meeting SDK stand-in, on every host (the sandbox's vc pages and the Zoom replica's)
        send(res, 200, 'text/javascript; charset=utf-8', meetingSdkStandIn);
        return;
      }
      if (path === '/favicon.ico') {
        res.writeHead(204).end();
        return;
      }
      if (await handleFingerprint(fingerprints, hostName(req.headers.host), req, res, path)) return;
      const platform = platformOfHost(req.headers.host);
      const replica = platform ? null : replicaForHost(hostName(req.headers.host));
      if (platform) await handlePage(registry, platform, req, res, path, url.searchParams);
      else if (replica) await replica.handle({ registry, req, res, host: hostName(req.headers.host), path, query: url.searchParams, identity });
      else if (path === '/' && req.method === 'GET') sendHtml(res, 200, consolePage());
      else sendJson(res, 404, { error: 'not found: meeting pages are served on vc.localhost, tm.localhost, mt.localhost and the replica hosts' });
    } catch (err) {
      sendError(res, err);
    }
  }

  const server: Server = createServer({ cert: certificate.certPem, key: certificate.keyPem }, (req, res) => {
    void handle(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  actualPort = (server.address() as AddressInfo).port;
  registry.startSweeping();
  const controlUrl = `https://localhost:${actualPort}`;
  options.log?.(`sandbox listening on ${host}:${actualPort}`);

  return {
    port: actualPort,
    controlUrl,
    caPem: certificate.certPem,
    spkiSha256: certificate.spkiSha256,
    registry,
    identity,
    client: new SandboxClient(controlUrl, certificate.certPem),
    urlFor: (platform, meetingId) => registry.urlFor(platform, meetingId),
    stop: async () => {
      registry.stopSweeping();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function serveSpeech(tts: SpeechSynthesizer, req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
  const path = /^[0-9a-f]{32}\.wav$/.test(id) ? await tts.pathOf(id) : null;
  if (!path) {
    sendJson(res, 404, { error: 'no such speech' });
    return;
  }
  const wav = await readFile(path);
  const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
  if (range && (range[1] || range[2])) {
    const start = range[1] ? Number(range[1]) : Math.max(0, wav.length - Number(range[2]));
    const end = range[1] && range[2] ? Math.min(Number(range[2]), wav.length - 1) : wav.length - 1;
    if (start > end || start >= wav.length) {
      res.writeHead(416, { 'content-range': `bytes */${wav.length}` }).end();
      return;
    }
    res.writeHead(206, {
      'content-type': 'audio/wav',
      'accept-ranges': 'bytes',
      'content-range': `bytes ${start}-${end}/${wav.length}`,
      'content-length': end - start + 1,
      'cache-control': 'public, max-age=3600',
    });
    res.end(wav.subarray(start, end + 1));
    return;
  }
  res.setHeader('accept-ranges', 'bytes');
  send(res, 200, 'audio/wav', wav);
}
