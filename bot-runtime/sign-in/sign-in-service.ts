/**
 * The bot's side of signing in on the internal bot API (contract.ts): what it signs in with (only for its
 * own run, with its own token), and how it went. Nothing it gets here is logged or stored.
 */
import { internalPaths, type SignInAnswer, type SignInResult } from '../../contract/bot-contract';
import { callService, type HttpTarget } from '../http-client';

export interface SignInService {
  start(): Promise<SignInAnswer>;
  /** the error code the failure stands for (null on success) */
  finish(result: SignInResult): Promise<string | null>;
}

export class HttpSignInService implements SignInService {
  constructor(
    private readonly target: HttpTarget,
    private readonly botId: string,
  ) {}

  async start(): Promise<SignInAnswer> {
    const res = await callService(this.target, 'POST', internalPaths.signIn(this.botId), { body: '{}', contentType: 'application/json' });
    return (await res.json()) as SignInAnswer;
  }

  async finish(result: SignInResult): Promise<string | null> {
    const res = await callService(this.target, 'POST', internalPaths.signInResult(this.botId), { body: JSON.stringify(result), contentType: 'application/json' });
    return ((await res.json()) as { error_code: string | null }).error_code;
  }
}
