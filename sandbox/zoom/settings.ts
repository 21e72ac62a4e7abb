/**
 * The Zoom replica's settings in a create request (research note 4.7), with defaults: the link
 * carries its passcode, the media prompt comes twice, the classic client's OneTrust banner is up,
 * a host who has not started shows Zoom's error page, the spinner lasts a second, the footer hides
 * after 5 s without pointer movement.
 */
import { choiceOf, flag, number, oneOf } from '../replica-settings';
import { parseShapeSettings, type ShapeSettings } from '../replica-shapes';

/**
 * bot: Zoom's bot wall after Join; captcha: its image captcha after Join; auth: only signed-in
 * users (before the form); sign_in_redirect: the web client sends guests to Zoom's sign-in page
 * (Vexa #1289: auth_session_missing); product_redirect: after Join the page goes to Zoom's product
 * site; unrecognised: a page of no known state (for drivers' diagnostics).
 */
export const zoomWalls = ['bot', 'captcha', 'auth', 'sign_in_redirect', 'product_redirect', 'unrecognised'] as const;
export type ZoomWall = (typeof zoomWalls)[number];

export const waitingRoomWordings = ['please_wait', 'host_joined', 'admitted_shortly'] as const;
/** The ends' wordings (texts.ts names each one's source). */
export const zoomRemovedWordings = ['removed_from_meeting', 'you_have_been_removed'] as const;
export const zoomEndedWordings = ['ended_by_host', 'ended_by_the_host', 'meeting_has_ended'] as const;
/** How the meeting's sound plays: an `<audio>` element with a MediaStream, or the Web Audio API alone (Vexa #318) */
export const audioOutputs = ['media_element', 'web_audio'] as const;
/** when_needed: the passcode field only when the link lacks the passcode or carries a wrong one; always: also when it carries it (MB zoom.ts) */
export const passcodePrompts = ['when_needed', 'always'] as const;
export type WaitingRoomWording = (typeof waitingRoomWordings)[number];

/** invalid_link: Zoom's error page until the host starts (reload to see it change); waiting: "Waiting for the host…" after Join */
export const hostAbsentPages = ['invalid_link', 'waiting'] as const;
export type HostAbsentPage = (typeof hostAbsentPages)[number];

export interface ZoomSettings extends ShapeSettings {
  readonly wall: ZoomWall | null;
  readonly removed_wording: (typeof zoomRemovedWordings)[number];
  readonly ended_wording: (typeof zoomEndedWordings)[number];
  readonly audio_output: (typeof audioOutputs)[number];
  readonly passcode_prompt: (typeof passcodePrompts)[number];
  readonly waiting_room_wording: WaitingRoomWording;
  readonly host_absent_page: HostAbsentPage;
  /** the host starts by itself this long after the meeting was created; null: only by `host-start` */
  readonly host_starts_after_seconds: number | null;
  /** the meeting has a passcode; its links carry it as `pwd` */
  readonly passcode: boolean;
  /** how many media permission prompts come before the form (0 to 2) */
  readonly permission_prompts: number;
  /** the classic client's OneTrust banner over the form */
  readonly cookie_banner: boolean;
  /** an admin disclaimer (`#disclaimer_agree`) before the form */
  readonly disclaimer: boolean;
  /** how long "Joining Meeting…" shows after Join */
  readonly joining_seconds: number;
  /** 0: the footer never hides */
  readonly footer_autohide_seconds: number;
}

const absent = (value: unknown) => value === undefined || value === null;

export const parseZoomSettings = (body: Readonly<Record<string, unknown>>): ZoomSettings => ({
  ...parseShapeSettings(body),
  removed_wording: choiceOf(body, 'removed_wording', zoomRemovedWordings),
  ended_wording: choiceOf(body, 'ended_wording', zoomEndedWordings),
  audio_output: choiceOf(body, 'audio_output', audioOutputs),
  passcode_prompt: choiceOf(body, 'passcode_prompt', passcodePrompts),
  wall: absent(body.wall) ? null : oneOf(body.wall, zoomWalls, 'wall'),
  waiting_room_wording: body.waiting_room_wording === undefined ? 'please_wait' : oneOf(body.waiting_room_wording, waitingRoomWordings, 'waiting_room_wording'),
  host_absent_page: body.host_absent_page === undefined ? 'invalid_link' : oneOf(body.host_absent_page, hostAbsentPages, 'host_absent_page'),
  host_starts_after_seconds: absent(body.host_starts_after_seconds) ? null : number(body.host_starts_after_seconds, 'host_starts_after_seconds', 0, 86_400),
  passcode: flag(body.passcode, 'passcode', true),
  permission_prompts: body.permission_prompts === undefined ? 2 : number(body.permission_prompts, 'permission_prompts', 0, 2, true),
  cookie_banner: flag(body.cookie_banner, 'cookie_banner', true),
  disclaimer: flag(body.disclaimer, 'disclaimer', false),
  joining_seconds: body.joining_seconds === undefined ? 1 : number(body.joining_seconds, 'joining_seconds', 0, 60),
  footer_autohide_seconds: body.footer_autohide_seconds === undefined ? 5 : number(body.footer_autohide_seconds, 'footer_autohide_seconds', 0, 3600),
});
