import assert from 'node:assert/strict';
import * as E from 'fp-ts/Either';
import { type ConfigureStorage, type RemoveStorageConfig, type StorageCommand, storageDecider } from '../../src/domain/storage/storage-decider';
import { StorageEvent, type StorageSettings } from '../../src/domain/storage/storage-events';
import { at, deciderSpec } from './given-when-then';

const spec = deciderSpec(storageDecider, StorageEvent);

const TEAM = 'team-0001';
const T0 = '2026-03-03T09:00:00.000Z';
const CONFIG_1 = 'cfg-1';

const settings = (bucket: string): StorageSettings => ({
  artifacts_bucket: bucket,
  audio_chunks_bucket: bucket,
  logs_bucket: `${bucket}-logs`,
  endpoint: 'https://s3.eu-west-1.amazonaws.com',
  region: 'eu-west-1',
  force_path_style: false,
  allow_transient_spill: false,
  ingest_access_key_id: 'AKIAINGEST',
  ingest_secret_access_key: { sealed: 'v1.iv.tag.ingest' },
  service_access_key_id: 'AKIASERVICE',
  service_secret_access_key: { sealed: 'v1.iv.tag.service' },
});

const configure = (bucket: string, now: string, new_storage_config_id = CONFIG_1): ConfigureStorage => ({
  type: 'ConfigureStorage',
  team_id: TEAM,
  new_storage_config_id,
  settings: settings(bucket),
  verified_at: at(now, { ms: -300 }),
  now,
});
const configured = (bucket: string, storage_config_id: string, created_at: string, now: string): StorageEvent => ({
  type: 'StorageConfigured',
  data: { team_id: TEAM, storage_config_id, settings: settings(bucket), created_at, verified_at: at(now, { ms: -300 }), at: now },
});
const remove = (now: string): RemoveStorageConfig => ({ type: 'RemoveStorageConfig', team_id: TEAM, now });
const removed = (storage_config_id: string, now: string): StorageEvent => ({ type: 'StorageConfigRemoved', data: { team_id: TEAM, storage_config_id, at: now } });

describe('storage decider (a team’s own object storage)', () => {
  it('a first configuration takes the new id and is created now', () => {
    spec.given([]).when(configure('recordings', T0)).then([configured('recordings', CONFIG_1, T0, T0)]);
  });

  it('a replacement keeps the configuration’s id and creation time, and records the new settings whole', () => {
    const later = at(T0, { h: 1 });
    spec.given([configured('recordings', CONFIG_1, T0, T0)]).when(configure('elsewhere', later, 'cfg-unused')).then([configured('elsewhere', CONFIG_1, T0, later)]);
  });

  it('putting the same settings again records them again (a PUT is a replacement, repeatable)', () => {
    const later = at(T0, { m: 1 });
    spec.given([configured('recordings', CONFIG_1, T0, T0)]).when(configure('recordings', later, 'cfg-unused')).then([configured('recordings', CONFIG_1, T0, later)]);
  });

  it('removing a configuration names the one removed', () => {
    spec.given([configured('recordings', CONFIG_1, T0, T0)]).when(remove(at(T0, { h: 2 }))).then([removed(CONFIG_1, at(T0, { h: 2 }))]);
  });

  it('removing when none exists is refused: never configured', () => {
    spec.given([]).when(remove(T0)).thenRejects({ code: 'STORAGE_CONFIG_NOT_FOUND', message: 'No storage configuration exists for this team' });
  });

  it('removing when none exists is refused: already removed', () => {
    spec.given([configured('recordings', CONFIG_1, T0, T0), removed(CONFIG_1, at(T0, { h: 1 }))]).when(remove(at(T0, { h: 2 }))).thenRejects({ code: 'STORAGE_CONFIG_NOT_FOUND' });
  });

  it('a configuration after a removal is a new one, with a new id and creation time', () => {
    const again = at(T0, { h: 3 });
    spec
      .given([configured('recordings', CONFIG_1, T0, T0), removed(CONFIG_1, at(T0, { h: 1 }))])
      .when(configure('recordings', again, 'cfg-2'))
      .then([configured('recordings', 'cfg-2', again, again)]);
  });
});

describe('storage decider: failures of the configuration in use', () => {
  const failure = (message: string, now: string, configured_at = T0, storage_config_id = CONFIG_1): StorageCommand => ({
    type: 'RecordStorageAccessFailure',
    team_id: TEAM,
    storage_config_id,
    configured_at,
    message,
    now,
  });
  const failed = (message: string, now: string): StorageEvent => ({ type: 'StorageAccessFailed', data: { team_id: TEAM, storage_config_id: CONFIG_1, message, at: now } });
  const first = configured('recordings', CONFIG_1, T0, T0);

  it('a failure of the version in force is recorded', () => {
    spec.given([first]).when(failure('AccessDenied', at(T0, { h: 1 }))).then([failed('AccessDenied', at(T0, { h: 1 }))]);
  });

  it('the same error again within the hour is not recorded again; another error is; after the hour, the same one is', () => {
    const history = [first, failed('AccessDenied', at(T0, { h: 1 }))];
    spec.given(history).when(failure('AccessDenied', at(T0, { h: 1, m: 59 }))).thenNothing();
    spec.given(history).when(failure('NoSuchBucket', at(T0, { h: 1, m: 5 }))).then([failed('NoSuchBucket', at(T0, { h: 1, m: 5 }))]);
    spec.given(history).when(failure('AccessDenied', at(T0, { h: 2 }))).then([failed('AccessDenied', at(T0, { h: 2 }))]);
  });

  it('a failure of a replaced version, of another configuration, or after the removal is not the current one’s', () => {
    const replacedAt = at(T0, { h: 1 });
    spec.given([first, configured('elsewhere', CONFIG_1, T0, replacedAt)]).when(failure('AccessDenied', at(T0, { h: 2 }), T0)).thenNothing();
    spec.given([first]).when(failure('AccessDenied', at(T0, { h: 2 }), T0, 'cfg-other')).thenNothing();
    spec.given([first, removed(CONFIG_1, replacedAt)]).when(failure('AccessDenied', at(T0, { h: 2 }))).thenNothing();
  });
});

describe('storage events keep secrets sealed', () => {
  it('a StorageConfigured whose secret is a plain string does not decode', () => {
    const event = configured('recordings', CONFIG_1, T0, T0) as Extract<StorageEvent, { type: 'StorageConfigured' }>;
    const plain = { ...event, data: { ...event.data, settings: { ...event.data.settings, service_secret_access_key: 'in clear' } } };
    assert.equal(E.isLeft(StorageEvent.decode(plain)), true, 'a secret in clear is refused');
    assert.equal(E.isRight(StorageEvent.decode(event)), true);
  });
});
