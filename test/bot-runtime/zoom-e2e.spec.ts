/**
 * The bot's Zoom driver on the sandbox's Zoom replica, in-process (real Chromium reaching zoom.us and
 * app.zoom.us through SANDBOX_REPLICAS' routing): the paths that need run options a bot started by
 * the service does not take (a short unrecognised-page limit) or that the API suite does not cover
 * (Zoom's error page reloaded until the host starts, the classic client reached from a webinar-style
 * link left as it is, a link without its passcode). test/e2e/zoom-replica-bots.spec.ts runs the rest
 * through the API with bot processes.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { BotJob } from '../../contract/bot-contract';
import { DIAGNOSTIC_HTML, DIAGNOSTIC_SCREENSHOT } from '../../bot-runtime/run/diagnostics';
import type { RunOptions } from '../../bot-runtime/run-bot';
import type { CreateMeetingRequest } from '../../sandbox/client';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { botParticipant, endBots, endOutcome, startReplicaBot, type StartedBot } from './support';

describe('bot-runtime on the Zoom web client replica (in-process, Chromium)', function () {
  this.timeout(90_000);
  let sb: RunningSandbox;
  const running: StartedBot[] = [];

  before(async () => {
    sb = await startSandbox({ port: 0 });
  });

  after(async () => {
    await sb?.stop();
  });

  afterEach(() => endBots(running));

  const zoom = (options: Partial<CreateMeetingRequest> = {}) => sb.client.createMeeting({ platform: 'vc', replica: 'zoom', ...options });
  const startZoomBot = (url: string, job: Partial<BotJob> = {}, options: Partial<RunOptions> = {}) => {
    const bot = startReplicaBot(sb, url, 'vc', job, options);
    running.push(bot);
    return bot;
  };
  const outcome = endOutcome;

  it('a page the driver does not recognise: a diagnostic (screenshot, HTML without names) and CANNOT_JOIN_MEETING saying so', async () => {
    const m = await zoom({ wall: 'unrecognised' });
    const bot = startZoomBot(m.url, { bot_name: 'Secret Name' }, { unrecognisedPageSeconds: 2 });
    const end = await bot.done;
    assert.equal(outcome(end), 'failed CANNOT_JOIN_MEETING', end.error_message);
    assert.match(end.error_message, /zoom driver recognised nothing on the meeting page \(app\.zoom\.us\) for 2 s/);
    for (const key of [DIAGNOSTIC_SCREENSHOT, DIAGNOSTIC_HTML]) assert.ok(bot.reporter.artifactKeys().includes(key), `${key} reported`);
    const html = fs.readFileSync(path.join(bot.out, DIAGNOSTIC_HTML), 'utf8');
    assert.match(html, /no state of the Zoom contract/, 'the page as it was');
    assert.ok(!html.includes('Secret Name'));
  });

  it("Zoom's error page while the host has not started: the bot reloads it until the meeting starts, then joins", async () => {
    const m = await zoom({ host_present: false, lobby: false });
    const bot = startZoomBot(m.url);
    await bot.reporter.waitForStatus('in_waiting_room');
    assert.equal((await sb.client.getMeeting(m.meeting_id)).participants.length, 0, 'no page of the meeting opened: only the error page');
    await sb.client.hostStart(m.meeting_id);
    await bot.reporter.waitForStatus('in_call_recording', 30_000);
    await bot.control.send({ kind: 'leave' });
    assert.equal(outcome(await bot.done), 'completed API_REQUEST');
    const log = bot.log.text();
    assert.match(log, /screen waiting_for_host \(zoom waiting_for_host: text "This meeting link is invalid \(3,001\)"\)/);
    assert.match(log, /zoom: the host has not started: reloading/);
  });

  it('a webinar-style link (/w/<id>?tk=…) is opened as it is: the launch page, then the classic client under its cookie banner; gallery_view picks the gallery', async () => {
    const m = await zoom({ lobby: false, permission_prompts: 1 });
    const link = m.url.replace('/j/', '/w/') + '&tk=registrant-token';
    const bot = startZoomBot(link, { recording_mode: 'gallery_view' });
    await bot.reporter.waitForStatus('in_call_recording', 30_000);
    const joined = (await sb.client.getMeeting(m.meeting_id)).participants.find((p) => p.kind === 'browser')!;
    assert.deepEqual([joined.name, joined.layout], ['Rec Bot', 'Gallery View']);
    await bot.control.send({ kind: 'leave' });
    assert.equal(outcome(await bot.done), 'completed API_REQUEST');
    const log = bot.log.text();
    assert.match(log, /zoom: launch page: "Join from your browser"/);
    assert.match(log, /consent layer "#onetrust-accept-btn-handler" clicked away/);
    assert.match(log, /name input found by #inputname/);
    assert.match(log, /zoom: layout "Gallery View" for gallery_view/);
  });

  it('a link without its passcode: CANNOT_JOIN_MEETING saying so, at once', async () => {
    const m = await zoom();
    const bot = startZoomBot(m.url.replace(/\?.*$/, ''));
    const end = await bot.done;
    assert.equal(outcome(end), 'failed CANNOT_JOIN_MEETING', end.error_message);
    assert.match(end.error_message, /passcode/);
  });

  it('one run through the page shapes: the passcode asked although the link carries it, the waiting room in a closed shadow root, a call playing through Web Audio (the speaker heard), waiting-room notices in the call, the entry message through the ProseMirror-like composer, the end onto the product site -> completed BOT_REMOVED', async () => {
    const m = await zoom({ lobby: true, passcode_prompt: 'always', state_container: 'closed_shadow_root', audio_output: 'web_audio', lookalikes: true, end_redirect: 'product' });
    const alice = await sb.client.addSimulated(m.meeting_id, 'Alice', { tts: 'flite' });
    const bot = startZoomBot(m.url, { entry_message: 'hello from the shapes bot' });
    const inLobby = await botParticipant(sb, m.meeting_id, 'lobby');
    await bot.reporter.waitForStatus('in_waiting_room');
    await sb.client.admit(m.meeting_id, inLobby);
    await sb.client.waitFor(m.meeting_id, (v) => v.messages.some((x) => x.text === 'hello from the shapes bot'), 30_000, 'the entry message');
    await bot.reporter.waitForStatus('in_call_recording');
    const spoken = await sb.client.speak(m.meeting_id, alice.participant_id, 'The numbers for the third quarter are ready for everyone to review now');
    assert.equal(spoken.not_playing.length, 0, 'every page plays it');
    await bot.reporter.waitFor(() => bot.log.text().includes('zoom: Alice speaks'), 'the speaker heard', 30_000);
    await bot.reporter.waitFor(() => bot.log.text().includes('zoom: nobody speaks'), 'the speech over', 30_000);
    await sb.client.end(m.meeting_id);
    const end = await bot.done;
    assert.equal(outcome(end), 'completed BOT_REMOVED', end.error_message);
    const log = bot.log.text();
    assert.match(log, /a passcode field although the link carries one: filled from the link/);
    assert.match(log, /screen lobby \(zoom lobby: .*in closed shadow root/);
    assert.match(log, /screen ended \(zoom ended: url not a page of the web client\)/);
    const participants = JSON.parse(fs.readFileSync(path.join(bot.out, 'participants.json'), 'utf8')) as { participants: { name: string; speaking: unknown[] }[] };
    assert.ok(participants.participants.find((p) => p.name === 'Alice')!.speaking.length >= 1, 'Alice spoke, heard through Web Audio');
  });
});
