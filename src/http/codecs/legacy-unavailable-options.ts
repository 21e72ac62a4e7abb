import type { ApiError } from '../api-error';
import type { LegacyCreateBotRequest } from './legacy-create-bot-request';
import { optionNotAvailable } from './unavailable-options';

/**
 * The legacy request's options that the service does not deliver yet, refused by their legacy names just
 * as v2 refuses its own (unavailable-options.ts). An entry leaves this list with the v2 entry of its feature.
 */
const legacyUnavailableOptions: readonly { readonly field: keyof LegacyCreateBotRequest; readonly asked: (r: LegacyCreateBotRequest) => boolean; readonly feature: string }[] = [
  { field: 'vc_obf_token', asked: (r) => r.vc_obf_token !== null, feature: 'vc OBF tokens' },
  { field: 'vc_obf_token_url', asked: (r) => r.vc_obf_token_url !== null, feature: 'vc OBF tokens' },
  { field: 'vc_obf_token_user_id', asked: (r) => r.vc_obf_token_user_id !== null, feature: 'vc OBF tokens' },
  { field: 'vc_sdk_id', asked: (r) => r.vc_sdk_id !== null, feature: "the caller's own vc SDK credentials" },
];

export const legacyUnavailableOptionRefusal = (request: LegacyCreateBotRequest): ApiError | null => {
  const asked = legacyUnavailableOptions.find((option) => option.asked(request));
  return asked ? optionNotAvailable(asked.field, asked.feature) : null;
};
