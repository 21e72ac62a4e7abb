import type { CreatedBy } from '../bot/bot-events';
import type { CallbackOverride } from './webhook-delivery-events';

/**
 * The API key a delivery carries in `x-service-api-key`: the key that defined what is sent and where.
 * A callback retry to a target named in the request: the key that asked for it. A bot's message: the key
 * that defined the bot as it now is (the last to schedule, change or create it; `BotFacts.created_by`).
 * A calendar's message: the key that connected it. Null: no key is sent (never another key instead).
 * A Sending Access key thus never makes a Full Access key go anywhere it chose.
 */
export const keyOfDelivery = (delivery: {
  readonly override: CallbackOverride | null;
  readonly bot: { readonly created_by: CreatedBy | null } | null;
  readonly calendar: { readonly created_by: CreatedBy } | null;
}): CreatedBy | null => {
  if (delivery.override !== null) return delivery.override.requested_by;
  if (delivery.bot !== null) return delivery.bot.created_by;
  return delivery.calendar?.created_by ?? null;
};
