/**
 * The bot's Microsoft Teams driver on the sandbox's Teams replica, in-process (real Chromium reaching
 * the Teams hosts through SANDBOX_REPLICAS' routing): the paths the API suite does not cover (a page
 * of no known state past the launcher and its diagnostic; Teams' lobby waits for ever, so the bot's
 * own waiting-room timeout ends it). test/e2e/teams-replica-bots.spec.ts
 * runs the rest through the API with bot processes.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { BotJob } from '../../contract/bot-contract';
import { DIAGNOSTIC_HTML, DIAGNOSTIC_SCREENSHOT } from '../../bot-runtime/run/diagnostics';
import type { CreateMeetingRequest } from '../../sandbox/client';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { botParticipant, endBots, endOutcome, smallTimeouts, startReplicaBot, type StartedBot } from './support';

describe('bot-runtime on the Microsoft Teams replica (in-process, Chromium)', function () {
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

  const teams = (options: Partial<CreateMeetingRequest> = {}) => sb.client.createMeeting({ platform: 'tm', replica: 'teams', ...options });
  const startTeamsBot = (url: string, job: Partial<BotJob> = {}) => {
    const bot = startReplicaBot(sb, url, 'tm', job);
    running.push(bot);
    return bot;
  };
  const outcome = endOutcome;

  it('past the launcher, a page the driver does not recognise: a diagnostic (screenshot, HTML without names) and CANNOT_JOIN_MEETING saying so', async () => {
    const m = await teams({ wall: 'unrecognised', link: 'live' });
    const bot = startTeamsBot(m.url, { bot_name: 'Secret Name' });
    const end = await bot.done;
    assert.equal(outcome(end), 'failed CANNOT_JOIN_MEETING', end.error_message);
    assert.match(end.error_message, /^Could not ask to join: the pre-join page did not show within 15 s; kept for diagnosis: /);
    for (const key of [DIAGNOSTIC_SCREENSHOT, DIAGNOSTIC_HTML]) assert.ok(bot.reporter.artifactKeys().includes(key), `${key} reported`);
    const html = fs.readFileSync(path.join(bot.out, DIAGNOSTIC_HTML), 'utf8');
    assert.match(html, /no state of the Teams contract/, 'the page as it was');
    assert.ok(!html.includes('Secret Name'));
    assert.match(bot.log.text(), /continued on this browser/, 'past the launcher first');
  });

  it("Teams' lobby waits for ever: the bot's waiting_room_timeout ends it, TIMEOUT_WAITING_TO_START", async () => {
    const m = await teams({ lobby_wording: 'waiting_for_someone' });
    const bot = startTeamsBot(m.url, { timeout_config: { ...smallTimeouts, waiting_room_timeout: 2 } });
    const end = await bot.done;
    assert.equal(outcome(end), 'failed TIMEOUT_WAITING_TO_START', end.error_message);
    assert.ok(end.waiting_room_seconds >= 1.5, `waited ${end.waiting_room_seconds}`);
    assert.match(bot.log.text(), /screen lobby \(microsoft-teams lobby: text "Waiting for someone to let you in"\)/);
    const left = (await sb.client.getMeeting(m.meeting_id)).participants[0]!;
    assert.equal(left.state, 'left', 'out of the lobby');
  });

  it('one run through the page shapes: the lobby in a child frame, div switches, a roster-only call (everyone in participants.json), the entry message through the CKEditor-like composer, a denial quoted in the chat ignored, the end onto the sign-in host -> completed BOT_REMOVED', async () => {
    const m = await teams({ lobby: true, state_container: 'frame', device_toggles: 'div_switch', roster_only: true, lookalikes: true, end_redirect: 'sign_in' });
    const alice = await sb.client.addSimulated(m.meeting_id, 'Alice');
    await sb.client.addSimulated(m.meeting_id, 'Bob Stone');
    const bot = startTeamsBot(m.url, { entry_message: 'hello from the shapes bot\non two lines' });
    const waiting = await sb.client.waitForParticipant(m.meeting_id, 'lobby', 45_000, 'Rec Bot');
    assert.deepEqual([waiting.microphone, waiting.camera], [false, false], 'the div switches turned off');
    const inLobby = await botParticipant(sb, m.meeting_id, 'lobby');
    await bot.reporter.waitForStatus('in_waiting_room');
    await sb.client.admit(m.meeting_id, inLobby);
    await sb.client.waitFor(m.meeting_id, (v) => v.messages.some((x) => x.text === 'hello from the shapes bot\non two lines'), 30_000, 'the entry message');
    await bot.reporter.waitForStatus('in_call_recording');
    // the lookalike in the chat, then two more audio chunks: reads of the page with the chat open went by
    const chunks = () => bot.reporter.artifactKeys().filter((k) => k.startsWith('audio_chunks/')).length;
    const before = chunks();
    await sb.client.chat(m.meeting_id, alice.participant_id, 'Sorry, but you were denied access to the meeting.');
    await bot.reporter.waitFor(() => chunks() >= before + 2, 'two more audio chunks');
    await sb.client.end(m.meeting_id);
    const end = await bot.done;
    assert.equal(outcome(end), 'completed BOT_REMOVED', end.error_message);
    const log = bot.log.text();
    assert.match(log, /screen lobby \(microsoft-teams lobby: .*\(in frame/);
    assert.match(log, /screen ended \(microsoft-teams ended: url not a page of the meeting\)/);
    const participants = JSON.parse(fs.readFileSync(path.join(bot.out, 'participants.json'), 'utf8')) as { participants: { name: string }[] };
    assert.deepEqual(participants.participants.map((p) => p.name).sort(), ['Alice', 'Bob Stone', 'Rec Bot'], 'everyone, though the call showed one tile');
    const chat = JSON.parse(fs.readFileSync(path.join(bot.out, 'chat_messages.json'), 'utf8')) as { text: string }[];
    assert.ok(chat.some((c) => c.text === 'Sorry, but you were denied access to the meeting.'), 'the bot read the lookalike and was not fooled by it');
  });
});
