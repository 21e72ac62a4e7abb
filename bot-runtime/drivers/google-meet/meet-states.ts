/**
 * How the Google Meet driver tells screens apart, in order: the request's end (Meet's own timeout,
 * a denial, the bot out of the call), then walls, then waiting, then admitted, then the pre-join
 * page. The order is the safety: the lobby renders the call's controls and a tile with a participant
 * id (2.2 lobby traps), so "admitted" is only considered once no waiting text shows; a denial page
 * still carries the lobby's words, so denial comes first.
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
  notFoundTexts,
  removedTexts,
  signInAccountText,
  signInHeading,
  signInHost,
  signInTexts,
  waitingForHostTexts,
} from './meet-texts';

const texts = (ts: readonly string[]): Condition[] => ts.map((text) => ({ text }));

const rules: StateRule[] = [
  // the request or the call is over
  { screen: 'lobby_expired', any: texts(lobbyExpiredTexts) },
  { screen: 'denied', any: texts(deniedTexts) },
  { screen: 'removed', any: texts(removedTexts) },
  { screen: 'ended', any: texts(endedTexts) },
  { screen: 'left', any: texts(leftTexts) },
  // walls
  { screen: 'wall', wall: 'blocked', any: texts(blockedTexts) },
  { screen: 'wall', wall: 'login_required', any: [{ host: signInHost }, ...texts(signInTexts)] },
  { screen: 'wall', wall: 'login_required', any: [{ selector: 'h1', text: signInHeading, exact: true }], all: [{ text: signInAccountText }] },
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
