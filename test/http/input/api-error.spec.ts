import assert from 'node:assert/strict';
import * as E from 'fp-ts/Either';
import {
  ApiError, conflict, forbidden, insufficientTokens, methodNotAllowed, notFound, orThrow, payloadTooLarge, toEnvelope,
  tooManyRequests, unauthorized, unsupportedMediaType, validationError,
} from '../../../src/http/api-error';

describe('ApiError and the v2 error envelope', () => {
  it('validationError is a 400 FST_ERR_VALIDATION whose message and details name the field', () => {
    const err = validationError('body/bot_name', 'must NOT have more than 255 characters');
    assert.ok(err instanceof ApiError && err instanceof Error);
    assert.deepEqual(toEnvelope(err), {
      success: false,
      error: 'Bad Request',
      code: 'FST_ERR_VALIDATION',
      message: 'body/bot_name must NOT have more than 255 characters',
      statusCode: 400,
      details: 'body/bot_name must NOT have more than 255 characters',
    });
  });

  it('forbidden() is exactly the body the spec shows, without details', () => {
    assert.deepEqual(toEnvelope(forbidden()), {
      success: false, error: 'Forbidden', code: 'FST_ERR_FORBIDDEN', message: 'Forbidden', statusCode: 403,
    });
  });

  const table: Array<[string, ApiError, number, string, string]> = [
    ['unauthorized', unauthorized(), 401, 'Unauthorized', 'FST_ERR_UNAUTHORIZED'],
    ['notFound', notFound('FST_ERR_BOT_NOT_FOUND', 'Bot not found'), 404, 'Not Found', 'FST_ERR_BOT_NOT_FOUND'],
    ['conflict', conflict('FST_ERR_BOT_STATUS', 'Bot has ended'), 409, 'Conflict', 'FST_ERR_BOT_STATUS'],
    ['insufficientTokens', insufficientTokens(), 402, 'Payment Required', 'FST_ERR_INSUFFICIENT_TOKENS'],
    ['payloadTooLarge', payloadTooLarge(1000), 413, 'Payload Too Large', 'FST_ERR_CTP_BODY_TOO_LARGE'],
    ['unsupportedMediaType', unsupportedMediaType('text/plain'), 415, 'Unsupported Media Type', 'FST_ERR_CTP_INVALID_MEDIA_TYPE'],
    ['tooManyRequests', tooManyRequests('FST_ERR_TOO_MANY_REQUESTS', 3, 'slow down'), 429, 'Too Many Requests', 'FST_ERR_TOO_MANY_REQUESTS'],
    ['methodNotAllowed', methodNotAllowed('PUT', '/v2/bots', 'GET, POST'), 405, 'Method Not Allowed', 'FST_ERR_METHOD_NOT_ALLOWED'],
    ['a bare ApiError', new ApiError({ status: 400, code: 'FST_ERR_X', message: 'plain' }), 400, 'Bad Request', 'FST_ERR_X'],
  ];
  for (const [name, err, status, reason, code] of table) {
    it(`${name}() is ${status} ${reason} with code ${code}`, () => {
      const envelope = toEnvelope(err);
      assert.equal(err.status, status);
      assert.equal(envelope.statusCode, status);
      assert.equal(envelope.error, reason);
      assert.equal(envelope.code, code);
      assert.equal(envelope.success, false);
      assert.ok(envelope.message.length > 0);
      assert.equal(typeof envelope.details, 'string', 'the spec: details on most errors');
      assert.ok((envelope.details ?? '').length > 0);
    });
  }

  it('tooManyRequests carries retryAfter as whole seconds, at least 1', () => {
    assert.equal(toEnvelope(tooManyRequests('FST_ERR_DAILY_BOT_CAP_REACHED', 2.2, 'cap')).retryAfter, 3);
    assert.equal(toEnvelope(tooManyRequests('FST_ERR_TOO_MANY_REQUESTS', 0, 'rate')).retryAfter, 1);
  });

  it('leaves retryAfter out of the envelope when absent, and repeats the message as details when there is none more specific', () => {
    assert.deepEqual(toEnvelope(notFound('FST_ERR_BOT_NOT_FOUND', 'Bot not found')), {
      success: false, error: 'Not Found', code: 'FST_ERR_BOT_NOT_FOUND', message: 'Bot not found', statusCode: 404, details: 'Bot not found',
    });
    assert.equal(toEnvelope(notFound('FST_ERR_BOT_NOT_FOUND', 'Bot not found', 'no bot 42 in this team')).details, 'no bot 42 in this team');
  });

  it('methodNotAllowed carries the Allow value for the header, not in the body', () => {
    const err = methodNotAllowed('PROPFIND', '/v2/bots', 'HEAD, GET, POST');
    assert.equal(err.allow, 'HEAD, GET, POST');
    assert.equal('allow' in toEnvelope(err), false);
  });

  it('payloadTooLarge says the limit in details', () => {
    assert.equal(payloadTooLarge(1000).details, 'body must NOT be larger than 1000 bytes');
  });

  it('orThrow returns a Right and throws a Left', () => {
    assert.equal(orThrow(E.right(7)), 7);
    const err = validationError('body', 'must be object');
    assert.throws(() => orThrow(E.left(err)), (thrown) => thrown === err);
  });
});
