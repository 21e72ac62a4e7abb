import * as t from 'io-ts';
import { CreatedBy } from '../bot/bot-events';
import { eventCodec, IsoInstant, nullableField, Sealed } from '../codec-helpers';
import { FailureData, LoginPlatform } from './login-platform';

const about = { workspace_id: t.string, team_id: t.string, platform: LoginPlatform };

/**
 * mt only: the key pair our identity provider signs the workspace's assertions with, made by the service.
 * The certificate is what the customer enters in the domain's SSO profile; the private key is sealed.
 */
export const SigningKey = t.type({ certificate_pem: t.string, private_key: Sealed });
export type SigningKey = t.TypeOf<typeof SigningKey>;

/** A tm tenant's domain, or an mt Google Workspace domain (lower case). */
export const WorkspaceCreated = eventCodec('WorkspaceCreated', {
  ...about,
  domain: t.string,
  name: t.string,
  extra: t.union([t.UnknownRecord, t.null]),
  signing_key: t.union([SigningKey, t.null]),
  /** the key that created it, sealed: the workspace's webhooks carry it in `x-service-api-key` */
  created_by: nullableField(CreatedBy),
  at: IsoInstant,
});

export const WorkspaceRenamed = eventCodec('WorkspaceRenamed', { ...about, name: t.string, at: IsoInstant });
export const WorkspaceExtraChanged = eventCodec('WorkspaceExtraChanged', { ...about, extra: t.union([t.UnknownRecord, t.null]), at: IsoInstant });

/** mt: the platform rejected our assertion (certificate or SSO profile): every login of it is skipped until re-enabled. */
export const WorkspaceInvalidated = eventCodec('WorkspaceInvalidated', { ...about, message: t.string, failure_data: FailureData, at: IsoInstant });
export const WorkspaceReenabled = eventCodec('WorkspaceReenabled', { ...about, at: IsoInstant });
export const WorkspaceDeleted = eventCodec('WorkspaceDeleted', { ...about, at: IsoInstant });

export const WorkspaceEvent = t.union([WorkspaceCreated, WorkspaceRenamed, WorkspaceExtraChanged, WorkspaceInvalidated, WorkspaceReenabled, WorkspaceDeleted]);
export type WorkspaceEvent = t.TypeOf<typeof WorkspaceEvent>;

const workspaceEventTypes: ReadonlySet<string> = new Set(WorkspaceEvent.types.map((codec) => codec.props.type.value));
export const isWorkspaceEvent = (event: { readonly type: string }): event is WorkspaceEvent => workspaceEventTypes.has(event.type);
