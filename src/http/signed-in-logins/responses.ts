import { idpEndpoints } from '../../adapters/saml/identity-provider';
import { isActiveLogin } from '../../domain/signed-in-logins/pool-selection';
import type { LoginView } from '../../projections/signed-in-logins/login-view';
import type { WorkspaceView } from '../../projections/signed-in-logins/workspace-view';

/** The spec's workspace response; an mt workspace adds what the customer enters in the domain's SSO profile. */
export const workspaceResponse = (view: WorkspaceView, publicUrl: string) => ({
  created_at: view.created_at,
  domain: view.domain,
  extra: view.extra,
  failure_data: view.failure_data,
  last_error_at: view.last_error_at,
  last_error_message: view.last_error_message,
  name: view.name,
  state: view.state,
  updated_at: view.updated_at,
  workspace_id: view.workspace_id,
  ...(view.platform === 'mt' && view.certificate_pem !== null ? { sso: ssoProfile(view, publicUrl) } : {}),
});

/** Google Admin console > Security > Authentication > SSO with third-party IdP: the profile's fields. */
const ssoProfile = (view: WorkspaceView, publicUrl: string) => {
  const endpoints = idpEndpoints(publicUrl, view.workspace_id);
  return {
    sign_in_page_url: endpoints.ssoUrl,
    sign_out_page_url: endpoints.signOutUrl,
    entity_id: endpoints.entityId,
    certificate: view.certificate_pem,
    metadata_url: endpoints.metadataUrl,
    acs_url: `https://www.google.com/a/${view.domain}/acs`,
  };
};

/** The spec's login response (never the password). */
export const loginResponse = (view: LoginView) => ({
  active_session_count: view.active_session_count,
  created_at: view.created_at,
  credential_id: view.credential_id,
  email: view.email,
  email_group: view.email_group,
  extra: view.extra,
  failure_data: view.failure_data,
  last_error_at: view.last_error_at,
  last_error_message: view.last_error_message,
  last_used_at: view.last_used_at,
  name: view.name,
  state: view.state,
  updated_at: view.updated_at,
  workspace_id: view.workspace_id,
});

const percent = (part: number, whole: number): number => (whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10);

/**
 * The spec's pool utilization over the team's logins of one platform (docs/decisions.md "Issue 20"):
 * capacity counts the logins that can take sessions (active, of an active workspace, not being deleted);
 * sessions count every session held; pools are the logins sharing an `email_group`.
 */
export const utilizationResponse = (logins: readonly LoginView[], workspaces: readonly WorkspaceView[]) => {
  const workspaceState = new Map(workspaces.map((w) => [w.workspace_id, w.state]));
  const rows = logins.map((login) => {
    const candidate = {
      ...login,
      workspace_state: workspaceState.get(login.workspace_id) ?? ('invalid' as const),
      sessions: login.active_session_count,
    };
    return { login, active: isActiveLogin(candidate), invalid: login.state === 'invalid' || candidate.workspace_state === 'invalid' };
  });
  const capacityOf = (r: (typeof rows)[number]) => (r.active ? r.login.capacity : 0);
  const groups = new Map<string, (typeof rows)[number][]>();
  for (const row of rows) {
    if (row.login.email_group === null) continue;
    groups.set(row.login.email_group, [...(groups.get(row.login.email_group) ?? []), row]);
  }
  const concurrent_capacity = rows.reduce((sum, r) => sum + capacityOf(r), 0);
  const concurrent_sessions = rows.reduce((sum, r) => sum + r.login.active_session_count, 0);
  return {
    by_email_group: [...groups.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([email_group, members]) => ({
        capacity: members.reduce((sum, r) => sum + capacityOf(r), 0),
        concurrent: members.reduce((sum, r) => sum + r.login.active_session_count, 0),
        email_group,
        logins: members.length,
      })),
    concurrent_capacity,
    concurrent_sessions,
    logins_active: rows.filter((r) => r.active).length,
    logins_invalid: rows.filter((r) => r.invalid).length,
    logins_total: rows.length,
    utilization_pct: percent(concurrent_sessions, concurrent_capacity),
  };
};
