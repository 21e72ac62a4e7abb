/** Building the sandbox's HTML pages: escaping text, JSON inside a script element, a page around a body. */

export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** JSON safe inside a <script> element */
export const scriptJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');

/** A whole page: title, style, body (scripts included). */
export const htmlPage = (title: string, style: string, body: string): string =>
  `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>${style}</style></head>
<body>${body}</body></html>`;
