/**
 * The vc platform's accounts as the sandbox keeps them: organisations, SDK apps (key, secret, name, whether
 * the marketplace lets them join other organisations' meetings), users, and the tokens the platform issues
 * them: OBF tokens (a user's authorisation of an app, for one meeting, short-lived, single use) and ZAKs (a
 * user's own access key). Tokens are JWTs signed with the sandbox's own secret; `revoke` withdraws them.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { SandboxError } from '../meeting-state';
import { DEFAULT_ORGANISATION } from './sdk-sessions';
import { jwtSignedWith, peekJwt, signJwt } from './jwt';

export interface SdkApp {
  readonly sdk_key: string;
  readonly sdk_secret: string;
  readonly name: string;
  readonly organisation: string;
  /** the marketplace allows it to join meetings of other organisations (with an OBF token or a ZAK) */
  readonly external: boolean;
}

export interface VcUser {
  readonly user_id: string;
  readonly name: string;
  readonly organisation: string;
}

export type PlatformTokenType = 'onbehalf' | 'zak';

export interface PlatformTokenClaims {
  readonly typ: PlatformTokenType;
  readonly uid: string;
  /** onbehalf: the app it authorises, and the meeting */
  readonly aid?: string;
  readonly mn?: string;
  readonly iat: number;
  readonly exp: number;
  readonly jti: string;
}

export type TokenCheck = { readonly ok: true; readonly claims: PlatformTokenClaims; readonly user: VcUser } | { readonly ok: false; readonly why: string };

const NAME = /^[A-Za-z0-9._ -]{1,64}$/;

const stringField = (body: Record<string, unknown>, key: string, fallback?: string): string => {
  const value = body[key] ?? fallback;
  if (typeof value !== 'string' || !NAME.test(value)) throw new SandboxError(400, `${key} must be 1 to 64 letters, digits, spaces, '.', '_' or '-'`);
  return value;
};

export class VcIdentity {
  readonly apps = new Map<string, SdkApp>();
  readonly users = new Map<string, VcUser>();
  private readonly secret = randomBytes(32);
  private readonly used = new Set<string>();
  private readonly revoked = new Set<string>();

  createApp(body: Record<string, unknown>): SdkApp {
    if (body.external !== undefined && typeof body.external !== 'boolean') throw new SandboxError(400, 'external must be a boolean');
    const app: SdkApp = {
      sdk_key: body.sdk_key === undefined ? `sdk-${randomBytes(9).toString('base64url')}` : stringField(body, 'sdk_key'),
      sdk_secret: body.sdk_secret === undefined ? randomBytes(24).toString('base64url') : stringField(body, 'sdk_secret'),
      name: stringField(body, 'name'),
      organisation: stringField(body, 'organisation', DEFAULT_ORGANISATION),
      external: body.external ?? false,
    };
    if (this.apps.has(app.sdk_key)) throw new SandboxError(409, `an app with key ${app.sdk_key} exists`);
    this.apps.set(app.sdk_key, app);
    return app;
  }

  createUser(body: Record<string, unknown>): VcUser {
    const user: VcUser = {
      user_id: body.user_id === undefined ? randomUUID().replace(/-/g, '').slice(0, 22) : stringField(body, 'user_id'),
      name: stringField(body, 'name'),
      organisation: stringField(body, 'organisation', DEFAULT_ORGANISATION),
    };
    if (this.users.has(user.user_id)) throw new SandboxError(409, `a user ${user.user_id} exists`);
    this.users.set(user.user_id, user);
    return user;
  }

  user(userId: unknown): VcUser {
    const user = typeof userId === 'string' ? this.users.get(userId) : undefined;
    if (!user) throw new SandboxError(404, `no vc user ${String(userId)}`);
    return user;
  }

  /** POST /control/vc/tokens: what the platform's REST API hands out (`GET /users/me/token?type=…`). */
  issue(body: Record<string, unknown>, now: number): { token: string; expires_at: string } {
    const user = this.user(body.user_id);
    const typ = body.type;
    if (typ !== 'onbehalf' && typ !== 'zak') throw new SandboxError(400, 'type must be onbehalf or zak');
    const ttl = body.ttl_seconds === undefined ? 7200 : body.ttl_seconds;
    if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < 1 || ttl > 365 * 86400) throw new SandboxError(400, 'ttl_seconds must be a whole number of seconds, at most a year');
    const iat = Math.floor(now / 1000);
    const claims: PlatformTokenClaims = { typ, uid: user.user_id, iat, exp: iat + ttl, jti: randomUUID() };
    if (typ === 'onbehalf') {
      if (typeof body.sdk_key !== 'string' || !this.apps.has(body.sdk_key)) throw new SandboxError(400, 'sdk_key must name an SDK app (the app the user authorises)');
      if (typeof body.meeting_id !== 'string' || !/^\d{9,11}$/.test(body.meeting_id)) throw new SandboxError(400, 'meeting_id must be a meeting number');
      Object.assign(claims, { aid: body.sdk_key, mn: body.meeting_id });
    }
    return { token: signJwt({ ...claims }, this.secret), expires_at: new Date((iat + ttl) * 1000).toISOString() };
  }

  /** POST /control/vc/tokens/revoke: one token, or every token of a user. */
  revoke(body: Record<string, unknown>): void {
    if (typeof body.token === 'string') {
      const claims = peekJwt(body.token);
      if (!claims || typeof claims.jti !== 'string') throw new SandboxError(400, 'token is not a token of this platform');
      this.revoked.add(claims.jti);
      return;
    }
    this.revoked.add(`user:${this.user(body.user_id).user_id}`);
  }

  check(token: string, typ: PlatformTokenType, now: number): TokenCheck {
    const claims = peekJwt(token) as Partial<PlatformTokenClaims> | null;
    if (!claims || !jwtSignedWith(token, this.secret)) return { ok: false, why: 'not a token of this platform' };
    if (claims.typ !== typ) return { ok: false, why: `not a ${typ} token` };
    if (typeof claims.exp !== 'number' || claims.exp <= Math.floor(now / 1000)) return { ok: false, why: 'expired' };
    if (this.revoked.has(claims.jti ?? '') || this.revoked.has(`user:${claims.uid}`)) return { ok: false, why: 'revoked' };
    if (this.used.has(claims.jti ?? '')) return { ok: false, why: 'already used (OBF tokens are single use)' };
    const user = this.users.get(claims.uid ?? '');
    if (!user) return { ok: false, why: 'its user does not exist' };
    return { ok: true, claims: claims as PlatformTokenClaims, user };
  }

  /** An OBF token that let an app in is spent. */
  spend(claims: PlatformTokenClaims): void {
    this.used.add(claims.jti);
  }
}
