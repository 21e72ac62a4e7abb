/**
 * Recognising the screen a meeting page shows, from data: an ordered list of rules (the first that
 * holds wins), each a set of conditions on visible texts, selectors or the page's host. Drivers keep
 * their rules as data (several candidates per state), so a changed page is mended by adding a
 * candidate, and the rule and candidate that matched are reported for the log.
 *
 * Text conditions read only what a person sees: hidden elements are skipped, and so are the chat and
 * whatever else the rules' `skip` selectors name (a participant typing "you have been removed" must
 * not end the bot). Texts are compared case-insensitively, with straight and curly apostrophes,
 * "…" and "...", and runs of white space treated as the same.
 *
 * The in-page part is a plain JavaScript function expression (see recorder/in-page.ts for why).
 */
import type { Screen, WallKind } from '../page-driver';

export type Condition =
  /** a visible text (substring), outside the skipped subtrees */
  | { readonly text: string }
  /** an element matching `selector` (visible ones only if `visible`); with `without`, none of whose text or aria-label contains one of these */
  | { readonly selector: string; readonly visible?: boolean; readonly without?: readonly string[] }
  /** a visible element matching `selector` whose text contains `text` (equals it if `exact`), outside the skipped subtrees */
  | { readonly selector: string; readonly text: string; readonly exact?: boolean }
  /** the page's host name */
  | { readonly host: string };

export interface StateRule {
  readonly screen: Screen;
  readonly wall?: WallKind;
  /** the rule holds when any of these holds… */
  readonly any: readonly Condition[];
  /** …and each of these holds too */
  readonly all?: readonly Condition[];
  /** …and none of these holds */
  readonly none?: readonly Condition[];
  /** the notice is the text of this element (else the text of the element that matched) */
  readonly noticeFrom?: string;
}

export interface ScanConfig {
  readonly rules: readonly StateRule[];
  /** subtrees the text conditions never read */
  readonly skip: readonly string[];
}

export interface ScanResult {
  readonly screen: Screen;
  readonly wall: WallKind | null;
  /** e.g. `lobby: text "asking to be let in"` */
  readonly evidence: string | null;
  readonly notice: string | null;
}

/** The normalisation texts are compared in (the in-page code does the same). */
export const normaliseText = (s: string): string =>
  s
    .replace(/[\u2018\u2019\u02BC\u2032`]/g, "'")
    .replace(/\u2026/g, '...')
    .replace(/[\s\u00A0]+/g, ' ')
    .trim()
    .toLowerCase();

/** `function (config) -> ScanResult`, evaluated in the page. */
export const stateScanFunction = String.raw`
function (config) {
  var norm = function (s) {
    return String(s || '').replace(/[\u2018\u2019\u02BC\u2032${'`'}]/g, "'").replace(/\u2026/g, '...').replace(/[\s\u00A0]+/g, ' ').trim().toLowerCase();
  };
  var skip = config.skip.join(',');
  var shown = new Map();
  var visible = function (el) {
    if (!el) return false;
    if (shown.has(el)) return shown.get(el);
    var v = typeof el.checkVisibility === 'function' ? el.checkVisibility({ visibilityProperty: true, checkVisibilityCSS: true }) : true;
    shown.set(el, v);
    return v;
  };
  var skipped = function (el) { return !!(skip && el.closest(skip)); };
  var texts = [];
  if (document.body) {
    var walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (var node = walker.nextNode(); node; node = walker.nextNode()) {
      var el = node.parentElement;
      if (!el || el.closest('script,style,noscript,template') || skipped(el)) continue;
      var t = norm(node.nodeValue);
      if (t && visible(el)) texts.push({ text: t, el: el });
    }
  }
  var whole = texts.map(function (x) { return x.text; }).join(' ');
  var all = function (selector) {
    try { return Array.prototype.slice.call(document.querySelectorAll(selector)); } catch (e) { return []; }
  };
  var label = function (el) { return norm((el.textContent || '') + ' ' + (el.getAttribute('aria-label') || '')); };
  // a condition -> null, or { what, el } (el: the element whose text is the notice)
  var holds = function (c) {
    if (c.host !== undefined) return location.hostname.toLowerCase() === c.host ? { what: 'host ' + c.host, el: null } : null;
    if (c.selector !== undefined && c.text !== undefined) {
      var want = norm(c.text);
      var found = all(c.selector).find(function (e) {
        if (!visible(e) || skipped(e)) return false;
        var et = norm(e.textContent);
        return c.exact ? et === want : et.indexOf(want) >= 0;
      });
      return found ? { what: c.selector + ' with text "' + c.text + '"', el: found } : null;
    }
    if (c.selector !== undefined) {
      var hit = all(c.selector).find(function (e) {
        if (c.visible && !visible(e)) return false;
        if (c.without) { var l = label(e); if (c.without.some(function (w) { return l.indexOf(norm(w)) >= 0; })) return false; }
        return true;
      });
      return hit ? { what: 'selector ' + c.selector, el: null } : null;
    }
    var w = norm(c.text);
    var inNode = texts.find(function (x) { return x.text.indexOf(w) >= 0; });
    if (inNode) return { what: 'text "' + c.text + '"', el: inNode.el };
    return whole.indexOf(w) >= 0 ? { what: 'text "' + c.text + '"', el: null } : null;
  };
  var text = function (el) { return (el.textContent || '').replace(/\s+/g, ' ').trim().slice(0, 300); };
  for (var i = 0; i < config.rules.length; i++) {
    var rule = config.rules[i];
    var match = null;
    for (var j = 0; j < rule.any.length && !match; j++) match = holds(rule.any[j]);
    if (!match) continue;
    if (rule.all && !rule.all.every(function (c) { return holds(c) !== null; })) continue;
    if (rule.none && rule.none.some(function (c) { return holds(c) !== null; })) continue;
    var notice = null;
    if (rule.noticeFrom) { var n = all(rule.noticeFrom)[0]; notice = n ? text(n) : null; }
    else if (match.el) notice = text(match.el);
    return { screen: rule.screen, wall: rule.wall || null, evidence: rule.screen + ': ' + match.what, notice: notice };
  }
  return { screen: 'unknown', wall: null, evidence: null, notice: null };
}`;

/** An expression that scans the page with `config`. */
export const stateScanExpression = (config: ScanConfig): string => `(${stateScanFunction})(${JSON.stringify(config)})`;
