import * as E from 'fp-ts/Either';
import type { BotDefinition } from '../../domain/bot/bot-decider';
import { isIsoInstant } from '../../domain/codec-helpers';
import { joinAtProblem } from '../../domain/bot/schedule-timing';
import { type ApiError, validationError } from '../api-error';
import { isPlainObject } from './codec-kit';
import { decodeCreateBotRequest, type CreateBotRequest } from './create-bot-request';
import { v2RequestOf } from './v2-request-of-bot-config';

export interface DecodeOptions {
  readonly sandboxHosts: boolean;
  /** the service's clock, ISO: join_at must be after it */
  readonly now: string;
}

/** `join_at`: an ISO 8601 instant with its zone, in the future, at most a year ahead; kept in UTC. */
export const decodeJoinAt = (u: unknown, now: string): E.Either<ApiError, string> => {
  if (u === undefined || u === null) return E.left(validationError('body/join_at', 'is required'));
  if (typeof u !== 'string') return E.left(validationError('body/join_at', 'must be string'));
  if (!isIsoInstant(u)) {
    return E.left(validationError('body/join_at', 'must be an ISO 8601 date-time with its time zone, such as 2026-03-02T09:00:00Z or 2026-03-02T10:00:00+01:00'));
  }
  const joinAt = new Date(u).toISOString();
  const problem = joinAtProblem(joinAt, now);
  return problem === null ? E.right(joinAt) : E.left(validationError('body/join_at', problem));
};

export interface ScheduledBotRequest {
  readonly join_at: string;
  readonly request: CreateBotRequest;
}

const withoutJoinAt = (body: Record<string, unknown>): Record<string, unknown> => {
  const { join_at: _joinAt, ...rest } = body;
  return rest;
};

/**
 * POST /v2/bots/scheduled: `join_at` first, then every other field exactly as POST /v2/bots decodes it
 * (decodeCreateBotRequest), options the service does not deliver yet included.
 */
export const decodeScheduledBotRequest = (body: unknown, options: DecodeOptions): E.Either<ApiError, ScheduledBotRequest> => {
  if (!isPlainObject(body)) return E.left(validationError('body', 'must be object'));
  const joinAt = decodeJoinAt(body.join_at, options.now);
  if (E.isLeft(joinAt)) return joinAt;
  return E.map((request: CreateBotRequest) => ({ join_at: joinAt.right, request }))(decodeCreateBotRequest(withoutJoinAt(body), options));
};

export interface ScheduledBotPatch extends ScheduledBotRequest {
  /** the creation fields the patch names (their stored values, secrets included, give way to the patch's) */
  readonly named: ReadonlySet<string>;
}

/**
 * PATCH /v2/bots/scheduled/{id}: every field it names replaces the stored one whole (an object such as
 * `timeout_config` too; `null` means "not given", as on creation), the others stay; `join_at` moves the
 * time. The merged request is then decoded exactly as a new POST /v2/bots/scheduled would be.
 */
export const decodeScheduledBotPatch = (
  body: unknown,
  stored: { readonly definition: BotDefinition; readonly join_at: string },
  options: DecodeOptions,
): E.Either<ApiError, ScheduledBotPatch> => {
  if (!isPlainObject(body)) return E.left(validationError('body', 'must be object'));
  const joinAt = body.join_at === undefined || body.join_at === null ? E.right(stored.join_at) : decodeJoinAt(body.join_at, options.now);
  if (E.isLeft(joinAt)) return joinAt;
  const fields = withoutJoinAt(body);
  const merged = { ...v2RequestOf(stored.definition), ...fields };
  return E.map((request: CreateBotRequest) => ({ join_at: joinAt.right, request, named: new Set(Object.keys(fields)) }))(
    decodeCreateBotRequest(merged, options),
  );
};
