import type { VcJoinCredentials, VcJoinRefusal } from '../../../contract/bot-contract';
import { KeyDestroyedError } from '../../adapters/key-vault/port';
import type { SignSdkJwt, TokenUrls } from '../../adapters/vc-platform/port';
import { wasQueued } from '../../domain/bot/bot-facts';
import type { Sealed } from '../../domain/codec-helpers';
import { obfRenewable, type ObfSource, type VcJoin } from '../../domain/bot/vc-join';
import { meetingNumberOf, meetingPasscodeOf, sdkSignatureClaims } from '../../domain/vc-credentials/sdk-signature-claims';
import { signingAppOf, type SigningCandidates } from '../../domain/vc-credentials/signing-app';
import type { OAuthCredential } from '../../domain/vc-credentials/vc-credential-decider';
import { loadBotFacts } from '../bot-commands';
import { obfTokenOfCredential } from '../vc-credentials/obf-token-of-credential';
import { loadVcCredential, oauthCredentialIdOf, sdkCredentialIdOf, type VcCredentialDeps } from '../vc-credentials/vc-credential-store';

export interface JoinCredentialDeps {
  readonly credentials: VcCredentialDeps;
  /** opens what the service sealed in the bot's request (an OBF token, the bot's own SDK secret) */
  readonly secretBox: { open(sealed: Sealed): string };
  readonly tokenUrls: TokenUrls;
  readonly signSdkJwt: SignSdkJwt;
  /** the service's default SDK credentials (configuration) */
  readonly defaultSdk: { readonly sdk_key: string; readonly sdk_secret: string } | null;
  readonly retrySeconds: number;
}

export type JoinCredentialAnswer = { readonly ok: true; readonly credentials: VcJoinCredentials } | { readonly ok: false; readonly refusal: VcJoinRefusal };

const refuse = (error_code: string, message: string): JoinCredentialAnswer => ({ ok: false, refusal: { error_code, message } });

interface BotOfJoin {
  readonly team_id: string;
  readonly meeting_url: string;
  readonly extra: Record<string, unknown> | null;
  readonly vc: VcJoin | null;
}

/** What the bot runs with, from its facts: a scheduled or calendar bot's too, once queued. */
const botOfJoin = async (deps: JoinCredentialDeps, botId: string): Promise<BotOfJoin | null> => {
  const bot = await loadBotFacts(deps.credentials.commands, botId);
  if (!wasQueued(bot)) return null;
  return { team_id: bot.team_id, meeting_url: bot.meeting_url, extra: bot.extra, vc: bot.run_config.vc };
};

type Obtained = { readonly ok: true; readonly token: string; readonly connection: OAuthCredential | null } | { readonly ok: false; readonly message: string };

/** The OBF token of this join, from the bot's source (spec: the three options). */
const obfTokenOf = async (deps: JoinCredentialDeps, botId: string, bot: BotOfJoin, source: ObfSource, meetingNumber: string): Promise<Obtained> => {
  switch (source.kind) {
    case 'token':
      return { ok: true, token: deps.secretBox.open(source.token), connection: null };
    case 'token_url': {
      const got = await deps.tokenUrls.fetchToken({ url: source.url, botId, extra: bot.extra });
      return got.ok ? { ok: true, token: got.token, connection: null } : { ok: false, message: `The OBF token URL answered ${got.what}.` };
    }
    case 'credential':
    case 'credential_user': {
      const credentialId = source.kind === 'credential' ? source.credential_id : oauthCredentialIdOf(bot.team_id, source.vc_user_id);
      const { current } = await loadVcCredential(deps.credentials.commands, credentialId);
      // another team's credential is not there, as one that never existed
      if (current !== null && current.team_id !== bot.team_id) return { ok: false, message: `The vc credential ${credentialId} does not exist (deleted?).` };
      const got = await obfTokenOfCredential(deps.credentials, credentialId, meetingNumber);
      return got.ok ? { ok: true, token: got.token, connection: got.credential } : { ok: false, message: `No OBF token from the stored credential: ${got.reason}.` };
    }
  }
};

/** The apps that could sign, opened: the bot's own, the connection's OAuth app, the team's stored credentials, the service's default. */
const signingCandidates = async (deps: JoinCredentialDeps, bot: BotOfJoin, connection: OAuthCredential | null): Promise<SigningCandidates<string>> => {
  const { sealer } = deps.credentials;
  const team = (await loadVcCredential(deps.credentials.commands, sdkCredentialIdOf(bot.team_id))).current;
  return {
    request: bot.vc?.sdk ? { sdk_key: bot.vc.sdk.sdk_id, secret: deps.secretBox.open(bot.vc.sdk.sdk_secret) } : null,
    connection: connection ? { sdk_key: connection.client_id, secret: await sealer.open(connection.key_id, connection.client_secret) } : null,
    team: team?.kind === 'sdk' && team.team_id === bot.team_id ? { sdk_key: team.sdk_id, secret: await sealer.open(team.key_id, team.sdk_secret) } : null,
    service: deps.defaultSdk ? { sdk_key: deps.defaultSdk.sdk_key, secret: deps.defaultSdk.sdk_secret } : null,
  };
};

/**
 * Everything a vc bot needs for one join, fetched and signed now by the service: its OBF token (from the
 * request, the token URL, or a stored connection refreshed as needed), its ZAK (from the ZAK URL), and a
 * Meeting SDK signature of the first app that applies (signing-app.ts), with the shortest life the
 * platform accepts. Nothing long-lived leaves the service: no secret, no refresh or access token.
 */
export const joinCredentialsOf = async (deps: JoinCredentialDeps, botId: string): Promise<JoinCredentialAnswer> => {
  const bot = await botOfJoin(deps, botId);
  if (bot === null) return refuse('INTERNAL_ERROR', 'The bot does not exist.');
  const source = bot.vc?.obf ?? null;
  const plan = { retry_seconds: deps.retrySeconds, renewable: source !== null && obfRenewable(source) };
  const meetingNumber = meetingNumberOf(bot.meeting_url);
  const needsToken = source !== null || (bot.vc?.zak_token_url ?? null) !== null;
  if (meetingNumber === null) {
    return needsToken ? refuse('CANNOT_JOIN_MEETING', 'The meeting URL has no meeting number the Meeting SDK can join.') : { ok: true, credentials: { sdk: null, ...plan } };
  }
  let obf: string | null = null;
  let connection: OAuthCredential | null = null;
  if (source !== null) {
    const got = await obfTokenOf(deps, botId, bot, source, meetingNumber);
    if (!got.ok) return refuse('VC_OBF_TOKEN_ERROR', got.message);
    obf = got.token;
    connection = got.connection;
  }
  let zak: string | null = null;
  if (bot.vc?.zak_token_url) {
    const got = await deps.tokenUrls.fetchToken({ url: bot.vc.zak_token_url, botId, extra: bot.extra });
    if (!got.ok) return refuse('VC_ACCESS_TOKEN_ERROR', `The ZAK token URL answered ${got.what}.`);
    zak = got.token;
  }
  let candidates: SigningCandidates<string>;
  try {
    candidates = await signingCandidates(deps, bot, connection);
  } catch (err) {
    if (err instanceof KeyDestroyedError) return refuse('CANNOT_GET_JWT_TOKEN', 'The SDK credentials were deleted while the bot was joining.');
    throw err;
  }
  const app = signingAppOf(candidates);
  if (app === null) {
    if (needsToken) return refuse('CANNOT_GET_JWT_TOKEN', 'No SDK credentials can sign this join (none given with the bot, stored for the team, or configured for the service), and a join with a token needs a signature.');
    return { ok: true, credentials: { sdk: null, ...plan } };
  }
  const role = zak !== null ? 1 : 0;
  const signature = deps.signSdkJwt(sdkSignatureClaims(app.sdk_key, meetingNumber, role, deps.credentials.commands.clock().getTime()), app.secret);
  return {
    ok: true,
    credentials: { sdk: { signature, sdk_key: app.sdk_key, meeting_number: meetingNumber, passcode: meetingPasscodeOf(bot.meeting_url), role, obf_token: obf, zak }, ...plan },
  };
};
