/**
 * How the Zoom driver tells screens apart, in order: the bot out (removed, the meeting ended), then
 * walls (the bot wall before the sign-in wall: it also says "sign in to join"), then waiting (the host
 * has not started, the waiting room), then the joining spinner, then admitted, then the pre-join
 * pages. The order is the safety (4.4): the waiting room renders inside `.meeting-app` and an empty
 * video player sits behind the spinner, so "admitted" is only considered once neither shows, and
 * only on the footer's Leave button or the speaker-view frames. Zoom has no denial text: a host
 * turns people away by removing them from the waiting room.
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
  removedTexts,
  waitingForHostTexts,
  waitingRoomTexts,
  withoutDevicesText,
} from './zoom-texts';

const texts = (ts: readonly string[]): Condition[] => ts.map((text) => ({ text }));
const shown = (selectors: readonly string[]): Condition[] => selectors.map((selector) => ({ selector, visible: true }));

/** The rule that recognises Zoom's error page for a host who has not started (the driver reloads it). */
export const hostNotStartedPageRule: StateRule = { screen: 'waiting_for_host', any: texts(hostNotStartedPageTexts) };

const rules: StateRule[] = [
  // the bot is out
  { screen: 'removed', any: texts(removedTexts) },
  { screen: 'ended', any: [...texts(endedTexts), { selector: '[aria-label="Meeting is end now"]' }] },
  // walls
  { screen: 'wall', wall: 'cannot_join', any: texts(botWallTexts) },
  { screen: 'wall', wall: 'cannot_join', any: [...shown(['.component_smart_captcha', '.CaptchaContainer', 'input[placeholder*="captcha" i]']), ...texts(captchaTexts)] },
  { screen: 'wall', wall: 'login_required', any: texts(authRequiredTexts) },
  // waiting
  hostNotStartedPageRule,
  { screen: 'waiting_for_host', any: texts(waitingForHostTexts) },
  { screen: 'lobby', any: texts(waitingRoomTexts) },
  // the request is on its way: not admitted yet, whatever sits behind the spinner
  { screen: 'prejoin', any: texts(joiningTexts) },
  // admitted
  { screen: 'in_call', any: [...leaveButton.map((c) => ({ selector: c.selector })), ...inCallFrames.map((selector) => ({ selector }))] },
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
