import type { Signer } from '../../adapters/signing/signer';
import type { ArtifactLinks } from '../v2/bot-details';

/** The spec's recording URLs last 2 hours; every artifact link here does. */
export const ARTIFACT_LINK_TTL_SECONDS = 2 * 60 * 60;

export const signedArtifactLinks = (signer: Signer, publicUrl: () => string, nowMs: () => number): ArtifactLinks => ({
  urlFor: (botId, key) => {
    const expires = Math.floor(nowMs() / 1000) + ARTIFACT_LINK_TTL_SECONDS;
    const signature = signer.signArtifact(botId, key, expires);
    return {
      url: `${publicUrl()}/artifacts/${botId}/${key}?expires=${expires}&signature=${signature}`,
      expires_at: new Date(expires * 1000).toISOString(),
    };
  },
});
