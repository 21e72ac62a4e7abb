/**
 * What the replica flavours' pages share: the HTML document around a page, escaping, the page's
 * script (its configuration as JSON, then its parts in one closure) and the in-page element builder
 * `h(tag, attrs, children)`. Plain browser JavaScript in the script parts: no backticks or
 * dollar-brace sequences.
 */

export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** JSON safe inside a <script> element */
export const scriptJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');

export const htmlDocument = (title: string, style: string, body: string, script = ''): string =>
  `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>${style}</style></head>
<body>${body}${script}</body></html>`;

/** The page's script: `config` readable as `replica-config`, then `parts` and `start` in one strict closure. */
export const replicaScript = (config: unknown, parts: readonly string[], start: string): string =>
  `<script type="application/json" id="replica-config">${scriptJson(config)}</script>
<script>(function () { 'use strict';${parts.join('')}
  ${start}
})();</script>`;

/** `h(tag, attrs, children)`: an element; attrs `text` and `class` are the text and class, null values are left out. */
export const domBuilderScript = String.raw`
  function h(tag, attrs, children) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === 'text') e.textContent = attrs[k];
      else if (k === 'class') e.className = attrs[k];
      else if (attrs[k] !== null && attrs[k] !== undefined) e.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) { if (c) e.appendChild(c); });
    return e;
  }
`;
