import { artifactsRouter } from '../http/artifacts/artifacts-router';
import { storageConfigRouter } from '../http/v2/storage-config-router';
import { storageConfigRouteDocs } from '../http/v2/storage-config-router-doc';
import { artifactRetentionProjection } from '../projections/artifact-retention-view';
import { botStorageViewProjection } from '../projections/bot-storage-view';
import { spilledArtifactsProjection } from '../projections/spilled-artifact-view';
import { storageConfigViewProjection } from '../projections/storage-config-view';
import { partOf } from '../subscribers/background/background-part';
import { expireArtifacts } from '../subscribers/expire-artifacts';
import { uploadSpilledArtifacts } from '../subscribers/upload-spilled-artifacts';
import type { Capability } from './capability';

/** Storage: teams' buckets, artifacts held for them (spill), retention, and the service's signed links. */
export const storage: Capability = {
  name: 'storage',
  projections: [storageConfigViewProjection, botStorageViewProjection, spilledArtifactsProjection, artifactRetentionProjection],
  apiDocs: [storageConfigRouteDocs],
  build: (context) => {
    const deps = { commands: context.commands, readStore: context.readStore, stores: context.stores, log: context.log };
    const spill = partOf('spill', () => uploadSpilledArtifacts(deps, context.overrides.spillRetryMs), { lease: 'spill' });
    const retention = partOf('retention', () => expireArtifacts(deps, context.overrides.retentionSweepMs), { lease: 'retention' });
    const api = context.roles.api;
    return {
      parts: api ? [spill, retention] : [],
      publicRouters: api
        ? [storageConfigRouter({ ...context, projections: context.readModels, publicStorageEndpointsOnly: !context.config.allowPrivateStorageEndpoints, ...(context.overrides.verifyStorage ? { verifyStorage: context.overrides.verifyStorage } : {}) })]
        : [],
      // With S3 the links are presigned by the bucket's server: recordings never pass through this process.
      unauthenticatedRouters: api && context.objectStore.local ? [artifactsRouter(context.objectStore.store, context.signer, context.nowMs).routes()] : [],
      expose: { spillUploader: spill, retention },
    };
  },
};
