import type { ControlRequest, ControlResult } from '../../contract/bot-contract';

export type ControlHandler = (request: ControlRequest) => Promise<ControlResult>;

/** Delivers the service's control requests (chat, leave) to the running bot and returns its answers. */
export interface ControlChannel {
  start(handler: ControlHandler): void;
  stop(): Promise<void>;
}
