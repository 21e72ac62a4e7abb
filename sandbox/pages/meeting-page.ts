/**
 * The meeting pages of the three flavours: same structure and data-testid hooks, a different look
 * and wording (title, colours, texts).
 */
import type { Platform } from '../meeting-state';
import { clientScript } from './client-script';

interface Theme {
  readonly title: string;
  readonly accent: string;
  readonly background: string;
  readonly surface: string;
  readonly ink: string;
  readonly font: string;
  readonly text: Record<string, string>;
}

const common = {
  nameLabel: 'Your name',
  namePlaceholder: 'Enter your name',
  chatPlaceholder: 'Type a message',
  chatDisabled: 'Chat is disabled in this meeting',
  waitingForHostTitle: 'Waiting for the host',
  waitingForHost: 'Please wait for the host to start this meeting.',
  removedTitle: 'You were removed',
  removed: 'The host removed you from this meeting.',
  endedTitle: 'Meeting ended',
  ended: 'This meeting has been ended by the host.',
  leftTitle: 'You left the meeting',
  left: 'You can close this page.',
};

const themes: Record<Platform, Theme> = {
  vc: {
    title: 'VC Meetings (sandbox)',
    accent: '#0b5cff',
    background: '#1f1f1f',
    surface: '#2d2d2d',
    ink: '#f5f5f5',
    font: 'Lato, Helvetica, Arial, sans-serif',
    text: {
      ...common,
      brand: 'vc meetings',
      prejoin: 'Enter meeting info',
      join: 'Join',
      leave: 'Leave',
      lobbyTitle: 'Waiting room',
      lobby: 'Please wait, the meeting host will let you in soon.',
      deniedTitle: 'Entry refused',
      denied: 'The host did not let you into the meeting.',
    },
  },
  tm: {
    title: 'TM Meeting (sandbox)',
    accent: '#5b5fc7',
    background: '#f5f5f5',
    surface: '#ffffff',
    ink: '#242424',
    font: '"Segoe UI", Helvetica, Arial, sans-serif',
    text: {
      ...common,
      brand: 'tm',
      prejoin: 'Choose your audio and video settings',
      namePlaceholder: 'Type your name',
      join: 'Join now',
      leave: 'Leave',
      lobbyTitle: 'Lobby',
      lobby: 'Someone in the meeting should let you in soon.',
      deniedTitle: 'Access denied',
      denied: 'Sorry, but you were denied access to the meeting.',
    },
  },
  mt: {
    title: 'MT Meet (sandbox)',
    accent: '#1a73e8',
    background: '#202124',
    surface: '#3c4043',
    ink: '#e8eaed',
    font: 'Roboto, Arial, sans-serif',
    text: {
      ...common,
      brand: 'mt meet',
      prejoin: 'What is your name?',
      join: 'Ask to join',
      leave: 'Leave call',
      lobbyTitle: 'Asking to be let in',
      lobby: 'You will join the call when someone lets you in.',
      deniedTitle: 'You can\u2019t join this call',
      denied: 'Someone in the call denied your request to join.',
    },
  },
};

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** JSON safe inside a <script> element */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

function style(t: Theme): string {
  return `
  :root { --accent: ${t.accent}; --bg: ${t.background}; --surface: ${t.surface}; --ink: ${t.ink}; }
  * { box-sizing: border-box; }
  body { margin: 0; background: var(--bg); color: var(--ink); font-family: ${t.font}; min-height: 100vh; }
  .top { background: var(--accent); color: #fff; padding: 10px 16px; font-weight: 600; }
  #app { padding: 16px; }
  .screen { max-width: 420px; margin: 48px auto; background: var(--surface); padding: 24px; border-radius: 8px; display: flex; flex-direction: column; gap: 12px; }
  label { display: flex; flex-direction: column; gap: 6px; }
  input, textarea { font: inherit; padding: 8px; border-radius: 4px; border: 1px solid #888; }
  button { font: inherit; padding: 8px 14px; border-radius: 4px; border: 0; cursor: pointer; background: #666; color: #fff; }
  button.primary { background: var(--accent); }
  button.danger { background: #c4314b; }
  .error { color: #c4314b; font-weight: 600; }
  .notice { font-style: italic; opacity: .8; }
  .bar { display: flex; gap: 12px; align-items: center; background: var(--surface); padding: 8px 12px; border-radius: 6px; }
  .bar .brand { font-weight: 700; color: var(--accent); }
  .speaker { min-width: 8em; font-weight: 600; }
  .stage { display: grid; grid-template-columns: 1fr 2fr; gap: 12px; margin-top: 12px; }
  .people, .chat { background: var(--surface); padding: 12px; border-radius: 6px; }
  .participants li[data-speaking=true] { color: var(--accent); font-weight: 700; }
  .participants li.me::after { content: ' (you)'; opacity: .7; }
  .chat { display: flex; flex-direction: column; gap: 8px; }
  .messages { max-height: 40vh; overflow-y: auto; display: flex; flex-direction: column; gap: 6px; }
  .message .sender { font-size: .8em; opacity: .75; }
  .audio-box { display: none; }
  .layouts { margin-left: auto; display: flex; gap: 6px; }
  .layouts[data-layout=speaker] [data-testid=layout-speaker], .layouts[data-layout=gallery] [data-testid=layout-gallery] { background: var(--accent); }
  .stage-tiles { display: flex; flex-wrap: wrap; gap: 24px; margin-top: 12px; }
  .tile { width: 200px; height: 120px; background: var(--accent); color: #fff; border-radius: 6px; padding: 8px; }
  .stage-tiles[data-layout=speaker] .tile:not(.spot) { display: none; }
  .stage-tiles[data-layout=speaker] .tile.spot { width: 560px; height: 300px; }`;
}

export function meetingPage(platform: Platform, meetingId: string): string {
  const t = themes[platform];
  const config = {
    platform,
    meetingId,
    apiBase: `/api/meetings/${encodeURIComponent(meetingId)}`,
    pollMs: 250,
    text: { ...t.text },
  };
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(t.title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>${style(t)}</style></head>
<body data-platform="${platform}"><div class="top">${escapeHtml(t.title)} &middot; ${escapeHtml(meetingId)}</div>
<div id="app"></div>
<script type="application/json" id="sandbox-config">${scriptJson(config)}</script>
<script>${clientScript}</script>
</body></html>`;
}

export function notFoundPage(platform: Platform | null, what: string): string {
  const t = themes[platform ?? 'vc'];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(t.title)}</title><style>${style(t)}</style></head>
<body><div class="top">${escapeHtml(t.title)}</div>
<div id="app"><div class="screen" data-testid="meeting-not-found"><h2>Meeting not found</h2><p>${escapeHtml(what)}</p></div></div>
</body></html>`;
}
