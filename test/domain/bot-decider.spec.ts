import assert from 'node:assert/strict';
import { defaultBotConfig } from '../../src/domain/bot/bot-config';
import { botDecider, type BotCommand } from '../../src/domain/bot/bot-decider';
import { BotEvent, type Usage } from '../../src/domain/bot/bot-events';
import type { ActiveStatus, BotStatus, ReportableStatus } from '../../src/domain/bot/bot-status';
import { at, deciderSpec, stateAfter } from './given-when-then';

const spec = deciderSpec(botDecider, BotEvent);

const BOT = 'b0e5a4a2-0000-4000-8000-000000000001';
const TEAM = 'team-0001';
const T0 = '2025-03-03T09:00:00.000Z';
const LATER = at(T0, { h: 2 });

const usage: Usage = { recorded_seconds: 1800, waiting_room_seconds: 120 };
const noUsage: Usage = { recorded_seconds: 0, waiting_room_seconds: 0 };

// ---- events ---------------------------------------------------------------------------------------------

const botCreated: BotEvent = {
  type: 'BotCreated',
  data: {
    bot_id: BOT,
    team_id: TEAM,
    meeting_url: 'https://vc.localhost/j/123456789',
    platform: 'vc',
    bot_name: 'Notetaker',
    extra: { customer: 'acme' },
    config: defaultBotConfig(),
    created_by: null,
    created_at: T0,
  },
};
const dispatched: BotEvent = { type: 'BotDispatched', data: { bot_id: BOT, worker_id: 'worker-1', at: at(T0, { s: 1 }) } };
/** Every status a bot that was created at once goes through (scheduled bots: scheduled-bot-decider.spec.ts). */
type RunStatus = Exclude<BotStatus, 'scheduled' | 'cancelled'>;

const statusChanged = (status: RunStatus, minute: number): BotEvent => ({
  type: 'StatusChanged',
  data: { bot_id: BOT, status, at: at(T0, { m: minute }) },
});
const completed: BotEvent = { type: 'BotCompleted', data: { bot_id: BOT, end_reason: 'API_REQUEST', usage, at: at(T0, { h: 1 }) } };
const failed: BotEvent = {
  type: 'BotFailed',
  data: { bot_id: BOT, error_code: 'CANNOT_JOIN_MEETING', error_message: 'The meeting does not exist', usage: noUsage, at: at(T0, { m: 3 }) },
};
const leaveRequested: BotEvent = { type: 'BotLeaveRequested', data: { bot_id: BOT, at: at(T0, { m: 30 }) } };

/** The shortest history (always through a dispatched bot) that leaves the bot in `status`. */
const historyTo = (status: RunStatus): BotEvent[] => {
  const joining = [botCreated, dispatched, statusChanged('joining_call', 1)];
  const recording = [...joining, statusChanged('in_call_recording', 2)];
  const paused = [...recording, statusChanged('recording_paused', 10)];
  switch (status) {
    case 'queued':
      return [botCreated, dispatched];
    case 'joining_call':
      return joining;
    case 'in_waiting_room':
      return [...joining, statusChanged('in_waiting_room', 2)];
    case 'in_call_not_recording':
      return [...joining, statusChanged('in_call_not_recording', 2)];
    case 'in_call_recording':
      return recording;
    case 'recording_paused':
      return paused;
    case 'recording_resumed':
      return [...paused, statusChanged('recording_resumed', 12)];
    case 'completed':
      return [...recording, completed];
    case 'failed':
      return [...joining, failed];
  }
};

// ---- commands -------------------------------------------------------------------------------------------

const createBot: Extract<BotCommand, { type: 'CreateBot' }> = {
  type: 'CreateBot',
  bot_id: BOT,
  team_id: TEAM,
  meeting_url: 'https://vc.localhost/j/123456789',
  platform: 'vc',
  bot_name: 'Notetaker',
  extra: { customer: 'acme' },
  config: defaultBotConfig(),
  created_by: null,
  now: T0,
};
const report = (status: ReportableStatus): BotCommand => ({ type: 'ReportStatus', status, now: LATER });
const leave: BotCommand = { type: 'RequestLeave', now: LATER };
const chat = (message_id = 'msg-1'): BotCommand => ({ type: 'RecordChatMessageSent', message_id, message: 'Hello, I am recording', now: LATER });
const checkChat: BotCommand = { type: 'CheckChatMessageAllowed', now: LATER };
const endBot = (outcome: 'completed' | 'failed', error_code: string, error_message = '', endUsage: Usage = usage): BotCommand => ({
  type: 'EndBot',
  outcome,
  error_code,
  error_message,
  usage: endUsage,
  now: LATER,
});
const artifact = (key: string): BotCommand => ({
  type: 'RecordArtifact',
  artifact_type: 'recording',
  key,
  content_type: 'video/webm',
  size_bytes: 1_048_576,
  now: LATER,
});

// ---- the rules, written out (not imported) so that a change to the domain shows up here -----------------

const inCallStatuses: readonly RunStatus[] = ['in_call_not_recording', 'in_call_recording', 'recording_paused', 'recording_resumed'];
const notInCallStatuses: readonly RunStatus[] = ['queued', 'joining_call', 'in_waiting_room', 'completed', 'failed'];
const reportable: readonly ReportableStatus[] = [
  'joining_call', 'in_waiting_room', 'in_call_not_recording', 'in_call_recording', 'recording_paused', 'recording_resumed',
];
const allowedMoves: Readonly<Record<ActiveStatus, readonly ReportableStatus[]>> = {
  queued: ['joining_call'],
  joining_call: ['in_waiting_room', 'in_call_not_recording', 'in_call_recording'],
  in_waiting_room: ['in_call_not_recording', 'in_call_recording'],
  in_call_not_recording: ['in_call_recording'],
  in_call_recording: ['recording_paused'],
  recording_paused: ['recording_resumed'],
  recording_resumed: ['recording_paused'],
};
const normalEndCodes = ['BOT_REMOVED', 'NO_ATTENDEES', 'NO_SPEAKER', 'RECORDING_TIMEOUT', 'API_REQUEST'] as const;

describe('bot decider', () => {
  describe('a bot is created once', () => {
    it('creating a bot records the whole request with its creation time', () => {
      spec.given([]).when(createBot).then([botCreated]);
    });

    it('creating the same bot again is a retry: nothing more is recorded', () => {
      spec.given([botCreated]).when(createBot).thenNothing();
      spec.given(historyTo('in_call_recording')).when({ ...createBot, bot_name: 'Other name', now: LATER }).thenNothing();
    });

    it('a created bot starts queued and not dispatched', () => {
      const state = stateAfter(botDecider, [botCreated]);
      assert.equal(state.kind, 'present');
      if (state.kind !== 'present') return;
      assert.equal(state.status, 'queued');
      assert.equal(state.dispatched, false);
      assert.equal(state.everRecorded, false);
    });
  });

  describe('a command for a bot that does not exist is refused with BOT_NOT_FOUND', () => {
    const commands: readonly BotCommand[] = [
      { type: 'DispatchBot', worker_id: 'worker-1', run_id: 'run-1', now: LATER },
      report('joining_call'),
      { type: 'ReportCallEnded', now: LATER },
      leave,
      checkChat,
      chat(),
      artifact('recordings/a.webm'),
      endBot('completed', 'API_REQUEST'),
    ];
    for (const command of commands) {
      it(command.type, () => {
        spec.given([]).when(command).thenRejects({ code: 'BOT_NOT_FOUND', message: 'Bot not found' });
      });
    }
  });

  describe('a bot is dispatched to a worker once', () => {
    it('dispatching a queued bot records the worker and names the run', () => {
      spec.given([botCreated]).when({ type: 'DispatchBot', worker_id: 'worker-7', run_id: 'run-7', now: LATER }).then([
        { type: 'BotDispatched', data: { bot_id: BOT, worker_id: 'worker-7', run_id: 'run-7', at: LATER } },
      ]);
    });

    it('the run it was dispatched for is the one its token is bound to; a bot dispatched before runs were named has none', () => {
      const named: BotEvent = { type: 'BotDispatched', data: { bot_id: BOT, worker_id: 'worker-1', run_id: 'run-1', at: LATER } };
      const runOf = (events: BotEvent[]) => {
        const state = stateAfter(botDecider, events);
        return state.kind === 'present' ? state.runId : undefined;
      };
      assert.equal(runOf([botCreated]), null);
      assert.equal(runOf([botCreated, named]), 'run-1');
      assert.equal(runOf([botCreated, dispatched]), null);
    });

    it('dispatching it again is nothing: a second run never replaces the first', () => {
      spec.given([botCreated, dispatched]).when({ type: 'DispatchBot', worker_id: 'worker-2', run_id: 'run-2', now: LATER }).thenNothing();
    });

    it('an ended bot is never dispatched', () => {
      const failedBeforeDispatch: BotEvent = { ...failed, data: { ...failed.data, error_code: 'EXITING_MEETING_BEFORE_RECORD' } };
      spec.given([botCreated, failedBeforeDispatch]).when({ type: 'DispatchBot', worker_id: 'worker-1', run_id: 'run-1', now: LATER }).thenNothing();
    });
  });

  describe('a running bot of an instance that is gone is taken over once', () => {
    const reassign = (from_worker_id: string, worker_id = 'worker-2'): BotCommand => ({ type: 'ReassignBot', from_worker_id, worker_id, now: LATER });
    it('from the instance that holds it: reassigned', () => {
      spec.given(historyTo('in_call_recording')).when(reassign('worker-1')).then([
        { type: 'BotReassigned', data: { bot_id: BOT, from_worker_id: 'worker-1', worker_id: 'worker-2', at: LATER } },
      ]);
    });
    it('another instance took it first (it no longer holds it): nothing', () => {
      const taken: BotEvent = { type: 'BotReassigned', data: { bot_id: BOT, from_worker_id: 'worker-1', worker_id: 'worker-3', at: LATER } };
      spec.given([...historyTo('in_call_recording'), taken]).when(reassign('worker-1')).thenNothing();
    });
    it('an ended bot, or one nobody runs yet: nothing', () => {
      spec.given(historyTo('completed')).when(reassign('worker-1')).thenNothing();
      spec.given([botCreated]).when(reassign('worker-1')).thenNothing();
    });
  });

  describe('a running bot moves only along the allowed status edges', () => {
    for (const from of Object.keys(allowedMoves) as ActiveStatus[]) {
      for (const to of allowedMoves[from]) {
        it(`${from} -> ${to} is allowed`, () => {
          spec.given(historyTo(from)).when(report(to)).then([{ type: 'StatusChanged', data: { bot_id: BOT, status: to, at: LATER } }]);
        });
      }
    }

    it('the refusals named by the rules: queued -> in_call_recording, in_call_recording -> in_waiting_room', () => {
      spec.given(historyTo('queued')).when(report('in_call_recording')).thenRejects({
        code: 'INVALID_TRANSITION',
        status: 'queued',
        message: 'A bot cannot move from queued to in_call_recording',
      });
      spec.given(historyTo('in_call_recording')).when(report('in_waiting_room')).thenRejects({
        code: 'INVALID_TRANSITION',
        status: 'in_call_recording',
      });
    });

    for (const from of Object.keys(allowedMoves) as ActiveStatus[]) {
      for (const to of reportable.filter((s) => s !== from && !allowedMoves[from].includes(s))) {
        it(`${from} -> ${to} is refused with INVALID_TRANSITION`, () => {
          spec.given(historyTo(from)).when(report(to)).thenRejects({ code: 'INVALID_TRANSITION', status: from });
        });
      }
    }
  });

  describe('a bot reporting the status it already has changes nothing', () => {
    for (const status of reportable) {
      it(`${status} twice is nothing`, () => {
        spec.given(historyTo(status)).when(report(status)).thenNothing();
      });
    }
  });

  describe('an ended bot (completed or failed) accepts no status report', () => {
    for (const terminal of ['completed', 'failed'] as const) {
      for (const to of reportable) {
        it(`${terminal} -> ${to} is refused`, () => {
          spec.given(historyTo(terminal)).when(report(to)).thenRejects({ code: 'INVALID_TRANSITION', status: terminal });
        });
      }
    }
  });

  describe('the legacy call_ended report is kept in the audit while the bot runs', () => {
    it('a running bot records CallEnded', () => {
      spec.given(historyTo('in_call_recording')).when({ type: 'ReportCallEnded', now: LATER }).then([
        { type: 'CallEnded', data: { bot_id: BOT, at: LATER } },
      ]);
    });

    it('and it does not change the status: recording can still be paused', () => {
      const callEnded: BotEvent = { type: 'CallEnded', data: { bot_id: BOT, at: at(T0, { m: 20 }) } };
      spec.given([...historyTo('in_call_recording'), callEnded]).when(report('recording_paused')).then([
        { type: 'StatusChanged', data: { bot_id: BOT, status: 'recording_paused', at: LATER } },
      ]);
    });

    it('an ended bot records nothing more', () => {
      spec.given(historyTo('completed')).when({ type: 'ReportCallEnded', now: LATER }).thenNothing();
      spec.given(historyTo('failed')).when({ type: 'ReportCallEnded', now: LATER }).thenNothing();
    });
  });

  describe('leave: a bot that nothing runs yet ends at once, before any recording', () => {
    it('leave on an undispatched queued bot fails it with EXITING_MEETING_BEFORE_RECORD and zero usage', () => {
      spec.given([botCreated]).when(leave).then([
        {
          type: 'BotFailed',
          data: {
            bot_id: BOT,
            error_code: 'EXITING_MEETING_BEFORE_RECORD',
            error_message: 'The bot was asked to leave before it joined the meeting.',
            usage: { recorded_seconds: 0, waiting_room_seconds: 0 },
            at: LATER,
          },
        },
      ]);
    });

    it('asking again once it has ended is refused like for any ended bot', () => {
      const ended: BotEvent = {
        type: 'BotFailed',
        data: { bot_id: BOT, error_code: 'EXITING_MEETING_BEFORE_RECORD', error_message: 'left', usage: noUsage, at: at(T0, { m: 1 }) },
      };
      spec.given([botCreated, ended]).when(leave).thenRejects({ code: 'BOT_STATUS', status: 'failed' });
    });
  });

  describe('leave: a dispatched bot is asked to leave, once', () => {
    for (const status of ['queued', 'joining_call', 'in_waiting_room', 'in_call_not_recording', 'in_call_recording', 'recording_paused', 'recording_resumed'] as const) {
      it(`a dispatched bot in ${status} gets BotLeaveRequested`, () => {
        spec.given(historyTo(status)).when(leave).then([{ type: 'BotLeaveRequested', data: { bot_id: BOT, at: LATER } }]);
      });
    }

    it('asking twice is nothing', () => {
      spec.given([...historyTo('in_call_recording'), leaveRequested]).when(leave).thenNothing();
    });

    it('a bot asked to leave still reports its statuses until it ends', () => {
      spec.given([...historyTo('in_call_recording'), leaveRequested]).when(report('recording_paused')).then([
        { type: 'StatusChanged', data: { bot_id: BOT, status: 'recording_paused', at: LATER } },
      ]);
    });
  });

  describe('leave: an ended bot is refused with BOT_STATUS (409)', () => {
    it('completed', () => {
      spec.given(historyTo('completed')).when(leave).thenRejects({
        code: 'BOT_STATUS',
        status: 'completed',
        message: 'Bot has already ended (completed)',
      });
    });
    it('failed', () => {
      spec.given(historyTo('failed')).when(leave).thenRejects({ code: 'BOT_STATUS', status: 'failed', message: 'Bot has already ended (failed)' });
    });
    it('even when it had been asked to leave before it ended', () => {
      spec.given([...historyTo('in_call_recording'), leaveRequested, completed]).when(leave).thenRejects({ code: 'BOT_STATUS', status: 'completed' });
    });
  });

  describe('chat: only a bot in the call is asked to send a message (checked before the bot is asked)', () => {
    for (const status of inCallStatuses) {
      it(`allowed in ${status}: the check records nothing`, () => {
        spec.given(historyTo(status)).when(checkChat).thenNothing();
      });
    }
    for (const status of notInCallStatuses) {
      it(`refused in ${status} with BOT_STATUS`, () => {
        spec.given(historyTo(status)).when(checkChat).thenRejects({
          code: 'BOT_STATUS',
          status,
          message: `Chat messages can only be sent while the bot is in the call (status: ${status})`,
        });
      });
    }
    it('refused on an undispatched queued bot too', () => {
      spec.given([botCreated]).when(checkChat).thenRejects({ code: 'BOT_STATUS', status: 'queued' });
    });
    it('refused for a bot that does not exist', () => {
      spec.given([]).when(checkChat).thenRejects({ code: 'BOT_NOT_FOUND' });
    });
  });

  describe('chat: a message the bot confirmed it posted is recorded, whatever the status has become', () => {
    for (const status of inCallStatuses) {
      it(`recorded in ${status}`, () => {
        spec.given(historyTo(status)).when(chat('msg-42')).then([
          { type: 'ChatMessageSent', data: { bot_id: BOT, message_id: 'msg-42', message: 'Hello, I am recording', at: LATER } },
        ]);
      });
    }
    for (const status of ['completed', 'failed'] as const) {
      it(`given a bot that has ${status} since it was asked, when the confirmed message is recorded -> ChatMessageSent`, () => {
        spec.given(historyTo(status)).when(chat('msg-42')).then([
          { type: 'ChatMessageSent', data: { bot_id: BOT, message_id: 'msg-42', message: 'Hello, I am recording', at: LATER } },
        ]);
      });
    }
    it('and once recorded after the end, the same message id again is nothing', () => {
      const sentAfterEnd: BotEvent = { type: 'ChatMessageSent', data: { bot_id: BOT, message_id: 'msg-42', message: 'Hello, I am recording', at: LATER } };
      spec.given([...historyTo('completed'), sentAfterEnd]).when(chat('msg-42')).thenNothing();
    });
    it('recording a message does not change the status', () => {
      const sentAfterEnd: BotEvent = { type: 'ChatMessageSent', data: { bot_id: BOT, message_id: 'msg-42', message: 'Hello, I am recording', at: LATER } };
      const state = stateAfter(botDecider, [...historyTo('completed'), sentAfterEnd]);
      assert.ok(state.kind === 'present' && state.status === 'completed');
    });
  });

  describe('chat: the same message id is recorded once', () => {
    const sent: BotEvent = { type: 'ChatMessageSent', data: { bot_id: BOT, message_id: 'msg-1', message: 'Hello, I am recording', at: at(T0, { m: 5 }) } };

    it('the same message id twice is nothing', () => {
      spec.given([...historyTo('in_call_recording'), sent]).when(chat('msg-1')).thenNothing();
    });

    it('another message id is recorded', () => {
      spec.given([...historyTo('in_call_recording'), sent]).when(chat('msg-2')).then([
        { type: 'ChatMessageSent', data: { bot_id: BOT, message_id: 'msg-2', message: 'Hello, I am recording', at: LATER } },
      ]);
    });

    it('a message id already sent is remembered across status changes', () => {
      spec.given([...historyTo('in_call_recording'), sent, statusChanged('recording_paused', 6)]).when(chat('msg-1')).thenNothing();
    });
  });

  describe('artifacts: each object key is recorded once', () => {
    const stored: BotEvent = {
      type: 'ArtifactStored',
      data: { bot_id: BOT, artifact_type: 'recording', key: 'bots/b1/recording.webm', content_type: 'video/webm', size_bytes: 1_048_576, at: at(T0, { h: 1 }) },
    };

    it('a new key is recorded with its metadata', () => {
      spec.given(historyTo('in_call_recording')).when(artifact('bots/b1/recording.webm')).then([
        { ...stored, data: { ...stored.data, at: LATER } },
      ]);
    });

    it('the same key again is nothing', () => {
      spec.given([...historyTo('in_call_recording'), stored]).when(artifact('bots/b1/recording.webm')).thenNothing();
    });

    it('another key is recorded', () => {
      spec.given([...historyTo('in_call_recording'), stored]).when(artifact('bots/b1/transcript.json')).then([
        { ...stored, data: { ...stored.data, key: 'bots/b1/transcript.json', at: LATER } },
      ]);
    });

    it('an artifact uploaded after the bot ended is still recorded', () => {
      spec.given(historyTo('completed')).when(artifact('bots/b1/recording.webm')).then([{ ...stored, data: { ...stored.data, at: LATER } }]);
    });
  });

  describe('participants: who was there is recorded once, at the end of the run', () => {
    const participantsCommand: BotCommand = { type: 'RecordParticipants', participants: ['Alice', 'Bob'], speakers: ['Alice'], now: LATER };
    const reported: BotEvent = { type: 'ParticipantsReported', data: { bot_id: BOT, participants: ['Alice', 'Bob'], speakers: ['Alice'], at: LATER } };

    it('the first report is recorded with the names and the speakers', () => {
      spec.given(historyTo('in_call_recording')).when(participantsCommand).then([reported]);
    });

    it('a repeated report (a retry) records nothing more', () => {
      spec.given([...historyTo('in_call_recording'), reported]).when(participantsCommand).thenNothing();
    });
  });

  describe('data access: reads of the bot\'s data (legacy meeting_data) are recorded, with the key that read and how many times', () => {
    const read = (now: string, reads = 1): BotCommand => ({ type: 'RecordDataAccess', key_id: 'key-1', reads, now });
    const accessed = (when: string, reads = 1): BotEvent => ({ type: 'BotDataAccessed', data: { bot_id: BOT, key_id: 'key-1', reads, at: when } });

    it('a read of a running bot', () => {
      spec.given(historyTo('in_call_recording')).when(read(LATER)).then([accessed(LATER)]);
    });
    it('a read of an ended bot (the usual case: its data is complete)', () => {
      spec.given(historyTo('completed')).when(read(LATER)).then([accessed(LATER)]);
      spec.given(historyTo('failed')).when(read(LATER)).then([accessed(LATER)]);
    });
    it('reads held together are one event that counts them, at the last one\'s time', () => {
      spec.given(historyTo('completed')).when(read(LATER, 17)).then([accessed(LATER, 17)]);
    });
    it('a second read is a second access, not a repeat', () => {
      spec.given([...historyTo('completed'), accessed(LATER)]).when(read(at(LATER, { s: 1 }))).then([accessed(at(LATER, { s: 1 }))]);
    });
    it('a read changes nothing else about the bot', () => {
      assert.deepEqual(stateAfter(botDecider, [...historyTo('in_call_recording'), accessed(LATER)]), stateAfter(botDecider, historyTo('in_call_recording')));
    });
    it('a read of a bot that does not exist is refused', () => {
      spec.given([]).when(read(LATER)).thenRejects({ code: 'BOT_NOT_FOUND' });
    });
  });

  describe('end: a bot that has started recording completes with a normal end code', () => {
    for (const code of normalEndCodes) {
      it(`${code} after recording -> BotCompleted`, () => {
        spec.given(historyTo('in_call_recording')).when(endBot('completed', code)).then([
          { type: 'BotCompleted', data: { bot_id: BOT, end_reason: code, usage, at: LATER } },
        ]);
      });
    }

    it('leave then API_REQUEST after recording -> BotCompleted (the leave endpoint path)', () => {
      spec.given([...historyTo('in_call_recording'), leaveRequested]).when(endBot('completed', 'API_REQUEST')).then([
        { type: 'BotCompleted', data: { bot_id: BOT, end_reason: 'API_REQUEST', usage, at: LATER } },
      ]);
    });

    it('a bot that recorded and then paused has still recorded', () => {
      spec.given(historyTo('recording_paused')).when(endBot('completed', 'API_REQUEST')).then([
        { type: 'BotCompleted', data: { bot_id: BOT, end_reason: 'API_REQUEST', usage, at: LATER } },
      ]);
    });
  });

  describe('end: a pre-recording stop (left through the API, or ended before admission) fails with EXITING_MEETING_BEFORE_RECORD', () => {
    for (const status of ['queued', 'joining_call', 'in_waiting_room', 'in_call_not_recording'] as const) {
      it(`API_REQUEST in ${status} -> BotFailed EXITING_MEETING_BEFORE_RECORD`, () => {
        spec.given(historyTo(status)).when(endBot('completed', 'API_REQUEST', 'left', noUsage)).then([
          {
            type: 'BotFailed',
            data: {
              bot_id: BOT,
              error_code: 'EXITING_MEETING_BEFORE_RECORD',
              error_message: 'The bot left before it started recording.',
              usage: noUsage,
              at: LATER,
            },
          },
        ]);
      });
    }

    // The spec's pre-recording stop includes "the meeting ended before admission": before admission
    // (queued, joining, waiting room) every normal end code is one.
    for (const status of ['queued', 'joining_call', 'in_waiting_room'] as const) {
      for (const code of normalEndCodes) {
        it(`${code} before admission (${status}) -> EXITING_MEETING_BEFORE_RECORD`, () => {
          spec.given(historyTo(status)).when(endBot('completed', code, 'the meeting ended', noUsage)).then([
            {
              type: 'BotFailed',
              data: {
                bot_id: BOT,
                error_code: 'EXITING_MEETING_BEFORE_RECORD',
                error_message: 'The bot left before it started recording.',
                usage: noUsage,
                at: LATER,
              },
            },
          ]);
        });
      }
    }
  });

  describe('end: a bot admitted to the call that ends for its own reason before recording keeps that code', () => {
    for (const code of ['BOT_REMOVED', 'NO_ATTENDEES', 'NO_SPEAKER', 'RECORDING_TIMEOUT'] as const) {
      it(`${code} in in_call_not_recording -> BotCompleted ${code} (not a pre-recording stop: the spec names the API, deletions and the meeting ending before admission)`, () => {
        spec.given(historyTo('in_call_not_recording')).when(endBot('completed', code, 'nobody came', noUsage)).then([
          { type: 'BotCompleted', data: { bot_id: BOT, end_reason: code, usage: noUsage, at: LATER } },
        ]);
      });
    }

    it('a failed outcome with such a code stays failed with its own code and message', () => {
      spec.given(historyTo('in_call_not_recording')).when(endBot('failed', 'BOT_REMOVED', 'removed by the host', noUsage)).then([
        { type: 'BotFailed', data: { bot_id: BOT, error_code: 'BOT_REMOVED', error_message: 'removed by the host', usage: noUsage, at: LATER } },
      ]);
    });
  });

  describe('end: the streaming seconds the bot reported are kept in the usage (what streaming is charged for)', () => {
    it('completed with streaming -> BotCompleted whose usage carries the seconds per direction', () => {
      const streamed: Usage = { recorded_seconds: 600, waiting_room_seconds: 0, streaming_seconds: { input: 0, output: 540.5 } };
      spec.given(historyTo('in_call_recording')).when(endBot('completed', 'API_REQUEST', 'left', streamed)).then([
        { type: 'BotCompleted', data: { bot_id: BOT, end_reason: 'API_REQUEST', usage: streamed, at: LATER } },
      ]);
    });
    it('STREAMING_SETUP_FAILED while joining -> BotFailed with no usage', () => {
      spec.given(historyTo('joining_call')).when(endBot('failed', 'STREAMING_SETUP_FAILED', 'refused', noUsage)).then([
        { type: 'BotFailed', data: { bot_id: BOT, error_code: 'STREAMING_SETUP_FAILED', error_message: 'refused', usage: noUsage, at: LATER } },
      ]);
    });
  });

  describe('end: recorded seconds in the end report count as recording even when in_call_recording was never reported', () => {
    const recordedOnly: Usage = { recorded_seconds: 600, waiting_room_seconds: 30 };
    for (const status of ['joining_call', 'in_waiting_room', 'in_call_not_recording'] as const) {
      for (const code of normalEndCodes) {
        it(`${code} in ${status} with recorded_seconds > 0 -> BotCompleted ${code} (charged, not EXITING_MEETING_BEFORE_RECORD)`, () => {
          spec.given(historyTo(status)).when(endBot('completed', code, '', recordedOnly)).then([
            { type: 'BotCompleted', data: { bot_id: BOT, end_reason: code, usage: recordedOnly, at: LATER } },
          ]);
        });
      }
    }

    it('zero recorded seconds and no recording status is still a pre-recording stop for API_REQUEST', () => {
      spec.given(historyTo('in_call_not_recording')).when(endBot('completed', 'API_REQUEST', 'left', { recorded_seconds: 0, waiting_room_seconds: 30 })).then([
        {
          type: 'BotFailed',
          data: {
            bot_id: BOT,
            error_code: 'EXITING_MEETING_BEFORE_RECORD',
            error_message: 'The bot left before it started recording.',
            usage: { recorded_seconds: 0, waiting_room_seconds: 30 },
            at: LATER,
          },
        },
      ]);
    });
  });

  describe('end: a failure keeps its own error code', () => {
    it('BOT_NOT_ACCEPTED in the waiting room -> BotFailed BOT_NOT_ACCEPTED with its message and usage', () => {
      const waited: Usage = { recorded_seconds: 0, waiting_room_seconds: 1800 };
      spec.given(historyTo('in_waiting_room')).when(endBot('failed', 'BOT_NOT_ACCEPTED', 'The host refused the bot', waited)).then([
        {
          type: 'BotFailed',
          data: { bot_id: BOT, error_code: 'BOT_NOT_ACCEPTED', error_message: 'The host refused the bot', usage: waited, at: LATER },
        },
      ]);
    });

    it('a crash after recording -> BotFailed with the crash code', () => {
      spec.given(historyTo('in_call_recording')).when(endBot('failed', 'OOM_KILLED', 'out of memory')).then([
        { type: 'BotFailed', data: { bot_id: BOT, error_code: 'OOM_KILLED', error_message: 'out of memory', usage, at: LATER } },
      ]);
    });

    it('a bot that reports a failed outcome stays failed even with a normal end code', () => {
      spec.given(historyTo('in_call_recording')).when(endBot('failed', 'BOT_REMOVED', 'removed by the host')).then([
        { type: 'BotFailed', data: { bot_id: BOT, error_code: 'BOT_REMOVED', error_message: 'removed by the host', usage, at: LATER } },
      ]);
    });

    it('TRANSCRIPTION_FAILED after recording is a failure, not a completion', () => {
      spec.given(historyTo('in_call_recording')).when(endBot('completed', 'TRANSCRIPTION_FAILED', 'provider down')).then([
        { type: 'BotFailed', data: { bot_id: BOT, error_code: 'TRANSCRIPTION_FAILED', error_message: 'provider down', usage, at: LATER } },
      ]);
    });
  });

  describe('end: a bot that has already ended ends once', () => {
    it('EndBot on a completed bot is nothing (a crash detected after its own end report)', () => {
      spec.given(historyTo('completed')).when(endBot('failed', 'FORCE_KILLED')).thenNothing();
    });
    it('EndBot on a failed bot is nothing', () => {
      spec.given(historyTo('failed')).when(endBot('completed', 'API_REQUEST')).thenNothing();
    });
    it('the ended bot has the terminal status', () => {
      const state = stateAfter(botDecider, historyTo('completed'));
      assert.ok(state.kind === 'present' && state.status === 'completed');
      const failedState = stateAfter(botDecider, historyTo('failed'));
      assert.ok(failedState.kind === 'present' && failedState.status === 'failed');
    });
  });
});
