/**
 * What the control API and a participant's page see of a meeting (CONTRACT.md): read-only views of
 * meeting-state.ts, times as ISO strings.
 */
import { participant, type ChatMessage, type Meeting, type Participant, type ParticipantKind, type ParticipantState, type Platform, type RecordingPermission, type RecordingPolicy, type ReplicaSpec } from './meeting-state';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export interface ParticipantView {
  participant_id: string;
  name: string;
  kind: ParticipantKind;
  state: ParticipantState;
  opened_at: string;
  requested_at: string | null;
  joined_at: string | null;
  left_at: string | null;
  recording_permission: RecordingPermission;
  end_reason: string | null;
  microphone: boolean | null;
  camera: boolean | null;
  layout: string | null;
  signed_in_as: string | null;
  user_id: string | null;
  authorized_by: string | null;
  /** the SDK app that signed its join (null: a web or simulated participant) */
  app_name: string | null;
}

export interface MessageView {
  participant_id: string;
  sender_name: string;
  text: string;
  at: string;
}

export interface ControlMeetingView {
  meeting_id: string;
  platform: Platform;
  url: string;
  created_at: string;
  ended: boolean;
  ended_at: string | null;
  host_present: boolean;
  chat_enabled: boolean;
  lobby: boolean;
  recording_permission: RecordingPolicy;
  organisation: string;
  host_user_id: string | null;
  /** the replica flavour and its settings; null for the sandbox's own pages */
  replica: ReplicaSpec | null;
  participants: ParticipantView[];
  messages: MessageView[];
  speaking: { participant_id: string; name: string; text: string; started_at: string; duration_seconds: number }[];
  events: { at: string; type: string; participant_id?: string; detail?: string }[];
}

export function participantView(p: Participant): ParticipantView {
  return {
    participant_id: p.participant_id,
    name: p.name,
    kind: p.kind,
    state: p.state,
    opened_at: iso(p.opened_at)!,
    requested_at: iso(p.requested_at),
    joined_at: iso(p.joined_at),
    left_at: iso(p.left_at),
    recording_permission: p.recording_permission,
    end_reason: p.end_reason,
    microphone: p.microphone,
    camera: p.camera,
    layout: p.layout,
    signed_in_as: p.signed_in_as,
    user_id: p.user_id,
    authorized_by: p.authorized_by,
    app_name: p.sdk_app?.name ?? null,
  };
}

const messageView = (m: ChatMessage): MessageView => ({ participant_id: m.participant_id, sender_name: m.sender_name, text: m.text, at: iso(m.at)! });

export function controlView(meeting: Meeting, url: string, now: number): ControlMeetingView {
  return {
    meeting_id: meeting.meeting_id,
    platform: meeting.platform,
    url,
    created_at: iso(meeting.created_at)!,
    ended: meeting.ended,
    ended_at: iso(meeting.ended_at),
    host_present: meeting.host_present,
    chat_enabled: meeting.chat_enabled,
    lobby: meeting.lobby,
    recording_permission: meeting.recording_policy,
    organisation: meeting.organisation,
    host_user_id: meeting.host_user_id,
    replica: meeting.replica,
    participants: [...meeting.participants.values()].map(participantView),
    messages: meeting.messages.map(messageView),
    speaking: meeting.utterances
      .filter((u) => now < u.started_at + u.duration_ms)
      .map((u) => ({ participant_id: u.participant_id, name: u.name, text: u.text, started_at: iso(u.started_at)!, duration_seconds: u.duration_ms / 1000 })),
    events: meeting.events.map((e) => ({ ...e, at: iso(e.at)! })),
  };
}

/** What one participant's page sees. Messages from index `since` on. */
export interface PageView {
  /** grows with every change of the meeting: pages ignore views older than one they have shown */
  revision: number;
  meeting: { meeting_id: string; platform: Platform; ended: boolean; chat_enabled: boolean; host_present: boolean };
  me: { participant_id: string; name: string; state: ParticipantState; recording_permission: RecordingPermission; end_reason: string | null; signed_in: boolean };
  participants: { participant_id: string; name: string }[];
  /** vc: the names of the SDK apps in the call: the platform's notice banner (who may access the meeting's content) */
  apps: string[];
  message_count: number;
  messages: MessageView[];
  utterances: { seq: number; participant_id: string; name: string; audio_url: string; elapsed_ms: number; duration_ms: number; active: boolean }[];
}

export function pageView(meeting: Meeting, participantId: string, since: number, now: number): PageView {
  const me = participant(meeting, participantId);
  const inCall = me.state === 'in_call' && !meeting.ended;
  return {
    revision: meeting.events.length,
    meeting: {
      meeting_id: meeting.meeting_id,
      platform: meeting.platform,
      ended: meeting.ended,
      chat_enabled: meeting.chat_enabled,
      host_present: meeting.host_present,
    },
    me: { participant_id: me.participant_id, name: me.name, state: me.state, recording_permission: me.recording_permission, end_reason: me.end_reason, signed_in: me.signed_in_as !== null },
    participants: inCall
      ? [...meeting.participants.values()].filter((p) => p.state === 'in_call').map((p) => ({ participant_id: p.participant_id, name: p.name }))
      : [],
    apps: inCall ? [...new Set([...meeting.participants.values()].filter((p) => p.state === 'in_call' && p.sdk_app).map((p) => p.sdk_app!.name))] : [],
    message_count: inCall ? meeting.messages.length : 0,
    messages: inCall ? meeting.messages.slice(Math.max(0, since)).map(messageView) : [],
    utterances: inCall
      ? meeting.utterances
          .filter((u) => now < u.started_at + u.duration_ms + 1000)
          .map((u) => ({
            seq: u.seq,
            participant_id: u.participant_id,
            name: u.name,
            audio_url: u.audio_url,
            elapsed_ms: now - u.started_at,
            duration_ms: u.duration_ms,
            active: now < u.started_at + u.duration_ms,
          }))
      : [],
  };
}
