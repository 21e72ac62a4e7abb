/** The control API of the sandbox's identities (CONTRACT.md "Identities"). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readJson, sendJson } from '../http-util';
import type { IdentityRegistry } from './identity-registry';

/** Handles /control/identity…; false when the path is not one of its routes. */
export async function handleIdentityControl(identity: IdentityRegistry, req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
  const method = req.method ?? 'GET';
  if (method === 'GET' && path === '/control/identity') {
    sendJson(res, 200, identity.view());
    return true;
  }
  if (method !== 'POST') return false;
  switch (path) {
    case '/control/identity/microsoft-accounts': {
      const { password: _password, ...shown } = identity.putMicrosoftAccount(await readJson(req));
      sendJson(res, 201, shown);
      return true;
    }
    case '/control/identity/google-domains':
      sendJson(res, 201, identity.putGoogleDomain(await readJson(req)));
      return true;
    case '/control/identity/google-accounts':
      sendJson(res, 201, identity.putGoogleAccount(await readJson(req)));
      return true;
    default:
      return false;
  }
}
