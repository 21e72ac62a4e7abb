/**
 * How the Zoom driver tells screens apart, in order: the bot out (removed, the meeting ended; once in
 * the call, any page that is not the web client's), then walls (the bot wall before the sign-in wall:
 * it also says "sign in to join"; a redirect to Zoom's sign-in page or product site before the call),
 * then waiting (the host has not started, the waiting room's own sentences), then the joining
 * spinner, then admitted, then the waiting room's loose fragments, then the pre-join pages. The order
 * is the safety (4.4): the waiting room renders inside `.meeting-app` and an empty video player sits
 * behind the spinner, so "admitted" is only considered once neither shows, and only on the footer's
 * Leave button or the speaker-view frames; Zoom's own waiting-room sentences come before admitted,
 * while the fragments the peers match ("waiting room", "Please wait") come after it, because the call
 * shows them too (Vexa #966). Zoom has no denial text: a host turns people away by removing them from
 * the waiting room.
 */
import type { Condition, ScanConfig, StateRule } from '../in-page/state-scan';
import { inCallFrames, joinButton, joinFromBrowser, leaveButton, nameInput, unreadSubtrees } from './zoom-selectors';
import {
  authRequiredTexts,
  botWallTexts,
  captchaTexts,
  endedTexts,
  hostNotStartedPageTexts,
  joiningTexts,
  launchPageTexts,
  meetingPagePattern,
  removedFragments,
  removedTexts,
  signInPagePattern,
  waitingForHostTexts,
  waitingRoomFragments,
  waitingRoomTexts,
  withoutDevicesText,
  wrongPasscodeTexts,
} from './zoom-texts';

const texts = (ts: readonly string[]): Condition[] => ts.map((text) => ({ text }));
const shown = (selectors: readonly string[]): Condition[] => selectors.map((selector) => ({ selector, visible: true }));
/** where a bare fragment counts: Zoom's modal titles and headings */
const titles = '.zm-modal-body-title, h1, h2, [role="heading"]';
const offTheMeeting: Condition = { url: `^(?!${meetingPagePattern.slice(1)})https?://`, label: 'not a page of the web client' };

/** The rule that recognises Zoom's error page for a host who has not started (the driver reloads it). */
export const hostNotStartedPageRule: StateRule = { screen: 'waiting_for_host', any: texts(hostNotStartedPageTexts) };

const inCall: Condition[] = [...leaveButton.map((c) => ({ selector: c.selector })), ...inCallFrames.map((selector) => ({ selector }))];

const rules: StateRule[] = [
  // the bot is out
  { screen: 'removed', any: [...texts(removedTexts), ...removedFragments.map((text) => ({ selector: titles, text }))] },
  { screen: 'ended', any: [...texts(endedTexts), { selector: '[aria-label="Meeting is end now"]' }] },
  // in the call, then sent away [Vexa zoom/removal.ts, MB zoom.ts: off Zoom, /signin, /login]
  { screen: 'ended', phase: 'after_call', any: [offTheMeeting] },
  // walls
  { screen: 'wall', wall: 'cannot_join', any: texts(botWallTexts) },
  { screen: 'wall', wall: 'cannot_join', any: [...shown(['.component_smart_captcha', '.CaptchaContainer', 'input[placeholder*="captcha" i]']), ...texts(captchaTexts)] },
  { screen: 'wall', wall: 'login_required', any: [...texts(authRequiredTexts), { url: signInPagePattern, label: "Zoom's sign-in page" }] },
  // before the call, sent off the web client (the product site): a block
  { screen: 'wall', wall: 'blocked', phase: 'before_call', any: [offTheMeeting] },
  { screen: 'join_error', any: texts(wrongPasscodeTexts) },
  // waiting
  hostNotStartedPageRule,
  { screen: 'waiting_for_host', any: texts(waitingForHostTexts) },
  { screen: 'lobby', any: texts(waitingRoomTexts) },
  // the request is on its way: not admitted yet, whatever sits behind the spinner
  { screen: 'prejoin', any: texts(joiningTexts) },
  // admitted
  { screen: 'in_call', any: inCall },
  // the waiting room by the fragments the peers match, where no in-call control shows
  { screen: 'lobby', any: texts(waitingRoomFragments) },
  // the pre-join pages: the launch page, the permission prompt, the form
  {
    screen: 'prejoin',
    any: [
      ...joinFromBrowser.map((c) => ({ selector: c.selector, text: c.text! })),
      ...texts(launchPageTexts),
      { selector: 'button, [role="button"]', text: withoutDevicesText },
      ...nameInput.map((c) => ({ selector: c.selector })),
      ...joinButton.map((c) => ({ selector: c.selector })),
    ],
  },
];

export const zoomScan: ScanConfig = { rules, skip: unreadSubtrees };
