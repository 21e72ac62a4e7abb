/** Which page a vc join opens, from the service's answer (run/vc-sdk-join.ts), before any browser starts. */
import assert from 'node:assert/strict';
import type { BotJob, VcSdkJoin } from '../../contract/bot-contract';
import { endVerdict } from '../../bot-runtime/end-codes';
import { chooseVcJoin } from '../../bot-runtime/run/vc-sdk-join';
import { installedMeetingSdk } from '../../bot-runtime/vc-sdk/host-server';

const job = { bot_id: 'b', bot_name: 'Notetaker', recording_mode: 'audio_only', platform: 'vc' } as BotJob;
const meeting = { platform: 'vc' as const, url: 'https://zoom.us/j/1234567890?pwd=abc', sandbox: false };
const sdk: VcSdkJoin = { signature: 's', sdk_key: 'k', meeting_number: '1234567890', passcode: 'abc', role: 0, obf_token: 't', zak: null };

describe('a vc join’s page, chosen from the service’s answer', () => {
  it('given a refusal of the service, the run ends with its code before any browser (e.g. CANNOT_GET_JWT_TOKEN)', async () => {
    const choice = await chooseVcJoin(job, meeting, async () => ({ ok: false, refusal: { error_code: 'CANNOT_GET_JWT_TOKEN', message: 'No SDK credentials can sign this join.' } }), false);
    assert.equal(choice.kind, 'end');
    if (choice.kind !== 'end') return;
    assert.deepEqual(endVerdict(choice.cause, { platform: 'vc', phase: 'joining', recordingStarted: false }), { outcome: 'failed', error_code: 'CANNOT_GET_JWT_TOKEN', error_message: 'No SDK credentials can sign this join.' });
  });

  it('given nothing to sign, the meeting’s own page (the web client, as anyone)', async () => {
    assert.deepEqual(await chooseVcJoin(job, meeting, async () => ({ ok: true, credentials: { sdk: null, retry_seconds: 30, renewable: false } }), false), { kind: 'web' });
  });

  it('given a signed join on the real platform without the Meeting SDK installed, CANNOT_JOIN_MEETING saying so', async function () {
    if (installedMeetingSdk()) this.skip();
    const choice = await chooseVcJoin(job, meeting, async () => ({ ok: true, credentials: { sdk, retry_seconds: 30, renewable: false } }), false);
    assert.equal(choice.kind, 'end');
    if (choice.kind !== 'end') return;
    assert.equal(choice.cause.kind, 'cannot_join');
    assert.match(choice.cause.kind === 'cannot_join' ? choice.cause.message : '', /@zoom\/meetingsdk\) is not installed/);
  });

  it('given a signed join in tests, the bot’s own page loading the platform’s stand-in from the meeting’s host', async () => {
    const choice = await chooseVcJoin(job, { ...meeting, url: 'https://vc.localhost:8443/j/1234567890', sandbox: true }, async () => ({ ok: true, credentials: { sdk, retry_seconds: 2, renewable: true } }), true);
    assert.equal(choice.kind, 'sdk');
    if (choice.kind !== 'sdk') return;
    try {
      assert.match(choice.host.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
      assert.equal(choice.family.navigationUrl('https://vc.localhost:8443/j/1234567890'), choice.host.url);
      assert.match(await (await fetch(choice.host.url)).text(), /<script src="https:\/\/vc\.localhost:8443\/meetingsdk\/zoom-meeting\.js">/);
    } finally {
      await choice.host.stop();
    }
  });
});
