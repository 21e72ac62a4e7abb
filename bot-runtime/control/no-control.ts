import type { ControlChannel } from './control-channel';

/** Standalone mode: no control requests (SIGINT/SIGTERM ask the bot to leave instead). */
export class NoControl implements ControlChannel {
  start(): void {}
  async stop(): Promise<void> {}
}
