import type { ReadStore } from '../../adapters/read-store/port';
import type { LoginPlatform } from '../../domain/signed-in-logins/login-platform';
import type { LoginCandidate } from '../../domain/signed-in-logins/pool-selection';
import { BOT_LOGIN_SESSIONS, type BotLoginSessionView } from './bot-login-session-view';
import { LOGINS, type LoginView } from './login-view';
import { LOGIN_WORKSPACES, type WorkspaceView } from './workspace-view';

/** A login as the pool chooses among them, with what the bot's sign-in answer needs (its views). */
export type PoolLogin = LoginCandidate & { readonly view: LoginView; readonly workspace: WorkspaceView };

/**
 * What the sign-in commands read of the read models (src/commands/signed-in-logins/login-lookups.ts):
 * the team's logins of a platform with their workspaces, and the sessions a bot holds.
 */
export const loginQueries = (readStore: ReadStore) => ({
  candidatesOf: async (teamId: string, platform: LoginPlatform): Promise<PoolLogin[]> => {
    const [logins, workspaces] = await Promise.all([
      readStore.find<LoginView>(LOGINS, { where: { team_id: teamId, platform, deleted: false } }),
      readStore.find<WorkspaceView>(LOGIN_WORKSPACES, { where: { team_id: teamId, platform, deleted: false } }),
    ]);
    const byId = new Map(workspaces.map((w) => [w.workspace_id, w]));
    return logins.flatMap((view) => {
      const workspace = byId.get(view.workspace_id);
      if (!workspace) return [];
      return [
        {
          credential_id: view.credential_id,
          email_group: view.email_group,
          state: view.state,
          workspace_state: workspace.state,
          deleting: view.deleting,
          sessions: view.active_session_count,
          capacity: view.capacity,
          last_used_at: view.last_used_at,
          view,
          workspace,
        },
      ];
    });
  },

  sessionsHeldBy: async (botId: string): Promise<{ platform: LoginPlatform; credential_ids: readonly string[] } | null> => {
    const held = (await readStore.get<BotLoginSessionView>(BOT_LOGIN_SESSIONS, botId))?.doc;
    return held ? { platform: held.platform, credential_ids: held.credential_ids } : null;
  },

  heldLoginOf: async (botId: string): Promise<{ platform: LoginPlatform; credential_id: string; workspace_id: string } | null> => {
    const credentialId = (await readStore.get<BotLoginSessionView>(BOT_LOGIN_SESSIONS, botId))?.doc.credential_ids[0];
    const login = credentialId === undefined ? null : (await readStore.get<LoginView>(LOGINS, credentialId))?.doc;
    return login ? { platform: login.platform, credential_id: login.credential_id, workspace_id: login.workspace_id } : null;
  },
});
