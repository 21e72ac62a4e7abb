/**
 * Recognising the screen a meeting page shows, from data: an ordered list of rules (the first that
 * holds wins), each a set of conditions on visible texts, selectors, or the page's URL. Drivers keep
 * their rules as data (several candidates per state), so a changed page is mended by adding a
 * candidate, and the rule and candidate that matched are reported for the log.
 *
 * Text conditions read only what a person sees: hidden elements are skipped, and so are the chat and
 * whatever else the rules' `skip` selectors name (a participant typing "you have been removed" must
 * not end the bot). Texts are compared case-insensitively, with straight and curly apostrophes,
 * "…" and "...", and runs of white space treated as the same. Open shadow roots are read as part of
 * the document; closed ones are handed in by the caller (page-scan.ts finds them through the
 * DevTools protocol), each scanned as a root of its own.
 *
 * URL conditions read the top page's URL (`pageUrl`, given by the caller: a child frame's own
 * location is not the page's). Rules may hold only before or only after the bot was first seen in
 * the call (`phase`): the same sign-in host is a wall before admission and the end of the meeting
 * after it.
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
  /** the top page's host name */
  | { readonly host: string }
  /** the top page's URL matches this RegExp source (case-insensitive) */
  | { readonly url: string; readonly label: string };

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
  /** only before the bot was first in the call, or only after */
  readonly phase?: 'before_call' | 'after_call';
}

export interface ScanConfig {
  readonly rules: readonly StateRule[];
  /** subtrees the text conditions never read */
  readonly skip: readonly string[];
}

/** What a scan is told about the page besides its DOM. */
export interface ScanContext {
  /** the top page's URL */
  readonly pageUrl: string;
  /** the driver has seen the call */
  readonly admitted: boolean;
  /** evaluate every rule and say why each held or not (diagnostics) */
  readonly explain?: boolean;
}

/** One rule's verdict, for a diagnostic: what matched, what was missing, what vetoed it. */
export interface RuleVerdict {
  readonly rule: string;
  readonly matched: string | null;
  readonly missing: string[];
  readonly vetoedBy: string[];
  /** skipped by its phase */
  readonly outOfPhase: boolean;
}

export interface ScanResult {
  readonly screen: Screen;
  readonly wall: WallKind | null;
  /** e.g. `lobby: text "asking to be let in"` */
  readonly evidence: string | null;
  readonly notice: string | null;
  /** the winning rule's index (rules.length when none held): the lowest wins across frames and roots */
  readonly ruleIndex: number;
  /** with `explain`: every rule's verdict */
  readonly verdicts?: RuleVerdict[];
}

/** The normalisation texts are compared in (the in-page code does the same). */
export const normaliseText = (s: string): string =>
  s
    .replace(/[\u2018\u2019\u02BC\u2032`]/g, "'")
    .replace(/[\u201C\u201D]/g, '"')
    .replace(/\u2026/g, '...')
    .replace(/[\s\u00A0]+/g, ' ')
    .trim()
    .toLowerCase();

/**
 * `function (config, context, roots) -> ScanResult`, evaluated in the page. `roots`: the roots to scan
 * (closed shadow roots); without them, the document and its open shadow roots.
 */
export const stateScanFunction = String.raw`
function (config, context, roots) {
  var norm = function (s) {
    return String(s || '').replace(/[\u2018\u2019\u02BC\u2032${'`'}]/g, "'").replace(/[\u201C\u201D]/g, '"').replace(/\u2026/g, '...').replace(/[\s\u00A0]+/g, ' ').trim().toLowerCase();
  };
  // the document (or the given roots) and every open shadow root beneath them
  var scopes = [];
  var addScope = function (root) {
    scopes.push(root);
    var hosts = root.querySelectorAll ? root.querySelectorAll('*') : [];
    for (var i = 0; i < hosts.length; i++) if (hosts[i].shadowRoot) addScope(hosts[i].shadowRoot);
  };
  if (roots && roots.length) roots.forEach(addScope); else addScope(document);
  var skip = config.skip.join(',');
  var shown = new Map();
  var visible = function (el) {
    if (!el) return false;
    if (shown.has(el)) return shown.get(el);
    var v = typeof el.checkVisibility === 'function' ? el.checkVisibility({ visibilityProperty: true, checkVisibilityCSS: true }) : true;
    shown.set(el, v);
    return v;
  };
  // an element inside a skipped subtree, also across shadow boundaries (the host's subtree counts)
  var skipped = function (el) {
    for (var e = el; skip && e; ) {
      if (e.closest(skip)) return true;
      var root = e.getRootNode ? e.getRootNode() : null;
      e = root && root.host ? root.host : null;
    }
    return false;
  };
  var texts = [];
  scopes.forEach(function (scope) {
    var start = scope.nodeType === 9 ? scope.body : scope;
    if (!start) return;
    var walker = document.createTreeWalker(start, NodeFilter.SHOW_TEXT);
    for (var node = walker.nextNode(); node; node = walker.nextNode()) {
      var el = node.parentElement;
      if (!el || el.closest('script,style,noscript,template') || skipped(el)) continue;
      var t = norm(node.nodeValue);
      if (t && visible(el)) texts.push({ text: t, el: el });
    }
  });
  var whole = texts.map(function (x) { return x.text; }).join(' ');
  var all = function (selector) {
    var found = [];
    scopes.forEach(function (scope) {
      try { found = found.concat(Array.prototype.slice.call(scope.querySelectorAll(selector))); } catch (e) { /* a selector this engine does not know */ }
    });
    return found;
  };
  var label = function (el) { return norm((el.textContent || '') + ' ' + (el.getAttribute('aria-label') || '')); };
  var pageUrl = String(context.pageUrl || '');
  var pageHost = '';
  try { pageHost = new URL(pageUrl).hostname.toLowerCase(); } catch (e) { /* no URL */ }
  var describe = function (c) {
    if (c.host !== undefined) return 'host ' + c.host;
    if (c.url !== undefined) return 'url ' + c.label;
    if (c.selector !== undefined && c.text !== undefined) return c.selector + ' with text "' + c.text + '"';
    if (c.selector !== undefined) return 'selector ' + c.selector;
    return 'text "' + c.text + '"';
  };
  // a condition -> null, or { what, el, notice } (el: the element whose text is the notice)
  var holds = function (c) {
    if (c.host !== undefined) return pageHost === c.host ? { what: describe(c), el: null } : null;
    if (c.url !== undefined) {
      var re;
      try { re = new RegExp(c.url, 'i'); } catch (e) { return null; }
      return re.test(pageUrl) ? { what: describe(c), el: null, notice: 'the page went to ' + pageUrl.split(/[?#]/)[0] } : null;
    }
    if (c.selector !== undefined && c.text !== undefined) {
      var want = norm(c.text);
      var found = all(c.selector).find(function (e) {
        if (!visible(e) || skipped(e)) return false;
        var et = norm(e.textContent);
        return c.exact ? et === want : et.indexOf(want) >= 0;
      });
      return found ? { what: describe(c), el: found } : null;
    }
    if (c.selector !== undefined) {
      var hit = all(c.selector).find(function (e) {
        if (c.visible && !visible(e)) return false;
        if (c.without) { var l = label(e); if (c.without.some(function (w) { return l.indexOf(norm(w)) >= 0; })) return false; }
        return true;
      });
      return hit ? { what: describe(c), el: null } : null;
    }
    var w = norm(c.text);
    var inNode = texts.find(function (x) { return x.text.indexOf(w) >= 0; });
    if (inNode) return { what: describe(c), el: inNode.el };
    return whole.indexOf(w) >= 0 ? { what: describe(c), el: null } : null;
  };
  var text = function (el) { return (el.textContent || '').replace(/\s+/g, ' ').trim().slice(0, 300); };
  var nameOf = function (rule) { return rule.screen + (rule.wall ? ' (' + rule.wall + ')' : ''); };
  var inPhase = function (rule) {
    return !rule.phase || (rule.phase === 'after_call') === !!context.admitted;
  };
  var verdicts = [];
  var winner = null;
  for (var i = 0; i < config.rules.length; i++) {
    var rule = config.rules[i];
    if (!inPhase(rule)) {
      if (context.explain) verdicts.push({ rule: nameOf(rule), matched: null, missing: [], vetoedBy: [], outOfPhase: true });
      continue;
    }
    var match = null;
    for (var j = 0; j < rule.any.length && !match; j++) match = holds(rule.any[j]);
    var missing = match && rule.all ? rule.all.filter(function (c) { return holds(c) === null; }).map(describe) : [];
    var vetoes = match && rule.none ? rule.none.filter(function (c) { return holds(c) !== null; }).map(describe) : [];
    if (context.explain) verdicts.push({ rule: nameOf(rule), matched: match ? match.what : null, missing: missing, vetoedBy: vetoes, outOfPhase: false });
    if (!match || missing.length || vetoes.length || winner) continue;
    var notice = match.notice || null;
    if (rule.noticeFrom) { var n = all(rule.noticeFrom)[0]; notice = n ? text(n) : null; }
    else if (match.el) notice = text(match.el);
    winner = { screen: rule.screen, wall: rule.wall || null, evidence: rule.screen + ': ' + match.what, notice: notice, ruleIndex: i };
    if (!context.explain) break;
  }
  var result = winner || { screen: 'unknown', wall: null, evidence: null, notice: null, ruleIndex: config.rules.length };
  if (context.explain) result.verdicts = verdicts;
  return result;
}`;

/** An expression that scans the page (its document and open shadow roots) with `config`. */
export const stateScanExpression = (config: ScanConfig, context: ScanContext): string =>
  `(${stateScanFunction})(${JSON.stringify(config)}, ${JSON.stringify(context)}, null)`;
