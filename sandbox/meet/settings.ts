/**
 * The Meet replica's settings in a create request (research note 2.11 "scenario switch"), with
 * defaults: Meet's own 10-minute lobby, its first lobby wording, three audio slots, a toolbar that
 * hides after 5 s without pointer movement.
 */
import { choiceOf, flag, number, oneOf } from '../replica-settings';
import { parseShapeSettings, type ShapeSettings } from '../replica-shapes';

/** landing_redirect, product_redirect: the request is refused by sending the page to Meet's landing page or product site (ScreenApp: redirected away while waiting) */
export const meetWalls = ['cannot_join', 'sign_in', 'landing_redirect', 'product_redirect', 'unrecognised'] as const;
export type MeetWall = (typeof meetWalls)[number];

/** The waiting screen's wordings (2.3): old (Vexa, Attendee; MB, ScreenApp) and new (MB #198). */
export const lobbyWordings = ['let_in', 'asking_to_join', 'admits_you', 'brings_you_in', 'host_to_let_you_in', 'waiting_room'] as const;
export type LobbyWording = (typeof lobbyWordings)[number];

/** The wordings of the request's and the call's ends (texts.ts names each one's source). */
export const meetDeniedWordings = ['someone_denied', 'request_denied', 'not_allowed', 'cannot_join_call'] as const;
export const meetRemovedWordings = ['removed_from_meeting', 'removed'] as const;
export const meetEndedWordings = ['host_ended', 'call_ended', 'meeting_has_ended'] as const;
export const meetBlockedWordings = ['video_call', 'meeting', 'problem_connecting', 'cant_join_the_meeting'] as const;

export interface MeetSettings extends ShapeSettings {
  /** cannot_join: every request refused ("You can't join this video call"); sign_in: the sign-in page; unrecognised: a page of no known state */
  readonly wall: MeetWall | null;
  readonly lobby_timeout_seconds: number;
  readonly lobby_wording: LobbyWording;
  /** 0: the toolbar never hides */
  readonly toolbar_autohide_seconds: number;
  /** remote audio elements (2.8: a small rotating pool) */
  readonly audio_slots: number;
  readonly denied_wording: (typeof meetDeniedWordings)[number];
  readonly removed_wording: (typeof meetRemovedWordings)[number];
  readonly ended_wording: (typeof meetEndedWordings)[number];
  readonly blocked_wording: (typeof meetBlockedWordings)[number];
  /** the call shows one tile (the latest speaker's) whatever the layout, while the People panel lists everyone */
  readonly roster_only: boolean;
}

export const MEET_LOBBY_TIMEOUT_SECONDS = 600;

export const parseMeetSettings = (body: Readonly<Record<string, unknown>>): MeetSettings => ({
  ...parseShapeSettings(body),
  denied_wording: choiceOf(body, 'denied_wording', meetDeniedWordings),
  removed_wording: choiceOf(body, 'removed_wording', meetRemovedWordings),
  ended_wording: choiceOf(body, 'ended_wording', meetEndedWordings),
  blocked_wording: choiceOf(body, 'blocked_wording', meetBlockedWordings),
  roster_only: flag(body.roster_only, 'roster_only', false),
  wall: body.wall === undefined || body.wall === null ? null : oneOf(body.wall, meetWalls, 'wall'),
  lobby_timeout_seconds: body.lobby_timeout_seconds === undefined ? MEET_LOBBY_TIMEOUT_SECONDS : number(body.lobby_timeout_seconds, 'lobby_timeout_seconds', 0.5, 86_400),
  lobby_wording: body.lobby_wording === undefined ? 'let_in' : oneOf(body.lobby_wording, lobbyWordings, 'lobby_wording'),
  toolbar_autohide_seconds: body.toolbar_autohide_seconds === undefined ? 5 : number(body.toolbar_autohide_seconds, 'toolbar_autohide_seconds', 0, 3600),
  audio_slots: body.audio_slots === undefined ? 3 : number(body.audio_slots, 'audio_slots', 1, 8, true),
});
