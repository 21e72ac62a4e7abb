/**
 * How the Teams driver tells screens apart, in order: the request's or the call's end (denial,
 * removal, the meeting ended, the call dropped), then, once the bot has been in the call, any page
 * that is not the web client's (the call ended by sending it to the sign-in host, a landing page or
 * the product site), then walls (sign-in, captcha; before admission, a redirect off the meeting is
 * one), a failed connection, a link that names no meeting, then the lobby, then admitted, then the
 * way in (launcher, AV-confirm modal, pre-join). The order is the safety: the lobby keeps the
 * pre-join's join button (3.3), a removal screen offers "Rejoin", and "in the call" needs a visible
 * hang-up button with no join button beside it (Vexa). No rule reads `[role="alert"]`: Teams shows
 * benign toasts in alert regions (3.3, Vexa #600); the bare "Removed from (the) meeting" counts only
 * as a screen's title or heading (a toast saying someone else was removed is no removal of the bot).
 */
import type { Condition, ScanConfig, StateRule } from '../in-page/state-scan';
import type { Candidate } from '../page-actions';
import { avConfirm, hangUpSelectors, joinButton, launcherButton, nameInput, unreadSubtrees } from './teams-selectors';
import {
  avConfirmQuestion,
  badUrlTexts,
  captchaTexts,
  connectFailedTexts,
  deniedTexts,
  encryptionEndTexts,
  endedTexts,
  lobbyTexts,
  meetingPagePattern,
  removedTexts,
  signInHosts,
  signInTexts,
} from './teams-texts';

const texts = (ts: readonly string[]): Condition[] => ts.map((text) => ({ text }));
const visible = (selector: string): Condition => ({ selector, visible: true });
/** a candidate that shows: its element visible, with its text when it names one */
const showing = (c: Candidate): Condition => (c.text === undefined ? visible(c.selector) : { selector: c.selector, text: c.text, exact: c.exact });
/** screen titles: where the bare removal words count */
const titles = '#calling-retry-screen-title, h1, h2, [role="heading"]';
const bareRemoval = (t: string) => !/^you/i.test(t);
/** an http(s) page that is not the web client's (the sign-in host, a landing page, the product site) */
const offTheMeeting: Condition = { url: `^(?!${meetingPagePattern.slice(1)})https?://`, label: 'not a page of the meeting' };

const rules: StateRule[] = [
  // the request or the call is over
  { screen: 'denied', any: texts(deniedTexts) },
  {
    screen: 'removed',
    any: [...removedTexts.map((text) => ({ selector: titles, text })), ...texts(removedTexts.filter((t) => !bareRemoval(t)))],
  },
  { screen: 'ended', any: texts(endedTexts) },
  { screen: 'left', any: [visible('[data-tid="calling-e2ee-end-screen"]'), ...texts(encryptionEndTexts)] },
  // in the call, then sent away: the call is over for the bot [MB: a Microsoft login page ends the meeting]
  { screen: 'ended', phase: 'after_call', any: [offTheMeeting] },
  // walls
  { screen: 'wall', wall: 'login_required', any: [...signInHosts.map((host) => ({ host })), visible('input[name="loginfmt"]'), ...texts(signInTexts)] },
  { screen: 'wall', wall: 'blocked', any: texts(captchaTexts) },
  // before the call, sent off the meeting (the product site): a block [Vexa TEAMS_OFF_MEETING_ORIGIN]
  { screen: 'wall', wall: 'blocked', phase: 'before_call', any: [offTheMeeting] },
  { screen: 'join_error', any: texts(connectFailedTexts) },
  { screen: 'not_found', any: texts(badUrlTexts) },
  // waiting
  { screen: 'lobby', any: texts(lobbyTexts) },
  // admitted: a visible hang-up button, and no join button (the pre-join and the lobby keep theirs)
  {
    screen: 'in_call',
    any: hangUpSelectors.map(visible),
    // Vexa's "no visible Join now" (not every join candidate: a call may show other buttons called "Join")
    none: [visible('[data-tid="prejoin-join-button"]'), { selector: 'button, [role="button"]', text: 'Join now', exact: true }],
  },
  // the way in: launcher, AV-confirm modal (before the pre-join or after the join click), pre-join
  {
    screen: 'prejoin',
    any: [
      ...joinButton(false).map(showing),
      ...nameInput.map(showing),
      ...launcherButton.map(showing),
      ...avConfirm.map(showing),
      { text: avConfirmQuestion },
    ],
  },
];

export const teamsScan: ScanConfig = { rules, skip: unreadSubtrees };
