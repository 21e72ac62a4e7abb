/**
 * A local Deepgram pre-recorded API (research B.2): `Authorization: Token <key>`, `POST /v1/listen`
 * with options as query parameters and `{"url": …}` as JSON, answered synchronously with a
 * `ListenV1Response` (seconds; integer `speaker` from 0 on each word when `diarize=true`;
 * `results.utterances` when `utterances=true`). Errors as `{err_code, err_msg, request_id}`: 401
 * `INVALID_AUTH`, 400 `REMOTE_CONTENT_ERROR` when the media cannot be downloaded.
 */
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { confidenceOf, FakeProviderServer, mean, plainWord, sendJson, textOf, utterancesOf, type FakeHandler, type ScriptedWord } from './fake-provider-kit';

const MODEL_UUID = '1abfe86b-e047-4eed-858a-35e5625b41ee';

export class DeepgramFake extends FakeProviderServer {
  private error(res: ServerResponse, status: number, err_code: string, err_msg: string): void {
    sendJson(res, status, { err_code, err_msg, request_id: this.newId() });
  }

  protected unavailable(res: ServerResponse): void {
    this.error(res, 503, 'SERVICE_UNAVAILABLE', 'The service is temporarily unavailable.');
  }

  protected handle: FakeHandler = async (req, body, rawBody, res) => {
    if (req.headers.authorization !== `Token ${this.apiKey}`) return this.error(res, 401, 'INVALID_AUTH', 'Invalid credentials.');
    if (req.method !== 'POST' || req.path !== '/v1/listen') return this.error(res, 404, 'NOT_FOUND', `${req.method} ${req.path} not found`);
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
      return this.error(res, 400, 'Bad Request', 'this fake takes the audio by URL only (Content-Type: application/json)');
    }
    const url = (body as { url?: unknown } | undefined)?.url;
    if (body === undefined) return this.error(res, 400, 'Bad Request', `Json deserialize error: expected value at line 1 column 1 (${rawBody.slice(0, 20)})`);
    if (typeof url !== 'string') return this.error(res, 400, 'Bad Request', 'Json deserialize error: missing field `url` at line 1 column 2');
    const audio = await this.fetchAudio(url);
    if (!audio.ok) return this.error(res, 400, 'REMOTE_CONTENT_ERROR', `The remote server hosting the media returned a client error: ${audio.reason}.`);
    if (this.script.failJob) return this.error(res, 400, 'Bad Request', 'Bad Request: failed to process audio: corrupt or unsupported data');
    sendJson(res, 200, this.responseOf(req.query, url));
  };

  private responseOf(query: URLSearchParams, url: string) {
    const diarize = query.get('diarize') === 'true';
    const { words, language } = this.script;
    const duration = words.reduce((end, w) => Math.max(end, w.end), 0);
    const wordOf = (w: ScriptedWord) => ({
      word: plainWord(w.word),
      start: w.start,
      end: w.end,
      confidence: confidenceOf(w),
      ...(diarize ? { speaker: w.speaker, speaker_confidence: 0.8 } : {}),
      punctuated_word: w.word,
    });
    const request_id = this.newId();
    return {
      metadata: {
        transaction_key: 'deprecated',
        request_id,
        sha256: createHash('sha256').update(url).digest('hex'),
        created: new Date().toISOString(),
        duration,
        channels: 1,
        models: [MODEL_UUID],
        model_info: { [MODEL_UUID]: { name: `general-${query.get('model') ?? 'base'}`, version: '2025-01-01.0', arch: query.get('model') ?? 'base' } },
      },
      results: {
        channels: [
          {
            alternatives: [{ transcript: textOf(words), confidence: mean(words.map(confidenceOf)), words: words.map(wordOf) }],
            ...(query.has('language') ? {} : { detected_language: language }),
          },
        ],
        ...(query.get('utterances') === 'true'
          ? {
              utterances: utterancesOf(words).map((group) => ({
                start: group[0]!.start,
                end: group[group.length - 1]!.end,
                confidence: mean(group.map(confidenceOf)),
                channel: 0,
                transcript: textOf(group),
                words: group.map(wordOf),
                ...(diarize ? { speaker: group[0]!.speaker } : {}),
                id: this.newId(),
              })),
            }
          : {}),
      },
    };
  }
}
