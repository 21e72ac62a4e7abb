/**
 * In-page parts of the Teams driver (plain JavaScript expressions, see recorder/in-page.ts for why):
 *
 * - the app-link guard, installed before any Teams page loads: Teams' launcher fires an `msteams:`
 *   deep link (a hidden `iframe#teamsLauncher`) that would freeze a desktop Chromium with an "Open
 *   Microsoft Teams?" dialog; MB blocks non-http(s) schemes in an init script (3.1). Frames, links and
 *   `window.open` are guarded; what was stopped is kept in `window.__meetingBotBlockedLinks`.
 * - MB's second speaking heuristic: a tile's voice-level outline whose `::before` border is blue
 *   (b > 180, b > r + 40, b > g + 40) at opacity 1 (3.5). Its first, a class on the outline, is a
 *   selector in teams-selectors.ts.
 */

export const BLOCKED_LINKS = '__meetingBotBlockedLinks';

export const appLinkGuardSource = String.raw`
(() => {
  if (window.${BLOCKED_LINKS}) return;
  var blocked = window.${BLOCKED_LINKS} = [];
  var allowed = function (value) {
    try { return /^(https?|about|blob|data|javascript):$/.test(new URL(String(value), location.href).protocol); } catch (e) { return true; }
  };
  var refuse = function (value) { blocked.push(String(value)); };
  var src = Object.getOwnPropertyDescriptor(HTMLIFrameElement.prototype, 'src');
  Object.defineProperty(HTMLIFrameElement.prototype, 'src', {
    configurable: true, enumerable: src.enumerable, get: src.get,
    set: function (value) { if (allowed(value)) src.set.call(this, value); else refuse(value); }
  });
  var setAttribute = Element.prototype.setAttribute;
  Element.prototype.setAttribute = function (name, value) {
    if (this instanceof HTMLIFrameElement && String(name).toLowerCase() === 'src' && !allowed(value)) { refuse(value); return; }
    return setAttribute.call(this, name, value);
  };
  var open = window.open;
  window.open = function (url) {
    if (url !== undefined && url !== null && url !== '' && !allowed(url)) { refuse(url); return null; }
    return open.apply(this, arguments);
  };
  document.addEventListener('click', function (ev) {
    var a = ev.target && ev.target.closest ? ev.target.closest('a[href]') : null;
    if (a && !allowed(a.getAttribute('href'))) { ev.preventDefault(); refuse(a.getAttribute('href')); }
  }, true);
  // frames the HTML parser creates with a deep link: emptied before they load it
  new MutationObserver(function (records) {
    records.forEach(function (r) {
      r.addedNodes.forEach(function (n) {
        var frames = n.nodeType === 1 ? (n.tagName === 'IFRAME' ? [n] : Array.prototype.slice.call(n.querySelectorAll('iframe'))) : [];
        frames.forEach(function (f) {
          var value = f.getAttribute('src');
          if (value && !allowed(value)) { refuse(value); setAttribute.call(f, 'src', 'about:blank'); }
        });
      });
    });
  }).observe(document, { childList: true, subtree: true });
})()`;

/** The `nameAttribute` of the first `tile` whose `outline` glows blue, or null. */
export const blueOutlineSpeakerExpression = (tile: string, outline: string, nameAttribute: string): string => String.raw`
(() => {
  var tiles = Array.prototype.slice.call(document.querySelectorAll(${JSON.stringify(tile)}));
  for (var i = 0; i < tiles.length; i++) {
    var o = tiles[i].querySelector(${JSON.stringify(outline)});
    if (!o) continue;
    var before = getComputedStyle(o, '::before');
    var rgb = /rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(before.borderTopColor || '');
    if (!rgb || Number(before.opacity) < 1 || before.borderTopStyle === 'none') continue;
    var r = +rgb[1], g = +rgb[2], b = +rgb[3];
    if (b > 180 && b > r + 40 && b > g + 40) return tiles[i].getAttribute(${JSON.stringify(nameAttribute)});
  }
  return null;
})()`;
