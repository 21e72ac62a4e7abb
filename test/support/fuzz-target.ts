import { openCalendarProviders } from '../../src/adapters/calendar-providers';
import { adminClient, createTeam } from './http-client';
import { startCalendarFakes, type CalendarFakes } from './calendar-fakes';
import { startTestService, type TestService } from './test-service';

export interface FuzzTarget {
  readonly url: string;
  readonly fullKey: string;
  readonly sendingKey: string;
  readonly service: TestService;
  stop(): Promise<void>;
}

/**
 * The whole service as a fuzzer meets it, with nothing leaving this machine: a team with plenty of tokens and
 * no practical rate limit, a Full Access and a Sending Access key; calendars on the local provider fakes;
 * every host name a request gives resolves to loopback (webhook and callback targets, which the
 * development setting lets be private), and a storage configuration is verified by a stand-in that answers
 * as an S3 server without those buckets would (the real verification would connect to the endpoint given).
 */
export const startFuzzTarget = async (): Promise<FuzzTarget> => {
  const fakes: CalendarFakes = await startCalendarFakes();
  const service = await startTestService({
    sandboxHosts: false,
    allowPrivateStorageEndpoints: false,
    overrides: {
      calendarProviders: openCalendarProviders(fakes.settings, { sandboxHosts: false, requestOptions: fakes.requestOptions }),
      resolveHost: async () => [{ address: '127.0.0.1', family: 4 }],
      verifyStorage: async (access) => ({ ok: false, reason: `bucket "${access.buckets[0]}" does not exist at the endpoint (NoSuchBucket)` }),
    },
  });
  const team = await createTeam(service.url, { tokens: 1_000_000, rate_limit_per_second: 100_000, daily_bot_cap: 1_000_000 });
  const issued = await adminClient(service.url).post(`/admin/teams/${team.team_id}/api-keys`, { permission: 'sending' });
  if (issued.status !== 201) throw new Error(`no Sending Access key: ${JSON.stringify(issued.body)}`);
  return {
    url: service.url,
    fullKey: team.api_key,
    sendingKey: issued.body.data.api_key,
    service,
    stop: async () => {
      await service.stop();
      await fakes.stop();
    },
  };
};
