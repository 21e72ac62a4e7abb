/**
 * The upcaster from the first stored shape of a bot's configuration: before BotConfig, BotCreated.config
 * was the whole validated v2 creation request (defaults filled in, secrets sealed), with the enable flags
 * beside their objects. It becomes a version 1 BotConfig; the result is then decoded (and checked) like any
 * stored version 1 config. Missing fields take the request's defaults, so hand-written events of old
 * tests and benchmarks (`config: {}`) load too.
 */

import { vcJoinFromFlat } from './vc-join';

type Loose = Record<string, unknown>;

const obj = (u: unknown): Loose | null => (typeof u === 'object' && u !== null && !Array.isArray(u) ? (u as Loose) : null);
const orNull = (u: unknown): unknown => (u === undefined ? null : u);

const images = (request: Loose) => {
  const urls = Array.isArray(request.bot_image) ? request.bot_image : [];
  if (urls.length === 0) return null;
  const shown = obj(request.bot_image_config);
  return { urls, mode: shown?.mode ?? 'cycle', interval_seconds: shown?.interval_seconds ?? 10 };
};

/** An object that only counted with its enable flag on: a config kept with the flag off asked for nothing. */
const enabled = (request: Loose, flag: string, config: string): Loose | null => (request[flag] === true ? obj(request[config]) : null);

const transcription = (request: Loose) => {
  if (request.transcription_enabled !== true) return null;
  const config = obj(request.transcription_config);
  return {
    provider: config?.provider ?? 'Default',
    api_key: orNull(config?.api_key),
    custom_params: orNull(config?.custom_params),
  };
};

/** The old `vc_config` was already validated to name one OBF source at most (vc-join.ts reads it). */
const vc = (request: Loose) => {
  const config = obj(request.vc_config);
  return config && vcJoinFromFlat(config);
};

export const upcastRequestShapedConfig = (request: Loose): Loose => {
  const callback = enabled(request, 'callback_enabled', 'callback_config');
  const streaming = enabled(request, 'streaming_enabled', 'streaming_config');
  return {
    version: 1,
    api: 'v2',
    recording_mode: request.recording_mode ?? 'speaker_view',
    timeouts: {
      grace_period: 0,
      no_one_joined_timeout: 600,
      silence_timeout: 600,
      waiting_room_timeout: 600,
      max_recording_duration: null,
      ...obj(request.timeout_config),
    },
    entry_message: orNull(request.entry_message),
    ignored_participant_names: request.ignored_participant_names ?? [],
    allow_multiple_bots: request.allow_multiple_bots ?? true,
    deduplication_key: null,
    bot_image: images(request),
    callback: callback && { url: callback.url, method: callback.method ?? 'POST', secret: orNull(callback.secret) },
    webhook_url: null,
    streaming: streaming && {
      input_url: orNull(streaming.input_url),
      output_url: orNull(streaming.output_url),
      audio_frequency: streaming.audio_frequency ?? 16000,
    },
    transcription: transcription(request),
    login: obj(request.tm_config) ?? obj(request.mt_config),
    vc: vc(request),
    storage: { kind: 'service' },
  };
};
