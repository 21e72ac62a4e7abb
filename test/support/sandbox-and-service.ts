/** A sandbox and the whole service whose bots reach its replicas (SANDBOX_REPLICAS), with one team's API client. */
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
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
  const t = await startTestService({ botSlots, sandboxReplicas: `127.0.0.1:${sandbox.port}` });
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
