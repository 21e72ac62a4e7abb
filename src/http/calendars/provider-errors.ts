import { CalendarProviderError } from '../../adapters/calendar-providers/port';
import type { CalendarPlatform } from '../../domain/calendar/calendar-events';
import { ApiError } from '../api-error';

const providerName = (platform: CalendarPlatform): string => (platform === 'google' ? 'Google' : 'Microsoft');

/**
 * What a provider said about the credentials of a request, as the caller's error: the fields to fix and
 * the provider's own words. A provider that cannot be reached is 502: nothing in the request is wrong.
 */
export const providerErrorToApiError = (err: unknown, platform: CalendarPlatform): ApiError => {
  if (!(err instanceof CalendarProviderError)) throw err;
  const provider = providerName(platform);
  switch (err.kind) {
    case 'credentials_revoked': {
      const message = `body/oauth_refresh_token was refused by ${provider} (${err.message}): it was revoked, expired, or issued to another client`;
      return new ApiError({ status: 400, code: 'FST_ERR_CALENDAR_CREDENTIALS', message, details: message });
    }
    case 'invalid_client': {
      const message = `body/oauth_client_id or body/oauth_client_secret was refused by ${provider} (${err.message})`;
      return new ApiError({ status: 400, code: 'FST_ERR_CALENDAR_CREDENTIALS', message, details: message });
    }
    case 'access_denied':
    case 'calendar_not_found': {
      const message = `${provider} refused to list the account's calendars (${err.message}): the refresh token must grant read access to calendars`;
      return new ApiError({ status: 400, code: 'FST_ERR_CALENDAR_ACCESS_DENIED', message, details: message });
    }
    default: {
      const message = `${provider} could not be reached or failed (${err.message}); try again later`;
      return new ApiError({ status: 502, code: 'FST_ERR_CALENDAR_PROVIDER_UNAVAILABLE', message, details: message });
    }
  }
};
