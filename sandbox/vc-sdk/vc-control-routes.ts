/** The control API of the vc platform's accounts (CONTRACT.md "vc: SDK apps, users and tokens"). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readJson, sendJson } from '../http-util';
import type { MeetingRegistry } from '../registry';

/** Handles `/control/vc/...`; false when the path is not one of its routes. */
export async function handleVcControl(registry: MeetingRegistry, req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
  if (req.method === 'GET' && path === '/control/vc/apps') {
    sendJson(res, 200, { apps: [...registry.vc.apps.values()].map(({ sdk_secret: _secret, ...app }) => app) });
    return true;
  }
  if (req.method !== 'POST') return false;
  const now = registry.now();
  switch (path) {
    case '/control/vc/apps':
      sendJson(res, 201, registry.vc.createApp(await readJson(req)));
      return true;
    case '/control/vc/users':
      sendJson(res, 201, registry.vc.createUser(await readJson(req)));
      return true;
    case '/control/vc/tokens':
      sendJson(res, 201, registry.vc.issue(await readJson(req), now));
      return true;
    case '/control/vc/tokens/revoke':
      registry.vc.revoke(await readJson(req));
      sendJson(res, 200, { revoked: true });
      return true;
    default:
      return false;
  }
}
