import { randomUUID } from 'node:crypto';
import type { ControlRequest, ControlResult } from '../../../contract/bot-contract';

type RequestBody = { readonly kind: 'leave' } | { readonly kind: 'chat'; readonly message: string };

export type ControlOutcome = ControlResult | { readonly id: string; readonly ok: false; readonly reason: 'unreachable'; readonly message: string };

interface Mailbox {
  /** when the bot last asked for requests; a bot that stopped asking is gone */
  lastPollMs: number | null;
  pending: ControlRequest[];
  poller: ((requests: ControlRequest[]) => void) | null;
  readonly awaitingResult: Map<string, (result: ControlResult) => void>;
}

/**
 * The service's side of the control channel. Bots pull their requests with a long poll over HTTP, so a bot
 * on another machine needs nothing but a route to the service; an API call waits here for the bot's answer.
 */
export class BotControlHub {
  private readonly mailboxes = new Map<string, Mailbox>();
  /** bots that have acknowledged the standing leave (see the internal router): told once is enough */
  private readonly leaveAcknowledged = new Set<string>();
  /** when each bot last called the service (any internal call), epoch ms */
  private readonly contacts = new Map<string, number>();

  /** `silenceMs`: how long after its last poll a bot still counts as listening (longer than one long poll). */
  constructor(
    private readonly nowMs: () => number = () => Date.now(),
    private readonly silenceMs = 40_000,
  ) {}

  private mailbox(botId: string): Mailbox {
    let box = this.mailboxes.get(botId);
    if (!box) {
      box = { lastPollMs: null, pending: [], poller: null, awaitingResult: new Map() };
      this.mailboxes.set(botId, box);
    }
    return box;
  }

  /** Sends a request to a running bot and waits for its result; no answer in time means unreachable. */
  send(botId: string, body: RequestBody, timeoutMs: number): Promise<ControlOutcome> {
    const request = { id: randomUUID(), ...body } as ControlRequest;
    const box = this.mailbox(botId);
    const listening = box.poller !== null || (box.lastPollMs !== null && this.nowMs() - box.lastPollMs < this.silenceMs);
    if (!listening) return Promise.resolve({ id: request.id, ok: false, reason: 'unreachable', message: 'The bot is not connected' });
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        box.awaitingResult.delete(request.id);
        box.pending = box.pending.filter((r) => r.id !== request.id);
        resolve({ id: request.id, ok: false, reason: 'unreachable', message: 'The bot did not answer in time' });
      }, timeoutMs);
      box.awaitingResult.set(request.id, (result) => {
        clearTimeout(timer);
        resolve(result);
      });
      box.pending.push(request);
      this.flush(box);
    });
  }

  /** The bot's long poll: pending requests at once, or the first that arrives within `waitMs`, or []. */
  poll(botId: string, waitMs: number): Promise<ControlRequest[]> {
    const box = this.mailbox(botId);
    box.lastPollMs = this.nowMs();
    box.poller?.([]); // one poller per bot: a newer poll replaces an older one
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        if (box.poller === deliver) box.poller = null;
        resolve([]);
      }, waitMs);
      const deliver = (requests: ControlRequest[]) => {
        clearTimeout(timer);
        resolve(requests);
      };
      box.poller = deliver;
      this.flush(box);
    });
  }

  /** The bot called the service: it is alive. */
  noteContact(botId: string): void {
    this.contacts.set(botId, this.nowMs());
  }

  /** When the bot last called this service process (epoch ms), or null if it never has. */
  lastContactMs(botId: string): number | null {
    return this.contacts.get(botId) ?? null;
  }

  /** Returns false when nobody waits for that result any more (it came too late). */
  resolve(botId: string, result: ControlResult): boolean {
    const waiting = this.mailboxes.get(botId)?.awaitingResult.get(result.id);
    if (!waiting) return false;
    this.mailboxes.get(botId)!.awaitingResult.delete(result.id);
    waiting(result);
    return true;
  }

  /** Forgets a bot that has ended; its pending API calls answer unreachable through their timeouts. */
  forget(botId: string): void {
    this.mailboxes.get(botId)?.poller?.([]);
    this.mailboxes.delete(botId);
    this.leaveAcknowledged.delete(botId);
    this.contacts.delete(botId);
  }

  acknowledgeStandingLeave(botId: string): void {
    this.leaveAcknowledged.add(botId);
  }

  hasAcknowledgedStandingLeave(botId: string): boolean {
    return this.leaveAcknowledged.has(botId);
  }

  private flush(box: Mailbox): void {
    if (!box.poller || box.pending.length === 0) return;
    const deliver = box.poller;
    const requests = box.pending;
    box.poller = null;
    box.pending = [];
    deliver(requests);
  }
}
