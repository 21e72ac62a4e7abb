import * as E from 'fp-ts/Either';
import type { CalendarPlatform } from '../../domain/calendar/calendar-events';
import type { ApiError } from '../api-error';
import { checkLength, decodeWith, email, leaf, nullable, str, strictObject, withDefault } from './codec-kit';
import type { RawQuery } from './list-query';
import { normaliseUuid, UUID_SCHEMA } from './path-uuid';
import { schemaNoteOf } from './schema-notes';
import { TargetUrl } from './webhook-requests';

/** `Google` or `Microsoft`, the spec's capitalised provider names, in any case. */
const Platform = leaf<CalendarPlatform>('platform', (u) => {
  const lower = typeof u === 'string' ? u.toLowerCase() : '';
  return lower === 'google' || lower === 'microsoft' ? E.right(lower) : E.left('must be equal to one of the allowed values: Google, Microsoft');
}, {
  type: 'string',
  pattern: '^(?:[Gg][Oo][Oo][Gg][Ll][Ee]|[Mm][Ii][Cc][Rr][Oo][Ss][Oo][Ff][Tt])$',
  description: 'Google or Microsoft, in any case.',
  examples: ['Google'],
});

const credentials = {
  oauth_client_id: str(1, 1024),
  oauth_client_secret: str(1, 4096),
  oauth_refresh_token: str(1, 4096),
  platform: Platform,
};

export interface CalendarCredentialsRequest {
  readonly oauth_client_id: string;
  readonly oauth_client_secret: string;
  readonly oauth_refresh_token: string;
  readonly platform: CalendarPlatform;
}

export interface ConnectCalendarRequest extends CalendarCredentialsRequest {
  /** the provider's id of the calendar to connect; null: the account's primary calendar */
  readonly raw_calendar_id: string | null;
  /** legacy only: where this calendar's webhooks go instead of the team's endpoints */
  readonly webhook_url: string | null;
}

export const RawCalendarsCodec = strictObject('RawCalendars', credentials);
export const LegacyConnectCodec = strictObject('CreateCalendar', { ...credentials, raw_calendar_id: nullable(str(1, 1024)), webhook_url: nullable(TargetUrl) });
export const V2ConnectCodec = strictObject('CreateCalendar', { ...credentials, raw_calendar_id: nullable(str(1, 1024)) });

export const decodeRawCalendarsRequest = (body: unknown): E.Either<ApiError, CalendarCredentialsRequest> => decodeWith(RawCalendarsCodec, 'body', body);

export const decodeLegacyConnectRequest = (body: unknown): E.Either<ApiError, ConnectCalendarRequest> => decodeWith(LegacyConnectCodec, 'body', body);

export const decodeV2ConnectRequest = (body: unknown): E.Either<ApiError, ConnectCalendarRequest> =>
  E.map((r: Omit<ConnectCalendarRequest, 'webhook_url'>): ConnectCalendarRequest => ({ ...r, webhook_url: null }))(decodeWith(V2ConnectCodec, 'body', body));

/** Query values are text, given at most once. */
const single = (u: unknown): E.Either<string, string> => (typeof u === 'string' ? E.right(u) : E.left('must be given at most once'));

const Uuid = leaf<string>('uuid', (u) => E.chain((s: string) => {
  const uuid = normaliseUuid(s);
  return uuid === null ? E.left('must match format "uuid"') : E.right(uuid);
})(single(u)), UUID_SCHEMA);

/**
 * `YYYY-MM-DDTHH:MM[:SS[.fraction]]` with `Z` or an offset, or without a zone (the service's times are UTC,
 * so a time without one is taken as UTC), as the legacy API reads its dates.
 */
const DATE_TIME = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)(Z|[+-]\d{2}:\d{2})?$/;
const Instant = leaf<number>('date-time', (u) => E.chain((s: string) => {
  const match = DATE_TIME.exec(s);
  const ms = match ? Date.parse(`${match[1]}${match[2] ?? 'Z'}`) : Number.NaN;
  return Number.isNaN(ms) ? E.left('must be an ISO 8601 date-time such as 2025-03-03T09:00:00Z') : E.right(ms);
})(single(u)), {
  type: 'string',
  pattern: DATE_TIME.source,
  description: 'An ISO 8601 date-time; without a zone it is UTC.',
  examples: ['2025-03-03T09:00:00Z'],
});

const QueryEmail = leaf<string>('email', (u) => E.chain((s: string) => {
  const decoded = email.decode(s);
  return E.isRight(decoded) ? E.right(decoded.right.toLowerCase()) : E.left('must match format "email"');
})(single(u)), () => schemaNoteOf(email)!);

const Cursor = leaf<string>('cursor', (u) => E.chain((s: string) => checkLength(s, 1, 512))(single(u)), {
  type: 'string',
  minLength: 1,
  maxLength: 512,
  description: 'The `next` of the previous page.',
});
const STATUSES = ['upcoming', 'past', 'all'] as const;
type EventStatus = (typeof STATUSES)[number];
const Status = leaf<EventStatus>('status', (u) =>
  E.chain((s: string) => ((STATUSES as readonly string[]).includes(s) ? E.right(s as EventStatus) : E.left(`must be equal to one of the allowed values: ${STATUSES.join(', ')}`)))(single(u)),
  { type: 'string', enum: [...STATUSES] },
);

export const EventsQueryCodec = strictObject('ListCalendarEvents', {
  calendar_id: Uuid,
  attendee_email: withDefault(QueryEmail, () => undefined),
  organizer_email: withDefault(QueryEmail, () => undefined),
  cursor: withDefault(Cursor, () => undefined),
  start_date_gte: withDefault(Instant, () => undefined),
  start_date_lte: withDefault(Instant, () => undefined),
  updated_at_gte: withDefault(Instant, () => undefined),
  status: withDefault(Status, (): EventStatus => 'upcoming'),
});

export interface CalendarEventsQuery {
  readonly calendar_id: string;
  readonly attendee_email?: string;
  readonly organizer_email?: string;
  readonly cursor?: string;
  /** epoch milliseconds */
  readonly start_date_gte?: number;
  readonly start_date_lte?: number;
  readonly updated_at_gte?: number;
  readonly status: EventStatus;
}

/** The spec's query parameters of GET /calendar_events; an empty one (`status=`) is not given. */
export const decodeCalendarEventsQuery = (query: RawQuery): E.Either<ApiError, CalendarEventsQuery> => {
  const given = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== ''));
  return E.map((q: Record<string, unknown>) => Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined)) as unknown as CalendarEventsQuery)(
    decodeWith(EventsQueryCodec, 'querystring', given),
  );
};
