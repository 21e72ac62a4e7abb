/**
 * Reading the roster (the participants panel), which lists everyone whatever the layout shows: a
 * spotlight or speaker view may render a single tile (Vexa, Teams meeting 37: "the page degraded to
 * one tile… a named participant sitting in the roster"). Also the head count where the page shows
 * one (Meet's `[data-avatar-count]`, a People button labelled with a number), which says when the
 * names the bot knows fall short.
 *
 * The in-page part is a plain JavaScript function expression (see recorder/in-page.ts for why).
 */
import type { NameSource } from './tiles-and-chat';

export interface RosterReaderConfig {
  /** one element per entry of the open roster panel */
  readonly item: string;
  /** where an entry's name is: an element inside it (its text) or an attribute of the entry; first present wins */
  readonly name: readonly NameSource[];
  /** an entry's name stops at the first of these (Teams labels entries "Name, Muted, …") */
  readonly cutAt?: readonly string[];
}

export interface HeadCountConfig {
  /** an element whose attribute is the count */
  readonly attribute?: { readonly selector: string; readonly name: string };
  /** an element whose aria-label carries the count (the first group of the pattern) */
  readonly label?: { readonly selector: string; readonly pattern: string };
}

export interface RosterRead {
  /** the open panel's names, in order; null when no roster panel is open */
  readonly names: string[] | null;
  /** how many are in the call, as the page says; null when it does not */
  readonly headCount: number | null;
}

export const rosterFunction = String.raw`
function (roster, count) {
  var clean = function (s) { return String(s || '').replace(/\s+/g, ' ').trim(); };
  var items = [];
  try { items = Array.prototype.slice.call(document.querySelectorAll(roster.item)); } catch (e) { /* unknown selector */ }
  var names = items.map(function (el) {
    for (var i = 0; i < roster.name.length; i++) {
      var src = roster.name[i];
      var v = src.attribute ? el.getAttribute(src.attribute) : ((el.querySelector(src.selector) || {}).textContent);
      v = clean(v);
      (roster.cutAt || []).forEach(function (c) { var at = v.indexOf(c); if (at > 0) v = clean(v.slice(0, at)); });
      if (v) return v;
    }
    return clean(el.textContent);
  }).filter(function (n) { return n; });
  var headCount = null;
  if (count.attribute) {
    var a = document.querySelector(count.attribute.selector);
    var n = a ? parseInt(a.getAttribute(count.attribute.name), 10) : NaN;
    if (!isNaN(n)) headCount = n;
  }
  if (headCount === null && count.label) {
    var b = document.querySelector(count.label.selector);
    var m = b ? new RegExp(count.label.pattern).exec(b.getAttribute('aria-label') || '') : null;
    if (m) headCount = parseInt(m[1], 10);
  }
  return { names: items.length ? names : null, headCount: headCount };
}`;

export const rosterExpression = (roster: RosterReaderConfig, count: HeadCountConfig): string => `(${rosterFunction})(${JSON.stringify(roster)}, ${JSON.stringify(count)})`;
