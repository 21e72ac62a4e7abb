import { workspaceDecider, type WorkspaceCommand } from '../../../src/domain/signed-in-logins/workspace-decider';
import { WorkspaceEvent } from '../../../src/domain/signed-in-logins/workspace-events';
import { at, deciderSpec } from '../given-when-then';

const spec = deciderSpec(workspaceDecider, WorkspaceEvent);
const T0 = '2026-05-04T09:00:00.000Z';
const about = { workspace_id: 'ws-1', team_id: 'team-1', platform: 'mt' as const };
const signing_key = { certificate_pem: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n', private_key: { sealed: 'v1.iv.tag.key' } };

const create: WorkspaceCommand = { type: 'CreateWorkspace', ...about, domain: 'example.com', name: 'Example', extra: null, signing_key, created_by: null, now: T0 };
const created: WorkspaceEvent = { type: 'WorkspaceCreated', data: { ...about, domain: 'example.com', name: 'Example', extra: null, signing_key, created_by: null, at: T0 } };
const failure_data = { code: 'MT_LOGIN_FAILED_SAML_REJECTED', reason: 'saml_rejected', bot_id: 'bot-a' };
const invalidated = (when: string): WorkspaceEvent => ({ type: 'WorkspaceInvalidated', data: { ...about, message: 'Google rejected the assertion', failure_data, at: when } });

describe('workspace decider', () => {
  it('creates the workspace with its signing key (sealed private key); a repeat records nothing', () => {
    spec.given([]).when(create).then([created]);
    spec.given([created]).when(create).thenNothing();
  });

  it('a rejected assertion turns it invalid once: the first failure stays until re-enabled', () => {
    const when = at(T0, { h: 1 });
    spec.given([created]).when({ type: 'InvalidateWorkspace', message: 'Google rejected the assertion', failure_data, now: when }).then([invalidated(when)]);
    spec.given([created, invalidated(when)]).when({ type: 'InvalidateWorkspace', message: 'again', failure_data, now: at(T0, { h: 2 }) }).thenNothing();
  });

  it('PATCH renames, changes extra and re-enables; re-enabling an active workspace records nothing', () => {
    const when = at(T0, { h: 3 });
    spec
      .given([created, invalidated(at(T0, { h: 1 }))])
      .when({ type: 'ChangeWorkspace', name: 'Renamed', extra: { a: 1 }, reenable: true, now: when })
      .then([
        { type: 'WorkspaceRenamed', data: { ...about, name: 'Renamed', at: when } },
        { type: 'WorkspaceExtraChanged', data: { ...about, extra: { a: 1 }, at: when } },
        { type: 'WorkspaceReenabled', data: { ...about, at: when } },
      ]);
    spec.given([created]).when({ type: 'ChangeWorkspace', reenable: true, now: when }).thenNothing();
  });

  it('a workspace with logins cannot be deleted; without, it goes and is then not found', () => {
    const when = at(T0, { h: 4 });
    spec.given([created]).when({ type: 'DeleteWorkspace', logins: 2, now: when }).thenRejects({ code: 'WORKSPACE_IN_USE' });
    const deleted: WorkspaceEvent = { type: 'WorkspaceDeleted', data: { ...about, at: when } };
    spec.given([created]).when({ type: 'DeleteWorkspace', logins: 0, now: when }).then([deleted]);
    spec.given([created, deleted]).when({ type: 'ChangeWorkspace', name: 'x', reenable: false, now: when }).thenRejects({ code: 'WORKSPACE_NOT_FOUND' });
  });

  it('nothing can be done to a workspace that does not exist', () => {
    spec.given([]).when({ type: 'ChangeWorkspace', reenable: true, now: T0 }).thenRejects({ code: 'WORKSPACE_NOT_FOUND' });
  });
});
