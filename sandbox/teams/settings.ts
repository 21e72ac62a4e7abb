/**
 * The Teams replica's settings in a create request (research note 3.8 "Outcomes" and the flows of
 * 3.1-3.3), with defaults: the AV-confirm modal after the join click, MB's lobby wording, short links
 * through the launcher, the meeting's URL as a business meetup-join link.
 */
import { oneOf } from '../replica-settings';

/** sign_in: the in-page sign-in modal; login_redirect: the link sends guests to the Microsoft login host; captcha: after Join; unrecognised: a page of no known state */
export const teamsWalls = ['sign_in', 'login_redirect', 'captcha', 'unrecognised'] as const;
export type TeamsWall = (typeof teamsWalls)[number];

/** When the "Continue without audio or video" modal shows (3.2 [Vexa #226, #467]). */
export const avConfirmModes = ['after_join', 'before_prejoin', 'none'] as const;
export type AvConfirmMode = (typeof avConfirmModes)[number];

/** The lobby's wordings (3.3): MB #291's, Vexa's, Attendee's. */
export const teamsLobbyWordings = ['meeting_starts', 'shortly', 'soon', 'waiting_for_someone', 'waiting_to_be_admitted'] as const;
export type TeamsLobbyWording = (typeof teamsLobbyWordings)[number];

/** Where a short link (`/meet/<id>?p=`) goes: the launcher, or Teams' own redirect to the light-meetings flow (Vexa #226). */
export const shortLinkModes = ['launcher', 'light'] as const;
export type ShortLinkMode = (typeof shortLinkModes)[number];

/** Which of the meeting's URL forms the control API gives as its `url` (every form is served). */
export const teamsLinkForms = ['meetup_join', 'meet', 'live', 'cloud', 'light'] as const;
export type TeamsLinkForm = (typeof teamsLinkForms)[number];

export interface TeamsSettings {
  readonly wall: TeamsWall | null;
  readonly av_confirm: AvConfirmMode;
  readonly lobby_wording: TeamsLobbyWording;
  readonly short_link: ShortLinkMode;
  readonly link: TeamsLinkForm;
}

export const parseTeamsSettings = (body: Readonly<Record<string, unknown>>): TeamsSettings => ({
  wall: body.wall === undefined || body.wall === null ? null : oneOf(body.wall, teamsWalls, 'wall'),
  av_confirm: body.av_confirm === undefined ? 'after_join' : oneOf(body.av_confirm, avConfirmModes, 'av_confirm'),
  lobby_wording: body.lobby_wording === undefined ? 'meeting_starts' : oneOf(body.lobby_wording, teamsLobbyWordings, 'lobby_wording'),
  short_link: body.short_link === undefined ? 'launcher' : oneOf(body.short_link, shortLinkModes, 'short_link'),
  link: body.link === undefined ? 'meetup_join' : oneOf(body.link, teamsLinkForms, 'link'),
});
