import * as t from 'io-ts';
import { eventCodec, IsoInstant } from '../codec-helpers';

const Status = t.keyof({
  queued: null, joining_call: null, in_waiting_room: null, in_call_not_recording: null,
  in_call_recording: null, recording_paused: null, recording_resumed: null, completed: null, failed: null,
});
const Platform = t.keyof({ vc: null, tm: null, mt: null });

/** The whole validated creation request is kept: the bot's audit must replay what the team asked for. */
export const BotCreated = eventCodec('BotCreated', {
  bot_id: t.string,
  team_id: t.string,
  meeting_url: t.string,
  platform: Platform,
  bot_name: t.string,
  extra: t.union([t.UnknownRecord, t.null]),
  config: t.UnknownRecord,
  created_at: IsoInstant,
});

export const BotDispatched = eventCodec('BotDispatched', { bot_id: t.string, worker_id: t.string, at: IsoInstant });

export const StatusChanged = eventCodec('StatusChanged', { bot_id: t.string, status: Status, at: IsoInstant });

/** The legacy `call_ended` live code: kept in the audit, not a v2 status. */
export const CallEnded = eventCodec('CallEnded', { bot_id: t.string, at: IsoInstant });

export const BotLeaveRequested = eventCodec('BotLeaveRequested', { bot_id: t.string, at: IsoInstant });

export const ChatMessageSent = eventCodec('ChatMessageSent', {
  bot_id: t.string,
  message_id: t.string,
  message: t.string,
  at: IsoInstant,
});

export const ArtifactStored = eventCodec('ArtifactStored', {
  bot_id: t.string,
  artifact_type: t.string,
  key: t.string,
  content_type: t.string,
  size_bytes: t.number,
  at: IsoInstant,
});

const Usage = t.type({ recorded_seconds: t.number, waiting_room_seconds: t.number });

export const BotCompleted = eventCodec('BotCompleted', {
  bot_id: t.string,
  end_reason: t.string,
  usage: Usage,
  at: IsoInstant,
});

export const BotFailed = eventCodec('BotFailed', {
  bot_id: t.string,
  error_code: t.string,
  error_message: t.string,
  usage: Usage,
  at: IsoInstant,
});

export const BotEvent = t.union([
  BotCreated, BotDispatched, StatusChanged, CallEnded, BotLeaveRequested, ChatMessageSent, ArtifactStored,
  BotCompleted, BotFailed,
]);
export type BotEvent = t.TypeOf<typeof BotEvent>;
export type BotCreatedEvent = t.TypeOf<typeof BotCreated>;
export type Usage = t.TypeOf<typeof Usage>;

export const botStreamName = (botId: string): string => `bot-${botId}`;

const botEventTypes: ReadonlySet<string> = new Set(BotEvent.types.map((codec) => codec.props.type.value));

export const isBotEvent = (event: { readonly type: string }): event is BotEvent => botEventTypes.has(event.type);
