import type { RecordedEvent } from '../../adapters/event-store/port';
import type { ReadStore } from '../../adapters/read-store/port';
import type { CommandDeps } from '../../commands/command-deps';
import { handleDeliveryCommand } from '../../commands/webhook-commands';
import type { DomainEvent } from '../../domain/all-events';
import { messageIdOfEvent, type OutgoingMessage } from '../../domain/webhooks/bot-webhook-messages';
import { loginInvalidMessage, loginSaturatedMessage, workspaceInvalidMessage } from '../../domain/webhooks/login-webhook-messages';
import { deliveryStreamName } from '../../domain/webhooks/webhook-delivery-events';
import { LOGINS, type LoginView } from '../../projections/signed-in-logins/login-view';
import { LOGIN_WORKSPACES, type WorkspaceView } from '../../projections/signed-in-logins/workspace-view';
import type { Subscriber } from '../subscriber-runner';
import { subjectOfLogin, subjectOfWorkspace } from '../webhooks/login-subject';
import { subjectOfBot } from '../webhooks/render-payload';
import { teamEndpointsFor } from '../webhooks/team-endpoints';

export interface QueueLoginWebhooksDeps {
  readonly commands: CommandDeps;
  readonly readStore: ReadStore;
  readonly waitForReadModels: (position: bigint) => Promise<boolean>;
  /** a message was queued: the delivery worker can look at once */
  readonly queued: () => void;
}

interface Outgoing {
  readonly team_id: string;
  /** delivery subject: a saturation goes with its bot's messages (before its bot.failed), the others with their login or workspace */
  readonly subject: string;
  readonly message: OutgoingMessage;
}

/** The message an event makes, if it makes one; the login's or workspace's fields as the read models show them. */
const outgoingOf = async (deps: QueueLoginWebhooksDeps, event: DomainEvent, position: bigint): Promise<Outgoing | null> => {
  switch (event.type) {
    case 'LoginInvalidated': {
      if (!(await deps.waitForReadModels(position))) throw new Error(`read models did not reach position ${position} in time`);
      const login = (await deps.readStore.get<LoginView>(LOGINS, event.data.credential_id))?.doc;
      if (!login) return null;
      const { workspace_id, email, name, email_group } = login;
      return { team_id: event.data.team_id, subject: subjectOfLogin(login.credential_id), message: loginInvalidMessage(event, { workspace_id, email, name, email_group }) };
    }
    case 'WorkspaceInvalidated': {
      if (!(await deps.waitForReadModels(position))) throw new Error(`read models did not reach position ${position} in time`);
      const workspace = (await deps.readStore.get<WorkspaceView>(LOGIN_WORKSPACES, event.data.workspace_id))?.doc;
      if (!workspace) return null;
      return { team_id: event.data.team_id, subject: subjectOfWorkspace(workspace.workspace_id), message: workspaceInvalidMessage(event, { domain: workspace.domain, name: workspace.name }) };
    }
    case 'LoginSaturated':
      return { team_id: event.data.team_id, subject: subjectOfBot(event.data.bot_id), message: loginSaturatedMessage(event) };
    default:
      return null;
  }
};

/**
 * Queues the account webhooks of signed-in bots (`login.invalid`, `workspace.invalid`, `login.saturated`) for
 * the team's endpoints that want them. The message id comes from the event, so seeing it again queues nothing new.
 */
export const queueLoginWebhooks = (deps: QueueLoginWebhooksDeps): Subscriber => ({
  name: 'queue-login-webhooks',
  handle: async (event: DomainEvent, recorded: RecordedEvent) => {
    const outgoing = await outgoingOf(deps, event, recorded.position);
    if (outgoing === null) return;
    const targets = await teamEndpointsFor(deps, outgoing.team_id, outgoing.message.event_type, recorded.position);
    for (const target of targets) {
      await handleDeliveryCommand(deps.commands, deliveryStreamName(target, outgoing.subject), {
        type: 'QueueMessage',
        target,
        subject: outgoing.subject,
        team_id: outgoing.team_id,
        message_id: messageIdOfEvent(recorded.id),
        callback: null,
        event_type: outgoing.message.event_type,
        payload: outgoing.message.payload,
        now: deps.commands.clock().toISOString(),
      });
    }
    if (targets.length > 0) deps.queued();
  },
});
