import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { judgeTokenAnswer, type TokenJudgement } from '../../domain/vc-credentials/token-url-answer';
import { policedLookup, RefusedTarget } from '../webhook-http/policed-lookup';
import { addressProblem, urlProblem, type Resolve, type TargetPolicy } from '../webhook-http/target-policy';
import type { TokenUrlRequest, TokenUrls } from './port';

/** A token is a few hundred characters; an answer is not read beyond this. */
const MAX_ANSWER_BYTES = 16 * 1024;

/**
 * The spec's token URL contract, from the service: GET the URL with `bot_uuid` and `extra` (the JSON text
 * of the bot's extra, `{}` when it had none) appended to its own query, a short timeout, no redirect
 * followed, and the webhooks' address policy on the address really connected to (in production: https,
 * public addresses only). What failed is said in words that name no address: the URL is the customer's,
 * but what it resolves to inside our network is not theirs to learn.
 */
export class TokenUrlClient implements TokenUrls {
  constructor(
    private readonly policy: TargetPolicy,
    private readonly resolve: Resolve,
    private readonly timeoutMs: number,
  ) {}

  fetchToken(request: TokenUrlRequest): Promise<TokenJudgement> {
    const refused = urlProblem(request.url, this.policy);
    if (refused !== null) return Promise.resolve({ ok: false, what: `a URL the service may not call (it ${refused})` });
    const url = new URL(request.url);
    url.searchParams.append('bot_uuid', request.botId);
    url.searchParams.append('extra', JSON.stringify(request.extra ?? {}));
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) !== 0 && addressProblem(url, host, this.policy) !== null) {
      return Promise.resolve({ ok: false, what: 'a URL on an address the service may not call (not a public address)' });
    }
    return new Promise((resolve) => {
      let settled = false;
      const finish = (judgement: TokenJudgement) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(judgement);
      };
      const client = url.protocol === 'https:' ? https : http;
      const req = client.request(
        url,
        { method: 'GET', headers: { accept: 'text/plain', 'user-agent': 'meeting-bot-service-tokens' }, lookup: policedLookup(url, this.policy, this.resolve), agent: false },
        (res) => {
          const chunks: Buffer[] = [];
          let read = 0;
          res.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (read <= MAX_ANSWER_BYTES) chunks.push(chunk);
            else res.destroy();
          });
          res.on('error', () => undefined);
          const judge = () =>
            finish(
              read > MAX_ANSWER_BYTES
                ? { ok: false, what: `a body of more than ${MAX_ANSWER_BYTES} bytes, not a token` }
                : judgeTokenAnswer({ status: res.statusCode ?? 0, contentType: res.headers['content-type'] ?? null, body: Buffer.concat(chunks).toString('utf8') }),
            );
          res.on('end', judge);
          res.on('close', judge);
        },
      );
      const timer = setTimeout(() => req.destroy(new Error('timeout')), this.timeoutMs);
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (err instanceof RefusedTarget) return finish({ ok: false, what: 'a host on an address the service may not call (not a public address)' });
        if (err.message === 'timeout') return finish({ ok: false, what: `no answer within ${this.timeoutMs / 1000} s` });
        finish({ ok: false, what: `no answer (${err.code ?? 'connection failed'})` });
      });
      req.end();
    });
  }
}
