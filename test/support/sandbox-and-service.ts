/** A sandbox and the whole service whose bots reach its replicas (SANDBOX_REPLICAS), with one team's API client. */
import assert from 'node:assert/strict';
import type { CreateMeetingRequest } from '../../sandbox/client';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { botsOf } from './api-bots';
import { apiClient, createTeam } from './http-client';
import { startTestService, type TestService } from './test-service';

export interface SandboxAndService {
  readonly sandbox: RunningSandbox;
  readonly t: TestService;
  readonly api: ReturnType<typeof apiClient>;
  stop(): Promise<void>;
}

export const startSandboxAndService = async (botSlots = 4): Promise<SandboxAndService> => {
  const sandbox = await startSandbox({ port: 0 });
  // The one development convenience these suites need: bots reach the replicas under the real hosts.
  const t = await startTestService({
    botSlots,
    sandboxReplicas: `127.0.0.1:${sandbox.port}`,
    sandboxHosts: false,
    allowPrivateWebhookTargets: false,
    allowPrivateStorageEndpoints: false,
  });
  const api = apiClient(t.url, (await createTeam(t.url, { tokens: 50 })).api_key);
  return {
    sandbox,
    t,
    api,
    stop: async () => {
      await t.stop();
      await sandbox.stop();
    },
  };
};

/**
 * The frame of a replica's suite through the API: one sandbox and service for the spec file, meetings of
 * the replica (each checked to have the platform's real URL form), and the team's bots.
 */
export const replicaSuiteOnTheApi = (flavour: Pick<CreateMeetingRequest, 'platform' | 'replica'>, realUrl: RegExp) => {
  let env: SandboxAndService;
  before(async () => {
    env = await startSandboxAndService();
  });
  after(() => env?.stop());
  const teamBots = () => botsOf(env.api);
  return {
    get sandbox(): RunningSandbox {
      return env.sandbox;
    },
    get api(): SandboxAndService['api'] {
      return env.api;
    },
    meeting: async (options: Partial<CreateMeetingRequest> = {}) => {
      const m = await env.sandbox.client.createMeeting({ ...flavour, ...options });
      assert.match(m.url, realUrl, 'a real URL form');
      return m;
    },
    createBot: (url: string, body: Record<string, unknown> = {}) => teamBots().create(url, body),
    waitForBot: (botId: string, done: (bot: any) => boolean) => teamBots().waitFor(botId, done),
    ended: (botId: string) => teamBots().ended(botId),
  };
};
