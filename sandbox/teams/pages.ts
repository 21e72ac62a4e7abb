/**
 * The Teams replica's HTML: the web client (its script built from client-*.ts), the launcher, the
 * "meeting URL is incorrect" page (the Microsoft sign-in is identity/microsoft-login.ts).
 */
import { mediaPublisherScript } from '../pages/media-publisher';
import { pageSessionScript } from '../pages/page-session';
import { domBuilderScript, escapeHtml, htmlDocument, replicaScript, scriptJson } from '../pages/replica-page';
import { pageShapesScript } from '../pages/page-shapes';
import { utterancePlayerScript } from '../pages/utterance-player';
import { teamsClientAccount } from './client-account';
import { teamsClientAudio } from './client-audio';
import { teamsClientCall } from './client-call';
import { teamsClientCore } from './client-core';
import { teamsLobbyWordingTexts, teamsTexts } from './texts';

const style = `
  * { box-sizing: border-box; }
  body { margin: 0; background: #f5f5f5; color: #242424; font-family: "Segoe UI", "Helvetica Neue", Arial, sans-serif; min-height: 100vh; }
  button { font: inherit; color: inherit; background: #fff; border: 1px solid #d1d1d1; border-radius: 4px; padding: 6px 14px; cursor: pointer; }
  button[disabled] { opacity: .5; cursor: default; }
  button.primary { background: #5b5fc7; color: #fff; border-color: #5b5fc7; }
  button.danger { background: #c4314b; color: #fff; border-color: #c4314b; }
  .page { max-width: 720px; margin: 64px auto; background: #fff; padding: 32px; border-radius: 8px; display: flex; flex-direction: column; gap: 16px; }
  .preview { height: 240px; background: #292929; border-radius: 8px; }
  .row { display: flex; gap: 16px; align-items: center; }
  input[type=text], input[type=email] { font: inherit; padding: 8px; border-radius: 4px; border: 1px solid #d1d1d1; }
  [role=radio] { padding: 6px 10px; border: 1px solid #d1d1d1; border-radius: 4px; cursor: pointer; }
  [role=radio][aria-checked=true] { border-color: #5b5fc7; }
  .modal { position: fixed; inset: 0; background: rgba(0,0,0,.4); display: flex; align-items: center; justify-content: center; }
  .modal > div { background: #fff; padding: 24px; border-radius: 8px; display: flex; flex-direction: column; gap: 12px; max-width: 420px; }
  .error { color: #c4314b; }
  .note { color: #616161; font-size: .9em; }
  .call { height: 100vh; display: flex; flex-direction: column; background: #1f1f1f; color: #fff; }
  .call button { background: #3d3d3d; color: #fff; border-color: #3d3d3d; }
  .call button.danger { background: #c4314b; }
  .toolbar { display: flex; gap: 8px; padding: 8px 12px; justify-content: flex-end; background: #292929; }
  .main { flex: 1; display: flex; min-height: 0; }
  .stage { flex: 1; display: grid; grid-template-columns: repeat(auto-fill, minmax(280px, 1fr)); gap: 8px; padding: 8px; align-content: start; }
  .stage[data-layout="Speaker"] { grid-template-columns: 1fr; }
  .stage[data-layout="Speaker"] .tile:not(.spot) { display: none; }
  .stage[data-layout="Speaker"] .tile.spot { height: 70vh; }
  .tile { position: relative; height: 180px; background: #3d3d3d; border-radius: 8px; }
  .tile .label { position: absolute; left: 8px; bottom: 8px; font-size: .9em; }
  .outline { position: absolute; inset: 0; border-radius: 8px; }
  .outline::before { content: ""; position: absolute; inset: 0; border: 3px solid rgb(91, 95, 199); border-radius: 8px; opacity: 0; }
  .outline.vdi-frame-occlusion::before { opacity: 1; }
  .rail { width: 340px; background: #fff; color: #242424; display: flex; flex-direction: column; }
  .rail header { display: flex; justify-content: space-between; align-items: center; padding: 8px 12px; border-bottom: 1px solid #e0e0e0; }
  .rail button { background: #fff; color: #242424; border-color: #d1d1d1; }
  [data-tid="chat-pane-list"] { flex: 1; overflow-y: auto; padding: 8px 12px; display: flex; flex-direction: column; gap: 6px; }
  [data-tid="message-author-name"] { font-weight: 600; font-size: .85em; display: block; }
  .compose { display: flex; gap: 8px; padding: 8px 12px; border-top: 1px solid #e0e0e0; }
  [data-tid="ckeditor"] { flex: 1; min-height: 36px; border: 1px solid #d1d1d1; border-radius: 4px; padding: 6px; }
  .menu { position: fixed; right: 24px; top: 52px; background: #fff; color: #242424; display: flex; flex-direction: column; border-radius: 4px; }
  .menu button { background: #fff; color: #242424; border: 0; text-align: left; }
  .toast { position: fixed; left: 50%; top: 60px; transform: translateX(-50%); background: #fff; color: #242424; padding: 8px 16px; border-radius: 4px; }
  #title-bar { position: fixed; left: 12px; top: 8px; z-index: 10; }
  #title-bar button { border-radius: 50%; width: 36px; height: 36px; padding: 0; background: #5b5fc7; color: #fff; border-color: #5b5fc7; }
  .account-card { position: fixed; left: 12px; top: 52px; z-index: 10; background: #fff; color: #242424; padding: 12px 16px; border-radius: 4px; display: flex; flex-direction: column; gap: 4px; box-shadow: 0 2px 8px rgba(0,0,0,.3); }`;

const shell = (title: string, body: string, script = '') => htmlDocument(title, style, body, script);

/** The web client: it reads its meeting from the URL (fragment or `coords`), then asks for that meeting's settings. */
export function teamsClientPage(configPath: string): string {
  const config = { configPath, apiBase: '', pollMs: 250, texts: teamsTexts, lobbyTexts: teamsLobbyWordingTexts };
  const script = replicaScript(config, [domBuilderScript, pageSessionScript, pageShapesScript, teamsClientCore, teamsClientAccount, teamsClientCall, utterancePlayerScript, teamsClientAudio, mediaPublisherScript], 'startAudio();\n  start();');
  return shell('Microsoft Teams', '<div id="title-bar" data-tid="title-bar"></div><div id="app"></div>', script);
}

/**
 * The launcher (3.2, 3.8 item 1): "Continue on this browser" goes on to `continueTo`; a hidden
 * `iframe#teamsLauncher` tries the `msteams:` deep link, as the real one does (3.1).
 */
export function teamsLauncherPage(continueTo: string): string {
  const deepLink = `msteams:${continueTo.replace(/^\/v2\/\?meetingjoin=true#/, '')}`;
  const body = `<div class="page"><h1>How do you want to join your Teams meeting?</h1>
<div class="row"><button class="primary" aria-label="${escapeHtml(teamsTexts.continueOnBrowserLabel)}" id="continue">${escapeHtml(teamsTexts.continueOnBrowser)}</button>
<button id="app-join">Join on the Teams app</button></div>
<iframe id="teamsLauncher" title="launcher" style="display:none"></iframe></div>`;
  const script = `<script>(function () {
  var target = ${scriptJson(continueTo)};
  document.getElementById('teamsLauncher').src = ${scriptJson(deepLink)};
  document.getElementById('continue').addEventListener('click', function () { location.href = target; });
})();</script>`;
  return shell('Join conversation', body, script);
}

/** Teams' landing page (an ending may send a guest there). */
export const teamsLandingPage = (): string => shell('Microsoft Teams', `<div class="page"><h1>Welcome to Microsoft Teams</h1><p>Meet, chat, call and collaborate in just one place.</p></div>`);

/** Teams' product site on www.microsoft.com. */
export const teamsProductPage = (): string => shell('Join a Meeting | Microsoft Teams', `<div class="page"><h1>Join a meeting in Microsoft Teams</h1><p>Connect with anyone, anywhere.</p></div>`);

export const teamsBadUrlPage = (): string => shell('Microsoft Teams', `<div class="page"><p>${escapeHtml(teamsTexts.badUrl)}</p></div>`);
