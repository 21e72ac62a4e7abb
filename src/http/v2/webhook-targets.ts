import { targetProblem, type Resolve, type TargetPolicy } from '../../adapters/webhook-http/target-policy';
import { validationError } from '../api-error';

/** Where this service lets webhooks and callbacks go, and how it resolves their host names. */
export interface WebhookTargets {
  readonly policy: TargetPolicy;
  readonly resolve: Resolve;
}

/** Refuses, as a 400 naming the field, a URL the service would never send to (sending checks again). */
export const checkWebhookTarget = async (targets: WebhookTargets, field: string, url: string): Promise<void> => {
  const problem = await targetProblem(url, targets.policy, targets.resolve);
  if (problem !== null) throw validationError(field, problem);
};
