import type { Projection } from './projection';

interface HeldArtifact {
  readonly artifact_type: string;
  readonly content_type: string;
}

/**
 * Per bot, the artifacts the service holds for a team's bucket that refused them (transient spill), until
 * an upload succeeds or they expire: the work list of the spill uploader, rebuilt from events alone.
 */
export type SpilledArtifactsView = {
  readonly id: string; // the bot id
  readonly held: Readonly<Record<string, HeldArtifact>>;
  readonly pending: boolean;
};

export const SPILLED_ARTIFACTS = 'spilled_artifacts';

const withHeld = (id: string, held: Readonly<Record<string, HeldArtifact>>): SpilledArtifactsView => ({ id, held, pending: Object.keys(held).length > 0 });

const without = (held: Readonly<Record<string, HeldArtifact>>, keys: readonly string[]) =>
  Object.fromEntries(Object.entries(held).filter(([key]) => !keys.includes(key)));

export const spilledArtifactsProjection: Projection<SpilledArtifactsView> = {
  collection: SPILLED_ARTIFACTS,
  // The bots whose artifacts the service still holds, not every bot that ever held one.
  indexes: [[{ field: 'pending', direction: 'asc' }, { field: 'id', direction: 'asc' }]],
  documentId: (event) =>
    event.type === 'ArtifactSpilled' || event.type === 'ArtifactStored' || event.type === 'ArtifactsExpired' || event.type === 'BotDataDeleted' ? event.data.bot_id : null,
  evolve: (doc, event) => {
    if (event.type === 'ArtifactSpilled') {
      const { bot_id, key, artifact_type, content_type } = event.data;
      return withHeld(bot_id, { ...doc?.held, [key]: { artifact_type, content_type } });
    }
    if (doc === null) return null;
    if (event.type === 'ArtifactStored') return withHeld(doc.id, without(doc.held, [event.data.key]));
    if (event.type === 'ArtifactsExpired') return withHeld(doc.id, without(doc.held, event.data.keys));
    // the held copies are erased with the bot's data: nothing left to upload
    if (event.type === 'BotDataDeleted') return withHeld(doc.id, {});
    return null;
  },
};
