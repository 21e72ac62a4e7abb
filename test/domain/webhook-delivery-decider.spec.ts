import assert from 'node:assert/strict';
import { maxAttempts, waitAfterFailedAttempt } from '../../src/domain/webhooks/retry-schedule';
import { headOf, webhookDeliveryDecider, type WebhookDeliveryCommand } from '../../src/domain/webhooks/webhook-delivery-decider';
import { WebhookDeliveryEvent, type DeliveryTarget } from '../../src/domain/webhooks/webhook-delivery-events';
import { foldEvents } from '../../src/domain/decider';
import { at, deciderSpec } from './given-when-then';

const spec = deciderSpec(webhookDeliveryDecider, WebhookDeliveryEvent);

const T0 = '2026-11-23T09:00:00.000Z';
const endpoint: DeliveryTarget = { kind: 'endpoint', endpoint_id: 'ep-1' };
const callback: DeliveryTarget = { kind: 'callback', bot_id: 'bot-1' };
const routing = (target: DeliveryTarget, message_id: string) => ({ target, subject: 'bot-bot-1', team_id: 'team-1', message_id });

const queue = (message_id: string, target: DeliveryTarget = endpoint, event_type = 'bot.status_change'): WebhookDeliveryCommand => ({
  type: 'QueueMessage', ...routing(target, message_id), event_type, payload: { event: event_type, data: { bot_id: 'bot-1' } }, callback: null, now: T0,
});
const queued = (message_id: string, target: DeliveryTarget = endpoint, event_type = 'bot.status_change'): WebhookDeliveryEvent => ({
  type: 'WebhookMessageQueued', data: { ...routing(target, message_id), event_type, payload: { event: event_type, data: { bot_id: 'bot-1' } }, callback: null, at: T0 },
});
const attempt = (message_id: string, n: number, result: { status_code: number } | { error: string }, now: string, jitter = 0.5): WebhookDeliveryCommand => ({
  type: 'RecordAttempt', message_id, attempt: n, url: 'https://hooks.example/in', result, duration_ms: 12, jitter, now,
});
const attempted = (message_id: string, n: number, status: number | null, error: string | null, now: string, next: string | null, target: DeliveryTarget = endpoint): WebhookDeliveryEvent => ({
  type: 'WebhookDeliveryAttempted',
  data: {
    ...routing(target, message_id), event_type: 'bot.status_change', attempt: n, url: 'https://hooks.example/in',
    status_code: status, error, duration_ms: 12, succeeded: status !== null && status >= 200 && status < 300, next_attempt_at: next, at: now,
  },
});

describe('webhook delivery decider (one stream per target and bot)', () => {
  describe('queueing', () => {
    it('given nothing, when a message is queued, then it is pending', () => {
      spec.given([]).when(queue('msg_1')).then([queued('msg_1')]);
    });
    it('the same message again (the event seen again after a restart) is queued once', () => {
      spec.given([queued('msg_1')]).when(queue('msg_1')).thenNothing();
    });
  });

  describe('attempts: any 2xx delivers; anything else is retried on the schedule, then abandoned', () => {
    it('a 200 on the first attempt: attempted and delivered', () => {
      spec.given([queued('msg_1')]).when(attempt('msg_1', 1, { status_code: 200 }, T0)).then([
        attempted('msg_1', 1, 200, null, T0, null),
        { type: 'WebhookDelivered', data: { ...routing(endpoint, 'msg_1'), attempts: 1, at: T0 } },
      ]);
    });
    it('a 500 on the first attempt: the next one is due 5 s later (jitter 0.5 is the middle of ±20 %)', () => {
      spec.given([queued('msg_1')]).when(attempt('msg_1', 1, { status_code: 500 }, T0)).then([attempted('msg_1', 1, 500, null, T0, at(T0, { s: 5 }))]);
    });
    it('a network error is a failure like any other; a redirect (3xx) is not followed and not a success', () => {
      spec.given([queued('msg_1')]).when(attempt('msg_1', 1, { error: 'ECONNREFUSED' }, T0)).then([attempted('msg_1', 1, null, 'ECONNREFUSED', T0, at(T0, { s: 5 }))]);
      spec.given([queued('msg_1')]).when(attempt('msg_1', 1, { status_code: 302 }, T0)).then([attempted('msg_1', 1, 302, null, T0, at(T0, { s: 5 }))]);
    });
    it('the 8th failed attempt of an endpoint message is the last: abandoned', () => {
      const history = [queued('msg_1')];
      for (let n = 1; n <= 7; n += 1) history.push(attempted('msg_1', n, 500, null, T0, T0));
      spec.given(history).when(attempt('msg_1', 8, { status_code: 500 }, T0)).then([
        attempted('msg_1', 8, 500, null, T0, null),
        { type: 'WebhookDeliveryAbandoned', data: { ...routing(endpoint, 'msg_1'), reason: 'retries_exhausted', at: T0 } },
      ]);
    });
    it('a callback gets 5 attempts in all', () => {
      const history = [queued('msg_1', callback)];
      for (let n = 1; n <= 4; n += 1) history.push(attempted('msg_1', n, 500, null, T0, T0, callback));
      spec.given(history).when(attempt('msg_1', 5, { status_code: 503 }, T0)).then([
        attempted('msg_1', 5, 503, null, T0, null, callback),
        { type: 'WebhookDeliveryAbandoned', data: { ...routing(callback, 'msg_1'), reason: 'retries_exhausted', at: T0 } },
      ]);
    });
    it('an attempt that was on its way when its message was abandoned is still recorded, and changes nothing else', () => {
      const abandoned: WebhookDeliveryEvent = { type: 'WebhookDeliveryAbandoned', data: { ...routing(endpoint, 'msg_1'), reason: 'endpoint_disabled', at: T0 } };
      spec.given([queued('msg_1'), abandoned]).when(attempt('msg_1', 1, { status_code: 500 }, T0)).then([attempted('msg_1', 1, 500, null, T0, null)]);
    });
    it('an attempt number already recorded (sent again after a crash) changes nothing', () => {
      spec.given([queued('msg_1'), attempted('msg_1', 1, 500, null, T0, at(T0, { s: 5 }))]).when(attempt('msg_1', 1, { status_code: 200 }, T0)).thenNothing();
    });
  });

  describe('claims: an attempt is claimed before it is sent (claim, send, record)', () => {
    const T1 = '2026-11-23T09:00:10.000Z';
    const T2 = '2026-11-23T09:00:20.000Z';
    const claim = (n: number, owner: string, now: string, until = T1): WebhookDeliveryCommand => ({
      type: 'ClaimAttempt', message_id: 'msg_1', attempt: n, owner, claimed_until: until, now,
    });
    const claimed = (n: number, owner: string, now: string, until = T1): WebhookDeliveryEvent => ({
      type: 'WebhookAttemptStarted', data: { ...routing(endpoint, 'msg_1'), attempt: n, owner, claimed_until: until, at: now },
    });
    it('given a pending message, when its first attempt is claimed, then the claim names the owner and until when', () => {
      spec.given([queued('msg_1')]).when(claim(1, 'api-1/a', T0)).then([claimed(1, 'api-1/a', T0)]);
    });
    it('another owner cannot claim an attempt whose claim has not expired', () => {
      spec.given([queued('msg_1'), claimed(1, 'api-1/a', T0)]).when(claim(1, 'api-2/b', '2026-11-23T09:00:05.000Z')).thenNothing();
    });
    it('a claim that expired (its owner died mid-request) is taken over: the same attempt, sent again', () => {
      spec.given([queued('msg_1'), claimed(1, 'api-1/a', T0)]).when(claim(1, 'api-2/b', T2, '2026-11-23T09:00:40.000Z')).then([claimed(1, 'api-2/b', T2, '2026-11-23T09:00:40.000Z')]);
    });
    it('once the attempt is recorded the claim is done: the next attempt can be claimed by anyone', () => {
      const events = [queued('msg_1'), claimed(1, 'api-1/a', T0), attempted('msg_1', 1, 500, null, T0, T1)];
      spec.given(events).when(claim(2, 'api-2/b', T1, T2)).then([
        { type: 'WebhookAttemptStarted', data: { ...routing(endpoint, 'msg_1'), attempt: 2, owner: 'api-2/b', claimed_until: T2, at: T1 } },
      ]);
    });
    it('a claim of an attempt number that is not the next one, or of a message that is not the head, is nothing', () => {
      spec.given([queued('msg_1')]).when(claim(2, 'api-1/a', T0)).thenNothing();
      spec.given([queued('msg_1'), queued('msg_2')]).when({ type: 'ClaimAttempt', message_id: 'msg_2', attempt: 1, owner: 'api-1/a', claimed_until: T1, now: T0 }).thenNothing();
    });
  });

  describe('order: only the oldest pending message of the stream is attempted', () => {
    it('an attempt of the second message while the first is pending changes nothing', () => {
      spec.given([queued('msg_1'), queued('msg_2')]).when(attempt('msg_2', 1, { status_code: 200 }, T0)).thenNothing();
    });
    it('once the first is delivered the second is the head', () => {
      const events = [
        queued('msg_1'), queued('msg_2'), attempted('msg_1', 1, 204, null, T0, null),
        { type: 'WebhookDelivered', data: { ...routing(endpoint, 'msg_1'), attempts: 1, at: T0 } } as WebhookDeliveryEvent,
      ];
      assert.equal(headOf(foldEvents(webhookDeliveryDecider.evolve, webhookDeliveryDecider.initialState(), events))?.message_id, 'msg_2');
    });
  });

  describe('abandoning what is pending (endpoint disabled or deleted)', () => {
    it('every pending message is abandoned with the reason; delivered ones are left alone', () => {
      const delivered: WebhookDeliveryEvent = { type: 'WebhookDelivered', data: { ...routing(endpoint, 'msg_1'), attempts: 1, at: T0 } };
      spec.given([queued('msg_1'), attempted('msg_1', 1, 200, null, T0, null), delivered, queued('msg_2'), queued('msg_3')])
        .when({ type: 'AbandonPending', reason: 'endpoint_disabled', now: T0 })
        .then([
          { type: 'WebhookDeliveryAbandoned', data: { ...routing(endpoint, 'msg_2'), reason: 'endpoint_disabled', at: T0 } },
          { type: 'WebhookDeliveryAbandoned', data: { ...routing(endpoint, 'msg_3'), reason: 'endpoint_disabled', at: T0 } },
        ]);
    });
  });

  describe('requeue (resend-webhook, retry-callback): a finished message goes out again', () => {
    const delivered: WebhookDeliveryEvent = { type: 'WebhookDelivered', data: { ...routing(endpoint, 'msg_1'), attempts: 1, at: T0 } };
    const requeue = (request_id: string): WebhookDeliveryCommand => ({ type: 'Requeue', message_id: 'msg_1', request_id, callback: null, now: at(T0, { h: 1 }) });
    it('given a delivered message, when it is requeued, then it is pending again from attempt 1', () => {
      spec.given([queued('msg_1'), delivered]).when(requeue('req-1')).then([
        { type: 'WebhookMessageRequeued', data: { ...routing(endpoint, 'msg_1'), request_id: 'req-1', callback: null, at: at(T0, { h: 1 }) } },
      ]);
    });
    it('the same request twice, or a message still pending, requeues nothing', () => {
      const requeued: WebhookDeliveryEvent = { type: 'WebhookMessageRequeued', data: { ...routing(endpoint, 'msg_1'), request_id: 'req-1', callback: null, at: T0 } };
      spec.given([queued('msg_1'), delivered, requeued, attempted('msg_1', 1, 200, null, T0, null), { ...delivered }]).when(requeue('req-1')).thenNothing();
      spec.given([queued('msg_1')]).when(requeue('req-2')).thenNothing();
    });
    it('a message that was never queued: MESSAGE_NOT_FOUND', () => {
      spec.given([queued('msg_2')]).when(requeue('req-1')).thenRejects({ code: 'MESSAGE_NOT_FOUND' });
      spec.given([]).when(requeue('req-1')).thenRejects({ code: 'MESSAGE_NOT_FOUND' });
    });
  });

  describe('the retry schedule (DESIGN.md)', () => {
    it('endpoints: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after the failed attempts, about 27 h in all', () => {
      const waits = [1, 2, 3, 4, 5, 6, 7].map((n) => waitAfterFailedAttempt('endpoint', n, 0.5)!);
      assert.deepEqual(waits, [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
      assert.equal(Math.round(waits.reduce((a, b) => a + b) / 3_600_000), 28);
      assert.equal(waitAfterFailedAttempt('endpoint', 8, 0.5), null);
      assert.equal(maxAttempts('endpoint'), 8);
    });
    it('callbacks: 1 s, 5 s, 15 s, 1 min', () => {
      assert.deepEqual([1, 2, 3, 4].map((n) => waitAfterFailedAttempt('callback', n, 0.5)), [1_000, 5_000, 15_000, 60_000]);
      assert.equal(maxAttempts('callback'), 5);
    });
    it('jitter spreads a wait by ±20 %', () => {
      assert.equal(waitAfterFailedAttempt('endpoint', 2, 0), 240_000);
      assert.equal(waitAfterFailedAttempt('endpoint', 2, 0.999999), 360_000);
    });
  });
});
