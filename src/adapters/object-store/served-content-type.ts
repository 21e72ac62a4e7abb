/**
 * Media types served as themselves, keyed by the bare type a bot declared (parameters dropped), valued by
 * exactly what we send. Covers what bot-runtime uploads (recording mp4/mpeg, audio chunks webm, screenshots
 * png, chat/participants json, bot.log text) plus transcripts. Anything else a bot claims (text/html,
 * image/svg+xml, …) could run as active content where it is served, so it is sent as an opaque download.
 */
const SERVED_TYPES: ReadonlyMap<string, string> = new Map([
  ['video/mp4', 'video/mp4'],
  ['video/webm', 'video/webm'],
  ['video/x-matroska', 'video/x-matroska'],
  ['audio/mpeg', 'audio/mpeg'],
  ['audio/webm', 'audio/webm'],
  ['audio/wav', 'audio/wav'],
  ['image/png', 'image/png'],
  ['image/jpeg', 'image/jpeg'],
  ['application/json', 'application/json'],
  ['application/x-ndjson', 'application/x-ndjson'],
  ['text/plain', 'text/plain; charset=utf-8'],
  ['text/vtt', 'text/vtt; charset=utf-8'],
]);

/** The content type and disposition an artifact is served with, whatever the bot declared. */
export const servedContentType = (declared: string, key: string): { readonly contentType: string; readonly disposition?: string } => {
  const bare = (declared.split(';')[0] ?? '').trim().toLowerCase();
  const served = SERVED_TYPES.get(bare);
  if (served) return { contentType: served };
  // Keys use a conservative alphabet (isSafeObjectKey), so the file name needs no escaping.
  const filename = key.split('/').pop() ?? 'artifact';
  return { contentType: 'application/octet-stream', disposition: `attachment; filename="${filename}"` };
};
