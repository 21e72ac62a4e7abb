import type { ScriptedLaunch } from './scripted-launcher';
import { request } from './http-client';

/** Speaks a bot's side of the internal API (bot-runtime/contract.ts) over real HTTP, as the launched bot would. */
export const asBot = (launch: ScriptedLaunch, botId: string = launch.job.bot_id) => {
  const base = `${launch.serviceUrl}/internal/bots/${botId}`;
  const auth = { authorization: `Bearer ${launch.botToken}` };
  return {
    report: (body: unknown) => request(base, 'POST', '/reports', { body, headers: auth }),
    status: (status: string) => request(base, 'POST', '/reports', { body: { kind: 'status', status, at: new Date().toISOString() }, headers: auth }),
    poll: (waitSeconds = 5) => request(base, 'GET', `/control?wait_seconds=${waitSeconds}`, { headers: auth }),
    answer: (result: { id: string; ok: boolean; reason?: string; message?: string }) =>
      request(base, 'POST', `/control/${result.id}/result`, { body: result, headers: auth }),
    upload: (key: string, bytes: Buffer, contentType: string) =>
      request(base, 'PUT', `/artifacts/${key}`, { rawBody: bytes, headers: { ...auth, 'content-type': contentType } }),
  };
};
