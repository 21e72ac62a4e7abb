/**
 * What the Zoom web client shows of the people in the call, read in the page: the participants pane's
 * names (Zoom's DOM carries no participant ids, so a name is the id; the entry marked "(me)" is the
 * page's own) and the name on the speaker-view main tile.
 *
 * Zoom's main tile keeps showing the last speaker after they stop (4.5), so the driver counts the tile's
 * name as the active speaker only while the meeting audio is not silent: the peers' temporal attribution
 * (Vexa's silence gate, peak above 0.005). The modern web client plays the meeting through the Web
 * Audio API, with no `<audio>` element carrying a stream at all (Vexa #318, #305: its WASM client does
 * not expose the stream), so the driver listens to what the bot's speakers play, outside the page
 * (browser/audio-server.ts), however the page plays it.
 *
 * The in-page part is a plain JavaScript function expression (see recorder/in-page.ts for why).
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
  readonly matched: Record<string, string>;
}

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
  return { participants: participants, selfId: selfId, mainTileName: mainTileName, matched: matched };
}`;

export const zoomPeopleExpression = (cfg: ZoomReaderConfig): string => `(${zoomPeopleFunction})(${JSON.stringify(cfg)})`;
