/**
 * The Zoom replica's HTML: the launch page of `/j/<id>` links, Zoom's error page (host not started,
 * unknown meeting), plain pages (sign-in wall, post-meeting, unrecognised), and the web client page
 * (its script built from client-*.ts) in its React or classic form.
 */
import type { Meeting } from '../meeting-state';
import { mediaPublisherScript } from '../pages/media-publisher';
import { escapeHtml, htmlDocument, replicaScript } from '../pages/replica-page';
import { utterancePlayerScript } from '../pages/utterance-player';
import { zoomClientAudio } from './client-audio';
import { zoomClientCall } from './client-call';
import { zoomClientCore } from './client-core';
import type { ZoomSettings } from './settings';
import { pageShapesScript } from '../pages/page-shapes';
import { shapeConfig, withQuotes } from '../replica-shapes';
import { zoomRedirects } from './hosts';
import { waitingRoomWordingTexts, zoomTexts, zoomTextsFor } from './texts';

export type WebClient = 'react' | 'classic';
/** none: the meeting has no passcode; given: the link carries the right one; asked_anyway: it does, and the form asks all the same; wrong/missing: the form asks for it */
export type PasscodeState = 'none' | 'given' | 'asked_anyway' | 'wrong' | 'missing';


const style = `
  * { box-sizing: border-box; }
  body { margin: 0; background: #1a1a1a; color: #fff; font-family: Lato, "Helvetica Neue", Arial, sans-serif; min-height: 100vh; }
  button { font: inherit; color: inherit; background: #2d2d2d; border: 0; border-radius: 8px; padding: 8px 14px; cursor: pointer; }
  a { color: #0b5cff; }
  .blue { background: #0e72ed; color: #fff; }
  .page { padding: 80px; display: flex; flex-direction: column; gap: 16px; align-items: flex-start; background: #fff; color: #232333; min-height: 100vh; }
  input { font: inherit; padding: 10px; border-radius: 8px; border: 1px solid #555; background: #242424; color: inherit; }
  .preview { display: flex; gap: 32px; padding: 48px; align-items: flex-start; }
  .preview-video { width: 480px; height: 270px; background: #242424; border-radius: 8px; position: relative; }
  .preview-video .me { position: absolute; left: 8px; bottom: 8px; }
  .preview-form { display: flex; flex-direction: column; gap: 12px; min-width: 300px; position: relative; }
  .preview-toggles { display: flex; gap: 12px; }
  .join-slot { position: relative; }
  .preview-join-button.disabled { opacity: .5; cursor: default; }
  .preview-meeting-info { position: absolute; inset: 0; }
  .preview-meeting-info.gone { display: none; }
  .error { color: #ff6a6a; }
  .dialog { position: fixed; left: 50%; top: 30%; transform: translateX(-50%); background: #fff; color: #232333; padding: 24px; border-radius: 12px; display: flex; flex-direction: column; gap: 12px; z-index: 20; }
  #onetrust-consent-sdk .onetrust-pc-dark-filter { position: fixed; inset: 0; background: rgba(0,0,0,.5); z-index: 30; }
  #onetrust-banner-sdk { position: fixed; left: 0; right: 0; bottom: 0; background: #fff; color: #232333; padding: 16px; display: flex; gap: 12px; align-items: center; z-index: 31; }
  .meeting-app { height: 100vh; display: flex; flex-direction: column; position: relative; }
  .loading-layer, .wr-container { position: absolute; inset: 0; display: flex; flex-direction: column; gap: 12px; align-items: center; justify-content: center; background: #1a1a1a; }
  .meeting-client-inner { flex: 1; display: flex; min-height: 0; }
  .main-layout { flex: 1; position: relative; display: flex; flex-direction: column; }
  .view-bar { position: absolute; right: 8px; top: 8px; z-index: 5; }
  .view-menu { position: absolute; right: 8px; top: 48px; background: #fff; color: #232333; display: flex; flex-direction: column; border-radius: 8px; z-index: 6; }
  .view-menu [role=menuitem] { padding: 8px 16px; cursor: pointer; }
  #video-share-layout { flex: 1; display: flex; align-items: center; justify-content: center; padding: 16px; }
  .single-main-container__video-frame { width: 640px; height: 360px; background: #242424; border-radius: 8px; position: relative; }
  .single-suspension-container__video-frame { position: absolute; right: 16px; bottom: 16px; width: 160px; height: 90px; background: #333; border-radius: 8px; }
  .video-avatar__avatar-footer { position: absolute; left: 8px; bottom: 8px; }
  .gallery-video-container__wrap { display: grid; grid-template-columns: repeat(auto-fill, minmax(200px, 1fr)); gap: 8px; width: 100%; }
  .gallery-video-container__video-frame { height: 120px; background: #242424; border-radius: 8px; position: relative; }
  #wc-container-right { width: 320px; display: flex; flex-direction: column; background: #fff; color: #232333; }
  #wc-container-right:empty { display: none; }
  .participants-section-container, .chat-container { flex: 1; display: flex; flex-direction: column; gap: 8px; padding: 12px; min-height: 0; }
  #participants-ul { list-style: none; margin: 0; padding: 0; }
  .chat-container__chat-list { flex: 1; overflow-y: auto; }
  .chat-item__sender { font-weight: bold; font-size: .85em; margin-top: 8px; }
  .chat-rtf-box { display: flex; gap: 8px; }
  .chat-rtf-box__editor-outer { flex: 1; border: 1px solid #ccc; border-radius: 8px; padding: 8px; min-height: 40px; }
  .ProseMirror { outline: none; min-height: 24px; }
  .ProseMirror[contenteditable="false"] { opacity: .5; }
  #wc-footer { display: flex; justify-content: space-between; padding: 8px 16px; background: #1a1a1a; }
  #wc-footer.hidden { visibility: hidden; }
  #foot-bar { display: contents; }
  [footer-section] { display: flex; gap: 8px; }
  .footer-button__button.leave { background: #e02828; }
  .leave-meeting-options__btn--danger { background: #e02828; color: #fff; }
  .zm-modal { position: fixed; left: 50%; top: 35%; transform: translateX(-50%); background: #fff; color: #232333; padding: 24px; border-radius: 12px; display: flex; flex-direction: column; gap: 12px; z-index: 40; }
  .ReactModal__Overlay { position: fixed; inset: 0; background: rgba(0,0,0,.4); z-index: 25; }
  .ReactModal__Content { position: fixed; left: 50%; top: 40%; transform: translateX(-50%); background: #fff; color: #232333; padding: 24px; border-radius: 12px; display: flex; flex-direction: column; gap: 12px; }
  .component_smart_captcha { display: flex; flex-direction: column; gap: 8px; padding: 24px; background: #fff; color: #232333; border-radius: 12px; }`;

const shell = (title: string, body: string, script = '') => htmlDocument(title, style, body, script);

/** `/j/<id>` (4.1 [ScreenApp]): "Launch Meeting", "Download Now", and the link into the web client (query kept). */
export const zoomLaunchPage = (meetingId: string, query: URLSearchParams): string => {
  const q = query.toString();
  const href = `/wc/join/${meetingId}${q ? `?${q}` : ''}`;
  return shell(
    'Launch Meeting - Zoom',
    `<div class="page"><h1>${escapeHtml(zoomTexts.launchMeeting)}</h1>
<p>Click Open Zoom Workplace on the dialog shown by your browser.</p>
<button class="blue">${escapeHtml(zoomTexts.downloadNow)}</button>
<p>Having issues with Zoom Workplace? <a href="${escapeHtml(href)}">${escapeHtml(zoomTexts.joinFromBrowser)}</a></p></div>`,
  );
};

/** Zoom's error page (4.2 [Vexa, MB]), static: it changes only when reloaded. */
export const zoomErrorPage = (): string => shell(zoomTexts.errorTitle, `<div class="page"><h2>${escapeHtml(zoomTexts.invalidLink)}</h2></div>`);

export const zoomPlainPage = (title: string, heading: string, line?: string): string =>
  shell(title, `<div class="page"><h1>${escapeHtml(heading)}</h1>${line ? `<p>${escapeHtml(line)}</p>` : ''}</div>`);

export function zoomWebClientPage(meeting: Meeting, settings: ZoomSettings, client: WebClient, passcode: PasscodeState, acceptedPasscodes: readonly string[]): string {
  const config = {
    meetingId: meeting.meeting_id,
    apiBase: `/api/meetings/${encodeURIComponent(meeting.meeting_id)}`,
    pollMs: 250,
    client,
    passcode,
    acceptedPasscodes,
    texts: withQuotes(zoomTextsFor(settings), settings.quotes),
    waitingRoom: withQuotes(waitingRoomWordingTexts[settings.waiting_room_wording], settings.quotes),
    settings,
    shape: shapeConfig(settings, zoomRedirects),
  };
  const script = replicaScript(config, [pageShapesScript, zoomClientCore, zoomClientCall, utterancePlayerScript, zoomClientAudio, mediaPublisherScript], 'open();');
  return shell('Zoom', '<div id="app"></div>', script);
}
