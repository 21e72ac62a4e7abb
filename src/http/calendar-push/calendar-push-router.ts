import Router from '@koa/router';
import * as E from 'fp-ts/Either';
import type { Signer } from '../../adapters/signing/signer';
import { handleCalendarCommand } from '../../commands/calendar-commands';
import { nowIso, type CommandDeps } from '../../commands/command-deps';
import { calendarOfChannelId } from '../../domain/calendar/push-channel-id';
import { ApiError, validationError } from '../api-error';
import type { AppState } from '../app-context';
import { readJsonBody } from '../read-json-body';

export interface CalendarPushRouterDeps {
  readonly commands: CommandDeps;
  readonly signer: Signer;
  /** a sync was asked for: the sync worker can start its round at once */
  readonly wake: (calendarId: string) => void;
}

/** Graph's tokens are about 110 characters ("Validation: Testing client application reachability …"). */
const MAX_VALIDATION_TOKEN_LENGTH = 1_024;

const refused = (message: string) => new ApiError({ status: 403, code: 'FST_ERR_CALENDAR_PUSH_REFUSED', message, details: message });

/**
 * Notices from the providers (no API key: the channel's token, an HMAC of our channel id, is the proof).
 * A notice only asks for a sync; what changed is read from the provider, never taken from the notice.
 */
export const calendarPushRouter = (deps: CalendarPushRouterDeps): Router<AppState> => {
  const router = new Router<AppState>({ prefix: '/calendar-push' });

  /** The calendar of a channel whose token checks out, or a refusal. */
  const calendarOf = (channelId: string, token: string): string => {
    const calendarId = calendarOfChannelId(channelId);
    if (calendarId === null || !deps.signer.isCalendarChannelToken(channelId, token)) throw refused('unknown push channel or wrong channel token');
    return calendarId;
  };

  const requestSync = async (calendarId: string) => {
    const result = await handleCalendarCommand(deps.commands, calendarId, { type: 'RequestSync', team_id: null, reason: 'push', full: false, now: nowIso(deps.commands) });
    // A removed calendar's channel may still speak until it is stopped: nothing to do for it.
    if (E.isRight(result)) deps.wake(calendarId);
  };

  // Google Calendar watch channels: the channel and its token ride in X-Goog-* headers; the body is empty.
  router.post('/google', async (ctx) => {
    const calendarId = calendarOf(ctx.get('x-goog-channel-id'), ctx.get('x-goog-channel-token'));
    // `sync` only announces a new channel; `exists` and `not_exists` say something changed.
    if (ctx.get('x-goog-resource-state') !== 'sync') await requestSync(calendarId);
    ctx.status = 200;
    ctx.body = '';
  });

  // Microsoft Graph subscriptions: our channel id rides in the notification URL, its token in clientState.
  router.post('/microsoft', async (ctx) => {
    const channelId = typeof ctx.query.channel === 'string' ? ctx.query.channel : '';
    if (ctx.query.validationToken !== undefined) {
      // The handshake of a new subscription: the token echoed as plain text within 10 s. Anyone can ask
      // for it (Graph sends no clientState then), so it is only ever text: capped, on a URL of ours, never sniffed.
      const validationToken = ctx.query.validationToken;
      if (typeof validationToken !== 'string' || validationToken.length > MAX_VALIDATION_TOKEN_LENGTH) {
        throw validationError('querystring/validationToken', `must be given once, at most ${MAX_VALIDATION_TOKEN_LENGTH} characters`);
      }
      if (calendarOfChannelId(channelId) === null) throw refused('unknown push channel');
      ctx.status = 200;
      ctx.set('x-content-type-options', 'nosniff');
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = validationToken;
      return;
    }
    const body = (await readJsonBody(ctx, { required: true })) as { value?: unknown };
    if (!Array.isArray(body?.value) || body.value.length === 0) throw validationError('body/value', 'must be a non-empty array of change notifications');
    // Every notice must carry the subscription's client state: one that does not is not from our subscription.
    const notices = body.value as { clientState?: unknown }[];
    const calendarIds = new Set(notices.map((n) => calendarOf(channelId, typeof n?.clientState === 'string' ? n.clientState : '')));
    for (const calendarId of calendarIds) await requestSync(calendarId);
    ctx.status = 202;
    ctx.body = '';
  });

  return router;
};
