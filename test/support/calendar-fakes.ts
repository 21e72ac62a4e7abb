import { Agent } from 'undici';
import { makeCertificate } from '../../sandbox/certificate';
import type { CalendarProviderSettings } from '../../src/adapters/calendar-providers';
import { FakeGoogleCalendar } from '../fakes/fake-google-calendar';
import { FakeMicrosoftGraph } from '../fakes/fake-microsoft-graph';

export interface CalendarFakes {
  readonly google: FakeGoogleCalendar;
  readonly graph: FakeMicrosoftGraph;
  /** where the service finds them (GOOGLE_API_BASE_URL and the three others) */
  readonly settings: CalendarProviderSettings;
  /** fetch options that trust the Graph fake's certificate (a process would use NODE_EXTRA_CA_CERTS) */
  readonly requestOptions: RequestInit;
  stop(): Promise<void>;
}

/** Both provider fakes on ephemeral ports, Graph's over HTTPS with a certificate made for the run. */
export const startCalendarFakes = async (now: () => number = Date.now): Promise<CalendarFakes> => {
  const certificate = await makeCertificate();
  const google = await new FakeGoogleCalendar(now).start();
  const graph = await new FakeMicrosoftGraph({ certPem: certificate.certPem, keyPem: certificate.keyPem, now }).start();
  const dispatcher = new Agent({ connect: { ca: certificate.certPem } });
  return {
    google,
    graph,
    settings: {
      googleApiBaseUrl: google.apiBaseUrl,
      googleOAuthTokenUrl: google.tokenUrl,
      microsoftGraphBaseUrl: graph.graphBaseUrl,
      microsoftOAuthTokenUrl: graph.tokenUrl,
    },
    requestOptions: { dispatcher } as RequestInit,
    stop: async () => {
      await google.stop();
      await graph.stop();
      await dispatcher.close();
    },
  };
};
