/**
 * What a driver knows of the roster between its reads: the names the participants panel last
 * listed, and when it should be opened again (Meet and Teams show one side panel at a time, so the
 * chat panel gives way to the roster for a moment). The roster is read once in the call, again when
 * the page counts more or fewer people than the bot knows, and every `refreshMs` while the layout
 * shows fewer tiles than the roster lists (a spotlight or speaker view renders a single tile).
 */
import type { SeenParticipant } from '../attendees';
import { normaliseText } from './in-page/state-scan';

/** between two reads forced by the head count */
const MIN_INTERVAL_MS = 5000;

export class RosterWatch {
  private names: string[] | null = null;
  private readAt = 0;

  constructor(private readonly refreshMs = 30_000) {}

  /** the names the open panel lists (null: no panel open, nothing learnt) */
  note(names: string[] | null, now: number): void {
    if (names === null) return;
    this.names = names;
    this.readAt = now;
  }

  /** read a moment ago: no need to open the panel again */
  fresh(now: number): boolean {
    return this.names !== null && now - this.readAt < MIN_INTERVAL_MS;
  }

  /** Whether the roster should be opened and read now. */
  due(now: number, tileNames: readonly string[], headCount: number | null): boolean {
    if (this.names === null) return true;
    const age = now - this.readAt;
    const known = new Set([...tileNames, ...this.names].map(normaliseText)).size;
    if (headCount !== null && headCount !== known && age > MIN_INTERVAL_MS) return true;
    return age > this.refreshMs && tileNames.length < this.names.length;
  }

  /** The tiles' participants, then the roster's names that no tile shows (`idOf` gives their ids). */
  merge(tiles: readonly SeenParticipant[], idOf: (name: string) => string): SeenParticipant[] {
    const onTiles = new Set(tiles.map((p) => normaliseText(p.name)));
    const more = (this.names ?? []).filter((n) => !onTiles.has(normaliseText(n)));
    const seen = new Set<string>();
    return [...tiles, ...more.map((name) => ({ id: idOf(name), name }))].filter((p) => !seen.has(p.id) && seen.add(p.id) !== undefined);
  }
}

/**
 * Stable ids across the roster and the tiles: a participant first seen in the roster (no id there) is
 * known by name; when a tile shows them later, its id maps to that name's id, so they stay one
 * participant. A participant first seen on a tile keeps the tile's id; two tiles never share an id.
 */
export class ParticipantIds {
  private readonly byName = new Map<string, string>();
  private readonly byTile = new Map<string, string>();
  private readonly claimed = new Set<string>();

  /** the stable id for a participant seen with `name` (and `tileId` when a tile shows them) */
  of(name: string, tileId: string | null): string {
    const key = normaliseText(name);
    if (tileId !== null) {
      const known = this.byTile.get(tileId);
      if (known !== undefined) return known;
      const byName = this.byName.get(key);
      const id = byName !== undefined && !this.claimed.has(byName) ? byName : tileId;
      this.byTile.set(tileId, id);
      this.claimed.add(id);
      if (!this.byName.has(key)) this.byName.set(key, id);
      return id;
    }
    const known = this.byName.get(key);
    if (known !== undefined) return known;
    this.byName.set(key, name);
    return name;
  }
}
