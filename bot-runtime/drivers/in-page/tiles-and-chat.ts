/**
 * Reading participants (from their video tiles) and chat messages (from the chat panel's rows) of a
 * platform page, from data: selectors with several candidates each. Reports which candidate found
 * each thing, so the driver can log it.
 *
 * The in-page part is a plain JavaScript function expression (see recorder/in-page.ts for why).
 */
import type { SeenParticipant } from '../../attendees';
import type { SeenChatMessage } from '../../chat-log';

export type NameSource = { readonly selector: string } | { readonly attribute: string };

export interface TileReaderConfig {
  /** one element per participant (duplicates by id are merged) */
  readonly tile: string;
  /** where a tile's participant id is, first present wins */
  readonly idAttributes: readonly string[];
  /** where a tile's display name is: an element inside it (its text) or an attribute of the tile */
  readonly name: readonly NameSource[];
  /** tiles whose text or label contains one of these are not participants (self-preview effects tile) */
  readonly without: readonly string[];
  /** the page's own tile (the element or an element inside it) */
  readonly self: readonly string[];
  /** a tile speaks when it, or an element inside it, matches one of these */
  readonly speaking: readonly string[];
}

export interface ChatReaderConfig {
  /** one element per message, in order */
  readonly row: string;
  /** the message text inside a row (else the row's text without its buttons) */
  readonly text: readonly string[];
  /** the sender's name: inside the row, else the nearest such element before the row in its group */
  readonly sender: readonly string[];
  /** the message composer (disabled: chat is off) */
  readonly composer: readonly string[];
}

export interface TilesAndChat {
  readonly selfId: string | null;
  readonly participants: SeenParticipant[];
  readonly activeSpeaker: string | null;
  readonly chat: SeenChatMessage[];
  readonly chatDisabled: boolean;
  /** which candidate found what, e.g. { name: 'span.notranslate', speaking: '[data-audio-level]…' } */
  readonly matched: Record<string, string>;
}

export const tilesAndChatFunction = String.raw`
function (tiles, chat, since) {
  var matched = {};
  var all = function (root, selector) {
    try { return Array.prototype.slice.call(root.querySelectorAll(selector)); } catch (e) { return []; }
  };
  var matches = function (el, selector) { try { return el.matches(selector); } catch (e) { return false; } };
  var clean = function (s) { return String(s || '').replace(/\s+/g, ' ').trim(); };
  var low = function (s) { return clean(s).replace(/[\u2018\u2019]/g, "'").toLowerCase(); };
  var idOf = function (el) {
    for (var i = 0; i < tiles.idAttributes.length; i++) { var v = el.getAttribute(tiles.idAttributes[i]); if (v) return v; }
    return null;
  };
  var nameOf = function (el) {
    for (var i = 0; i < tiles.name.length; i++) {
      var src = tiles.name[i];
      var v = src.attribute ? el.getAttribute(src.attribute) : (all(el, src.selector)[0] || {}).textContent;
      if (clean(v)) { matched.name = src.attribute ? '@' + src.attribute : src.selector; return clean(v); }
    }
    return '';
  };
  var participants = [];
  var byId = {};
  var speaker = null;
  all(document, tiles.tile).forEach(function (el) {
    var id = idOf(el);
    if (!id || byId[id]) return;
    var label = low((el.textContent || '') + ' ' + (el.getAttribute('aria-label') || ''));
    if (tiles.without.some(function (w) { return label.indexOf(low(w)) >= 0; })) return;
    var name = nameOf(el);
    byId[id] = true;
    participants.push({ id: id, name: name });
    if (speaker === null) {
      var s = tiles.speaking.find(function (sel) { return matches(el, sel) || all(el, sel).length > 0; });
      if (s) { speaker = name; matched.speaking = s; }
    }
  });
  var selfId = null;
  for (var i = 0; i < tiles.self.length && selfId === null; i++) {
    var own = all(document, tiles.self[i])[0];
    if (own) { selfId = idOf(own.closest(tiles.tile) || own); if (selfId) matched.self = tiles.self[i]; }
  }
  var idByName = {};
  participants.forEach(function (p) { var k = low(p.name); idByName[k] = idByName[k] === undefined ? p.id : null; });
  var rows = all(document, chat.row);
  var senderOf = function (row) {
    for (var k = 0; k < chat.sender.length; k++) {
      var inside = all(row, chat.sender[k])[0];
      if (inside && clean(inside.textContent)) { matched.sender = chat.sender[k]; return clean(inside.textContent); }
    }
    for (var a = row.parentElement, depth = 0; a && depth < 6; a = a.parentElement, depth++) {
      for (var i = 0; i < chat.sender.length; i++) {
        var before = all(a, chat.sender[i]).filter(function (s) {
          return !row.contains(s) && (s.compareDocumentPosition(row) & Node.DOCUMENT_POSITION_FOLLOWING);
        });
        if (before.length) { matched.sender = chat.sender[i]; return clean(before[before.length - 1].textContent); }
      }
    }
    return '';
  };
  var textOf = function (row) {
    for (var i = 0; i < chat.text.length; i++) {
      var t = all(row, chat.text[i])[0];
      if (t) { matched.text = chat.text[i]; return clean(t.textContent); }
    }
    var copy = row.cloneNode(true);
    all(copy, 'button').forEach(function (b) { b.remove(); });
    return clean(copy.textContent);
  };
  var messages = rows.slice(since).map(function (row) {
    var sender = senderOf(row);
    var id = idByName[low(sender)];
    return { sender_name: sender, participant_id: id === undefined ? null : id, text: textOf(row) };
  });
  var composer = null;
  for (var c = 0; c < chat.composer.length && !composer; c++) composer = all(document, chat.composer[c])[0] || null;
  var chatDisabled = !!composer && (composer.disabled === true || composer.getAttribute('aria-disabled') === 'true');
  return { selfId: selfId, participants: participants, activeSpeaker: speaker, chat: messages, chatDisabled: chatDisabled, matched: matched };
}`;

export const tilesAndChatExpression = (tiles: TileReaderConfig, chat: ChatReaderConfig, since: number): string =>
  `(${tilesAndChatFunction})(${JSON.stringify(tiles)}, ${JSON.stringify(chat)}, ${Math.max(0, Math.floor(since))})`;
