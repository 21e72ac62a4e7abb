/**
 * ffmpeg's input arguments for media someone else could have written (the page feeds the bot's work file; a
 * team can replace a recording in its bucket, which the service's transcription then reads): only the
 * protocols and demuxers named. A protocol list alone is not enough: a file that is an HLS playlist in
 * disguise reads other local files through `file:`; only the demuxer list keeps ffmpeg from following it.
 */
export const guardedInput = (input: string, allowed: { readonly protocols: readonly string[]; readonly formats: readonly string[] }): string[] => [
  '-protocol_whitelist',
  allowed.protocols.join(','),
  '-format_whitelist',
  allowed.formats.join(','),
  '-i',
  input,
];
