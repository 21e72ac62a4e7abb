/**
 * What the Zoom web client shows of the people in the call, read in the page: the participants pane's
 * names (Zoom's DOM carries no participant ids, so a name is the id; the entry marked "(me)" is the
 * page's own), the name on the speaker-view main tile, and whether the meeting's audio carries sound.
 *
 * Zoom's main tile keeps showing the last speaker after they stop (4.5), so the tile's name counts as
 * the active speaker only while the meeting audio is not silent: the peers' temporal attribution
 * (Vexa's silence gate, peak above 0.005, on the page's own `<audio>` streams). The sound monitor is
 * installed once per page by `soundMonitorExpression`. The modern web client plays the meeting through
 * the Web Audio API, with no `<audio>` element carrying a stream at all (Vexa #318, #305: its WASM
 * client does not expose the stream): `webAudioTapSource`, installed before the page's scripts,
 * taps whatever the page connects to an AudioContext's destination, and the monitor listens there
 * too.
 *
 * The in-page parts are plain JavaScript function expressions (see recorder/in-page.ts for why).
 */
import type { SeenParticipant } from '../../attendees';

export interface ZoomReaderConfig {
  /** one element per participant in the pane */
  readonly item: string;
  /** the name inside an item (else the item's text) */
  readonly name: readonly string[];
  /** trailing "(Host)", "(me)", … (a RegExp source, case-insensitive) */
  readonly suffix: string;
  /** the mark of the page's own entry (a RegExp source, case-insensitive) */
  readonly self: string;
  /** the speaker-view main tile's name, first non-empty wins */
  readonly speaker: readonly string[];
}

export interface ZoomPeople {
  readonly participants: SeenParticipant[];
  readonly selfId: string | null;
  /** the name on the main tile, whether or not anyone speaks */
  readonly mainTileName: string | null;
  /** milliseconds since the meeting audio last carried sound; null: never, or no monitor */
  readonly msSinceSound: number | null;
  readonly matched: Record<string, string>;
}

/** Where the monitor and the Web Audio taps live in the page (not enumerable). */
const MONITOR = '__zoomSoundMonitor';
const TAPS = '__zoomAudioTaps';

/** Peak above which the meeting audio counts as sound (Vexa's gate, 1.1). */
export const SOUND_PEAK = 0.005;

export const zoomPeopleFunction = String.raw`
function (cfg) {
  var matched = {};
  var all = function (root, selector) {
    try { return Array.prototype.slice.call(root.querySelectorAll(selector)); } catch (e) { return []; }
  };
  var clean = function (s) { return String(s || '').replace(/\s+/g, ' ').trim(); };
  var suffix = new RegExp(cfg.suffix, 'i');
  var selfMark = new RegExp(cfg.self, 'i');
  var strip = function (s) { var n = clean(s); for (var i = 0; i < 3 && suffix.test(n); i++) n = clean(n.replace(suffix, '')); return n; };
  var participants = [];
  var seen = {};
  var selfId = null;
  all(document, cfg.item).forEach(function (item) {
    var raw = '';
    for (var i = 0; i < cfg.name.length && !raw; i++) {
      var el = all(item, cfg.name[i])[0];
      if (el && clean(el.textContent)) { raw = el.textContent; matched.name = cfg.name[i]; }
    }
    if (!raw) raw = item.textContent;
    var name = strip(raw);
    if (!name) return;
    var key = name.toLowerCase();
    seen[key] = (seen[key] || 0) + 1;
    var id = seen[key] === 1 ? name : name + ' (' + seen[key] + ')';
    participants.push({ id: id, name: name });
    if (selfId === null && selfMark.test(clean(item.textContent))) selfId = id;
  });
  var mainTileName = null;
  for (var s = 0; s < cfg.speaker.length && mainTileName === null; s++) {
    var tile = all(document, cfg.speaker[s])[0];
    if (tile && clean(tile.textContent)) { mainTileName = strip(tile.textContent); matched.speaker = cfg.speaker[s]; }
  }
  var monitor = window.${MONITOR};
  var last = monitor ? monitor.lastSoundAt : 0;
  return { participants: participants, selfId: selfId, mainTileName: mainTileName, msSinceSound: last ? Math.round(performance.now() - last) : null, matched: matched };
}`;

export const zoomPeopleExpression = (cfg: ZoomReaderConfig): string => `(${zoomPeopleFunction})(${JSON.stringify(cfg)})`;

/**
 * Before any page script: every node the page connects to an AudioContext's destination is also
 * connected to an analyser of that context (one per context), listed in the page's taps. `connect`
 * stays a native-looking function (a Proxy), and what the page hears does not change.
 */
export const webAudioTapSource = String.raw`
(() => {
  if (window.${TAPS}) return;
  var taps = [];
  Object.defineProperty(window, '${TAPS}', { value: taps, enumerable: false });
  var connect = AudioNode.prototype.connect;
  var analysers = new WeakMap();
  AudioNode.prototype.connect = new Proxy(connect, {
    apply: function (target, node, args) {
      var result = Reflect.apply(target, node, args);
      try {
        if (args[0] instanceof AudioDestinationNode && node.context instanceof AudioContext && !(node instanceof AnalyserNode)) {
          var analyser = analysers.get(node.context);
          if (!analyser) {
            analyser = node.context.createAnalyser();
            analyser.fftSize = 2048;
            analysers.set(node.context, analyser);
            taps.push({ analyser: analyser, buffer: new Float32Array(analyser.fftSize) });
          }
          Reflect.apply(target, node, [analyser]);
        }
      } catch (e) { /* a node that cannot be tapped is not heard */ }
      return result;
    }
  });
})()`;

/**
 * Installs (once) a monitor of every live audio stream the page plays (`<audio>`/`<video>` with a
 * MediaStream): it notes when one last carried sound. Listening does not change what plays.
 */
export const soundMonitorExpression = String.raw`
(function () {
  if (window.${MONITOR}) return true;
  var monitor = { lastSoundAt: 0, ctx: null, watched: new WeakSet(), taps: [] };
  Object.defineProperty(window, '${MONITOR}', { value: monitor, enumerable: false });
  var scan = function () {
    Array.prototype.slice.call(document.querySelectorAll('audio, video')).forEach(function (el) {
      var stream = el.srcObject;
      if (!(stream instanceof MediaStream) || !stream.getAudioTracks().length || monitor.watched.has(stream)) return;
      monitor.watched.add(stream);
      try {
        monitor.ctx = monitor.ctx || new AudioContext();
        var analyser = monitor.ctx.createAnalyser();
        analyser.fftSize = 2048;
        monitor.ctx.createMediaStreamSource(stream).connect(analyser);
        monitor.taps.push({ analyser: analyser, buffer: new Float32Array(analyser.fftSize) });
      } catch (e) { /* a stream that cannot be tapped is not heard */ }
    });
    if (monitor.ctx && monitor.ctx.state !== 'running') monitor.ctx.resume().catch(function () {});
  };
  setInterval(function () {
    scan();
    monitor.taps.concat(window.${TAPS} || []).forEach(function (tap) {
      tap.analyser.getFloatTimeDomainData(tap.buffer);
      for (var i = 0; i < tap.buffer.length; i++) if (Math.abs(tap.buffer[i]) > ${SOUND_PEAK}) { monitor.lastSoundAt = performance.now(); return; }
    });
  }, 100);
  return true;
})()`;
