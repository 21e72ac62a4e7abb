/**
 * `npm run bench:calendar`: the first sync of a connected calendar of 5 000 events (200 recurring series
 * and one-off events) from the local Google Calendar and Microsoft Graph fakes, through the running
 * service (POST /calendar until the calendar reads `synced`: provider client, decider, event log, read
 * models), in events per second, against reading the same pages raw from the same fake with a bare HTTP
 * client in the same run (token, then every page, JSON parsed). The ratio is the figure.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import bunyan from 'bunyan';
import { createApiClient } from '../client';
import { openCalendarProviders } from '../src/adapters/calendar-providers';
import { syncWindowAt } from '../src/domain/calendar/sync-window';
import { startService } from '../src/service';
import type { FakeCalendar } from '../test/fakes/fake-calendar';
import { startCalendarFakes, type CalendarFakes } from '../test/support/calendar-fakes';
import { BENCH_ADMIN_TOKEN, benchServiceConfig } from './lib/bench-service-config';

const EVENTS = Number(process.env.BENCH_CALENDAR_EVENTS ?? 5000);
const SERIES = Number(process.env.BENCH_CALENDAR_SERIES ?? 200);
/** the provider clients' page size (both providers' default in this service) */
const PAGE = 500;
/** calendars synced per platform (the median is reported) */
const RUNS = Number(process.env.BENCH_CALENDAR_RUNS ?? 3);
const ADMIN = BENCH_ADMIN_TOKEN;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const quietLog = bunyan.createLogger({ name: 'bench', level: 'fatal' });

/** 200 daily series sharing the events with one-offs, every one inside the sync window (the next 90 days). */
const fill = (calendar: FakeCalendar, now: number): number => {
  const perSeries = Math.floor((EVENTS * 0.8) / SERIES);
  for (let s = 0; s < SERIES; s += 1) {
    const start = now + HOUR + (s % 10) * HOUR;
    calendar.addSeries({ summary: `Series ${s}`, start, end: start + HOUR / 2, count: perSeries, intervalMs: DAY, meetingUrl: 'https://meet.google.com/abc-defg-hij', attendees: [{ email: `a${s}@example.com` }] });
  }
  const oneOffs = EVENTS - perSeries * SERIES;
  for (let i = 0; i < oneOffs; i += 1) {
    const start = now + HOUR + (i % (80 * 24)) * HOUR;
    calendar.addEvent({ summary: `One-off ${i}`, start, end: start + HOUR / 2, meetingUrl: 'https://meet.google.com/abc-defg-hij' });
  }
  return perSeries * SERIES + oneOffs;
};

/** A kept-alive connection the fake closed meanwhile is reset on reuse: a GET is sent again, once. */
const getAgain = async (url: string, init: RequestInit): Promise<Response> => {
  try {
    return await fetch(url, init);
  } catch {
    return fetch(url, init);
  }
};

const tokenOf = async (tokenUrl: string, creds: Credentials, init: RequestInit): Promise<string> => {
  const form = new URLSearchParams({ grant_type: 'refresh_token', client_id: creds.client_id, client_secret: creds.client_secret, refresh_token: creds.refresh_token });
  const answer = await fetch(tokenUrl, { ...init, method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
  return ((await answer.json()) as { access_token: string }).access_token;
};

interface Credentials {
  readonly client_id: string;
  readonly client_secret: string;
  readonly refresh_token: string;
}

/** The baseline: the same pages the service's client reads, read by a bare client. */
const readRaw = async (fakes: CalendarFakes, platform: 'google' | 'microsoft', calendarId: string, creds: Credentials): Promise<number> => {
  const window = syncWindowAt(Date.now());
  const init = platform === 'microsoft' ? fakes.requestOptions : {};
  const token = await tokenOf(platform === 'google' ? fakes.settings.googleOAuthTokenUrl : fakes.settings.microsoftOAuthTokenUrl, creds, init);
  const headers = { authorization: `Bearer ${token}`, ...(platform === 'microsoft' ? { prefer: `odata.maxpagesize=${PAGE}, outlook.timezone="UTC"` } : {}) };
  let read = 0;
  if (platform === 'google') {
    let pageToken: string | undefined;
    do {
      const query = new URLSearchParams({ singleEvents: 'true', maxResults: String(PAGE), timeMin: window.start, timeMax: window.end, showDeleted: 'false', ...(pageToken ? { pageToken } : {}) });
      const page = (await (await getAgain(`${fakes.settings.googleApiBaseUrl}calendar/v3/calendars/${encodeURIComponent(calendarId)}/events?${query}`, { headers })).json()) as {
        items: unknown[]; nextPageToken?: string;
      };
      read += page.items.length;
      pageToken = page.nextPageToken;
    } while (pageToken);
  } else {
    let next: string | undefined = `${fakes.settings.microsoftGraphBaseUrl}/v1.0/me/calendars/${encodeURIComponent(calendarId)}/calendarView/delta?startDateTime=${encodeURIComponent(window.start)}&endDateTime=${encodeURIComponent(window.end)}`;
    while (next) {
      const page = (await (await getAgain(next, { ...init, headers })).json()) as { value: unknown[]; '@odata.nextLink'?: string };
      read += page.value.length;
      next = page['@odata.nextLink'];
    }
  }
  return read;
};

const main = async () => {
  const fakes = await startCalendarFakes();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-calendar-'));
  const service = await startService(
    benchServiceConfig(dataDir, { allowPrivateWebhookTargets: true }),
    { log: quietLog, calendarProviders: openCalendarProviders(fakes.settings, { sandboxHosts: false, pageSize: PAGE, requestOptions: fakes.requestOptions }) },
  );
  const admin = { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' };
  const team = (await (await fetch(`${service.url}/admin/teams`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'bench', tokens: 10, rate_limit_per_second: 1000 }) })).json()) as {
    data: { api_key: string };
  };
  // The public API through the project's typed client (client/), over the fetch that retries a reset connection.
  const api = createApiClient({ baseUrl: service.url, apiKey: team.data.api_key, fetch: (request) => fetch((request as Request).clone()).catch(() => fetch(request)) });
  try {
    console.log(`calendar first sync: ${EVENTS} events (${SERIES} recurring series), pages of ${PAGE}, ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}`);
    for (const platform of ['google', 'microsoft'] as const) {
      const fake = platform === 'google' ? fakes.google : fakes.graph;
      const now = Date.now();
      const raws: number[] = [];
      const services: number[] = [];
      for (let run = 0; run < RUNS; run += 1) {
        const who = { email: `${platform}-${run}@example.com`, name: `Bench ${run}` };
        const clientId = `${platform}-bench-${run}`;
        fake.oauth.registerClient(clientId, 'secret');
        const calendar = fake.addCalendar(who, { name: 'Work', primary: true });
        const total = fill(calendar, now);
        const creds = { client_id: clientId, client_secret: 'secret', refresh_token: fake.oauth.issueRefreshToken(clientId, who) };

        const rawStart = performance.now();
        const read = await readRaw(fakes, platform, calendar.id, creds);
        raws.push(read / ((performance.now() - rawStart) / 1000));
        if (read !== total) throw new Error(`raw read ${read} of ${total} events`);

        const start = performance.now();
        const created = await api.POST('/calendar', {
          body: { oauth_client_id: clientId, oauth_client_secret: 'secret', oauth_refresh_token: creds.refresh_token, platform: platform === 'google' ? 'Google' : 'Microsoft', webhook_url: 'http://127.0.0.1:9/unused' },
        });
        if (created.error) throw new Error(`connect: ${created.error.code} ${created.error.message}`);
        const calendarId = created.data.calendar.uuid;
        for (;;) {
          const view = (await api.GET('/calendars/{uuid}', { params: { path: { uuid: calendarId } } })).data!;
          if (view.status === 'synced') break;
          if (view.status === 'error') throw new Error('sync failed');
          await new Promise((r) => setTimeout(r, 20));
        }
        services.push(total / ((performance.now() - start) / 1000));
        // Every event listed, as a team would read them.
        let listed = 0;
        let cursor: string | null = '';
        while (cursor !== null) {
          const page: { data: unknown[]; next: string | null } = (await api.GET('/calendar_events', { params: { query: { calendar_id: calendarId, ...(cursor ? { cursor } : {}) } } })).data!;
          listed += page.data.length;
          cursor = page.next;
        }
        if (listed !== total) throw new Error(`listed ${listed} of ${total} events`);
        await api.DELETE('/calendars/{uuid}', { params: { path: { uuid: calendarId } } });
      }
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      const raw = median(raws);
      const through = median(services);
      console.log(
        `${platform.padEnd(9)} raw pages ${raw.toFixed(0)} events/s | first sync through the service ${through.toFixed(0)} events/s | ratio ${(through / raw).toFixed(3)} (median of ${RUNS}; runs ${services.map((x) => x.toFixed(0)).join(', ')})`,
      );
    }
  } finally {
    await service.stop();
    await fakes.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
};

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
