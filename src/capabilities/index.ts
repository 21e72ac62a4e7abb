import type { Projection } from '../projections/projection';
import { botDataDeletion } from './bot-data-deletion';
import { bots } from './bots';
import { calendars } from './calendars';
import type { Capability } from './capability';
import { signedInLogins } from './signed-in-logins';
import { storage } from './storage';
import { teams } from './teams';
import { transcription } from './transcription';
import { vcJoins } from './vc-joins';
import { webhooks } from './webhooks';

/**
 * The service, capability by capability. Their background parts start in this order (each capability's
 * in its own order) after the HTTP server and the read models, and stop in reverse. A new capability is a
 * module of its own and a line here.
 */
export const capabilities: readonly Capability[] = [teams, bots, webhooks, storage, transcription, calendars, vcJoins, signedInLogins, botDataDeletion];

/** Every read model, from the capabilities that own them. */
export const allProjections: readonly Projection<any>[] = capabilities.flatMap((capability) => capability.projections);
