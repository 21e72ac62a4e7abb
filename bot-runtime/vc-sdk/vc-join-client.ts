import { vcJoinPath, type VcJoinCredentials, type VcJoinRefusal } from '../../contract/bot-contract';
import type { VcJoinAnswer } from '../drivers/vc-sdk/vc-sdk-driver';
import { callService, HttpStatusError, type HttpTarget } from '../http-client';

/**
 * Asks the service for this join's vc credentials (contract.ts): the answer, or its refusal (422). A
 * service that cannot be reached is retried as any call of the bot; still unreachable, it throws.
 */
export const askVcJoin = async (target: HttpTarget, botId: string): Promise<VcJoinAnswer> => {
  try {
    const res = await callService(target, 'POST', vcJoinPath(botId), { timeoutMs: 30_000 });
    return { ok: true, credentials: (await res.json()) as VcJoinCredentials };
  } catch (err) {
    if (!(err instanceof HttpStatusError) || err.status !== 422) throw err;
    const refusal = JSON.parse(err.body) as VcJoinRefusal;
    return { ok: false, refusal: { error_code: refusal.error_code, message: refusal.message } };
  }
};
