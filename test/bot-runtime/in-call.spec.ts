/**
 * The bot in the call (run/in-call.ts) with fakes for the page driver and the recorder: a recorder
 * start that a navigation interrupts (a meeting that ends by sending the page elsewhere) is no
 * internal error: the next read tells where the page went, and a call still there starts it again.
 */
import assert from 'node:assert/strict';
import { BotLog } from '../../bot-runtime/bot-log';
import type { PageDriver, PageSnapshot } from '../../bot-runtime/drivers/page-driver';
import type { EndCause } from '../../bot-runtime/end-codes';
import type { Recorder } from '../../bot-runtime/recorder/recorder';
import { InCall } from '../../bot-runtime/run/in-call';
import { StatusReports } from '../../bot-runtime/run/status-reports';
import { MemoryReporter } from './support';

const snapshot: PageSnapshot = {
  screen: 'in_call', evidence: null, notice: null, wall: null, selfId: null, participants: [], activeSpeaker: null, chatDisabled: false, chat: [], recordingPermission: null,
};

const inCallWith = (starts: (() => Promise<number>)[]) => {
  const ends: EndCause[] = [];
  const log = new BotLog(null);
  const driver = { name: 'fake', prepareCall: async () => undefined, setLayout: async () => undefined } as unknown as PageDriver;
  const recorder = { start: () => starts.shift()!() } as unknown as Recorder;
  const inCall = new InCall({
    entryMessage: null,
    needsRecordingPermission: false,
    driver,
    recordingMode: 'audio_only',
    recorder,
    statuses: new StatusReports(new MemoryReporter(), log),
    sendChat: async () => ({ ok: true }) as never,
    requestEnd: (cause) => ends.push(cause),
    endedDuring: async (work) => (await work, false),
    log,
  });
  return { inCall, ends, log };
};

describe('bot-runtime in the call', () => {
  it('a recorder start interrupted by a navigation ends nothing; the next read of the call starts it again', async () => {
    const { inCall, ends, log } = inCallWith([() => Promise.reject(new Error('Execution context was destroyed, most likely because of a navigation.')), async () => 1234]);
    await inCall.onSnapshot(snapshot);
    assert.deepEqual(ends, []);
    assert.equal(inCall.recordingStartedAt, null);
    assert.match(log.text(), /the recorder did not start, the page navigated/);
    await inCall.onSnapshot(snapshot);
    assert.equal(inCall.recordingStartedAt, 1234);
  });

  it('any other failure of the recorder is an internal error', async () => {
    const { inCall, ends } = inCallWith([() => Promise.reject(new Error('the tab capture has no audio track'))]);
    await inCall.onSnapshot(snapshot);
    assert.deepEqual(ends, [{ kind: 'internal_error', message: 'The recorder could not start: the tab capture has no audio track' }]);
  });
});
