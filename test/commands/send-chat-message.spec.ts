import assert from 'node:assert/strict';
import { defaultBotConfig } from '../../src/domain/bot/bot-config';
import * as E from 'fp-ts/Either';
import type { BotControl, ChatOutcome } from '../../src/adapters/bot-control/port';
import { readBotEvents } from '../../src/commands/bot-commands';
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

/**
 * A running bot as the service sees it: once a chat request is recorded on its stream (by the call under
 * test), it "posts" it after `meanwhile` and its answer is recorded, as the internal API records it for
 * whichever instance the bot reached; the outcome is what the log says.
 */
const botThatAnswers = (deps: CommandDeps, answer: 'sent' | 'chat_disabled' | 'not_in_call' | 'silent', meanwhile: () => Promise<void> = async () => undefined) => {
  const asked: string[] = [];
  const control: BotControl = {
    reachable: async () => answer !== 'silent',
    leaveAcknowledged: async () => false,
    chatOutcome: async (botId, requestId): Promise<ChatOutcome | null> => {
      if (answer === 'silent') return null;
      // The request is recorded by the caller right after it starts waiting.
      for (let i = 0; i < 100 && !(await readBotEvents(deps, botId)).some((e) => e.type === 'ChatMessageRequested' && e.data.request_id === requestId); i += 1) {
        await new Promise((r) => setTimeout(r, 5));
      }
      const request = (await readBotEvents(deps, botId)).find((e) => e.type === 'ChatMessageRequested' && e.data.request_id === requestId);
      if (request?.type === 'ChatMessageRequested') asked.push(request.data.message);
      await meanwhile();
      const outcome = answer === 'sent' ? ({ ok: true } as const) : ({ ok: false, reason: answer, message: 'the bot could not' } as const);
      const recorded = await handleBotCommand(deps, botId, { type: 'RecordChatAnswer', request_id: requestId, outcome, now: T0 });
      assert.ok(E.isRight(recorded));
      return outcome.ok ? { ok: true, position: recorded.right.position! } : { ...outcome, position: recorded.right.position! };
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
    const { control, asked } = botThatAnswers(deps, 'sent', async () => {
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
    assert.deepEqual(stream.slice(-3).map((e) => e.type), ['ChatMessageRequested', 'BotCompleted', 'ChatMessageSent']);
    assert.equal(stream[stream.length - 1]!.data.message_id, stream[stream.length - 3]!.data.request_id, 'the message is the request');
  });

  it('the bot answers that chat is disabled: CHAT_DISABLED, recorded as the request\'s outcome', async () => {
    const deps = depsOver(files.open(files.newFile()));
    await createRunningBot(deps, 'in_call_recording');
    const sent = await sendChatMessage(deps, botThatAnswers(deps, 'chat_disabled').control, BOT, 'hello');
    assert.ok(E.isLeft(sent) && sent.left.code === 'CHAT_DISABLED');
    const last = (await readBotEvents(deps, BOT)).at(-1)!;
    assert.ok(last.type === 'ChatMessageFailed' && last.data.reason === 'chat_disabled');
  });

  it('the bot answers that it is not in the call: BOT_STATUS (409), as if it had been asked before', async () => {
    const deps = depsOver(files.open(files.newFile()));
    await createRunningBot(deps, 'in_call_recording');
    const sent = await sendChatMessage(deps, botThatAnswers(deps, 'not_in_call').control, BOT, 'hello');
    assert.ok(E.isLeft(sent) && sent.left.code === 'BOT_STATUS');
  });

  it('a bot that is not reachable: SEND_FAILED at once, recorded unreachable, and a late answer changes nothing', async () => {
    const deps = depsOver(files.open(files.newFile()));
    await createRunningBot(deps, 'in_call_recording');
    const sent = await sendChatMessage(deps, botThatAnswers(deps, 'silent').control, BOT, 'anyone there?');
    assert.ok(E.isLeft(sent) && sent.left.code === 'SEND_FAILED');
    assert.match(sent.left.message, /could not be reached/);
    const events = await readBotEvents(deps, BOT);
    const failed = events.at(-1)!;
    assert.ok(failed.type === 'ChatMessageFailed' && failed.data.reason === 'unreachable');
    const late = await handleBotCommand(deps, BOT, { type: 'RecordChatAnswer', request_id: failed.data.request_id, outcome: { ok: true }, now: T0 });
    assert.ok(E.isRight(late) && late.right.events.length === 0, 'the first outcome counts');
  });

  it('a bot that is not in the call is refused with BOT_STATUS before it is asked', async () => {
    const deps = depsOver(files.open(files.newFile()));
    await createRunningBot(deps, 'queued');
    const { control, asked } = botThatAnswers(deps, 'sent');

    const sent = await sendChatMessage(deps, control, BOT, 'too early');

    assert.ok(E.isLeft(sent));
    assert.equal(sent.left.code, 'BOT_STATUS');
    assert.deepEqual(asked, [], 'the bot was not asked');
  });

  it('a bot that does not exist is BOT_NOT_FOUND', async () => {
    const deps = depsOver(files.open(files.newFile()));
    const sent = await sendChatMessage(deps, botThatAnswers(deps, 'sent').control, BOT, 'anyone?');
    assert.ok(E.isLeft(sent) && sent.left.code === 'BOT_NOT_FOUND');
  });
});
