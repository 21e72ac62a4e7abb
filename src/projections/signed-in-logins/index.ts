import type { Projection } from '../projection';
import { botLoginSessionProjection } from './bot-login-session-view';
import { loginViewProjection } from './login-view';
import { workspaceViewProjection } from './workspace-view';

/** The read models of signed-in bots (issue 20): workspaces, logins with their sessions, each bot's sessions. */
export const signedInLoginProjections: readonly Projection<any>[] = [workspaceViewProjection, loginViewProjection, botLoginSessionProjection];
