import { randomUUID } from 'node:crypto';
import { handleBotCommand } from '../../src/commands/bot-commands';
import type { ScriptedLaunch } from './scripted-launcher';
import { request } from './http-client';
import type { TestService } from './test-service';

/** Speaks a bot's side of the internal API (contract/bot-contract.ts) over real HTTP, as the launched bot would. */
export const asBot = (launch: Pick<ScriptedLaunch, 'serviceUrl' | 'botToken'> & { readonly job: { readonly bot_id: string } }, botId: string = launch.job.bot_id) => {
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

/** The token the service would give the bot for this run: valid for an hour of the service's clock. */
export const runToken = (t: TestService, botId: string, runId: string): string =>
  t.service.signer.botToken(botId, runId, Math.floor(t.service.commands.clock().getTime() / 1000) + 3600);

/**
 * A bot taken to run by `workerId` as the dispatcher takes one, without starting a process: its run id,
 * and its side of the internal API with that run's token.
 */
export const takeBotToRun = async (t: TestService, botId: string, workerId = 'test-worker') => {
  const runId = randomUUID();
  await handleBotCommand(t.service.commands, botId, { type: 'DispatchBot', worker_id: workerId, run_id: runId, now: t.service.commands.clock().toISOString() });
  return { runId, bot: asBot({ job: { bot_id: botId }, serviceUrl: t.url, botToken: runToken(t, botId, runId) }) };
};
