import { createReadStream, existsSync, readdirSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { sdkHostPage, type SdkScripts } from './host-page';

const TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.html': 'text/html; charset=utf-8',
  '.bin': 'application/octet-stream',
  '.jpg': 'image/jpeg',
  '.png': 'image/png',
  '.cur': 'image/x-icon',
};

/** Where the Meeting SDK comes from: the installed npm package's `dist` folder, or a script URL (the sandbox's stand-in). */
export type SdkSource = { readonly kind: 'package'; readonly distDir: string } | { readonly kind: 'url'; readonly src: string };

/**
 * `@zoom/meetingsdk`, if it is installed (it is not a dependency of this project: see docs/decisions.md,
 * "Issue 21"); its `dist` folder and the Client View's file in it, or null.
 */
export const installedMeetingSdk = (): { distDir: string; sdkFile: string } | null => {
  let distDir: string;
  try {
    distDir = path.join(path.dirname(require.resolve('@zoom/meetingsdk/package.json')), 'dist');
  } catch {
    return null;
  }
  return meetingSdkIn(distDir);
};

/** The Client View's file of a `dist` folder laid out as the package ships it (`zoom-meeting-<version>.min.js`). */
export const meetingSdkIn = (distDir: string): { distDir: string; sdkFile: string } | null => {
  if (!existsSync(distDir)) return null;
  const sdkFile = readdirSync(distDir).find((f) => /^zoom-meeting-\d+\.\d+\.\d+\.min\.js$/.test(f));
  return sdkFile ? { distDir, sdkFile } : null;
};

export interface SdkHostServer {
  /** the page to open: http://127.0.0.1:<port>/ (a secure context, as the SDK needs) */
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * The bot's own web server for its Meeting SDK page, on loopback: `/` is the page, `/sdk/...` the files of
 * the npm package (never a CDN). With the package it sends the cross-origin isolation headers the SDK's
 * documentation asks for (SharedArrayBuffer for its media workers).
 */
export const startSdkHostServer = async (source: SdkSource): Promise<SdkHostServer> => {
  const packaged = source.kind === 'package' ? meetingSdkIn(source.distDir) : null;
  if (source.kind === 'package' && !packaged) throw new Error(`no Meeting SDK for Web in ${source.distDir}`);
  const scripts: SdkScripts = packaged ? { kind: 'package', sdkFile: packaged.sdkFile } : { kind: 'url', src: (source as { src: string }).src };
  const page = sdkHostPage(scripts);
  const isolation: Record<string, string> = packaged ? { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' } : {};
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://bot.local');
    if (url.pathname === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    if (url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...isolation }).end(page);
      return;
    }
    if (packaged && url.pathname.startsWith('/sdk/')) {
      const file = path.normalize(path.join(packaged.distDir, decodeURIComponent(url.pathname.slice('/sdk/'.length))));
      if (file.startsWith(packaged.distDir + path.sep) && existsSync(file) && statSync(file).isFile()) {
        res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'cross-origin-resource-policy': 'same-origin', ...isolation });
        createReadStream(file).pipe(res);
        return;
      }
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
