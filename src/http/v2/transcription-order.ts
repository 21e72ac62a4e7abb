import type { SecretBox } from '../../adapters/crypto/secret-box';
import type { TranscriptionOrder } from '../../commands/retranscribe-bot';
import type { BotConfig } from '../../domain/bot/bot-config';
import { orThrow } from '../api-error';
import { DEFAULT_TRANSCRIPTION_PROVIDER } from '../codecs/bot-configs';
import { checkTranscriptionChoice } from '../codecs/transcription-choice';

export interface AskedTranscription {
  readonly provider: string | null;
  readonly api_key: string | null;
  readonly custom_params: Record<string, unknown> | null;
}

/**
 * A re-transcribe's provider and options (v2 and legacy): what the request names, else the bot's own
 * (a key is reused only for the provider it was given for; a bot that never asked uses Default), checked
 * like a creation request (400 naming `<location>/<field>`), the key sealed.
 */
export const transcriptionOrderFor = (
  secretBox: SecretBox,
  location: string,
  configured: BotConfig['transcription'],
  asked: AskedTranscription | null,
): TranscriptionOrder => {
  const provider = asked?.provider ?? configured?.provider ?? DEFAULT_TRANSCRIPTION_PROVIDER;
  const sameProvider = configured !== null && configured.provider.toLowerCase() === provider.toLowerCase();
  const apiKey = asked?.api_key ?? (sameProvider && configured.api_key ? secretBox.open(configured.api_key) : null);
  const customParams = asked?.custom_params ?? (sameProvider ? configured.custom_params : null);
  const choice = orThrow(checkTranscriptionChoice(location, { provider, api_key: apiKey, custom_params: customParams }));
  return { provider: choice.provider, api_key: choice.api_key === null ? null : secretBox.seal(choice.api_key), custom_params: choice.custom_params };
};
