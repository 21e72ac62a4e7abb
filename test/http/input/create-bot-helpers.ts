import assert from 'node:assert/strict';
import * as E from 'fp-ts/Either';
import { decodeCreateBotRequestShape, type CreateBotRequest } from '../../../src/http/codecs/create-bot-request';

export const VC_URL = 'https://zoom.us/j/123456789';
export const TM_URL = 'https://teams.microsoft.com/l/meetup-join/19%3ameeting_abc';
export const MT_URL = 'https://meet.google.com/abc-defg-hij';

export const vcBody = (extra: Record<string, unknown> = {}) => ({ meeting_url: VC_URL, bot_name: 'Notetaker', ...extra });
export const tmBody = (extra: Record<string, unknown> = {}) => ({ meeting_url: TM_URL, bot_name: 'Notetaker', ...extra });
export const mtBody = (extra: Record<string, unknown> = {}) => ({ meeting_url: MT_URL, bot_name: 'Notetaker', ...extra });

/** The request's shape rules (what the service delivers yet is judged separately: unavailable-options.spec.ts). */
export const accepted = (body: unknown, sandboxHosts = false): CreateBotRequest => {
  const result = decodeCreateBotRequestShape(body, { sandboxHosts });
  if (E.isLeft(result)) assert.fail(`expected acceptance, got: ${result.left.details}`);
  return result.right;
};

/** A refusal is always a 400 FST_ERR_VALIDATION; `details` is matched exactly (string) or by pattern. */
export const refused = (body: unknown, details: string | RegExp, sandboxHosts = false): string => {
  const result = decodeCreateBotRequestShape(body, { sandboxHosts });
  if (E.isRight(result)) assert.fail(`expected refusal ${details}, got acceptance`);
  assert.equal(result.left.status, 400);
  assert.equal(result.left.code, 'FST_ERR_VALIDATION');
  assert.equal(result.left.error, 'Bad Request');
  const actual = result.left.details ?? '';
  if (typeof details === 'string') assert.equal(actual, details);
  else assert.match(actual, details);
  return actual;
};

export const repeat = (n: number, s = 'a'): string => s.repeat(n);
