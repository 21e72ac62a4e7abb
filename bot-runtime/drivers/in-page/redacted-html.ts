/**
 * The page's HTML for a diagnostic artifact, without what people wrote or who they are: chat
 * subtrees keep their elements but lose their text and labels, every occurrence of a participant's
 * name (those given and those the page shows, in text or attributes) becomes `[name]`, scripts and
 * form values are emptied. The structure stays, which is what a selector needs.
 *
 * The in-page part is a plain JavaScript function expression (see recorder/in-page.ts for why).
 */

export interface RedactionConfig {
  /** subtrees whose text and labels are removed (the chat) */
  readonly chat: readonly string[];
  /** elements whose text is a participant's name */
  readonly nameElements: readonly string[];
  /** attributes whose values are participants' names */
  readonly nameAttributes: readonly string[];
  /** names known to the bot (its own) */
  readonly names: readonly string[];
}

export const redactedHtmlFunction = String.raw`
function (config) {
  var names = config.names.slice();
  var add = function (n) { n = String(n || '').replace(/\s+/g, ' ').trim(); if (n.length >= 2 && names.indexOf(n) < 0) names.push(n); };
  var all = function (root, selector) {
    try { return Array.prototype.slice.call(root.querySelectorAll(selector)); } catch (e) { return []; }
  };
  config.nameElements.forEach(function (s) { all(document, s).forEach(function (e) { add(e.textContent); }); });
  config.nameAttributes.forEach(function (a) { all(document, '[' + a + ']').forEach(function (e) { add(e.getAttribute(a)); }); });
  names.sort(function (a, b) { return b.length - a.length; });
  var escape = function (s) { return s.replace(/[.*+?^$(){}|[\]\\]/g, '\\$&'); };
  var pattern = names.length ? new RegExp(names.map(escape).join('|'), 'gi') : null;
  var scrub = function (s) { return pattern ? s.replace(pattern, '[name]') : s; };

  var copy = document.documentElement.cloneNode(true);
  config.chat.forEach(function (s) {
    all(copy, s).forEach(function (e) {
      var walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
      for (var n = walker.nextNode(); n; n = walker.nextNode()) if (n.nodeValue.trim()) n.nodeValue = '[chat]';
      [e].concat(all(e, '*')).forEach(function (x) { ['aria-label', 'title', 'value', 'data-sender'].forEach(function (a) { if (x.hasAttribute(a)) x.setAttribute(a, '[chat]'); }); });
    });
  });
  all(copy, 'script').forEach(function (e) { e.textContent = '/* removed */'; });
  all(copy, 'textarea').forEach(function (e) { e.textContent = ''; });
  all(copy, 'input').forEach(function (e) { e.removeAttribute('value'); });
  var walker = document.createTreeWalker(copy, NodeFilter.SHOW_TEXT);
  for (var n = walker.nextNode(); n; n = walker.nextNode()) n.nodeValue = scrub(n.nodeValue);
  [copy].concat(all(copy, '*')).forEach(function (e) {
    Array.prototype.slice.call(e.attributes).forEach(function (a) { var v = scrub(a.value); if (v !== a.value) e.setAttribute(a.name, v); });
  });
  return '<!doctype html>\n' + copy.outerHTML;
}`;

export const redactedHtmlExpression = (config: RedactionConfig): string => `(${redactedHtmlFunction})(${JSON.stringify(config)})`;
