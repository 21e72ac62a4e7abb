import type { LoginPlatform } from '../../domain/signed-in-logins/login-platform';
import type { Projection } from '../projection';

/** The login sessions a bot holds now: what the release subscriber gives back when the bot ends. */
export type BotLoginSessionView = {
  readonly id: string; // the bot id
  readonly platform: LoginPlatform;
  readonly credential_ids: readonly string[];
};

export const BOT_LOGIN_SESSIONS = 'bot_login_sessions';

export const botLoginSessionProjection: Projection<BotLoginSessionView> = {
  collection: BOT_LOGIN_SESSIONS,
  documentId: (event) => (event.type === 'LoginLeased' || event.type === 'LoginReleased' ? event.data.bot_id : null),
  evolve: (doc, event) => {
    if (event.type === 'LoginLeased') {
      const held = (doc?.credential_ids ?? []).filter((id) => id !== event.data.credential_id);
      return { id: event.data.bot_id, platform: event.data.platform, credential_ids: [...held, event.data.credential_id] };
    }
    if (event.type === 'LoginReleased' && doc) return { ...doc, credential_ids: doc.credential_ids.filter((id) => id !== event.data.credential_id) };
    return null;
  },
};
