import type { HttpUploadTarget, UploadTarget } from '../../bot-runtime/contract';
import type { SecretBox } from '../adapters/crypto/secret-box';
import type { BotStorage } from '../domain/bot/bot-config';

/**
 * Where a bot sends its artifacts. A bot of a team's own storage writes straight into the team's buckets
 * with the ingest key only (the service key never leaves the service), and may hand the service a copy
 * when the team allows transient spill. Every other bot uploads through the service's internal API.
 */
export const uploadTargetFor = (secretBox: SecretBox, serviceUrl: string) => (storage: BotStorage, botId: string, token: string): UploadTarget => {
  const service: HttpUploadTarget = { kind: 'http', baseUrl: serviceUrl, token };
  if (storage.kind === 'service') return service;
  const { settings } = storage;
  return {
    kind: 's3',
    endpoint: settings.endpoint,
    region: settings.region,
    force_path_style: settings.force_path_style,
    buckets: { artifacts: settings.artifacts_bucket, audio_chunks: settings.audio_chunks_bucket, logs: settings.logs_bucket },
    access_key_id: settings.ingest_access_key_id,
    secret_access_key: secretBox.open(settings.ingest_secret_access_key),
    prefix: botId,
    spill: settings.allow_transient_spill ? service : null,
  };
};
