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
import { endBots, endOutcome, smallTimeouts, startReplicaBot, type StartedBot } from './support';

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
});
