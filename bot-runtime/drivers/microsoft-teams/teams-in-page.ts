/**
 * In-page parts of the Teams driver (plain JavaScript expressions, see recorder/in-page.ts for why):
 * MB's second speaking heuristic: a tile's voice-level outline whose `::before` border is blue
 * (b > 180, b > r + 40, b > g + 40) at opacity 1 (3.5). Its first, a class on the outline, is a
 * selector in teams-selectors.ts.
 */

/** The `nameAttribute` of the first `tile` whose `outline` glows blue, or null. */
export const blueOutlineSpeakerExpression = (tile: string, outline: string, nameAttribute: string): string => String.raw`
(() => {
  var tiles = Array.prototype.slice.call(document.querySelectorAll(${JSON.stringify(tile)}));
  for (var i = 0; i < tiles.length; i++) {
    var o = tiles[i].querySelector(${JSON.stringify(outline)});
    if (!o) continue;
    var before = getComputedStyle(o, '::before');
    var rgb = /rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(before.borderTopColor || '');
    if (!rgb || Number(before.opacity) < 1 || before.borderTopStyle === 'none') continue;
    var r = +rgb[1], g = +rgb[2], b = +rgb[3];
    if (b > 180 && b > r + 40 && b > g + 40) return tiles[i].getAttribute(${JSON.stringify(nameAttribute)});
  }
  return null;
})()`;
