import assert from 'node:assert/strict';
import os from 'node:os';
import path from 'node:path';
import { configFromEnv, conveniencesOn, type ServiceConfig } from '../../src/config';
import { readStoreKind } from '../../src/adapters/read-store';
import { artifactKindOfKey } from '../../src/http/internal/upload-limits';

describe('configuration from the environment', () => {
  it('has the README’s defaults', () => {
    const config = configFromEnv({});
    assert.equal(config.port, 8080);
    assert.equal(config.host, '0.0.0.0');
    assert.equal(config.dataDir, path.resolve('./data'));
    assert.equal(config.adminToken, undefined);
    assert.equal(config.botSlots, undefined, 'what fits the machine is worked out at start');
    assert.equal(config.instanceId, undefined, 'the host name is taken at start');
    assert.equal(config.serviceSecretFile, path.join(os.homedir(), '.config', 'meeting-bot-service', 'service-secret'), 'outside DATA_DIR');
  });

  it('takes BOT_SLOTS as a whole number, 0 included (an API-only node)', () => {
    assert.equal(configFromEnv({ BOT_SLOTS: '0' }).botSlots, 0);
    assert.equal(configFromEnv({ BOT_SLOTS: '12' }).botSlots, 12);
  });

  it('refuses a BOT_SLOTS or PORT that is not a whole number, instead of silently running no bot', () => {
    for (const value of ['abc', '-1', '1.5']) {
      assert.throws(() => configFromEnv({ BOT_SLOTS: value }), new RegExp(`BOT_SLOTS must be a whole number.*"${value.replace('.', '\\.')}"`));
    }
    assert.throws(() => configFromEnv({ PORT: '70000' }), /PORT must be an integer/);
  });

  it('takes BOT_POOL_SIZE as a whole number (0 turns the warm pool off; unset, the launcher decides), and refuses anything else', () => {
    assert.equal(configFromEnv({}).botPoolSize, undefined);
    assert.equal(configFromEnv({ BOT_POOL_SIZE: '0' }).botPoolSize, 0);
    assert.equal(configFromEnv({ BOT_POOL_SIZE: '3' }).botPoolSize, 3);
    for (const value of ['two', '-1', '0.5']) assert.throws(() => configFromEnv({ BOT_POOL_SIZE: value }), /BOT_POOL_SIZE must be a whole number/);
  });

  it('names the instance by INSTANCE_ID when given', () => {
    assert.equal(configFromEnv({ INSTANCE_ID: 'api-2' }).instanceId, 'api-2');
  });

  it('keeps read models in a SQLite file unless READ_STORE=memory or MONGO_URL says otherwise, never both', () => {
    assert.equal(readStoreKind({ embedded: configFromEnv({}).readStore }), 'sqlite');
    assert.equal(readStoreKind({ embedded: configFromEnv({ READ_STORE: 'memory' }).readStore }), 'memory');
    const mongo = configFromEnv({ MONGO_URL: 'mongodb://127.0.0.1:1/x' });
    assert.equal(readStoreKind({ embedded: mongo.readStore, mongoUrl: mongo.mongoUrl }), 'mongodb');
    assert.throws(() => configFromEnv({ READ_STORE: 'redis' }), /READ_STORE must be sqlite or memory, got "redis"/);
    assert.throws(() => configFromEnv({ READ_STORE: 'sqlite', MONGO_URL: 'mongodb://127.0.0.1:1/x' }), /READ_STORE=sqlite and MONGO_URL both name the read store/);
  });
});

describe('SANDBOX_REPLICAS (tests: bots reach the sandbox replicas under the real hosts)', () => {
  it('is off unless set, and passed on as <host>:<port>', () => {
    assert.equal(configFromEnv({}).sandboxReplicas, undefined);
    assert.equal(configFromEnv({ SANDBOX_REPLICAS: '127.0.0.1:8443' }).sandboxReplicas, '127.0.0.1:8443');
  });

  it('refuses a value that is not <host>:<port>, and any value in production', () => {
    assert.throws(() => configFromEnv({ SANDBOX_REPLICAS: 'localhost' }), /SANDBOX_REPLICAS must be <host>:<port>/);
    assert.throws(() => configFromEnv({ SANDBOX_REPLICAS: '127.0.0.1:8443', NODE_ENV: 'production' }), /cannot be set with NODE_ENV=production/);
  });
});

describe('SCRIPTED_BOTS (tests: bots of some platforms run a scripted stand-in, no browser)', () => {
  it('is off unless set, and lists platforms', () => {
    assert.equal(configFromEnv({}).scriptedBots, undefined);
    assert.deepEqual(configFromEnv({ SCRIPTED_BOTS: 'vc, tm' }).scriptedBots, ['vc', 'tm']);
    assert.deepEqual(conveniencesOn(configFromEnv({ SCRIPTED_BOTS: 'mt' })), ['SCRIPTED_BOTS']);
  });

  it('refuses what is not a platform, and any value in production', () => {
    assert.throws(() => configFromEnv({ SCRIPTED_BOTS: 'zoom' }), /SCRIPTED_BOTS must list platforms \(vc, tm, mt\)/);
    // Only a list of platforms turns it on: a flag's value, a blank or an empty item is refused, not guessed.
    for (const unclear of ['1', 'true', 'all', ' ', 'vc,', 'vc,,tm']) {
      assert.throws(() => configFromEnv({ SCRIPTED_BOTS: unclear }), /SCRIPTED_BOTS must list platforms/, JSON.stringify(unclear));
    }
    assert.throws(() => configFromEnv({ SCRIPTED_BOTS: 'vc', NODE_ENV: 'production' }), /^Error: SCRIPTED_BOTS: development conveniences cannot be set with NODE_ENV=production/);
  });
});

describe('safe whatever NODE_ENV says: development conveniences only when set, never in production', () => {
  const safe = (config: ServiceConfig) => {
    assert.equal(config.sandboxHosts, false, 'no sandbox meeting URLs');
    assert.equal(config.allowPrivateWebhookTargets, false, 'webhooks to public https addresses only');
    assert.equal(config.allowPrivateStorageEndpoints, false, "teams' storage on public https endpoints only");
    assert.equal(config.sandboxReplicas, undefined);
    assert.equal(config.botTestCaPem, undefined);
    assert.deepEqual(conveniencesOn(config), []);
  };

  it('with NODE_ENV unset, development, test or production alike, every protection is on', () => {
    for (const NODE_ENV of [undefined, 'development', 'test', 'production']) safe(configFromEnv({ NODE_ENV }));
  });

  it('each convenience is its own explicit setting, named as it is turned on', () => {
    const config = configFromEnv({
      SANDBOX_HOSTS: '1',
      ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true',
      ALLOW_PRIVATE_STORAGE_ENDPOINTS: 'yes',
      SANDBOX_REPLICAS: '127.0.0.1:8443',
      BOT_TEST_CA_PEM: '/tmp/ca.pem',
    });
    assert.deepEqual(conveniencesOn(config), ['SANDBOX_HOSTS', 'SANDBOX_REPLICAS', 'ALLOW_PRIVATE_WEBHOOK_TARGETS', 'ALLOW_PRIVATE_STORAGE_ENDPOINTS', 'BOT_TEST_CA_PEM']);
    assert.deepEqual(conveniencesOn(configFromEnv({ ALLOW_PRIVATE_WEBHOOK_TARGETS: '1' })), ['ALLOW_PRIVATE_WEBHOOK_TARGETS']);
    safe(configFromEnv({ SANDBOX_HOSTS: '0', ALLOW_PRIVATE_WEBHOOK_TARGETS: 'off' }));
  });

  it('a switch that is neither on nor off stops the start instead of being taken for off', () => {
    assert.throws(() => configFromEnv({ SANDBOX_HOSTS: 'enabled' }), /SANDBOX_HOSTS must be 1 or 0/);
  });

  it('a convenience with NODE_ENV=production is refused at start, naming it', () => {
    for (const [name, value] of [
      ['SANDBOX_HOSTS', '1'],
      ['ALLOW_PRIVATE_WEBHOOK_TARGETS', '1'],
      ['ALLOW_PRIVATE_STORAGE_ENDPOINTS', '1'],
      ['SANDBOX_REPLICAS', '127.0.0.1:8443'],
      ['BOT_TEST_CA_PEM', '/tmp/ca.pem'],
    ] as const) {
      assert.throws(() => configFromEnv({ NODE_ENV: 'production', [name]: value }), new RegExp(`^Error: ${name}: development conveniences cannot be set with NODE_ENV=production`));
    }
  });
});

describe('ADMIN_TOKEN', () => {
  it('is refused when shorter than 32 characters', () => {
    assert.throws(() => configFromEnv({ ADMIN_TOKEN: 'secret' }), /ADMIN_TOKEN must be at least 32 characters/);
    assert.throws(() => configFromEnv({ ADMIN_TOKEN: 'x'.repeat(31) }), /at least 32/);
    assert.equal(configFromEnv({ ADMIN_TOKEN: 'x'.repeat(32) }).adminToken, 'x'.repeat(32));
  });
});

describe('upload limits (ARTIFACT_SIZE_LIMITS_MB, MIN_FREE_DISK_MB)', () => {
  const MIB = 2 ** 20;

  it('change the kinds named and leave the others at their defaults', () => {
    assert.deepEqual(configFromEnv({ ARTIFACT_SIZE_LIMITS_MB: 'recording=2048, screenshot=0.5' }).artifactSizeLimits, { recording: 2048 * MIB, screenshot: 0.5 * MIB });
    assert.equal(configFromEnv({}).artifactSizeLimits, undefined);
    assert.equal(configFromEnv({ MIN_FREE_DISK_MB: '200' }).minFreeDiskBytes, 200 * MIB);
  });

  it('refuse a kind that does not exist or a size that is not a positive number, naming the kinds', () => {
    for (const value of ['video=10', 'recording', 'recording=0', 'recording=-1', 'recording=lots', 'recording=1=2']) {
      assert.throws(() => configFromEnv({ ARTIFACT_SIZE_LIMITS_MB: value }), /ARTIFACT_SIZE_LIMITS_MB must be <kind>=<MiB>,… with kinds recording, audio_chunk, screenshot/, value);
    }
    assert.throws(() => configFromEnv({ MIN_FREE_DISK_MB: 'a lot' }), /MIN_FREE_DISK_MB must be a number of MiB/);
  });

  it('tell an artifact’s kind from the key the bot runtime gives it', () => {
    const kinds = Object.fromEntries(
      ['recording.mp4', 'recording.webm', 'audio_chunks/000001.webm', 'screenshots/3.png', 'diagnostics/unrecognised-page.html', 'chat_messages.json', 'participants.json', 'bot.log', 'notes.txt', 'recording.mp4/x'].map(
        (key) => [key, artifactKindOfKey(key)],
      ),
    );
    assert.deepEqual(kinds, {
      'recording.mp4': 'recording',
      'recording.webm': 'recording',
      'audio_chunks/000001.webm': 'audio_chunk',
      'screenshots/3.png': 'screenshot',
      'diagnostics/unrecognised-page.html': 'diagnostic',
      'chat_messages.json': 'chat_messages',
      'participants.json': 'participants',
      'bot.log': 'bot_log',
      'notes.txt': 'other',
      'recording.mp4/x': 'other',
    });
  });
});

describe('vc joins (VC_*)', () => {
  it('defaults to the real platform, no default SDK credentials, a 30 s OBF retry and 5 s for a token URL', () => {
    assert.deepEqual(configFromEnv({}).vc, {
      platform: { oauthBaseUrl: 'https://zoom.us', apiBaseUrl: 'https://api.zoom.us/v2' },
      defaultSdk: null,
      obfRetrySeconds: 30,
      tokenUrlTimeoutMs: 5000,
    });
  });

  it('takes the base URLs, the SDK pair and the intervals', () => {
    const vc = configFromEnv({ VC_OAUTH_BASE_URL: 'http://127.0.0.1:9/', VC_API_BASE_URL: 'http://127.0.0.1:9/v2', VC_SDK_KEY: 'k', VC_SDK_SECRET: 's', VC_OBF_RETRY_SECONDS: '2', VC_TOKEN_URL_TIMEOUT_SECONDS: '1.5' }).vc;
    assert.deepEqual(vc, { platform: { oauthBaseUrl: 'http://127.0.0.1:9', apiBaseUrl: 'http://127.0.0.1:9/v2' }, defaultSdk: { sdk_key: 'k', sdk_secret: 's' }, obfRetrySeconds: 2, tokenUrlTimeoutMs: 1500 });
  });

  it('refuses half an SDK pair (it would sign nothing, silently), a base URL that is no URL and a retry that is not a positive number', () => {
    assert.throws(() => configFromEnv({ VC_SDK_KEY: 'k' }), /VC_SDK_KEY and VC_SDK_SECRET must be set together/);
    assert.throws(() => configFromEnv({ VC_API_BASE_URL: 'api.zoom.us' }), /VC_API_BASE_URL must be a URL/);
    assert.throws(() => configFromEnv({ VC_OBF_RETRY_SECONDS: '0' }), /VC_OBF_RETRY_SECONDS must be a positive number/);
  });
});
