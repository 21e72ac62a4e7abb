import type { CalendarPlatform } from '../../domain/calendar/calendar-events';
import { GoogleCalendarProvider } from './google/google-calendar-provider';
import { GraphCalendarProvider } from './microsoft/graph-calendar-provider';
import type { CalendarProvider } from './port';

/** Where the providers are (DESIGN.md's names; the real services by default, local fakes in tests). */
export interface CalendarProviderSettings {
  readonly googleApiBaseUrl: string;
  readonly googleOAuthTokenUrl: string;
  readonly microsoftGraphBaseUrl: string;
  readonly microsoftOAuthTokenUrl: string;
}

export const realCalendarProviders: CalendarProviderSettings = {
  googleApiBaseUrl: 'https://www.googleapis.com/',
  googleOAuthTokenUrl: 'https://oauth2.googleapis.com/token',
  microsoftGraphBaseUrl: 'https://graph.microsoft.com',
  microsoftOAuthTokenUrl: 'https://login.microsoftonline.com/common/oauth2/v2.0/token',
};

export type CalendarProviders = Readonly<Record<CalendarPlatform, CalendarProvider>>;

export interface CalendarProviderOptions {
  /** meeting links of the local sandbox count as meeting links */
  readonly sandboxHosts: boolean;
  readonly pageSize?: number;
  /** extra fetch options for Graph and Microsoft's token endpoint (tests: a dispatcher trusting a test certificate) */
  readonly requestOptions?: RequestInit;
}

export const openCalendarProviders = (settings: CalendarProviderSettings, options: CalendarProviderOptions): CalendarProviders => ({
  google: new GoogleCalendarProvider({
    apiBaseUrl: settings.googleApiBaseUrl,
    tokenUrl: settings.googleOAuthTokenUrl,
    sandboxHosts: options.sandboxHosts,
    ...(options.pageSize ? { pageSize: options.pageSize } : {}),
  }),
  microsoft: new GraphCalendarProvider({
    graphBaseUrl: settings.microsoftGraphBaseUrl,
    tokenUrl: settings.microsoftOAuthTokenUrl,
    sandboxHosts: options.sandboxHosts,
    ...(options.pageSize ? { pageSize: options.pageSize } : {}),
    ...(options.requestOptions ? { requestOptions: options.requestOptions } : {}),
  }),
});
