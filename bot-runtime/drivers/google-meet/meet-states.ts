/**
 * How the Google Meet driver tells screens apart, in order: the request's end (Meet's own timeout,
 * a denial, the bot out of the call), then, once the bot has been in the call, any page that is not
 * the meeting (the call ended by sending it to the sign-in page, Meet's landing page or the product
 * site), then walls (a block that sends it elsewhere counts as one before admission), then waiting,
 * then admitted, then the pre-join page. The order is the safety: the lobby renders the call's
 * controls and a tile with a participant id (2.2 lobby traps), so "admitted" is only considered once
 * no waiting text shows; a denial page still carries the lobby's words, so denial comes first.
 */
import type { Condition, ScanConfig, StateRule } from '../in-page/state-scan';
import { joinButton, nameInput, tiles, unreadSubtrees } from './meet-selectors';
import {
  blockedTexts,
  deniedTexts,
  endedTexts,
  leftTexts,
  lobbyExpiredTexts,
  lobbyLabelFragments,
  lobbyTexts,
  meetingPagePattern,
  notFoundTexts,
  removedTexts,
  signInAccountText,
  signInHeading,
  signInHost,
  signInTexts,
  waitingForHostTexts,
} from './meet-texts';

const texts = (ts: readonly string[]): Condition[] => ts.map((text) => ({ text }));
/** an http(s) page that is not the meeting (the sign-in page, Meet's landing page, the product site) */
const offTheMeeting: Condition = { url: `^(?!${meetingPagePattern.slice(1)})https?://`, label: 'not the meeting page' };

const rules: StateRule[] = [
  // the request or the call is over
  { screen: 'lobby_expired', any: texts(lobbyExpiredTexts) },
  { screen: 'denied', any: texts(deniedTexts) },
  { screen: 'removed', any: texts(removedTexts) },
  { screen: 'ended', any: texts(endedTexts) },
  { screen: 'left', any: texts(leftTexts) },
  // in the call, then sent away: the call is over for the bot [ScreenApp: leaving meet.google.com]
  { screen: 'ended', phase: 'after_call', any: [offTheMeeting] },
  // walls
  { screen: 'wall', wall: 'blocked', any: texts(blockedTexts) },
  { screen: 'wall', wall: 'login_required', any: [{ host: signInHost }, ...texts(signInTexts)] },
  { screen: 'wall', wall: 'login_required', any: [{ selector: 'h1', text: signInHeading, exact: true }], all: [{ text: signInAccountText }] },
  // before the call, sent elsewhere (the landing page, the product site): a block [ScreenApp]
  { screen: 'wall', wall: 'blocked', phase: 'before_call', any: [offTheMeeting] },
  { screen: 'not_found', any: texts(notFoundTexts) },
  // waiting
  { screen: 'waiting_for_host', any: texts(waitingForHostTexts) },
  {
    screen: 'lobby',
    any: [...texts(lobbyTexts), ...lobbyLabelFragments.map((f) => ({ selector: `[aria-label*="${f}"]`, visible: true }))],
  },
  // admitted: the bot's own tile, or a participant tile that is not the self-preview's effects tile
  {
    screen: 'in_call',
    any: [{ selector: tiles.self[0]! }, { selector: tiles.tile, without: tiles.without }],
  },
  // the pre-join page
  { screen: 'prejoin', any: [...joinButton(false), ...nameInput.map((c) => ({ selector: c.selector, visible: true }))] },
];

export const meetScan: ScanConfig = { rules, skip: unreadSubtrees };
