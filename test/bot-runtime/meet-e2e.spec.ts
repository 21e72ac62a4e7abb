/**
 * The bot's Google Meet driver on the sandbox's Meet replica, in-process (real Chromium reaching
 * meet.google.com through SANDBOX_REPLICAS' routing): the paths that need run options a bot started
 * by the service does not take (a short unrecognised-page limit) or that the API suite does not cover
 * (the host who has not joined, Meet's own lobby timeout). test/e2e/meet-replica-bots.spec.ts runs the
 * rest through the API with bot processes.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { BotJob } from '../../contract/bot-contract';
import { DIAGNOSTIC_EXPLANATION, DIAGNOSTIC_HTML, DIAGNOSTIC_SCREENSHOT } from '../../bot-runtime/run/diagnostics';
import type { RunOptions } from '../../bot-runtime/run-bot';
import type { CreateMeetingRequest } from '../../sandbox/client';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { botParticipant, endBots, endOutcome, sleep, startReplicaBot, type StartedBot } from './support';

describe('bot-runtime on the Google Meet replica (in-process, Chromium)', function () {
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

  const meet = (options: Partial<CreateMeetingRequest> = {}) => sb.client.createMeeting({ platform: 'mt', replica: 'meet', ...options });
  const startMeetBot = (url: string, job: Partial<BotJob> = {}, options: Partial<RunOptions> = {}) => {
    const bot = startReplicaBot(sb, url, 'mt', job, options);
    running.push(bot);
    return bot;
  };
  const outcome = endOutcome;

  it('a page the driver does not recognise: a diagnostic (screenshot, HTML without names) and CANNOT_JOIN_MEETING saying so', async () => {
    const m = await meet({ wall: 'unrecognised' });
    const bot = startMeetBot(m.url, { bot_name: 'Secret Name' }, { unrecognisedPageSeconds: 2 });
    const end = await bot.done;
    assert.equal(outcome(end), 'failed CANNOT_JOIN_MEETING', end.error_message);
    assert.match(end.error_message, /google-meet driver recognised nothing on the meeting page \(meet\.google\.com\) for 2 s/);
    assert.match(end.error_message, new RegExp(`${DIAGNOSTIC_SCREENSHOT}, ${DIAGNOSTIC_HTML}`));
    for (const key of [DIAGNOSTIC_SCREENSHOT, DIAGNOSTIC_HTML]) assert.ok(bot.reporter.artifactKeys().includes(key), `${key} reported`);
    const html = fs.readFileSync(path.join(bot.out, DIAGNOSTIC_HTML), 'utf8');
    assert.match(html, /no state of the Meet contract/, 'the page as it was');
    assert.ok(!html.includes('Secret Name'));
    assert.ok(fs.statSync(path.join(bot.out, DIAGNOSTIC_SCREENSHOT)).size > 1000);
    // what the driver believed and why, from the artifacts alone
    const explanation = JSON.parse(fs.readFileSync(path.join(bot.out, DIAGNOSTIC_EXPLANATION), 'utf8'));
    assert.equal(explanation.driver, 'google-meet');
    assert.equal(explanation.url, `${m.url}`);
    assert.ok(explanation.places[0].verdicts.some((v: { rule: string; matched: string | null }) => v.rule === 'lobby' && v.matched === null), 'each rule checked, with its verdict');
    assert.match(bot.log.text(), /unrecognised page: google-meet driver recognised nothing since the page loaded; now on https:\/\/meet\.google\.com\/[a-z-]+ .*no condition of any rule held \(checked lobby_expired, denied/);
  });

  it("Meet's own lobby timeout -> TIMEOUT_WAITING_TO_START with Meet's words", async () => {
    const m = await meet({ lobby_timeout_seconds: 2 });
    const bot = startMeetBot(m.url);
    const end = await bot.done;
    assert.equal(outcome(end), 'failed TIMEOUT_WAITING_TO_START', end.error_message);
    assert.match(end.error_message, /No one responded to your request to join the call/);
    assert.ok(end.waiting_room_seconds >= 1.5, `waited ${end.waiting_room_seconds}`);
  });

  it('the host has not joined: the bot waits without knocking, then knocks once the host is there', async () => {
    const m = await meet({ host_present: false });
    const bot = startMeetBot(m.url);
    await bot.reporter.waitForStatus('in_waiting_room');
    await sleep(1000);
    const before = await sb.client.getMeeting(m.meeting_id);
    assert.equal(before.participants[0]?.state, 'prejoin', 'no request to join while the host is away');
    await sb.client.hostStart(m.meeting_id);
    const knocked = await sb.client.waitForParticipant(m.meeting_id, 'lobby', 20_000, 'Rec Bot');
    await sb.client.admit(m.meeting_id, knocked.participant_id);
    await bot.reporter.waitForStatus('in_call_recording');
    await bot.control.send({ kind: 'leave' });
    assert.equal(outcome(await bot.done), 'completed API_REQUEST');
    assert.match(bot.log.text(), /screen waiting_for_host \(google-meet waiting_for_host: text "Waiting for the host to join"\)/);
  });

  it('one run through the page shapes: the lobby in a closed shadow root, a roster-only call (everyone in participants.json), the entry message through the controlled textarea, end words quoted in the chat ignored, the end onto the landing page -> completed BOT_REMOVED', async () => {
    const m = await meet({ lobby: true, roster_only: true, state_container: 'closed_shadow_root', lookalikes: true, end_redirect: 'landing', quotes: 'straight' });
    const alice = await sb.client.addSimulated(m.meeting_id, 'Alice');
    await sb.client.addSimulated(m.meeting_id, 'Bob Stone');
    const bot = startMeetBot(m.url, { entry_message: 'hello from the shapes bot' });
    const inLobby = await botParticipant(sb, m.meeting_id, 'lobby');
    await bot.reporter.waitForStatus('in_waiting_room');
    await sb.client.admit(m.meeting_id, inLobby);
    await sb.client.waitFor(m.meeting_id, (v) => v.messages.some((x) => x.text === 'hello from the shapes bot'), 30_000, 'the entry message');
    await bot.reporter.waitForStatus('in_call_recording');
    // the lookalike in the chat, then two more audio chunks: reads of the page with the chat open went by
    const chunks = () => bot.reporter.artifactKeys().filter((k) => k.startsWith('audio_chunks/')).length;
    const before = chunks();
    await sb.client.chat(m.meeting_id, alice.participant_id, "You can't join this video call");
    await bot.reporter.waitFor(() => chunks() >= before + 2, 'two more audio chunks');
    await sb.client.end(m.meeting_id);
    const end = await bot.done;
    assert.equal(outcome(end), 'completed BOT_REMOVED', end.error_message);
    const log = bot.log.text();
    assert.match(log, /screen lobby \(google-meet lobby: .*in closed shadow root/);
    assert.match(log, /screen ended \(google-meet ended: url not the meeting page\)/);
    const participants = JSON.parse(fs.readFileSync(path.join(bot.out, 'participants.json'), 'utf8')) as { participants: { name: string }[] };
    assert.deepEqual(participants.participants.map((p) => p.name).sort(), ['Alice', 'Bob Stone', 'Rec Bot'], 'everyone, though the call showed one tile');
    const chat = JSON.parse(fs.readFileSync(path.join(bot.out, 'chat_messages.json'), 'utf8')) as { text: string }[];
    assert.ok(chat.some((c) => c.text === "You can't join this video call"), 'the bot read the lookalike and was not fooled by it');
  });
});
