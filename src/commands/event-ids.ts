import { createHash } from 'node:crypto';

/**
 * The id of an event appended at a given stream revision, derived from where it goes and what it says.
 * Re-sending an append whose answer was lost then carries the same ids and the store recognises it;
 * a different decision at the same revision gets different ids, so it can never pass for the first.
 */
export const deterministicEventId = (stream: string, revision: bigint, type: string, data: unknown): string => {
  const hex = createHash('sha256').update(`${stream}\u0000${revision}\u0000${type}\u0000${JSON.stringify(data)}`).digest('hex');
  // Formatted as a version-5-style UUID with the RFC 4122 variant, which every store accepts as an id.
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};
