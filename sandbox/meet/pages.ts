/**
 * The Meet replica's HTML: the meeting page (its script built from client-*.ts), and the pages
 * without a meeting: not found, the landing page, the product site, and a page of no known state (for
 * testing what a driver does with a page it does not recognise). The sign-in on accounts.google.com is
 * identity/google-accounts.ts.
 */
import type { Meeting } from '../meeting-state';
import { mediaPublisherScript } from '../pages/media-publisher';
import { escapeHtml, htmlDocument, replicaScript } from '../pages/replica-page';
import { utterancePlayerScript } from '../pages/utterance-player';
import { meetClientAudio } from './client-audio';
import { meetClientCall } from './client-call';
import { meetClientCore } from './client-core';
import { pageShapesScript } from '../pages/page-shapes';
import { shapeConfig, withQuotes } from '../replica-shapes';
import { meetRedirects } from './hosts';
import type { MeetSettings } from './settings';
import { lobbyWordingTexts, meetTexts, meetTextsFor } from './texts';

const style = `
  * { box-sizing: border-box; }
  body { margin: 0; background: #202124; color: #e8eaed; font-family: "Google Sans", Roboto, Arial, sans-serif; min-height: 100vh; }
  .google-material-icons { font-style: normal; font-size: 12px; opacity: .8; }
  button { font: inherit; color: inherit; background: #3c4043; border: 0; border-radius: 20px; padding: 8px 14px; cursor: pointer; }
  button[disabled] { opacity: .5; cursor: default; }
  button.danger { background: #ea4335; }
  .cta { background: #8ab4f8; color: #202124; font-weight: 500; }
  .green-room { display: flex; gap: 32px; padding: 48px; align-items: flex-start; }
  .green-room .left { display: flex; flex-direction: column; gap: 12px; }
  .green-room .right { display: flex; flex-direction: column; gap: 12px; min-width: 300px; }
  .preview { width: 480px; height: 270px; background: #3c4043; border-radius: 8px; position: relative; }
  .preview .effects { position: absolute; right: 8px; bottom: 8px; }
  .toggles { display: flex; gap: 12px; }
  .toggle { background: #3c4043; padding: 10px; border-radius: 50%; cursor: pointer; display: inline-block; }
  input { font: inherit; padding: 10px; border-radius: 4px; border: 1px solid #5f6368; background: #202124; color: inherit; }
  .waiting { display: flex; flex-direction: column; gap: 8px; }
  .end { padding: 96px; display: flex; flex-direction: column; gap: 16px; align-items: flex-start; }
  .call { height: 100vh; display: flex; flex-direction: column; }
  .stage { flex: 1; display: flex; gap: 8px; padding: 8px; min-height: 0; }
  .grid { flex: 1; display: grid; grid-template-columns: repeat(auto-fill, minmax(240px, 1fr)); gap: 8px; align-content: start; }
  .grid[data-layout="Spotlight"] .tile:not(.spot) { display: none; }
  .grid[data-layout="Spotlight"] { grid-template-columns: 1fr; }
  .tile { background: #3c4043; border-radius: 8px; height: 150px; position: relative; }
  .tile .name { position: absolute; left: 8px; bottom: 8px; }
  .tile .lvl { position: absolute; right: 8px; top: 8px; width: 12px; height: 12px; border-radius: 50%; background: #5f6368; }
  .tile .lvl.Oaajhc { background: #1a73e8; box-shadow: 0 0 0 3px #8ab4f8; }
  .side { width: 320px; background: #fff; color: #202124; border-radius: 8px; }
  .side:empty { display: none; }
  .panel { padding: 12px; display: flex; flex-direction: column; gap: 8px; height: 100%; }
  .chat-list { flex: 1; overflow-y: auto; display: flex; flex-direction: column; gap: 8px; }
  .poVWob { font-weight: 500; font-size: .85em; }
  textarea { font: inherit; padding: 8px; border-radius: 16px; border: 1px solid #dadce0; resize: none; }
  .controls { display: flex; gap: 8px; padding: 12px; justify-content: center; align-items: center; }
  .controls.hidden { visibility: hidden; }
  .controls nav { margin-left: auto; display: flex; gap: 8px; }
  .count { position: absolute; top: 8px; right: 8px; opacity: .6; }
  .menu { position: fixed; right: 24px; bottom: 72px; background: #fff; color: #202124; list-style: none; margin: 0; padding: 8px 0; border-radius: 4px; }
  .menu li { padding: 8px 16px; cursor: pointer; }
  .dialog { position: fixed; left: 50%; top: 30%; transform: translateX(-50%); background: #fff; color: #202124; padding: 24px; border-radius: 8px; display: flex; flex-direction: column; gap: 8px; }
  .error { color: #f28b82; }
  .note { opacity: .8; }`;

const shell = (title: string, body: string, script = '') => htmlDocument(title, style, body, script);

export function meetMeetingPage(meeting: Meeting, settings: MeetSettings, signedIn: { readonly display_name: string } | null = null): string {
  const config = {
    signedIn,
    meetingId: meeting.meeting_id,
    apiBase: `/api/meetings/${encodeURIComponent(meeting.meeting_id)}`,
    pollMs: 250,
    knock: meeting.lobby,
    texts: withQuotes(meetTextsFor(settings), settings.quotes),
    wording: withQuotes(lobbyWordingTexts[settings.lobby_wording], settings.quotes),
    settings: { toolbar_autohide_seconds: settings.toolbar_autohide_seconds, audio_slots: settings.audio_slots, roster_only: settings.roster_only, wall: settings.wall },
    shape: shapeConfig(settings, meetRedirects),
  };
  const script = replicaScript(config, [pageShapesScript, meetClientCore, meetClientCall, utterancePlayerScript, meetClientAudio, mediaPublisherScript], 'startAudio();\n  open();');
  return shell(`Meet - ${meeting.meeting_id}`, '<div id="app"></div>', script);
}

export const meetNotFoundPage = (): string => shell('Meet', `<div class="end"><h1>${escapeHtml(meetTexts.notFound)}</h1></div>`);

/** Meet's landing page (where "Return to home screen" goes, and where an ending may send a guest). */
export const meetLandingPage = (): string =>
  shell('Google Meet', `<div class="end"><h1>Video calls and meetings for everyone</h1><p>Connect, collaborate and celebrate from anywhere with Google Meet.</p><button>New meeting</button></div>`);

/** Meet's product site on workspace.google.com. */
export const meetProductPage = (): string => shell('Google Meet: Online Web and Video Conferencing Calls', `<div class="end"><h1>Google Meet</h1><p>Premium video meetings for everyone.</p></div>`);

/** Not part of Meet: a page that matches no state of the replica contract, for drivers' diagnostics. */
export const meetUnrecognisedPage = (): string =>
  shell('Meet', `<div class="end"><p>This replica page shows no state of the Meet contract (wall "unrecognised").</p></div>`);
