/**
 * The Teams replica's settings in a create request (research note 3.8 "Outcomes" and the flows of
 * 3.1-3.3), with defaults: the AV-confirm modal after the join click, MB's lobby wording, short links
 * through the launcher, the meeting's URL as a business meetup-join link.
 */
import { choiceOf, flag, oneOf } from '../replica-settings';
import { parseShapeSettings, type ShapeSettings } from '../replica-shapes';

/**
 * sign_in: the in-page sign-in modal; login_redirect: the link sends guests to the Microsoft login
 * host; captcha: after Join; product_redirect: after Join the page goes to Teams' product site (Vexa
 * TEAMS_OFF_MEETING_ORIGIN); unrecognised: a page of no known state
 */
export const teamsWalls = ['sign_in', 'login_redirect', 'captcha', 'product_redirect', 'unrecognised'] as const;
export type TeamsWall = (typeof teamsWalls)[number];

/** When the "Continue without audio or video" modal shows (3.2 [Vexa #226, #467]). */
export const avConfirmModes = ['after_join', 'before_prejoin', 'none'] as const;
export type AvConfirmMode = (typeof avConfirmModes)[number];

/** The lobby's wordings (3.3): MB #291's, Vexa's, Attendee's. */
export const teamsLobbyWordings = ['meeting_starts', 'shortly', 'soon', 'waiting_for_someone', 'waiting_to_be_admitted', 'in_the_lobby', 'admits_you', 'request_sent'] as const;
/** The ends' and the sign-in modal's wordings (texts.ts names each one's source). */
export const teamsDeniedWordings = ['denied_access', 'declined', 'denied_entry'] as const;
export const teamsRemovedWordings = ['removed_from_this_meeting', 'you_have_been_removed', 'removed_from_meeting'] as const;
export const teamsEndedWordings = ['this_meeting_has_ended', 'meeting_ended'] as const;
export const teamsSignInWordings = ['verify_info', 'sign_in_or_web', 'not_signed_in'] as const;
/** The pre-join's camera and microphone toggles: `input[role=switch]`, or `div[role=switch]` with `aria-checked` only (not buttons, not inputs) */
export const deviceToggleKinds = ['input_switch', 'div_switch'] as const;
export type TeamsLobbyWording = (typeof teamsLobbyWordings)[number];

/** Where a short link (`/meet/<id>?p=`) goes: the launcher, or Teams' own redirect to the light-meetings flow (Vexa #226). */
export const shortLinkModes = ['launcher', 'light'] as const;
export type ShortLinkMode = (typeof shortLinkModes)[number];

/** Which of the meeting's URL forms the control API gives as its `url` (every form is served). */
export const teamsLinkForms = ['meetup_join', 'meet', 'live', 'cloud', 'light'] as const;
export type TeamsLinkForm = (typeof teamsLinkForms)[number];

export interface TeamsSettings extends ShapeSettings {
  readonly wall: TeamsWall | null;
  readonly denied_wording: (typeof teamsDeniedWordings)[number];
  readonly removed_wording: (typeof teamsRemovedWordings)[number];
  readonly ended_wording: (typeof teamsEndedWordings)[number];
  readonly sign_in_wording: (typeof teamsSignInWordings)[number];
  readonly device_toggles: (typeof deviceToggleKinds)[number];
  /** the call shows one tile (the latest speaker's) whatever the layout, while the People pane lists everyone */
  readonly roster_only: boolean;
  readonly av_confirm: AvConfirmMode;
  readonly lobby_wording: TeamsLobbyWording;
  readonly short_link: ShortLinkMode;
  readonly link: TeamsLinkForm;
}

export const parseTeamsSettings = (body: Readonly<Record<string, unknown>>): TeamsSettings => ({
  ...parseShapeSettings(body),
  denied_wording: choiceOf(body, 'denied_wording', teamsDeniedWordings),
  removed_wording: choiceOf(body, 'removed_wording', teamsRemovedWordings),
  ended_wording: choiceOf(body, 'ended_wording', teamsEndedWordings),
  sign_in_wording: choiceOf(body, 'sign_in_wording', teamsSignInWordings),
  device_toggles: choiceOf(body, 'device_toggles', deviceToggleKinds),
  roster_only: flag(body.roster_only, 'roster_only', false),
  wall: body.wall === undefined || body.wall === null ? null : oneOf(body.wall, teamsWalls, 'wall'),
  av_confirm: body.av_confirm === undefined ? 'after_join' : oneOf(body.av_confirm, avConfirmModes, 'av_confirm'),
  lobby_wording: body.lobby_wording === undefined ? 'meeting_starts' : oneOf(body.lobby_wording, teamsLobbyWordings, 'lobby_wording'),
  short_link: body.short_link === undefined ? 'launcher' : oneOf(body.short_link, shortLinkModes, 'short_link'),
  link: body.link === undefined ? 'meetup_join' : oneOf(body.link, teamsLinkForms, 'link'),
});
