import assert from 'node:assert/strict';
import { defaultBotConfig } from '../../src/domain/bot/bot-config';
import * as E from 'fp-ts/Either';
import type { BotControl, ControlOutcome } from '../../src/adapters/bot-control/port';
import { handleBotCommand } from '../../src/commands/bot-commands';
import type { CommandDeps } from '../../src/commands/command-deps';
import { sendChatMessage } from '../../src/commands/send-chat-message';
import { botStreamName } from '../../src/domain/bot/bot-events';
import { T0, depsOver } from './support';
import { sqliteFiles } from '../support/sqlite-files';

const BOT = 'c0000000-0000-4000-8000-000000000001';

const createRunningBot = async (deps: CommandDeps, status: 'in_call_recording' | 'queued') => {
  const run = async (command: Parameters<typeof handleBotCommand>[2]) => assert.ok(E.isRight(await handleBotCommand(deps, BOT, command)));
  await run({
    type: 'CreateBot', bot_id: BOT, team_id: 'team-1', meeting_url: 'https://vc.localhost/j/1', platform: 'vc',
    bot_name: 'Notetaker', extra: null, config: defaultBotConfig(), created_by: null, now: T0,
  });
  if (status === 'queued') return;
  await run({ type: 'DispatchBot', worker_id: 'worker-1', run_id: 'run-1', now: T0 });
  await run({ type: 'ReportStatus', status: 'joining_call', now: T0 });
  await run({ type: 'ReportStatus', status: 'in_call_recording', now: T0 });
};

/** A bot that posts the message, after `meanwhile` (what happens on the service while it posts). */
const botThatPosts = (meanwhile: () => Promise<void> = async () => undefined) => {
  const asked: string[] = [];
  const control: BotControl = {
    send: async (_botId, body): Promise<ControlOutcome> => {
      if (body.kind === 'chat') asked.push(body.message);
      await meanwhile();
      return { id: `msg-${asked.length}`, ok: true };
    },
  };
  return { control, asked };
};

describe('send chat message: a message the bot has posted is recorded, even if the bot ended meanwhile', () => {
  let files: ReturnType<typeof sqliteFiles>;
  beforeEach(() => {
    files = sqliteFiles();
  });
  afterEach(async () => {
    await files.cleanup();
  });

  it('the bot ends while it posts the message: the answer is the success, and ChatMessageSent is stored (no 409, no double post on retry)', async () => {
    const deps = depsOver(files.open(files.newFile()));
    await createRunningBot(deps, 'in_call_recording');
    const { control, asked } = botThatPosts(async () => {
      const ended = await handleBotCommand(deps, BOT, {
        type: 'EndBot', outcome: 'completed', error_code: 'NO_ATTENDEES', error_message: '',
        usage: { recorded_seconds: 60, waiting_room_seconds: 0 }, now: T0,
      });
      assert.ok(E.isRight(ended) && ended.right.events[0]?.type === 'BotCompleted');
    });

    const sent = await sendChatMessage(deps, control, BOT, 'Hello, I am recording');

    assert.ok(E.isRight(sent), JSON.stringify(E.isLeft(sent) ? sent.left : null));
    assert.deepEqual(asked, ['Hello, I am recording']);
    const stream = await deps.eventStore.readStream(botStreamName(BOT));
    assert.deepEqual(stream.slice(-2).map((e) => e.type), ['BotCompleted', 'ChatMessageSent']);
    assert.equal(stream[stream.length - 1]!.data.message_id, 'msg-1');
  });

  it('a bot that is not in the call is refused with BOT_STATUS before it is asked', async () => {
    const deps = depsOver(files.open(files.newFile()));
    await createRunningBot(deps, 'queued');
    const { control, asked } = botThatPosts();

    const sent = await sendChatMessage(deps, control, BOT, 'too early');

    assert.ok(E.isLeft(sent));
    assert.equal(sent.left.code, 'BOT_STATUS');
    assert.deepEqual(asked, [], 'the bot was not asked');
  });

  it('a bot that does not exist is BOT_NOT_FOUND', async () => {
    const deps = depsOver(files.open(files.newFile()));
    const sent = await sendChatMessage(deps, botThatPosts().control, BOT, 'anyone?');
    assert.ok(E.isLeft(sent) && sent.left.code === 'BOT_NOT_FOUND');
  });
});
