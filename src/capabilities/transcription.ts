import { providerUrlsFromEnv, transcriptionProviders } from '../adapters/transcription/providers';
import { transcribeRecordings } from '../subscribers/transcribe-recordings';
import type { Capability } from './capability';
import { subscriberPart } from './subscriber-part';

/** Transcription of completed bots' recordings, under its lease (one provider job per request). */
export const transcription: Capability = {
  name: 'transcription',
  projections: [],
  build: (context) => {
    const transcriber = subscriberPart(context, 'transcriber', () =>
      transcribeRecordings({
        commands: context.commands,
        stores: context.stores,
        secretBox: context.secretBox,
        providers: transcriptionProviders({ urls: providerUrlsFromEnv(), ...context.overrides.transcription }),
        log: context.log,
      }),
    );
    return { parts: context.roles.api ? [transcriber] : [] };
  },
};
