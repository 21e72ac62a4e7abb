import type { ApiError } from '../api-error';
import type { LegacyCreateBotRequest } from './legacy-create-bot-request';
import { optionNotAvailable } from './unavailable-options';

/**
 * The legacy request's options that the service does not deliver yet, refused by their legacy names just
 * as v2 refuses its own (unavailable-options.ts). An entry leaves this list with the v2 entry of its feature.
 */
const legacyUnavailableOptions: readonly { readonly field: keyof LegacyCreateBotRequest; readonly asked: (r: LegacyCreateBotRequest) => boolean; readonly feature: string }[] = [
];

export const legacyUnavailableOptionRefusal = (request: LegacyCreateBotRequest): ApiError | null => {
  const asked = legacyUnavailableOptions.find((option) => option.asked(request));
  return asked ? optionNotAvailable(asked.field, asked.feature) : null;
};
