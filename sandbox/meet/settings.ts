/**
 * The Meet replica's settings in a create request (research note 2.11 "scenario switch"), with
 * defaults: Meet's own 10-minute lobby, its first lobby wording, three audio slots, a toolbar that
 * hides after 5 s without pointer movement.
 */
import { number, oneOf } from '../replica-settings';

export const meetWalls = ['cannot_join', 'sign_in', 'unrecognised'] as const;
export type MeetWall = (typeof meetWalls)[number];

/** The waiting screen's wordings (2.3): old (Vexa, Attendee; MB, ScreenApp) and new (MB #198). */
export const lobbyWordings = ['let_in', 'asking_to_join', 'admits_you', 'brings_you_in'] as const;
export type LobbyWording = (typeof lobbyWordings)[number];

export interface MeetSettings {
  /** cannot_join: every request refused ("You can't join this video call"); sign_in: the sign-in page; unrecognised: a page of no known state */
  readonly wall: MeetWall | null;
  readonly lobby_timeout_seconds: number;
  readonly lobby_wording: LobbyWording;
  /** 0: the toolbar never hides */
  readonly toolbar_autohide_seconds: number;
  /** remote audio elements (2.8: a small rotating pool) */
  readonly audio_slots: number;
}

export const MEET_LOBBY_TIMEOUT_SECONDS = 600;

export const parseMeetSettings = (body: Readonly<Record<string, unknown>>): MeetSettings => ({
  wall: body.wall === undefined || body.wall === null ? null : oneOf(body.wall, meetWalls, 'wall'),
  lobby_timeout_seconds: body.lobby_timeout_seconds === undefined ? MEET_LOBBY_TIMEOUT_SECONDS : number(body.lobby_timeout_seconds, 'lobby_timeout_seconds', 0.5, 86_400),
  lobby_wording: body.lobby_wording === undefined ? 'let_in' : oneOf(body.lobby_wording, lobbyWordings, 'lobby_wording'),
  toolbar_autohide_seconds: body.toolbar_autohide_seconds === undefined ? 5 : number(body.toolbar_autohide_seconds, 'toolbar_autohide_seconds', 0, 3600),
  audio_slots: body.audio_slots === undefined ? 3 : number(body.audio_slots, 'audio_slots', 1, 8, true),
});
