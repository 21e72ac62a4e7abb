import type { LocalLinkSigner } from '../../adapters/object-store/local-folder-object-store';
import type { ObjectStore } from '../../adapters/object-store/port';
import type { Signer } from '../../adapters/signing/signer';
import type { ArtifactLinks } from '../v2/bot-details';

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

/** Every artifact link comes from the store that holds the artifact, valid for 2 hours from now. */
export const storeArtifactLinks = (store: ObjectStore, nowMs: () => number): ArtifactLinks => ({
  urlFor: async (botId, artifact) => {
    // Whole seconds: both kinds of link carry their expiry in seconds.
    const signedAt = new Date(Math.floor(nowMs() / 1000) * 1000);
    const url = await store.downloadUrl(`${botId}/${artifact.key}`, { contentType: artifact.content_type, signedAt, ttlSeconds: ARTIFACT_LINK_TTL_SECONDS });
    return { url, expires_at: new Date(signedAt.getTime() + ARTIFACT_LINK_TTL_SECONDS * 1000).toISOString() };
  },
});
