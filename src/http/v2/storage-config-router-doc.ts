import { StorageConfig, StorageConfigRemoved } from '../codecs/responses/storage-config-responses';
import { StorageConfigRequestCodec } from '../codecs/storage-config-request';
import { jsonBody, v2Answer, type RouteDocs } from '../openapi/operation-doc';

const notConfigured = { 404: ['FST_ERR_STORAGE_CONFIG_NOT_FOUND'] };

/** The routes of storage-config-router.ts. */
export const storageConfigRouteDocs: RouteDocs = {
  'PUT /v2/storage-config': {
    operationId: 'putStorageConfig',
    tag: 'Storage',
    summary: "Keep the team's artifacts in its own S3 buckets",
    description:
      'Replaces the whole configuration, verified first with the keys it carries: the ingest key (bots put objects with it) and the ' +
      'service key (the service reads, lists, deletes). The two secret keys are write-only.',
    body: jsonBody('StorageConfigRequest', StorageConfigRequestCodec, {
      s3: {
        summary: 'Three buckets on AWS',
        value: {
          artifacts_bucket: 'acme-recordings',
          audio_chunks_bucket: 'acme-audio',
          logs_bucket: 'acme-logs',
          endpoint: 'https://s3.eu-west-1.amazonaws.com',
          region: 'eu-west-1',
          ingest_access_key_id: 'AKIA…INGEST',
          ingest_secret_access_key: '…',
          service_access_key_id: 'AKIA…SERVICE',
          service_secret_access_key: '…',
        },
      },
    }),
    responses: { 200: v2Answer('The configuration as stored (no secret).', StorageConfig, 'StorageConfig') },
    errors: { 400: ['FST_ERR_STORAGE_VERIFICATION_FAILED'] },
  },
  'GET /v2/storage-config': {
    operationId: 'getStorageConfig',
    tag: 'Storage',
    summary: "The team's storage configuration",
    responses: { 200: v2Answer('The configuration (no secret).', StorageConfig, 'StorageConfig') },
    errors: notConfigured,
  },
  'DELETE /v2/storage-config': {
    operationId: 'deleteStorageConfig',
    tag: 'Storage',
    summary: 'Go back to the service\'s own storage',
    responses: { 200: v2Answer('Removed: new bots store with the service; earlier artifacts stay where they are.', StorageConfigRemoved) },
    errors: notConfigured,
  },
};
