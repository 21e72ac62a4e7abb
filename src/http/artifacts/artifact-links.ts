import type { ArtifactStores } from '../../adapters/object-store/artifact-stores';
import type { LocalLinkSigner } from '../../adapters/object-store/local-folder-object-store';
import type { ReadStore } from '../../adapters/read-store/port';
import type { Signer } from '../../adapters/signing/signer';
import { botStorageOf } from '../../projections/bot-storage-view';
import type { ArtifactLink, ArtifactLinks } from '../../adapters/artifact-links/port';
import { BOTS, isKept, type BotView } from '../../projections/bot-view';

/** The spec's recording URLs last 2 hours; every artifact link here does. */
export const ARTIFACT_LINK_TTL_SECONDS = 2 * 60 * 60;

/** Links to the service's own artifact route (artifacts-router), for objects the service itself stores. */
export const serviceSignedLink =
  (signer: Signer, publicUrl: () => string): LocalLinkSigner =>
  (objectKey, expiresAt) => {
    const slash = objectKey.indexOf('/');
    const botId = objectKey.slice(0, slash);
    const key = objectKey.slice(slash + 1);
    const expires = Math.floor(expiresAt.getTime() / 1000);
    return `${publicUrl()}/artifacts/${botId}/${key}?expires=${expires}&signature=${signer.signArtifact(botId, key, expires)}`;
  };

/**
 * Every artifact link comes from the store that holds the artifact, valid for 2 hours from now: the bot's
 * storage (fixed at its creation, so replacing or deleting the team's configuration changes nothing), or
 * the service while it holds a spilled copy. A lost, expired or deleted artifact has no link.
 */
export const storeArtifactLinks = (stores: ArtifactStores, readStore: ReadStore, nowMs: () => number): ArtifactLinks => ({
  linksFor: async (botId, keys) => {
    const links = new Map<string, ArtifactLink | null>(keys.map((key) => [key, null]));
    const bot = (await readStore.get<BotView>(BOTS, botId))?.doc;
    if (!bot) return links;
    const storage = await botStorageOf(readStore, botId);
    // Whole seconds: both kinds of link carry their expiry in seconds.
    const signedAt = new Date(Math.floor(nowMs() / 1000) * 1000);
    const expires_at = new Date(signedAt.getTime() + ARTIFACT_LINK_TTL_SECONDS * 1000).toISOString();
    for (const artifact of bot.artifacts) {
      if (!links.has(artifact.key) || !isKept(artifact)) continue;
      const store = artifact.status === 'spilled' ? stores.service : stores.forBot(storage, artifact.artifact_type);
      const url = await store.downloadUrl(`${botId}/${artifact.key}`, { contentType: artifact.content_type, signedAt, ttlSeconds: ARTIFACT_LINK_TTL_SECONDS });
      links.set(artifact.key, { url, expires_at });
    }
    return links;
  },
  contentOf: async (botId, key) => {
    const artifact = (await readStore.get<BotView>(BOTS, botId))?.doc.artifacts.find((a) => a.key === key);
    if (!artifact || !isKept(artifact)) return null;
    const store = artifact.status === 'spilled' ? stores.service : stores.forBot(await botStorageOf(readStore, botId), artifact.artifact_type);
    const object = await store.get(`${botId}/${key}`);
    if (!object) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of object.body) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  },
});
