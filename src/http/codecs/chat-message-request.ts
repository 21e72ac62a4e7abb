import * as E from 'fp-ts/Either';
import type * as t from 'io-ts';
import type { ApiError } from '../api-error';
import { checkLength, decodeWith, leaf, strictObject } from './codec-kit';

export const MAX_CHAT_MESSAGE_LENGTH = 4096;

/** The spec: 1 to 4096 characters, not whitespace-only. The text is kept as sent (no trimming). */
const ChatMessage = leaf<string>('chat message', (u) => {
  if (typeof u !== 'string') return E.left('must be string');
  if (u.length > 0 && u.trim() === '') return E.left('must NOT be whitespace only');
  return checkLength(u, 1, MAX_CHAT_MESSAGE_LENGTH);
}, { type: 'string', minLength: 1, maxLength: MAX_CHAT_MESSAGE_LENGTH, description: 'Sent as given; not whitespace only.', examples: ['Hello from the notetaker'] });

export const ChatMessageRequest = strictObject('ChatMessageRequest', { message: ChatMessage });
export type ChatMessageRequest = t.TypeOf<typeof ChatMessageRequest>;

export const decodeChatMessageRequest = (body: unknown): E.Either<ApiError, ChatMessageRequest> =>
  decodeWith(ChatMessageRequest, 'body', body);
