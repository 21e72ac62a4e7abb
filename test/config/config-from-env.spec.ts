import assert from 'node:assert/strict';
import path from 'node:path';
import { configFromEnv } from '../../src/config';

describe('configuration from the environment', () => {
  it('has the README’s defaults', () => {
    const config = configFromEnv({});
    assert.equal(config.port, 8080);
    assert.equal(config.host, '0.0.0.0');
    assert.equal(config.dataDir, path.resolve('./data'));
    assert.equal(config.adminToken, undefined);
    assert.equal(config.botSlots, undefined, 'what fits the machine is worked out at start');
    assert.equal(config.instanceId, undefined, 'the host name is taken at start');
    assert.equal(config.sandboxHosts, true);
    assert.equal(configFromEnv({ NODE_ENV: 'production' }).sandboxHosts, false);
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

  it('names the instance by INSTANCE_ID when given', () => {
    assert.equal(configFromEnv({ INSTANCE_ID: 'api-2' }).instanceId, 'api-2');
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
