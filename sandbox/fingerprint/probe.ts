/**
 * The fingerprint probe: what a meeting platform's bot detection can read from the page, as plain
 * JavaScript run by the sandbox's `/fingerprint` page (see recorder/in-page.ts in the bot for why plain).
 * Each check answers `{id, ok, detail}`; a check that trips names what gave the browser away.
 *
 * What it looks at comes from the peers' own probes and what they hide (docs/research/real-platforms.md,
 * "What changed" A): Meeting BaaS's `fingerprint-probe.ts` (navigator, client hints, WebGL, fonts, screen
 * and window sizes, the DevTools `Runtime.enable` console leak), the stealth evasions the peers keep
 * (webdriver, plugins, `window.chrome`, permissions, WebGL vendor), and the bot's own tells (globals,
 * patched natives and the stack frames of injected functions, untrusted clicks).
 *
 * `serverSaw`: the request headers the server received for this page (user agent, client hints,
 * languages), so that what the page says is compared with what the network said.
 */
/** Every check the probe makes (the report after the join button's click carries them all). */
export const FINGERPRINT_CHECKS = [
  'user-agent',
  'client-hints',
  'webdriver',
  'plugins',
  'languages',
  'window-chrome',
  'device',
  'permissions',
  'window-size',
  'webgl',
  'fonts',
  'media-devices',
  'worker',
  'automation-globals',
  'patched-natives',
  'injected-stack-frames',
  'devtools-runtime',
  'page-world-callers',
  'trusted-click',
] as const;

export interface ProbeConfig {
  readonly serverSaw: {
    readonly userAgent: string;
    readonly secChUa: string;
    readonly secChUaPlatform: string;
    readonly secChUaMobile: string;
    readonly acceptLanguage: string;
  };
  /** where the report is posted */
  readonly reportUrl: string;
}

export const fingerprintProbeSource = (config: ProbeConfig): string => String.raw`
(function (cfg) {
  // once the page has loaded and drawn a frame, as a platform's detection reads it (while a fresh renderer
  // parses its first document, Chromium may not have told it the window's size yet: 0 x 0, measured)
  if (document.readyState !== 'complete') return addEventListener('load', function () { requestAnimationFrame(function () { setTimeout(probe, 0); }); }, { once: true });
  probe();
  function probe() {
  var checks = [];
  var add = function (id, ok, detail) { checks.push({ id: id, ok: !!ok, detail: detail }); };
  var nativeToString = Function.prototype.toString;
  var isNative = function (f, name) {
    if (typeof f !== 'function') return false;
    var s;
    try { s = nativeToString.call(f); } catch (e) { return false; }
    var want = name === undefined ? /^function [\w$]*\(\) \{\s*\[native code\]\s*\}$/ : new RegExp('^function (get |set )?' + name.replace(/\$/g, '\\$') + '\\(\\) \\{\\s*\\[native code\\]\\s*\\}$');
    return want.test(s);
  };
  var pageUrl = location.href.split('#')[0];
  /**
   * The frames of a stack from a script that is not this page's own (an injected function shows up here,
   * as \`<anonymous>:12:57\` or its sourceURL); the engine's own builtins, without a line, are not.
   */
  var foreignFrames = function (stack) {
    return String(stack || '').split('\n').slice(1).map(function (l) { return l.trim(); }).filter(function (l) {
      var m = /\((.*):\d+:\d+\)$/.exec(l) || /^at (?:async )?(.*):\d+:\d+$/.exec(l);
      return !!m && m[1] !== pageUrl;
    });
  };
  var captureStack = function () { return new Error('probe').stack; };

  // ---------------------------------------------------------------- user agent and client hints
  var ua = navigator.userAgent;
  var uaMajor = (/Chrom(?:e|ium)\/(\d+)/.exec(ua) || [])[1];
  add('user-agent',
    !/Headless/i.test(ua) && /\(X11; Linux x86_64\)/.test(ua) && ua === cfg.serverSaw.userAgent && navigator.platform === 'Linux x86_64' && /^Mozilla\/5\.0 /.test(navigator.appVersion ? 'Mozilla/' + navigator.appVersion : ''),
    { userAgent: ua, headerUserAgent: cfg.serverSaw.userAgent, platform: navigator.platform, appVersion: navigator.appVersion });

  var uad = navigator.userAgentData;
  var brands = uad ? uad.brands.map(function (b) { return b.brand + ' ' + b.version; }) : null;
  var headerBrands = uad ? uad.brands.map(function (b) { return '"' + b.brand + '";v="' + b.version + '"'; }).join(', ') : null;
  var hintsOk = !!uad && !uad.brands.some(function (b) { return /Headless/i.test(b.brand); }) &&
    uad.brands.some(function (b) { return /^(Chromium|Google Chrome)$/.test(b.brand) && b.version === uaMajor; }) &&
    uad.platform === 'Linux' && uad.mobile === false &&
    headerBrands === cfg.serverSaw.secChUa && cfg.serverSaw.secChUaPlatform === '"Linux"' && cfg.serverSaw.secChUaMobile === '?0';

  // ---------------------------------------------------------------- navigator
  var wd = Object.getOwnPropertyDescriptor(Navigator.prototype, 'webdriver');
  add('webdriver', navigator.webdriver === false && !!wd && isNative(wd.get, 'webdriver') && !Object.prototype.hasOwnProperty.call(navigator, 'webdriver'),
    { webdriver: navigator.webdriver, onPrototype: !!wd, ownProperty: Object.prototype.hasOwnProperty.call(navigator, 'webdriver') });

  add('plugins', navigator.plugins instanceof PluginArray && navigator.plugins.length >= 1 && navigator.mimeTypes.length >= 1 &&
    navigator.plugins[0] instanceof Plugin && navigator.pdfViewerEnabled === true,
    { plugins: Array.prototype.map.call(navigator.plugins, function (p) { return p.name; }), mimeTypes: navigator.mimeTypes.length, pdfViewerEnabled: navigator.pdfViewerEnabled });

  var firstAccepted = cfg.serverSaw.acceptLanguage.split(',')[0].split(';')[0].trim();
  var intlLocale = Intl.DateTimeFormat().resolvedOptions().locale;
  add('languages', navigator.languages.length >= 1 && navigator.language === navigator.languages[0] && firstAccepted === navigator.languages[0] &&
    intlLocale.split('-')[0] === navigator.language.split('-')[0],
    { languages: navigator.languages, language: navigator.language, acceptLanguage: cfg.serverSaw.acceptLanguage, intl: intlLocale });

  var chromeObject = window.chrome;
  add('window-chrome', typeof chromeObject === 'object' && chromeObject !== null && typeof chromeObject.loadTimes === 'function' && typeof chromeObject.csi === 'function' &&
    isNative(chromeObject.loadTimes) && isNative(chromeObject.csi),
    { keys: chromeObject ? Object.keys(chromeObject) : null });

  add('device', typeof navigator.deviceMemory === 'number' && navigator.hardwareConcurrency >= 1 && navigator.maxTouchPoints === 0,
    { deviceMemory: navigator.deviceMemory, hardwareConcurrency: navigator.hardwareConcurrency, maxTouchPoints: navigator.maxTouchPoints });

  // ---------------------------------------------------------------- screen and window
  var s = screen;
  var sizes = { screen: [s.width, s.height], avail: [s.availWidth, s.availHeight], colorDepth: s.colorDepth, outer: [outerWidth, outerHeight],
    inner: [innerWidth, innerHeight], at: [screenX, screenY], dpr: devicePixelRatio };
  add('window-size',
    outerWidth >= innerWidth && outerHeight > innerHeight && s.width >= outerWidth && s.height >= outerHeight &&
    s.availWidth > 0 && s.availHeight > 0 && s.availWidth <= s.width && s.availHeight <= s.height && s.colorDepth >= 24 &&
    screenX >= 0 && screenY >= 0 && screenX + outerWidth <= s.width && screenY + outerHeight <= s.height && devicePixelRatio >= 1,
    sizes);

  // ---------------------------------------------------------------- WebGL
  var gl = null;
  try { gl = document.createElement('canvas').getContext('webgl'); } catch (e) { gl = null; }
  var glInfo = { available: !!gl };
  if (gl) {
    var dbg = gl.getExtension('WEBGL_debug_renderer_info');
    glInfo.vendor = gl.getParameter(gl.VENDOR);
    glInfo.renderer = gl.getParameter(gl.RENDERER);
    if (dbg) {
      glInfo.unmaskedVendor = gl.getParameter(dbg.UNMASKED_VENDOR_WEBGL);
      glInfo.unmaskedRenderer = gl.getParameter(dbg.UNMASKED_RENDERER_WEBGL);
    }
  }

  // ---------------------------------------------------------------- fonts: a Linux user agent with Linux fonts
  var fontWidth = function (family) {
    var c = document.createElement('canvas').getContext('2d');
    c.font = '32px ' + family + ', monospace';
    return c.measureText('mmmmmmmmmmlli10OQ').width;
  };
  var base = fontWidth('monospace');
  var hasFont = function (name) { return fontWidth('"' + name + '"') !== base; };
  var windowsFonts = ['Segoe UI', 'Calibri', 'Cambria', 'Tahoma', 'Consolas'].filter(hasFont);
  var linuxFonts = ['DejaVu Sans', 'Liberation Sans', 'Noto Sans', 'Ubuntu', 'Cantarell', 'FreeSans'].filter(hasFont);
  add('fonts', windowsFonts.length === 0 && linuxFonts.length >= 1, { windows: windowsFonts, linux: linuxFonts });

  // ---------------------------------------------------------------- globals the automation leaves
  var suspicious = /^(\$?cdc_|\$wdc_|__(bot|meeting|zoom|puppeteer|pptr|playwright|selenium|webdriver|driver|fxdriver|nightmare|lastWatir)|_(Selenium|selenium)|callPhantom$|_phantom$|domAutomation|webdriver|__pw)/i;
  var globals = Object.getOwnPropertyNames(window).filter(function (n) { return suspicious.test(n); })
    .concat(Object.getOwnPropertyNames(document).filter(function (n) { return suspicious.test(n); }).map(function (n) { return 'document.' + n; }));
  add('automation-globals', globals.length === 0, { found: globals });

  // ---------------------------------------------------------------- natives the automation patches
  var natives = [
    ['Function.prototype.toString', Function.prototype.toString, 'toString'],
    ['AudioNode.prototype.connect', AudioNode.prototype.connect, 'connect'],
    ['MediaDevices.prototype.getUserMedia', MediaDevices.prototype.getUserMedia, 'getUserMedia'],
    ['MediaDevices.prototype.enumerateDevices', MediaDevices.prototype.enumerateDevices, 'enumerateDevices'],
    ['MediaDevices.prototype.getDisplayMedia', MediaDevices.prototype.getDisplayMedia, 'getDisplayMedia'],
    ['navigator.mediaDevices.getUserMedia', navigator.mediaDevices && navigator.mediaDevices.getUserMedia, 'getUserMedia'],
    ['navigator.mediaDevices.enumerateDevices', navigator.mediaDevices && navigator.mediaDevices.enumerateDevices, 'enumerateDevices'],
    ['Element.prototype.setAttribute', Element.prototype.setAttribute, 'setAttribute'],
    ['Element.prototype.attachShadow', Element.prototype.attachShadow, 'attachShadow'],
    ['window.open', window.open, 'open'],
    ['HTMLIFrameElement src setter', Object.getOwnPropertyDescriptor(HTMLIFrameElement.prototype, 'src').set, 'src'],
    ['HTMLIFrameElement contentWindow getter', Object.getOwnPropertyDescriptor(HTMLIFrameElement.prototype, 'contentWindow').get, 'contentWindow'],
    ['Permissions.prototype.query', Permissions.prototype.query, 'query'],
    ['Notification.requestPermission', Notification.requestPermission, 'requestPermission'],
    ['HTMLCanvasElement.prototype.toDataURL', HTMLCanvasElement.prototype.toDataURL, 'toDataURL'],
    ['WebGLRenderingContext.prototype.getParameter', WebGLRenderingContext.prototype.getParameter, 'getParameter'],
    ['WebGL2RenderingContext.prototype.getParameter', WebGL2RenderingContext.prototype.getParameter, 'getParameter'],
    ['EventTarget.prototype.addEventListener', EventTarget.prototype.addEventListener, 'addEventListener'],
    ['Document.prototype.querySelector', Document.prototype.querySelector, 'querySelector'],
    ['console.debug', console.debug, 'debug'],
    ['Error.captureStackTrace', Error.captureStackTrace, 'captureStackTrace'],
  ];
  var patched = natives.filter(function (n) {
    var f = n[1];
    if (!isNative(f, n[2])) return true;
    // a native method has no prototype and only length and name of its own
    return Object.prototype.hasOwnProperty.call(f, 'prototype') || Object.getOwnPropertyNames(f).sort().join() !== 'length,name';
  }).map(function (n) { return n[0]; });
  var ownOverrides = [];
  if (navigator.mediaDevices) ['getUserMedia', 'enumerateDevices', 'getDisplayMedia'].forEach(function (m) {
    if (Object.prototype.hasOwnProperty.call(navigator.mediaDevices, m)) ownOverrides.push('navigator.mediaDevices.' + m);
  });
  ['open', 'fetch', 'WebSocket', 'RTCPeerConnection', 'AudioContext'].forEach(function (m) {
    var d = Object.getOwnPropertyDescriptor(window, m);
    if (d && typeof d.value === 'function' && !isNative(d.value, m)) ownOverrides.push('window.' + m);
  });
  add('patched-natives', patched.length === 0 && ownOverrides.length === 0, { patched: patched, ownOverrides: ownOverrides });

  // ---------------------------------------------------------------- stack frames of injected functions
  // A native function calls back into a page-supplied getter or toString with no JavaScript frame between
  // the page and the callback; a function wrapped by a script leaves its own frame there.
  var stacks = {};
  try {
    navigator.mediaDevices.getUserMedia({ get audio() { stacks.getUserMedia = foreignFrames(captureStack()); return false; }, video: false }).catch(function () {});
  } catch (e) { /* a synchronous refusal is fine: the getter ran or not */ }
  try {
    var ctx = new OfflineAudioContext(1, 128, 8000);
    var node = ctx.createGain();
    node.connect(ctx.destination, { valueOf: function () { stacks.connect = foreignFrames(captureStack()); return 0; } });
  } catch (e) { /* nothing connected */ }
  try {
    document.createElement('div').setAttribute({ toString: function () { stacks.setAttribute = foreignFrames(captureStack()); return 'data-probe'; } }, '1');
  } catch (e) { /* nothing set */ }
  try {
    var frame = document.createElement('iframe');
    frame.src = { toString: function () { stacks.iframeSrc = foreignFrames(captureStack()); return 'about:blank'; } };
  } catch (e) { /* nothing set */ }
  var foreign = Object.keys(stacks).filter(function (k) { return stacks[k].length > 0; });

  // ---------------------------------------------------------------- the DevTools protocol's console leak
  // A client that enabled the Runtime domain receives every console call with a preview of its
  // arguments: making the preview reads the Error's stack, which a person's browser never does.
  var runtimeLeak = function () {
    var read = false;
    var e = new Error('probe');
    Object.defineProperty(e, 'stack', { configurable: true, get: function () { read = true; return ''; } });
    console.debug(e);
    var o = {};
    Object.defineProperty(o, 'probe', { enumerable: true, get: function () { read = true; return 1; } });
    console.debug(o);
    return read;
  };
  var leaks = [runtimeLeak()];

  // ---------------------------------------------------------------- who reads the page from the page's own world
  // From now on (the checks above have seen the natives as they were), the DOM's readers are wrapped, as a
  // platform's script could wrap them: a call whose stack holds a frame that is not the page's own is code
  // that someone else runs in the page's world (an automation's evaluate shows up here).
  var callers = [];
  var watchCalls = function (owner, name, kind) {
    var d = Object.getOwnPropertyDescriptor(owner, name);
    if (!d) return;
    var original = kind === 'get' ? d.get : d.value;
    var wrapped = function () {
      if (callers.length < 5) {
        var foreignCall = foreignFrames(captureStack());
        if (foreignCall.length) callers.push(name + ': ' + foreignCall.slice(0, 2).join(' / '));
      }
      return original.apply(this, arguments);
    };
    if (kind === 'get') Object.defineProperty(owner, name, { configurable: true, enumerable: d.enumerable, get: wrapped, set: d.set });
    else Object.defineProperty(owner, name, { configurable: true, enumerable: d.enumerable, writable: true, value: wrapped });
  };
  [[Document.prototype, 'querySelector'], [Document.prototype, 'querySelectorAll'], [Element.prototype, 'querySelector'], [Element.prototype, 'querySelectorAll'],
    [Element.prototype, 'getAttribute'], [Element.prototype, 'closest'], [Element.prototype, 'getBoundingClientRect'], [window, 'getComputedStyle']].forEach(function (m) { watchCalls(m[0], m[1], 'value'); });
  watchCalls(Node.prototype, 'textContent', 'get');
  watchCalls(HTMLElement.prototype, 'innerText', 'get');

  // ---------------------------------------------------------------- asynchronous ones
  var pending = [];
  // WebGPU tells the same story as WebGL: no adapter (a GPU the browser keeps WebGPU off for), or the same vendor
  pending.push((navigator.gpu ? navigator.gpu.requestAdapter().then(function (a) {
    return a ? { vendor: a.info.vendor, architecture: a.info.architecture, description: a.info.description } : null;
  }, function () { return null; }) : Promise.resolve(null)).then(function (adapter) {
    var webglVendor = String(glInfo.unmaskedVendor || '').toLowerCase();
    var agrees = adapter === null || (!!adapter.vendor && webglVendor.indexOf(adapter.vendor.toLowerCase()) >= 0);
    glInfo.webgpu = adapter;
    add('webgl', !!gl && !!glInfo.unmaskedRenderer && !/SwiftShader|llvmpipe|softpipe|lavapipe|Software|Microsoft Basic/i.test(glInfo.unmaskedRenderer + ' ' + glInfo.unmaskedVendor) &&
      !/Direct3D|D3D11|Metal|Apple|OpenGL ES/i.test(glInfo.unmaskedRenderer) && isNative(WebGLRenderingContext.prototype.getParameter, 'getParameter') && agrees,
      glInfo);
  }));
  pending.push(navigator.permissions.query({ name: 'notifications' }).then(function (p) {
    var want = { default: 'prompt', denied: 'denied', granted: 'granted' }[Notification.permission];
    add('permissions', p.state === want, { notificationPermission: Notification.permission, query: p.state });
  }, function (e) { add('permissions', false, { error: String(e) }); }));
  pending.push(uad ? uad.getHighEntropyValues(['platform', 'platformVersion', 'architecture', 'bitness', 'model', 'fullVersionList']).then(function (h) {
    var full = (h.fullVersionList || []).map(function (b) { return b.brand + ' ' + b.version; });
    add('client-hints', hintsOk && h.platform === 'Linux' && h.architecture === 'x86' && h.bitness === '64' && !full.some(function (b) { return /Headless/i.test(b); }),
      { brands: brands, headerBrands: cfg.serverSaw.secChUa, headerPlatform: cfg.serverSaw.secChUaPlatform, fullVersionList: full, platform: h.platform, architecture: h.architecture });
  }) : Promise.resolve(add('client-hints', false, { userAgentData: null })));
  pending.push(navigator.mediaDevices ? navigator.mediaDevices.enumerateDevices().then(function (list) {
    var devices = list.map(function (d) { return { kind: d.kind, label: d.label, deviceId: d.deviceId, groupId: d.groupId }; });
    var bad = devices.filter(function (d) {
      return /fake|dummy|virtual|null|loopback|test/i.test(d.label) || !/^(|default|communications|[0-9a-f]{64})$/.test(d.deviceId) ||
        (d.label !== '' && d.groupId === '');
    });
    // a person's computer plays sound and has a microphone (its camera may be missing)
    var kinds = devices.map(function (d) { return d.kind; });
    add('media-devices', bad.length === 0 && kinds.indexOf('audiooutput') >= 0 && kinds.indexOf('audioinput') >= 0, { devices: devices, implausible: bad });
  }) : Promise.resolve(add('media-devices', false, { mediaDevices: null })));
  pending.push(new Promise(function (resolve) {
    // what a worker sees must be what the page sees
    var src = 'postMessage([navigator.userAgent, navigator.userAgentData ? navigator.userAgentData.brands.map(function (b) { return b.brand; }).join() : null, navigator.languages.join(), navigator.webdriver])';
    var w;
    try { w = new Worker(URL.createObjectURL(new Blob([src], { type: 'text/javascript' }))); } catch (e) { add('worker', false, { error: String(e) }); return resolve(); }
    var t = setTimeout(function () { add('worker', false, { error: 'no answer' }); resolve(); }, 5000);
    w.onmessage = function (m) {
      clearTimeout(t);
      var seen = m.data;
      add('worker', seen[0] === ua && seen[1] === (uad ? uad.brands.map(function (b) { return b.brand; }).join() : null) && seen[2] === navigator.languages.join() && seen[3] !== true,
        { userAgent: seen[0], brands: seen[1], languages: seen[2], webdriver: seen[3] });
      w.terminate();
      resolve();
    };
  }));

  // the join button: a person's click is trusted, comes from a pointer that moved there first and lands on the button
  var input = { clicked: false };
  var button = document.querySelector('[data-testid=fingerprint-join]');
  ['pointermove', 'mousemove', 'pointerdown', 'mousedown', 'mouseup'].forEach(function (type) {
    document.addEventListener(type, function (ev) { input[type] = (input[type] || 0) + 1; if (!ev.isTrusted) input.untrusted = type; }, true);
  });

  var report = function (final) {
    var stackCheck = { id: 'injected-stack-frames', ok: foreign.length === 0 && stacks.getUserMedia !== undefined && stacks.setAttribute !== undefined, detail: stacks };
    var leakCheck = { id: 'devtools-runtime', ok: !leaks.some(Boolean), detail: { leaks: leaks } };
    var all = checks.concat([stackCheck, leakCheck]);
    if (final) all.push({ id: 'page-world-callers', ok: callers.length === 0, detail: { calls: callers } });
    if (final) all.push({ id: 'trusted-click', ok: input.clicked && input.isTrusted && !input.untrusted && (input.mousemove || 0) >= 1 && input.mousedown >= 1 && input.mouseup >= 1 && input.onButton, detail: input });
    var body = JSON.stringify({ page: location.href, final: !!final, checks: all, tripped: all.filter(function (c) { return !c.ok; }).map(function (c) { return c.id; }) });
    document.querySelector('[data-testid=fingerprint-report]').textContent = JSON.stringify(JSON.parse(body), null, 2);
    return fetch(cfg.reportUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body }).catch(function () {});
  };

  button.addEventListener('click', function (ev) {
    var r = button.getBoundingClientRect();
    input.clicked = true;
    input.isTrusted = ev.isTrusted;
    input.onButton = ev.clientX >= r.left && ev.clientX <= r.right && ev.clientY >= r.top && ev.clientY <= r.bottom;
    input.at = [ev.clientX, ev.clientY];
    // the console leak again: a client may have enabled the Runtime domain since the page loaded
    leaks.push(runtimeLeak());
    report(true);
  });

  Promise.all(pending).then(function () { return report(false); }).then(function () {
    document.body.setAttribute('data-probe', 'reported');
  });
  }
})(${JSON.stringify(config)});
`;
