/**
 * The sandbox's DOM hooks (sandbox/CONTRACT.md) as data: which `data-testid` means which screen, in
 * the order they are checked, and the in-page read of participants, speaker, chat and the vc
 * recording permission. The same on the three sandbox flavours (vc, tm, mt).
 */
import type { ScanConfig, StateRule } from '../in-page/state-scan';
import type { RedactionConfig } from '../in-page/redacted-html';

export const tid = (id: string) => `[data-testid="${id}"]`;

const hook = (screen: StateRule['screen'], id: string, extra: Partial<StateRule> = {}): StateRule => ({ screen, any: [{ selector: tid(id) }], ...extra });

export const sandboxScan: ScanConfig = {
  rules: [
    hook('not_found', 'meeting-not-found'),
    hook('denied', 'denied'),
    hook('removed', 'removed'),
    hook('ended', 'meeting-ended'),
    hook('in_call', 'call-view'),
    hook('lobby', 'lobby'),
    hook('waiting_for_host', 'waiting-for-host'),
    hook('join_error', 'join-error', { noticeFrom: tid('join-error') }),
    hook('prejoin', 'name-input'),
    // the page left the call without the bot asking (it marks its body once the left screen shows)
    { screen: 'left', any: [{ selector: 'body[data-screen="left"]' }] },
  ],
  skip: [tid('chat-panel')],
};

export const sandboxRedaction: RedactionConfig = {
  chat: [tid('chat-panel')],
  nameElements: [tid('participant'), tid('active-speaker')],
  nameAttributes: ['data-name', 'data-sender'],
  names: [],
};

/** Participants, speaker, chat after index `since`, chat disabled, vc recording permission. */
export const sandboxReadSource = (since: number) => String.raw`
(() => {
  const q = (id) => document.querySelector('[data-testid="' + id + '"]');
  const all = (id) => Array.from(document.querySelectorAll('[data-testid="' + id + '"]'));
  const me = document.querySelector('[data-testid="participant"].me');
  const selfId = (document.body && document.body.getAttribute('data-participant-id')) || (me && me.getAttribute('data-participant-id')) || null;
  const speaker = q('active-speaker');
  const rec = q('recording-permission');
  const messages = all('chat-message').slice(${since}).map((m) => ({
    sender_name: m.getAttribute('data-sender') || '',
    participant_id: m.getAttribute('data-participant-id') || null,
    text: m.textContent || '',
  }));
  return {
    selfId,
    participants: all('participant').map((p) => ({ id: p.getAttribute('data-participant-id') || p.getAttribute('data-name') || '', name: p.getAttribute('data-name') || '' })),
    activeSpeaker: speaker ? (speaker.getAttribute('data-name') || null) : null,
    chatDisabled: !!q('chat-disabled'),
    chat: messages,
    recordingPermission: rec ? rec.getAttribute('data-state') : null,
  };
})()`;

/**
 * A `join-error` that is the platform refusing the bot's display name (tm guest-name rules): the
 * sandbox says "This name cannot be used: <why>". Any other join error (the join call failed, the
 * meeting ended meanwhile, …) is not a refusal of the bot.
 */
export const isNameRefusal = (joinError: string): boolean => /\bname cannot be used\b/i.test(joinError);
