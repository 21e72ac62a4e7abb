/** Checks every provider makes of a transcription's options before any work. */
import type { TranscriptionOptions } from './port';

/** ISO 639 codes with an optional region, as the providers take them: `en`, `en-US`, `pt_br`. */
const LANGUAGE = /^[a-z]{2,3}([-_][A-Za-z]{2,4})?$/;

export const languageProblem = (options: TranscriptionOptions): string | null =>
  options.language === undefined || options.language === null || LANGUAGE.test(options.language)
    ? null
    : `language must be a language code such as "en" or "en-US"`;

/** Hosted providers work with the team's own key. */
export const hostedProblems = (options: TranscriptionOptions, ...reservedParams: string[]): string | null => {
  if (typeof options.apiKey !== 'string' || options.apiKey.trim() === '') return 'api_key is required for this provider';
  const reserved = reservedParams.find((p) => options.customParams && Object.hasOwn(options.customParams, p));
  if (reserved) return `custom_params.${reserved} cannot be set: the service sets it`;
  return languageProblem(options);
};
