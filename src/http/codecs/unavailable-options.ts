import { ApiError } from '../api-error';
import type { CreateBotRequest } from './create-bot-request';

interface UnavailableOption {
  /** the request field named in the refusal */
  readonly field: string;
  /** whether the request asks for the feature (a default or an explicit "off" asks for nothing) */
  readonly asked: (request: CreateBotRequest) => boolean;
  readonly feature: string;
}

/**
 * Options the service does not deliver yet. The API accepts an option only once the bot really does it;
 * until then asking for it is refused, so that no team believes it has (or pays for) what did not run.
 * An entry leaves this list in the change that delivers its feature.
 */
export const unavailableOptions: readonly UnavailableOption[] = [
];

export const optionNotAvailable = (field: string, feature: string, location = 'body'): ApiError => {
  const sentence = `${location}/${field} is not available yet: this service does not deliver ${feature} yet`;
  return new ApiError({ status: 400, code: 'FST_ERR_OPTION_NOT_AVAILABLE', message: sentence, details: sentence });
};

/** The first option of the request that the service cannot deliver yet, refused by name; null when none. */
export const unavailableOptionRefusal = (request: CreateBotRequest): ApiError | null => {
  const asked = unavailableOptions.find((option) => option.asked(request));
  return asked ? optionNotAvailable(asked.field, asked.feature) : null;
};
