/**
 * The leave rules (leave-rules.ts) over a whole run: keeps their clocks from tick to tick and says
 * when the bot must leave. A grace period is logged once when it begins, not on every tick of it.
 */
import type { BotLog } from '../bot-log';
import type { Platform, TimeoutConfig } from '../../contract/bot-contract';
import { decideLeave, initialClocks, observe, permissionWaitSeconds, waitingRoomSeconds, type LeaveClocks, type LeaveReason, type Observation } from '../leave-rules';

export class AutoLeave {
  private clocks: LeaveClocks = initialClocks;
  private graceLogged: LeaveReason | null = null;

  constructor(
    private readonly platform: Platform,
    private readonly timeouts: TimeoutConfig,
    private readonly log: BotLog,
  ) {}

  /** Feeds one observation; returns why the bot must leave now, or null to stay. */
  check(observation: Observation): LeaveReason | null {
    this.clocks = observe(this.clocks, observation);
    const decision = decideLeave(this.clocks, this.platform, this.timeouts, observation.now);
    if (decision.kind === 'leave') {
      this.log.info(`automatic leave: ${decision.reason}`);
      return decision.reason;
    }
    if (decision.kind === 'grace' && this.graceLogged !== decision.reason) {
      this.graceLogged = decision.reason;
      this.log.info(`leave condition ${decision.reason} met; grace period until ${new Date(decision.leaveAt).toISOString()}`);
    } else if (decision.kind === 'stay') {
      this.graceLogged = null;
    }
    return null;
  }

  waitingRoomSeconds(now: number): number {
    return waitingRoomSeconds(this.clocks, now);
  }

  permissionWaitSeconds(now: number): number {
    return permissionWaitSeconds(this.clocks, now);
  }
}
