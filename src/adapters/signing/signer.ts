import { createHmac, timingSafeEqual } from 'node:crypto';

const mac = (secret: Buffer, purpose: string, message: string): string =>
  createHmac('sha256', secret).update(`${purpose}\u0000${message}`).digest('base64url');

const sameMac = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * Stateless credentials derived from the service secret: a bot's token proves which bot it is (and
 * nothing else), a signed URL proves the service handed out that link before it expires.
 */
export class Signer {
  constructor(private readonly secret: Buffer) {}

  botToken(botId: string): string {
    return mac(this.secret, 'bot-token', botId);
  }

  isBotToken(botId: string, token: string): boolean {
    return sameMac(this.botToken(botId), token);
  }

  /**
   * The secret a calendar provider presents with every push notice of one of our channels (Google's
   * channel token, Graph's clientState): derived from the channel id, so nothing needs storing to check it.
   */
  calendarChannelToken(channelId: string): string {
    return mac(this.secret, 'calendar-channel', channelId);
  }

  isCalendarChannelToken(channelId: string, token: string): boolean {
    return sameMac(this.calendarChannelToken(channelId), token);
  }

  signArtifact(botId: string, key: string, expiresAtSeconds: number): string {
    return mac(this.secret, 'artifact', `${botId}/${key}@${expiresAtSeconds}`);
  }

  isArtifactSignature(botId: string, key: string, expiresAtSeconds: number, signature: string): boolean {
    return sameMac(this.signArtifact(botId, key, expiresAtSeconds), signature);
  }
}
