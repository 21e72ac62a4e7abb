import type Logger from 'bunyan';
import * as E from 'fp-ts/Either';
import { keepSubscribed } from './keep-subscribed';
import type { Subscription } from '../adapters/event-store/port';
import type { WebhookHttp } from '../adapters/webhook-http/port';
import type { CommandDeps } from '../commands/command-deps';
import { handleDeliveryCommand, handleWebhookEndpointCommand, loadDeliveries } from '../commands/webhook-commands';
import { toMillis } from '../domain/codec-helpers';
import { headOf, type WebhookDeliveryState } from '../domain/webhooks/webhook-delivery-decider';
import { deliveryStreamName, isWebhookDeliveryEvent, targetKeyOf, type DeliveryTarget } from '../domain/webhooks/webhook-delivery-events';
import { followLog } from './follow-log';
import type { LeaseHolding } from './background/background-part';
import { WEBHOOK_QUEUES, type WebhookQueueView } from '../projections/webhooks/webhook-queue-view';
import { DueStreams, type StreamRoute } from './webhooks/due-streams';
import { prepareAttempt, type PrepareDeps } from './webhooks/prepare-attempt';
import { ReadyStreams } from './webhooks/ready-streams';

export interface DeliveryWorkerOptions {
  /** success is any 2xx within this (DESIGN.md: 15 s) */
  readonly timeoutMs: number;
  /** attempts in flight to one target at most: a slow target holds only its own slots */
  readonly perTarget: number;
  /** attempts in flight for one team at most: a team with many slow targets holds only its share */
  readonly perTeam: number;
  /** attempts in flight in all */
  readonly total: number;
  /** how often due retries are looked for */
  readonly pollMs: number;
}

export const defaultDeliveryWorkerOptions: DeliveryWorkerOptions = { timeoutMs: 15_000, perTarget: 4, perTeam: 16, total: 64, pollMs: 250 };

export interface DeliveryWorkerDeps extends PrepareDeps {
  readonly commands: CommandDeps;
  readonly http: WebhookHttp;
  readonly log: Logger;
  readonly options?: Partial<DeliveryWorkerOptions>;
  /** a number in [0, 1) that spreads retry times (Math.random by default) */
  readonly jitter?: () => number;
  /** the webhook-delivery lease: no attempt starts once it may have lapsed, and its owner names the claims */
  readonly holding?: LeaseHolding | null;
}

/** A claim lasts the attempt's timeout and this much more: by then the attempt of an owner that died is over. */
const CLAIM_MARGIN_MS = 1000;


/**
 * Sends queued messages, each delivery stream in order, retries when they are due, and records every
 * attempt as an event. What is pending comes from the log (the queue read model at start, then the
 * delivery events as they are appended), so a restart loses nothing: a message whose attempt was cut short
 * is sent again with the same `webhook-id`. Attempts run concurrently across streams, at most a few per
 * target and a share of the slots per team, and due streams are served with teams taking turns
 * (ReadyStreams): a slow or failing target, or a team with thousands of messages waiting, never delays
 * another target, team or bot by more than its turn.
 */
export class WebhookDeliveryWorker {
  private readonly options: DeliveryWorkerOptions;
  /** streams with a pending message, by when to look at them next (0: now) */
  private readonly due = new DueStreams();
  /** streams that are due and wait for a slot, served in turn */
  private readonly ready = new ReadyStreams();
  private readonly inFlight = new Set<string>();
  /** streams that got new events while an attempt of theirs was running: looked at again right after it */
  private readonly changedInFlight = new Set<string>();
  private readonly perTarget = new Map<string, number>();
  private readonly perTeam = new Map<string, number>();
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
      this.due.set(queue.id, 0, { teamId: queue.team_id, targetKey: queue.target_key });
    }
    this.subscription = followLog(this.deps.eventStore, { name: 'deliver-webhooks', fromPosition, log: this.deps.log }, (event) => {
        if (!isWebhookDeliveryEvent(event)) return;
        const { data } = event;
        const stream = deliveryStreamName(data.target, data.subject);
        // Worth a look now; the stream itself says when its next message is due.
        if (this.inFlight.has(stream)) this.changedInFlight.add(stream);
        else this.lookAt(stream, 0, { teamId: data.team_id, targetKey: targetKeyOf(data.target) });
        this.pump();
      });
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

  /** A stream to look at from `dueMs` on (a stream already waiting for its turn keeps its place). */
  private lookAt(stream: string, dueMs: number, route: StreamRoute): void {
    if (!this.ready.has(stream)) this.due.set(stream, dueMs, route);
  }

  private pump(): void {
    if (this.stopped) return;
    const nowMs = this.deps.commands.clock().getTime();
    for (let next = this.due.takeDue(nowMs); next !== null; next = this.due.takeDue(nowMs)) {
      if (this.inFlight.has(next.stream)) this.changedInFlight.add(next.stream);
      else this.ready.add(next);
    }
    while (this.inFlight.size < this.options.total) {
      const next = this.ready.take(
        (teamId) => (this.perTeam.get(teamId) ?? 0) < this.options.perTeam,
        (targetKey) => (this.perTarget.get(targetKey) ?? 0) < this.options.perTarget,
      );
      if (next === null) return;
      this.attempt(next.stream, next);
    }
  }

  private attempt(stream: string, route: StreamRoute): void {
    const count = (counts: Map<string, number>, key: string, by: number) => {
      const n = (counts.get(key) ?? 0) + by;
      if (n === 0) counts.delete(key);
      else counts.set(key, n);
    };
    this.inFlight.add(stream);
    count(this.perTarget, route.targetKey, 1);
    count(this.perTeam, route.teamId, 1);
    const run = this.attemptHead(stream)
      .catch((err) => {
        // Left due: the next look tries again (the log still says it is pending).
        this.deps.log.error({ err, stream }, 'webhook delivery failed unexpectedly');
        this.due.set(stream, this.deps.commands.clock().getTime() + 1000, route);
      })
      .finally(() => {
        this.inFlight.delete(stream);
        count(this.perTarget, route.targetKey, -1);
        count(this.perTeam, route.teamId, -1);
        if (this.changedInFlight.delete(stream)) this.lookAt(stream, 0, route);
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
    const owner = this.deps.holding?.lease.owner ?? 'this-process';
    // Another owner's attempt may still be on its way: looked at again once its claim expires.
    const othersClaim = head.claim !== null && head.claim.owner !== owner ? toMillis(head.claim.until) : null;
    if (othersClaim !== null && othersClaim > nowMs) return this.lookAt(stream, othersClaim, { teamId: state.team_id, targetKey: targetKeyOf(state.target) });

    const prepared = await prepareAttempt(this.deps, state.target, state.subject, head, nowMs);
    if (prepared.kind === 'abandon') {
      await handleDeliveryCommand(this.deps.commands, stream, { type: 'AbandonPending', reason: prepared.reason, now: new Date(nowMs).toISOString() });
      return;
    }
    // Claim, send, record: the claim is appended (with the expected revision) before the request, so that
    // a new owner sends an attempt cut short by a crash again, with the same webhook-id, and never two at once.
    if (this.deps.holding && !this.deps.holding.held()) return;
    const claimed = await handleDeliveryCommand(this.deps.commands, stream, {
      type: 'ClaimAttempt',
      message_id: head.message_id,
      attempt: head.attempts + 1,
      owner,
      claimed_until: new Date(nowMs + this.options.timeoutMs + CLAIM_MARGIN_MS).toISOString(),
      now: new Date(nowMs).toISOString(),
    });
    if (E.isLeft(claimed) || claimed.right.events.length === 0) return this.lookAt(stream, nowMs + 1000, { teamId: state.team_id, targetKey: targetKeyOf(state.target) });
    if (this.deps.holding && !this.deps.holding.held()) return;
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
    const streams = new Set([...pending.map((q) => q.id), ...this.due.streamsOf(key), ...this.ready.removeTarget(key)]);
    for (const stream of streams) {
      await handleDeliveryCommand(this.deps.commands, stream, { type: 'AbandonPending', reason: 'endpoint_disabled', now });
      this.due.delete(stream);
    }
  }

  private noteDue(stream: string, state: WebhookDeliveryState): void {
    const head = headOf(state);
    if (state.kind === 'absent' || head === null) return this.due.delete(stream);
    this.lookAt(stream, head.next_attempt_at === null ? 0 : toMillis(head.next_attempt_at), { teamId: state.team_id, targetKey: targetKeyOf(state.target) });
  }
}
