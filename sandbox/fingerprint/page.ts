/**
 * The `/fingerprint` page, served on every host the sandbox answers for (its flavours' hosts, the replicas'
 * real hosts, localhost): the probe runs at load and reports its verdicts to the page's own host; a click
 * on its join button (as a bot clicks a platform's) adds the verdict on that click.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { fingerprintProbeSource, type ProbeConfig } from './probe';

export const FINGERPRINT_PATH = '/fingerprint';
export const FINGERPRINT_REPORT_PATH = '/fingerprint/report';

const header = (headers: IncomingHttpHeaders, name: string): string => {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : (value ?? '');
};

/** What the page's request carried: the probe compares it with what the page reads. */
export const serverSaw = (headers: IncomingHttpHeaders): ProbeConfig['serverSaw'] => ({
  userAgent: header(headers, 'user-agent'),
  secChUa: header(headers, 'sec-ch-ua'),
  secChUaPlatform: header(headers, 'sec-ch-ua-platform'),
  secChUaMobile: header(headers, 'sec-ch-ua-mobile'),
  acceptLanguage: header(headers, 'accept-language'),
});

// `<` inside the inline script would end it early: the configuration is JSON, escaped.
const inline = (source: string) => source.replace(/<\//g, '<\\/');

export const fingerprintPage = (headers: IncomingHttpHeaders): string => `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Browser check</title>
<style>body{font-family:sans-serif;margin:2rem}button{font-size:1.2rem;padding:.6rem 1.6rem}pre{font-size:.75rem}</style></head>
<body>
<h1>Browser check</h1>
<p>What a meeting platform's bot detection can read from this browser. Each check's verdict is posted to this host's
<code>${FINGERPRINT_REPORT_PATH}</code> and listed by the control API (<code>GET /control/fingerprints</code>).</p>
<button data-testid="fingerprint-join">Join now</button>
<pre data-testid="fingerprint-report">running…</pre>
<script>${inline(fingerprintProbeSource({ serverSaw: serverSaw(headers), reportUrl: FINGERPRINT_REPORT_PATH }))}</script>
</body>
</html>`;
