import type Logger from 'bunyan';
import * as E from 'fp-ts/Either';
import { keepSubscribed } from '../adapters/event-store/keep-subscribed';
import type { Subscription } from '../adapters/event-store/port';
import type { WebhookHttp } from '../adapters/webhook-http/port';
import type { CommandDeps } from '../commands/command-deps';
import { handleDeliveryCommand, handleWebhookEndpointCommand, loadDeliveries } from '../commands/webhook-commands';
import { toMillis } from '../domain/codec-helpers';
import { headOf, type WebhookDeliveryState } from '../domain/webhooks/webhook-delivery-decider';
import { deliveryStreamName, targetKeyOf, type DeliveryTarget } from '../domain/webhooks/webhook-delivery-events';
import { WEBHOOK_QUEUES, type WebhookQueueView } from '../projections/webhooks/webhook-queue-view';
import { DueStreams } from './webhooks/due-streams';
import { prepareAttempt, type PrepareDeps } from './webhooks/prepare-attempt';

export interface DeliveryWorkerOptions {
  /** success is any 2xx within this (DESIGN.md: 15 s) */
  readonly timeoutMs: number;
  /** attempts in flight to one target at most: a slow target holds only its own slots */
  readonly perTarget: number;
  /** attempts in flight in all */
  readonly total: number;
  /** how often due retries are looked for */
  readonly pollMs: number;
}

export const defaultDeliveryWorkerOptions: DeliveryWorkerOptions = { timeoutMs: 15_000, perTarget: 4, total: 64, pollMs: 250 };

export interface DeliveryWorkerDeps extends PrepareDeps {
  readonly commands: CommandDeps;
  readonly http: WebhookHttp;
  readonly log: Logger;
  readonly options?: Partial<DeliveryWorkerOptions>;
  /** a number in [0, 1) that spreads retry times (Math.random by default) */
  readonly jitter?: () => number;
}


const deliveryEventTypes: ReadonlySet<string> = new Set([
  'WebhookMessageQueued', 'WebhookMessageRequeued', 'WebhookDeliveryAttempted', 'WebhookDelivered', 'WebhookDeliveryAbandoned',
]);

/**
 * Sends queued messages, each delivery stream in order, retries when they are due, and records every
 * attempt as an event. What is pending comes from the log (the queue read model at start, then the
 * delivery events as they are appended), so a restart loses nothing: a message whose attempt was cut short
 * is sent again with the same `webhook-id`. Attempts run concurrently across streams, at most a few per
 * target, so that a slow or failing target never delays another target, team or bot.
 */
export class WebhookDeliveryWorker {
  private readonly options: DeliveryWorkerOptions;
  /** streams with a pending message, by when to look at them next (0: now) */
  private readonly due = new DueStreams();
  /** streams that are due but whose target has all its slots taken, by target */
  private readonly waitingForSlot = new Map<string, Set<string>>();
  private readonly inFlight = new Set<string>();
  /** streams that got new events while an attempt of theirs was running: looked at again right after it */
  private readonly changedInFlight = new Set<string>();
  private readonly perTarget = new Map<string, number>();
  private readonly running = new Set<Promise<void>>();
  private subscription: Subscription | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(private readonly deps: DeliveryWorkerDeps) {
    this.options = { ...defaultDeliveryWorkerOptions, ...deps.options };
  }

  /** `fromPosition`: what the read models reflect now; the log after it is followed live. */
  async start(fromPosition: bigint | null): Promise<void> {
    for (const queue of await this.deps.readStore.find<WebhookQueueView>(WEBHOOK_QUEUES, { where: { pending: true } })) {
      this.due.set(queue.id, 0, queue.target_key);
    }
    this.subscription = keepSubscribed(
      this.deps.eventStore,
      { name: 'deliver-webhooks', ...(fromPosition === null ? {} : { fromPosition }), log: this.deps.log },
      async (recorded) => {
        if (!deliveryEventTypes.has(recorded.type)) return;
        const data = recorded.data as { target: DeliveryTarget; subject: string };
        const stream = deliveryStreamName(data.target, data.subject);
        // Worth a look now; the stream itself says when its next message is due.
        if (this.inFlight.has(stream)) this.changedInFlight.add(stream);
        else this.due.set(stream, 0, targetKeyOf(data.target));
        this.pump();
      },
    );
    this.timer = setInterval(() => this.pump(), this.options.pollMs);
    this.timer.unref();
    this.pump();
  }

  /** Look for due messages now (new messages were queued). */
  wake(): void {
    this.pump();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.subscription?.stop();
    await Promise.all([...this.running]);
  }

  private pump(): void {
    if (this.stopped) return;
    for (const [targetKey, streams] of this.waitingForSlot) {
      for (const stream of streams) {
        if (this.inFlight.size >= this.options.total || !this.hasSlot(targetKey)) break;
        streams.delete(stream);
        this.attempt(stream, targetKey);
      }
      if (streams.size === 0) this.waitingForSlot.delete(targetKey);
    }
    const nowMs = this.deps.commands.clock().getTime();
    while (this.inFlight.size < this.options.total) {
      const next = this.due.takeDue(nowMs);
      if (next === null) return;
      if (this.inFlight.has(next.stream)) this.changedInFlight.add(next.stream);
      else if (!this.hasSlot(next.targetKey)) this.waitForSlot(next.stream, next.targetKey);
      else this.attempt(next.stream, next.targetKey);
    }
  }

  private hasSlot(targetKey: string): boolean {
    return (this.perTarget.get(targetKey) ?? 0) < this.options.perTarget;
  }

  private waitForSlot(stream: string, targetKey: string): void {
    const streams = this.waitingForSlot.get(targetKey) ?? new Set<string>();
    streams.add(stream);
    this.waitingForSlot.set(targetKey, streams);
  }

  private attempt(stream: string, targetKey: string): void {
    this.inFlight.add(stream);
    this.perTarget.set(targetKey, (this.perTarget.get(targetKey) ?? 0) + 1);
    const run = this.attemptHead(stream)
      .catch((err) => {
        // Left due: the next look tries again (the log still says it is pending).
        this.deps.log.error({ err, stream }, 'webhook delivery failed unexpectedly');
        this.due.set(stream, this.deps.commands.clock().getTime() + 1000, targetKey);
      })
      .finally(() => {
        this.inFlight.delete(stream);
        this.perTarget.set(targetKey, (this.perTarget.get(targetKey) ?? 1) - 1);
        if (this.changedInFlight.delete(stream)) this.due.set(stream, 0, targetKey);
        this.running.delete(run);
        this.pump();
      });
    this.running.add(run);
  }

  /** Sends the stream's oldest pending message if it is due, records the attempt, and notes when to look again. */
  private async attemptHead(stream: string): Promise<void> {
    const state = await loadDeliveries(this.deps.commands, stream);
    const head = headOf(state);
    if (state.kind === 'absent' || head === null) return;
    const nowMs = this.deps.commands.clock().getTime();
    const dueMs = head.next_attempt_at === null ? nowMs : toMillis(head.next_attempt_at);
    if (dueMs > nowMs) return this.noteDue(stream, state);

    const prepared = await prepareAttempt(this.deps, state.target, state.subject, head, nowMs);
    if (prepared.kind === 'abandon') {
      await handleDeliveryCommand(this.deps.commands, stream, { type: 'AbandonPending', reason: prepared.reason, now: new Date(nowMs).toISOString() });
      return;
    }
    const started = performance.now();
    const result = await this.deps.http.send(prepared.request, this.options.timeoutMs);
    const duration_ms = Math.round(performance.now() - started);
    const now = this.deps.commands.clock().toISOString();
    const recorded = await handleDeliveryCommand(this.deps.commands, stream, {
      type: 'RecordAttempt',
      message_id: head.message_id,
      attempt: head.attempts + 1,
      url: prepared.request.url,
      result,
      duration_ms,
      jitter: (this.deps.jitter ?? Math.random)(),
      now,
    });
    const failed = 'error' in result || result.status_code < 200 || result.status_code >= 300;
    if (failed && state.target.kind === 'endpoint') {
      // Disabled once it has failed for 5 days without a success; its pending messages go with it.
      const disabled = await handleWebhookEndpointCommand(this.deps.commands, state.target.endpoint_id, {
        type: 'DisableFailingEndpoint',
        failing_since: prepared.endpoint?.failing_since ?? now,
        now,
      });
      if (E.isRight(disabled) && disabled.right.events.length > 0) {
        this.deps.log.warn({ endpoint_id: state.target.endpoint_id }, 'webhook endpoint disabled after 5 days of failures');
        await this.abandonEverythingFor(state.target, now);
      }
    }
    if (E.isRight(recorded)) this.noteDue(stream, recorded.right.state);
  }

  /** Every message still waiting for a target that is off: abandoned, in every stream of that target. */
  private async abandonEverythingFor(target: DeliveryTarget, now: string): Promise<void> {
    const key = targetKeyOf(target);
    const pending = await this.deps.readStore.find<WebhookQueueView>(WEBHOOK_QUEUES, { where: { target_key: key, pending: true } });
    const streams = new Set([...pending.map((q) => q.id), ...this.due.streamsOf(key), ...(this.waitingForSlot.get(key) ?? [])]);
    this.waitingForSlot.delete(key);
    for (const stream of streams) {
      await handleDeliveryCommand(this.deps.commands, stream, { type: 'AbandonPending', reason: 'endpoint_disabled', now });
      this.due.delete(stream);
    }
  }

  private noteDue(stream: string, state: WebhookDeliveryState): void {
    const head = headOf(state);
    if (state.kind === 'absent' || head === null) return this.due.delete(stream);
    this.due.set(stream, head.next_attempt_at === null ? 0 : toMillis(head.next_attempt_at), targetKeyOf(state.target));
  }
}
