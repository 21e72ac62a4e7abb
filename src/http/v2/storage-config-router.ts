import Router from '@koa/router';
import * as E from 'fp-ts/Either';
import type { SecretBox } from '../../adapters/crypto/secret-box';
import { verifyStorageAccess } from '../../adapters/object-store/verify-storage-access';
import type { ReadStore } from '../../adapters/read-store/port';
import type { CommandDeps } from '../../commands/command-deps';
import { handleStorageCommand } from '../../commands/storage-commands';
import type { StorageSettings } from '../../domain/storage/storage-events';
import type { ReadModelProgress } from '../../projections/read-model-progress';
import { configuredView, STORAGE_CONFIGS, type StorageConfigView } from '../../projections/storage-config-view';
import { ApiError, notFound, orThrow } from '../api-error';
import { callerOf, type AppState } from '../app-context';
import { decodeStorageConfigRequest, type StorageConfigRequest } from '../codecs/storage-config-request';
import { readJsonBody } from '../read-json-body';
import type { StorageConfig } from '../codecs/responses/storage-config-responses';
import { refusalToApiError } from './refusal-to-api-error';

export interface StorageConfigRouterDeps {
  readonly commands: CommandDeps;
  readonly readStore: ReadStore;
  readonly projections: ReadModelProgress;
  readonly secretBox: SecretBox;
  /** customer endpoints must be https and public, unless ALLOW_PRIVATE_STORAGE_ENDPOINTS (development) lets any endpoint do */
  readonly publicStorageEndpointsOnly: boolean;
  /** how a configuration's buckets and keys are tried before it is stored (tests: a stand-in that reaches no network) */
  readonly verifyStorage?: typeof verifyStorageAccess;
}

const ok = (data: unknown) => ({ success: true, data });

const verificationFailed = (reason: string) =>
  new ApiError({ status: 400, code: 'FST_ERR_STORAGE_VERIFICATION_FAILED', message: `Storage configuration verification failed: ${reason}`, details: reason });

const noConfiguration = () => notFound('FST_ERR_STORAGE_CONFIG_NOT_FOUND', 'Storage configuration not found', 'No storage configuration exists: artifacts are stored by the service');

/** The spec's response: every request field but the secrets, then the resource's own fields. */
const toResponse = (view: StorageConfigView): StorageConfig => ({
  artifacts_bucket: view.artifacts_bucket,
  audio_chunks_bucket: view.audio_chunks_bucket,
  logs_bucket: view.logs_bucket,
  endpoint: view.endpoint,
  region: view.region,
  force_path_style: view.force_path_style,
  allow_transient_spill: view.allow_transient_spill,
  ingest_access_key_id: view.ingest_access_key_id,
  service_access_key_id: view.service_access_key_id,
  created_at: view.created_at,
  updated_at: view.updated_at,
  enabled: view.enabled,
  last_error_at: view.last_error_at,
  last_error_message: view.last_error_message,
  last_verified_at: view.last_verified_at,
  storage_config_id: view.storage_config_id,
});

const sealedSettings = (box: SecretBox, request: StorageConfigRequest): StorageSettings => ({
  artifacts_bucket: request.artifacts_bucket,
  audio_chunks_bucket: request.audio_chunks_bucket,
  logs_bucket: request.logs_bucket,
  endpoint: request.endpoint.uri,
  region: request.region,
  force_path_style: request.force_path_style,
  allow_transient_spill: request.allow_transient_spill,
  ingest_access_key_id: request.ingest_access_key_id,
  ingest_secret_access_key: box.seal(request.ingest_secret_access_key),
  service_access_key_id: request.service_access_key_id,
  service_secret_access_key: box.seal(request.service_secret_access_key),
});

/** PUT/GET/DELETE /v2/storage-config: a team's own buckets for the artifacts of its future bots (Full Access only). */
export const storageConfigRouter = (deps: StorageConfigRouterDeps): Router<AppState> => {
  const router = new Router<AppState>({ prefix: '/v2/storage-config' });

  const currentView = async (teamId: string): Promise<StorageConfigView | null> => {
    const view = (await deps.readStore.get<StorageConfigView>(STORAGE_CONFIGS, teamId))?.doc ?? null;
    return view?.enabled ? view : null;
  };

  router.put('/', async (ctx) => {
    const caller = callerOf(ctx);
    const request = orThrow(decodeStorageConfigRequest(await readJsonBody(ctx), { publicEndpointsOnly: deps.publicStorageEndpointsOnly }));
    const verification = await (deps.verifyStorage ?? verifyStorageAccess)(
      {
        endpoint: request.endpoint.parsed,
        region: request.region,
        forcePathStyle: request.force_path_style,
        buckets: [request.artifacts_bucket, request.audio_chunks_bucket, request.logs_bucket],
        ingest: { accessKeyId: request.ingest_access_key_id, secretAccessKey: request.ingest_secret_access_key },
        service: { accessKeyId: request.service_access_key_id, secretAccessKey: request.service_secret_access_key },
      },
      { publicAddressesOnly: deps.publicStorageEndpointsOnly },
    );
    if (!verification.ok) throw verificationFailed(verification.reason);
    const now = deps.commands.clock().toISOString();
    const configured = await handleStorageCommand(deps.commands, caller.team_id, {
      type: 'ConfigureStorage',
      team_id: caller.team_id,
      new_storage_config_id: deps.commands.newId(),
      settings: sealedSettings(deps.secretBox, request),
      verified_at: now,
      now,
    });
    if (E.isLeft(configured)) throw refusalToApiError(configured.left);
    await deps.projections.waitForPosition(configured.right.position);
    // Answered from the event itself: what was stored, whatever the read model shows by now.
    const [event] = configured.right.events;
    if (event?.type !== 'StorageConfigured') throw new Error('a storage configuration was accepted without being recorded');
    ctx.body = ok(toResponse(configuredView(event.data)));
  });

  router.get('/', async (ctx) => {
    const view = await currentView(callerOf(ctx).team_id);
    if (!view) throw noConfiguration();
    ctx.body = ok(toResponse(view));
  });

  router.delete('/', async (ctx) => {
    const caller = callerOf(ctx);
    const removed = await handleStorageCommand(deps.commands, caller.team_id, { type: 'RemoveStorageConfig', team_id: caller.team_id, now: deps.commands.clock().toISOString() });
    if (E.isLeft(removed)) throw refusalToApiError(removed.left);
    await deps.projections.waitForPosition(removed.right.position);
    const event = removed.right.events[0]!;
    ctx.body = ok({
      enabled: false,
      message: 'Storage configuration removed: new bots store their artifacts with the service; earlier artifacts stay where they are',
      storage_config_id: event.data.storage_config_id,
    });
  });

  return router;
};
