import { sdkHostScript } from './host-script';

const escapeAttr = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Where the page takes the Meeting SDK from: the npm package the bot serves itself, or the sandbox's stand-in. */
export type SdkScripts =
  /** `@zoom/meetingsdk`'s Client View: its vendor libraries first (React, Redux, lodash), then the SDK; its own assets under `lib` */
  | { readonly kind: 'package'; readonly sdkFile: string }
  | { readonly kind: 'url'; readonly src: string };

/** The vendor files the Client View needs before it, as its package ships them (dist/lib/vendor). */
export const VENDOR_SCRIPTS = ['react.min.js', 'react-dom.min.js', 'redux.min.js', 'redux-thunk.min.js', 'lodash.min.js'] as const;

/** The bot's own page for a Meeting SDK join: `#zmmtg-root` for the Client View, the SDK, and the bot's script. */
export const sdkHostPage = (scripts: SdkScripts): string => {
  const tags =
    scripts.kind === 'package'
      ? [...VENDOR_SCRIPTS.map((f) => `/sdk/lib/vendor/${f}`), `/sdk/${scripts.sdkFile}`].map((src) => `<script src="${escapeAttr(src)}"></script>`).join('\n')
      : `<script src="${escapeAttr(scripts.src)}"></script>`;
  const lib = scripts.kind === 'package' ? '<script>window.botSdkLib = location.origin + "/sdk/lib";</script>' : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Meeting SDK</title></head>
<body><div id="zmmtg-root"></div>
${lib}
${tags}
<script>${sdkHostScript}</script>
</body></html>`;
};
