import assert from 'node:assert/strict';
import { startFuzzTarget, type FuzzTarget } from '../support/fuzz-target';
import { runSchemathesis, schemathesisBin, type Dictionaries, type FuzzRun } from '../support/schemathesis';

/**
 * Schemathesis (property-based, from the document alone) against the live service: every operation, with a
 * Full Access key and a Sending Access key. It checks that nothing answers 5xx, that every answer's status,
 * content type, headers and body are the document's, and that input the document calls invalid is refused.
 * A failure prints the request that reproduces it (curl). Figures: docs/reliability.md.
 */
const CHECKS = [
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_headers_conformance',
  'response_schema_conformance',
  'negative_data_rejection',
  'unsupported_method',
];

/** Bounded for CI: about a minute for both keys on this machine (docs/reliability.md). A deeper run: FUZZ_EXAMPLES=50 FUZZ_SEED=7. */
const FULL_ACCESS_EXAMPLES = Number(process.env.FUZZ_EXAMPLES ?? 5);
const SENDING_ACCESS_EXAMPLES = Math.max(1, Math.round(FULL_ACCESS_EXAMPLES / 2));
const SEED = Number(process.env.FUZZ_SEED ?? 24);

const report = (label: string, run: FuzzRun) => `${label}: ${run.operations} operations, ${run.requests} requests, exit ${run.exitCode}`;

describe('Schemathesis against the live service: the document holds for every operation, with both kinds of key', function () {
  this.timeout(10 * 60_000);
  let target: FuzzTarget;
  let dictionaries: Dictionaries;
  const bin = schemathesisBin();

  before(async () => {
    assert.ok(bin, 'Schemathesis is not installed: run `bash scripts/install-schemathesis.sh` (npm test runs it)');
    target = await startFuzzTarget();
    const { bots, webhooks, calendars, events, credentials, vc, logins } = target.existing;
    dictionaries = {
      bots: { values: bots, parameters: ['path.bot_id', 'query.bot_id', 'body.bot_uuid'] },
      webhooks: { values: webhooks, parameters: ['path.webhook_id'] },
      calendars: { values: calendars, parameters: ['path.calendar_id', 'query.calendar_id'] },
      uuids: { values: [...calendars, ...events, vc.credentials[0]!], parameters: ['path.uuid'] },
      vcCredentials: { values: vc.credentials, parameters: ['path.credential_id'] },
      tmLogins: { values: [logins.tm.credential], parameters: ['path.credential_id'], paths: '^/v2/tm-' },
      tmWorkspaces: { values: [logins.tm.workspace], parameters: ['path.workspace_id', 'body.workspace_id'], paths: '^/v2/tm-' },
      mtLogins: { values: [logins.mt.credential], parameters: ['path.credential_id'], paths: '^/v2/mt-' },
      mtWorkspaces: { values: [logins.mt.workspace], parameters: ['path.workspace_id', 'body.workspace_id'], paths: '^/v2/mt-' },
      domains: { values: [logins.domain], parameters: ['body.domain'] },
      emails: { values: [logins.email], parameters: ['body.email', 'body.email_group'] },
      vcClients: { values: [vc.client.id], parameters: ['body.client_id', 'body.vc_client_id'] },
      vcSecrets: { values: [vc.client.secret], parameters: ['body.client_secret', 'body.vc_client_secret'] },
      vcRedirects: { values: [vc.client.redirect_uri], parameters: ['body.redirect_uri'] },
      vcCodes: { values: vc.codes, parameters: ['body.authorization_code'] },
      events: { values: events, parameters: ['body.event_id'] },
      clients: { values: [credentials.oauth_client_id], parameters: ['body.oauth_client_id'] },
      secrets: { values: [credentials.oauth_client_secret], parameters: ['body.oauth_client_secret'] },
      tokens: { values: [credentials.oauth_refresh_token], parameters: ['body.oauth_refresh_token'] },
      platforms: { values: ['Google'], parameters: ['body.platform'] },
      meetings: { values: ['https://meet.google.com/abc-defg-hij', 'https://teams.microsoft.com/meet/123456789?p=abc', 'https://zoom.us/j/1234567890'], parameters: ['body.meeting_url'] },
    };
  });
  after(async () => {
    await target?.stop();
  });

  it('with a Full Access key', async () => {
    const run = await runSchemathesis({
      bin: bin!, url: target.url, apiKey: target.fullKey, checks: CHECKS, maxExamples: FULL_ACCESS_EXAMPLES,
      phases: ['examples', 'coverage', 'fuzzing'], dictionaries, seed: SEED,
    });
    console.log(`      ${report('Full Access', run)}`);
    assert.ok(run.operations >= 50, `every operation was tested (${run.operations})`);
    assert.equal(run.exitCode, 0, run.output);
  });

  it('with a Sending Access key', async () => {
    const run = await runSchemathesis({
      bin: bin!, url: target.url, apiKey: target.sendingKey, checks: CHECKS, maxExamples: SENDING_ACCESS_EXAMPLES,
      phases: ['examples', 'coverage', 'fuzzing'], dictionaries, seed: SEED,
    });
    console.log(`      ${report('Sending Access', run)}`);
    assert.ok(run.operations >= 50, `every operation was tested (${run.operations})`);
    assert.equal(run.exitCode, 0, run.output);
  });
});
