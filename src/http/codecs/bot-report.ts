import * as t from 'io-ts';
import type { BotReport } from '../../../contract/bot-contract';
import { IsoInstant } from '../../domain/codec-helpers';

// The bot's times become event times: what the events' codec would refuse on read is refused here.

const Seconds = t.refinement(t.number, (n) => Number.isFinite(n) && n >= 0 && n <= 7 * 24 * 3600, 'Seconds');
const Code = t.refinement(t.string, (s) => /^[A-Z][A-Z0-9_]{0,63}$/.test(s), 'ErrorCode');

const StatusReport = t.type({
  kind: t.literal('status'),
  status: t.keyof({
    joining_call: null, in_waiting_room: null, in_call_not_recording: null, in_call_recording: null,
    recording_paused: null, recording_resumed: null, call_ended: null,
  }),
  at: IsoInstant,
});
const ArtifactType = t.refinement(t.string, (s) => /^[a-z_]{1,64}$/.test(s), 'ArtifactType');
const ContentType = t.refinement(t.string, (s) => s.length > 0 && s.length <= 255, 'ContentType');
const Size = t.refinement(t.number, (n) => Number.isSafeInteger(n) && n >= 0, 'Size');
const Reason = t.refinement(t.string, (s) => s.length <= 2000, 'Reason');
const ArtifactReport = t.type({ kind: t.literal('artifact'), artifact_type: ArtifactType, key: t.string, content_type: ContentType, size_bytes: Size, at: IsoInstant });
const ArtifactSpilledReport = t.type({
  kind: t.literal('artifact_spilled'),
  artifact_type: ArtifactType,
  key: t.string,
  content_type: ContentType,
  size_bytes: Size,
  reason: Reason,
  at: IsoInstant,
});
const ArtifactFailedReport = t.type({ kind: t.literal('artifact_failed'), artifact_type: ArtifactType, key: t.string, content_type: ContentType, reason: Reason, at: IsoInstant });
const Name = t.refinement(t.string, (s) => s.length <= 512, 'Name');
const Names = t.refinement(t.array(Name), (xs) => xs.length <= 1000, 'Names');
const ParticipantsReport = t.type({ kind: t.literal('participants'), participants: Names, speakers: Names, at: IsoInstant });

const EndReport = t.intersection([
  t.type({
    kind: t.literal('end'),
    outcome: t.keyof({ completed: null, failed: null }),
    error_code: Code,
    error_message: t.refinement(t.string, (s) => s.length <= 2000, 'Message'),
    recorded_seconds: Seconds,
    waiting_room_seconds: Seconds,
    at: IsoInstant,
  }),
  t.partial({ streaming_seconds: t.type({ input: Seconds, output: Seconds }), permission_wait_seconds: Seconds }),
]);

/** What a bot may report on the internal API (contract/bot-contract.ts), checked like any other input. */
export const BotReportCodec: t.Decoder<unknown, BotReport> = t.union([StatusReport, ArtifactReport, ArtifactSpilledReport, ArtifactFailedReport, ParticipantsReport, EndReport]);
