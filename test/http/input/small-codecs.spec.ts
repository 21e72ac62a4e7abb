import assert from 'node:assert/strict';
import * as E from 'fp-ts/Either';
import type { ApiError } from '../../../src/http/api-error';
import { decodeChatMessageRequest } from '../../../src/http/codecs/chat-message-request';
import { decodeWith, email } from '../../../src/http/codecs/codec-kit';
import { DEFAULT_LIST_LIMIT, decodeListQuery, type RawQuery } from '../../../src/http/codecs/list-query';
import { parseBotIdParam, parseUuidParam } from '../../../src/http/codecs/path-uuid';

const leftOf = <A>(result: E.Either<ApiError, A>): ApiError => {
  if (E.isRight(result)) assert.fail(`expected a refusal, got ${JSON.stringify(result.right)}`);
  assert.equal(result.left.status, 400);
  assert.equal(result.left.code, 'FST_ERR_VALIDATION');
  return result.left;
};

describe('decodeChatMessageRequest', () => {
  const good: Array<[string, string]> = [
    ['1 character', 'a'],
    ['4096 characters', 'a'.repeat(4096)],
    ['4096 emoji (characters, not UTF-16 units)', '🙂'.repeat(4096)],
    ['surrounding spaces, kept as sent', '  hello  '],
  ];
  for (const [name, message] of good) {
    it(`accepts ${name}`, () => assert.deepEqual(decodeChatMessageRequest({ message }), E.right({ message })));
  }
  const bad: Array<[string, unknown, string]> = [
    ['an empty message', { message: '' }, 'body/message must NOT have fewer than 1 characters'],
    ['4097 characters', { message: 'a'.repeat(4097) }, 'body/message must NOT have more than 4096 characters'],
    ['whitespace only', { message: ' \n\t ' }, 'body/message must NOT be whitespace only'],
    ['a number', { message: 5 }, 'body/message must be string'],
    ['no message', {}, 'body/message is required'],
    ['an unknown field', { message: 'hi', urgent: true }, 'body/urgent is not an allowed property'],
    ['no body', undefined, 'body must be object'],
  ];
  for (const [name, body, details] of bad) {
    it(`refuses ${name}`, () => assert.equal(leftOf(decodeChatMessageRequest(body)).details, details));
  }
});

describe('parseBotIdParam', () => {
  const good: Array<[string, string]> = [
    ['version 4', '9b2f1c3e-4d5a-4b6c-8d7e-0f1a2b3c4d5e'],
    ['version 1', 'c232ab00-9414-11ec-b3c8-9e6bdeced846'],
    ['version 7', '01890a5d-ac96-774b-bcce-b302099a8057'],
    ['version 8', '320c3d4d-cc00-875b-8ec9-32d5f69181c0'],
    ['the nil UUID', '00000000-0000-0000-0000-000000000000'],
    ['the max UUID', 'ffffffff-ffff-ffff-ffff-ffffffffffff'],
  ];
  for (const [name, id] of good) {
    it(`accepts ${name}`, () => assert.deepEqual(parseBotIdParam(id), E.right(id)));
  }
  it('is case-insensitive and normalises to lower case', () => {
    assert.deepEqual(parseBotIdParam('9B2F1C3E-4D5A-4B6C-8D7E-0F1A2B3C4D5E'), E.right('9b2f1c3e-4d5a-4b6c-8d7e-0f1a2b3c4d5e'));
    assert.deepEqual(parseBotIdParam('FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF'), E.right('ffffffff-ffff-ffff-ffff-ffffffffffff'));
  });
  const bad: Array<[string, string | undefined]> = [
    ['version 0', '9b2f1c3e-4d5a-0b6c-8d7e-0f1a2b3c4d5e'],
    ['version 9', '9b2f1c3e-4d5a-9b6c-8d7e-0f1a2b3c4d5e'],
    ['the NCS variant', '9b2f1c3e-4d5a-4b6c-0d7e-0f1a2b3c4d5e'],
    ['the Microsoft variant', '9b2f1c3e-4d5a-4b6c-cd7e-0f1a2b3c4d5e'],
    ['no hyphens', '9b2f1c3e4d5a4b6c8d7e0f1a2b3c4d5e'],
    ['braces', '{9b2f1c3e-4d5a-4b6c-8d7e-0f1a2b3c4d5e}'],
    ['a URN', 'urn:uuid:9b2f1c3e-4d5a-4b6c-8d7e-0f1a2b3c4d5e'],
    ['one character short', '9b2f1c3e-4d5a-4b6c-8d7e-0f1a2b3c4d5'],
    ['a trailing newline', '9b2f1c3e-4d5a-4b6c-8d7e-0f1a2b3c4d5e\n'],
    ['non-hex digits', 'zb2f1c3e-4d5a-4b6c-8d7e-0f1a2b3c4d5e'],
    ['an empty string', ''],
    ['nothing', undefined],
  ];
  for (const [name, id] of bad) {
    it(`refuses ${name}, naming params/bot_id`, () => assert.equal(leftOf(parseBotIdParam(id)).details, 'params/bot_id must match format "uuid"'));
  }
  it('parseUuidParam names its own parameter', () => assert.equal(leftOf(parseUuidParam('team_id', 'x')).details, 'params/team_id must match format "uuid"'));
});

describe('decodeListQuery', () => {
  const good: Array<[string, RawQuery, { limit: number; cursor?: string }]> = [
    ['no parameters: the default limit', {}, { limit: DEFAULT_LIST_LIMIT }],
    ['limit 1', { limit: '1' }, { limit: 1 }],
    ['limit 100', { limit: '100' }, { limit: 100 }],
    ['a cursor', { cursor: 'abc_-' }, { limit: 20, cursor: 'abc_-' }],
    ['a 512-character cursor', { cursor: 'c'.repeat(512) }, { limit: 20, cursor: 'c'.repeat(512) }],
    ['an empty cursor (first page)', { cursor: '' }, { limit: 20 }],
  ];
  for (const [name, query, expected] of good) {
    it(`accepts ${name}`, () => assert.deepEqual(decodeListQuery(query), E.right(expected)));
  }
  it('defaults the limit to 20', () => assert.equal(DEFAULT_LIST_LIMIT, 20));
  const bad: Array<[string, RawQuery, string]> = [
    ['limit 0', { limit: '0' }, 'querystring/limit must be an integer from 1 to 100'],
    ['limit 101', { limit: '101' }, 'querystring/limit must be an integer from 1 to 100'],
    ['limit -1', { limit: '-1' }, 'querystring/limit must be an integer from 1 to 100'],
    ['limit 1.5', { limit: '1.5' }, 'querystring/limit must be an integer from 1 to 100'],
    ['limit 1e1', { limit: '1e1' }, 'querystring/limit must be an integer from 1 to 100'],
    ['an empty limit', { limit: '' }, 'querystring/limit must be an integer from 1 to 100'],
    ['a repeated limit', { limit: ['1', '2'] }, 'querystring/limit must be given at most once'],
    ['a 513-character cursor', { cursor: 'c'.repeat(513) }, 'querystring/cursor must NOT have more than 512 characters'],
    ['a repeated cursor', { cursor: ['a', 'b'] }, 'querystring/cursor must be given at most once'],
    ['an unknown parameter', { offset: '10' }, 'querystring/offset is not an allowed property'],
  ];
  for (const [name, query, details] of bad) {
    it(`refuses ${name}`, () => assert.equal(leftOf(decodeListQuery(query)).details, details));
  }
  it("reads koa's null-prototype query objects", () => {
    const query = Object.assign(Object.create(null) as Record<string, string>, { limit: '5' });
    assert.deepEqual(decodeListQuery(query), E.right({ limit: 5 }));
  });
});

describe('email (JSON Schema\'s format, as the document says)', () => {
  const decode = (u: unknown) => decodeWith(email, 'body/email', u);
  const good = ['notes@acme.example', 'First.Last+pool@sub.example.co.uk', "o'brien@example.com", 'a@b.cd', 'x_y-z@xn--bcher-kva.example', `${'a'.repeat(64)}@b.cd`, `x@${'a'.repeat(63)}.com`];
  for (const value of good) it(`accepts ${value}`, () => assert.deepEqual(decode(value), E.right(value)));
  const bad: Array<[string, string]> = [
    ['control characters', 'þ¢@v\u0087.\b°o'],
    ['a backspace in the local part', 'no\bte@acme.example'],
    ['non-ASCII letters (idn-email, not email)', 'josé@example.com'],
    ['a space', 'a b@example.com'],
    ['two @', 'a@b@example.com'],
    ['no dot in the domain', 'notes@localhost'],
    ['a domain label ending in a hyphen', 'notes@acme-.example'],
    ['a leading dot', '.notes@acme.example'],
    ['more than 254 characters', `${'a'.repeat(60)}@${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.${'e'.repeat(11)}`],
    ['a local part of more than 64 characters (RFC 5321)', `${'a'.repeat(65)}@b.cd`],
    ['a domain label of more than 63 characters', `x@${'a'.repeat(64)}.com`],
  ];
  for (const [name, value] of bad) it(`refuses ${name}`, () => assert.equal(leftOf(decode(value)).details, 'body/email must match format "email"'));
});
