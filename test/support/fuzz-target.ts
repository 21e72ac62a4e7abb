import { openCalendarProviders } from '../../src/adapters/calendar-providers';
import { defaultVcSettings } from '../../src/capabilities/vc-settings';
import type { ApiClient } from '../../client';
import { FakeVcPlatform } from '../fakes/fake-vc-platform';
import { adminClient, createTeam, typedApi } from './http-client';
import { readUntil } from './read-until';
import { runScriptedMeeting } from './scripted-bot-run';
import { ScriptedLauncher } from './scripted-launcher';
import { startCalendarFakes, type CalendarFakes } from './calendar-fakes';
import { startTestService, type TestService } from './test-service';

/** What exists before the fuzzer starts, so that some of its requests meet real bots, endpoints, calendars and events. */
export interface Existing {
  readonly bots: readonly string[];
  readonly webhooks: readonly string[];
  readonly calendars: readonly string[];
  readonly events: readonly string[];
  /** a provider account's credentials, which connect (the fake provider takes them) */
  readonly credentials: { readonly oauth_client_id: string; readonly oauth_client_secret: string; readonly oauth_refresh_token: string };
  /** stored vc credentials (an OAuth connection, SDK credentials) and what connects another: the vc OAuth app, its redirect, fresh codes */
  readonly vc: {
    readonly credentials: readonly string[];
    readonly client: { readonly id: string; readonly secret: string; readonly redirect_uri: string };
    readonly codes: readonly string[];
  };
  /** a tm and an mt workspace of `domain`, each with a login of `email` */
  readonly logins: {
    readonly tm: { readonly workspace: string; readonly credential: string };
    readonly mt: { readonly workspace: string; readonly credential: string };
    readonly domain: string;
    readonly email: string;
  };
}

export interface FuzzTarget {
  readonly url: string;
  readonly fullKey: string;
  readonly sendingKey: string;
  readonly existing: Existing;
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
  const vcPlatform = await new FakeVcPlatform().start();
  // One slot: the first bot runs a scripted meeting to its end (screenshots, data to delete); the fuzzer's wait or sit in it.
  const launcher = new ScriptedLauncher();
  const service = await startTestService({
    botSlots: 1,
    vc: { ...defaultVcSettings, platform: { oauthBaseUrl: vcPlatform.oauthBaseUrl, apiBaseUrl: vcPlatform.apiBaseUrl } },
    sandboxHosts: false,
    allowPrivateStorageEndpoints: false,
    overrides: {
      launcher,
      calendarProviders: openCalendarProviders(fakes.settings, { sandboxHosts: false, requestOptions: fakes.requestOptions }),
      resolveHost: async () => [{ address: '127.0.0.1', family: 4 }],
      verifyStorage: async (access) => ({ ok: false, reason: `bucket "${access.buckets[0]}" does not exist at the endpoint (NoSuchBucket)` }),
    },
  });
  const team = await createTeam(service.url, { tokens: 1_000_000, rate_limit_per_second: 100_000, daily_bot_cap: 1_000_000 });
  const issued = await adminClient(service.url).post(`/admin/teams/${team.team_id}/api-keys`, { permission: 'sending' });
  if (issued.status !== 201) throw new Error(`no Sending Access key: ${JSON.stringify(issued.body)}`);
  const existing = await seed(typedApi(service.url, team.api_key), fakes, vcPlatform, launcher);
  return {
    existing,
    url: service.url,
    fullKey: team.api_key,
    sendingKey: issued.body.data.api_key,
    service,
    stop: async () => {
      await service.stop();
      await fakes.stop();
      await vcPlatform.stop();
    },
  };
};

const HOUR = 3_600_000;

/** Through the typed client: a vc OAuth connection and the team's SDK credentials, and codes that connect another user. */
const seedVc = async (api: ApiClient, platform: FakeVcPlatform): Promise<Existing['vc']> => {
  const client = { id: 'fuzz-vc-app', secret: 'fuzz-vc-secret', redirect_uri: 'https://app.example.com/vc/callback' };
  platform.registerClient(client.id, client.secret);
  const alice = platform.addUser({ id: 'fuzzAliceVcUser', account_id: 'fuzz-account', email: 'alice@example.com', name: 'Alice' });
  const bob = platform.addUser({ id: 'fuzzBobVcUser', account_id: 'fuzz-account', email: 'bob@example.com', name: 'Bob' });
  const oauth = await api.POST('/v2/vc-credentials', {
    body: { type: 'oauth', authorization_code: platform.authorize(client.id, alice, client.redirect_uri), redirect_uri: client.redirect_uri, client_id: client.id, client_secret: client.secret },
  });
  if (oauth.error) throw new Error(`seeding a vc connection: ${oauth.error.code} ${oauth.error.message}`);
  const sdk = await api.POST('/v2/vc-credentials', { body: { type: 'sdk', sdk_id: 'fuzz-sdk-key', sdk_secret: 'fuzz-sdk-secret', name: 'Fuzz' } });
  if (sdk.error) throw new Error(`seeding SDK credentials: ${sdk.error.code} ${sdk.error.message}`);
  const codes = Array.from({ length: 10 }, () => platform.authorize(client.id, bob, client.redirect_uri));
  return { credentials: [oauth.data.data.credential_id, sdk.data.data.credential_id], client, codes };
};

/** Through the typed client: a tm and an mt workspace, each with a login. */
const seedLogins = async (api: ApiClient): Promise<Existing['logins']> => {
  const domain = 'fuzz.example';
  const email = `notes@${domain}`;
  const tmWorkspace = await api.POST('/v2/tm-workspaces', { body: { domain } });
  const mtWorkspace = await api.POST('/v2/mt-workspaces', { body: { domain } });
  if (tmWorkspace.error || mtWorkspace.error) throw new Error(`seeding workspaces: ${JSON.stringify(tmWorkspace.error ?? mtWorkspace.error)}`);
  const tm = tmWorkspace.data.data.workspace_id;
  const mt = mtWorkspace.data.data.workspace_id;
  const tmLogin = await api.POST('/v2/tm-logins', { body: { email, name: 'Notes', password: 'fuzz-password', workspace_id: tm, email_group: email } });
  const mtLogin = await api.POST('/v2/mt-logins', { body: { email, name: 'Notes', workspace_id: mt, email_group: email } });
  if (tmLogin.error || mtLogin.error) throw new Error(`seeding logins: ${JSON.stringify(tmLogin.error ?? mtLogin.error)}`);
  return { tm: { workspace: tm, credential: tmLogin.data.data.credential_id }, mt: { workspace: mt, credential: mtLogin.data.data.credential_id }, domain, email };
};

/** A bot that ran a whole scripted meeting: it has screenshots, and its data can be deleted. */
const seedEndedBot = async (api: ApiClient, launcher: ScriptedLauncher): Promise<string> => {
  const { data, error } = await api.POST('/v2/bots', { body: { meeting_url: 'https://meet.google.com/abc-defg-hij', bot_name: 'Ran', extra: { seeded: true } } });
  if (error) throw new Error(`seeding a bot that runs: ${error.code} ${error.message}`);
  const botId = data.data.bot_id;
  await runScriptedMeeting(await launcher.waitForLaunch(botId));
  await readUntil(
    async () => (await api.GET('/v2/bots/{bot_id}/status', { params: { path: { bot_id: botId } } })).data?.data.status,
    (status) => status === 'completed',
  );
  return botId;
};

/**
 * Through the typed client: four bots (one that ran to its end, one scheduled), a webhook endpoint, a Google
 * calendar with a one-off event and a series, vc credentials, tm and mt workspaces and logins.
 */
const seed = async (api: ApiClient, fakes: CalendarFakes, vcPlatform: FakeVcPlatform, launcher: ScriptedLauncher): Promise<Existing> => {
  const bots: string[] = [await seedEndedBot(api, launcher)];
  for (const meeting_url of ['https://meet.google.com/abc-defg-hij', 'https://zoom.us/j/1234567890?pwd=abc']) {
    const { data, error } = await api.POST('/v2/bots', { body: { meeting_url, bot_name: 'Notetaker', extra: { seeded: true } } });
    if (error) throw new Error(`seeding a bot: ${error.code} ${error.message}`);
    bots.push(data.data.bot_id);
  }
  const joinAt = new Date(Date.now() + 24 * HOUR).toISOString();
  const scheduled = await api.POST('/v2/bots/scheduled', { body: { meeting_url: 'https://meet.google.com/abc-defg-hij', bot_name: 'Later', join_at: joinAt } });
  if (scheduled.error) throw new Error(`seeding a scheduled bot: ${scheduled.error.code}`);
  bots.push(scheduled.data.data.bot_id);
  const hook = await api.POST('/v2/webhooks', { body: { url: 'https://hooks.example.com/in', events: null } });
  if (hook.error) throw new Error(`seeding an endpoint: ${hook.error.code} ${hook.error.message}`);
  const fake = fakes.google;
  fake.oauth.registerClient('fuzz-client', 'fuzz-secret');
  const who = { email: 'fuzz@example.com', name: 'Fuzz' };
  const calendar = fake.addCalendar(who, { name: 'Work', primary: true });
  const now = Date.now();
  calendar.addEvent({ summary: 'Kick-off', start: now + 2 * HOUR, end: now + 3 * HOUR, meetingUrl: 'https://meet.google.com/abc-defg-hij', attendees: [] });
  calendar.addSeries({ summary: 'Weekly', start: now + 4 * HOUR, end: now + 5 * HOUR, meetingUrl: 'https://meet.google.com/xyz-abcd-efg', count: 3, intervalMs: 7 * 24 * HOUR });
  const credentials = { oauth_client_id: 'fuzz-client', oauth_client_secret: 'fuzz-secret', oauth_refresh_token: fake.oauth.issueRefreshToken('fuzz-client', who) };
  const connected = await api.POST('/v2/calendars', { body: { ...credentials, platform: 'Google' } });
  if (connected.error) throw new Error(`seeding a calendar: ${connected.error.code} ${connected.error.message}`);
  const calendarId = connected.data.data.calendar_id;
  const listed = await api.GET('/calendar_events', { params: { query: { calendar_id: calendarId, status: 'all' } } });
  if (listed.error) throw new Error(`listing the seeded events: ${listed.error.code}`);
  const vc = await seedVc(api, vcPlatform);
  const logins = await seedLogins(api);
  return { bots, webhooks: [hook.data.data.webhook_id], calendars: [calendarId], events: listed.data.data.map((e) => e.uuid), credentials, vc, logins };
};
