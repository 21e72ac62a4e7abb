/**
 * The vc platform's rules for a join through its Meeting SDK, as its documentation states them
 * (developers.zoom.us meeting-sdk/auth and obf-faq), answered with the Meeting SDK for Web's own error
 * codes (the SDK's client code maps the platform's refusals to these):
 * - the join is signed by an SDK app (HS256 JWT `{appKey, sdkKey, mn, role, iat, exp, tokenExp}`, exp 1800 s
 *   to 48 h after iat): 3712 invalid signature, 3704 unknown key, 3705 expired, 3706 wrong meeting number,
 *   3708 wrong role;
 * - an OBF token and a ZAK together: 3636 (the SDK refuses it);
 * - a meeting of another organisation: the app must be allowed to join them (4011), and the join must be
 *   attributed to a user: an OBF token or a ZAK (4012, "anonymous joins are not allowed for this SDK app");
 * - an OBF token must be the platform's, unexpired, unused, for this app (4014) and this meeting (4015),
 *   and its user must be in the meeting (4017); the app then stays only while that user does (4019);
 * - a ZAK must be valid (3265); with role 1 it must be the host's (3003), and it starts the meeting.
 */
import { hostStart, log, notEnded, participant as participantOf, SandboxError, setState, type Meeting, type Participant } from '../meeting-state';
import { displayNameProblem } from '../tm-guest-name';
import { jwtSignedWith, peekJwt } from './jwt';
import { userInCall, type SdkEntry } from './sdk-sessions';
import type { VcIdentity } from './vc-identity';

/**
 * A join through the Meeting SDK whose rules (below) were checked: the platform's wall for web-client bots
 * does not apply (this is the sanctioned path); the host's ZAK starts the meeting and enters directly,
 * anyone else waits for the host and the lobby like a person.
 */
function requestSdkJoin(meeting: Meeting, participantId: string, name: unknown, entry: SdkEntry, now: number): Participant {
  const p = participantOf(meeting, participantId);
  notEnded(meeting);
  if (p.state !== 'prejoin') throw new SandboxError(409, `cannot join from state ${p.state}`);
  const raw = typeof name === 'string' ? name : '';
  const problem = displayNameProblem(raw);
  if (problem) throw new SandboxError(400, `This name cannot be used: ${problem}`);
  p.name = raw;
  p.requested_at = now;
  p.last_seen = now;
  p.user_id = entry.user_id;
  p.authorized_by = entry.authorized_by;
  p.sdk_app = entry.app;
  log(meeting, now, 'join_requested', participantId, `${raw} via SDK app ${entry.app.name}${entry.authorized_by ? ` on behalf of ${entry.authorized_by}` : ''}${entry.user_id ? ` as ${entry.user_id}` : ''}`);
  if (entry.as_host) {
    hostStart(meeting, now);
    setState(meeting, p, 'in_call', now, 'host (ZAK)');
  } else if (!meeting.host_present) setState(meeting, p, 'waiting_for_host', now);
  else setState(meeting, p, meeting.lobby ? 'lobby' : 'in_call', now);
  return p;
}

/** The Meeting SDK's join parameters as the page sends them (signature, meetingNumber, userName, passWord, obfToken, zak). */
export type SdkJoinRequest = Readonly<Record<string, unknown>>;

export type SdkJoinResult = { readonly ok: true; readonly participant: Participant } | { readonly ok: false; readonly errorCode: number; readonly errorMessage: string };

const refuse = (errorCode: number, errorMessage: string): SdkJoinResult => ({ ok: false, errorCode, errorMessage });

const given = (u: unknown): u is string => typeof u === 'string' && u !== '';

/**
 * The platform's own check of a signature's times and role (written here from its documentation, not
 * taken from the service, so that the service is tested against the rules rather than against itself).
 */
const claimsRefusal = (claims: Record<string, unknown>, now: number): SdkJoinResult | null => {
  const seconds = Math.floor(now / 1000);
  const { iat, exp, tokenExp, role } = claims;
  if (role !== 0 && role !== 1) return refuse(3708, 'Incorrect role.');
  if (typeof iat !== 'number' || typeof exp !== 'number') return refuse(3712, 'Signature is invalid.');
  if (exp - iat < 1800 || exp - iat > 48 * 3600 || iat > seconds + 60) return refuse(3712, 'Signature is invalid.');
  if (exp <= seconds || (typeof tokenExp === 'number' && tokenExp <= seconds)) return refuse(3705, 'The signature has expired.');
  if (claims.sdkKey !== undefined && claims.appKey !== undefined && claims.sdkKey !== claims.appKey) return refuse(3712, 'Signature is invalid.');
  return null;
};

export const sdkJoin = (
  meeting: Meeting,
  identity: VcIdentity,
  participantId: string,
  request: SdkJoinRequest,
  passcodeOk: (passWord: unknown) => boolean,
  now: number,
): SdkJoinResult => {
  if (!given(request.signature)) return refuse(3712, 'Signature is invalid.');
  const claims = peekJwt(request.signature);
  const key = claims?.appKey ?? claims?.sdkKey;
  const app = typeof key === 'string' ? identity.apps.get(key) : undefined;
  if (!claims) return refuse(3712, 'Signature is invalid.');
  if (!app) return refuse(3704, 'The accounts API Key is not valid.');
  if (!jwtSignedWith(request.signature, app.sdk_secret)) return refuse(3712, 'Signature is invalid.');
  const refused = claimsRefusal(claims, now);
  if (refused !== null) return refused;
  if (String(claims.mn) !== meeting.meeting_id || String(request.meetingNumber) !== meeting.meeting_id) return refuse(3706, 'The meeting number is wrong.');
  const obf = given(request.obfToken) ? request.obfToken : null;
  const zak = given(request.zak) ? request.zak : null;
  if (obf !== null && zak !== null) return refuse(3636, 'Token error');
  if (meeting.ended) return refuse(4004, 'The meeting has been ended');
  if (!passcodeOk(request.passWord)) return refuse(3004, 'Wrong meeting password.');

  const external = app.organisation !== meeting.organisation;
  if (external && !app.external) return refuse(4011, 'This SDK app may not join meetings of other accounts (cross account join error).');
  let user: string | null = null;
  let asHost = false;
  if (zak !== null) {
    const checked = identity.check(zak, 'zak', now);
    if (!checked.ok) return refuse(3265, `Token error: the ZAK is ${checked.why}.`);
    if (claims.role === 1 && checked.user.user_id !== meeting.host_user_id) return refuse(3003, 'You are not the meeting host.');
    user = checked.user.user_id;
    asHost = claims.role === 1;
  } else if (claims.role === 1) return refuse(3003, 'You are not the meeting host.');
  let authorisedBy: string | null = null;
  if (obf !== null) {
    const checked = identity.check(obf, 'onbehalf', now);
    if (!checked.ok) return refuse(4014, `The OBF token is invalid (${checked.why}). Please check the OBF token and try again.`);
    if (checked.claims.aid !== app.sdk_key) return refuse(4014, 'The OBF token is invalid (it authorises another app). Please check the OBF token and try again.');
    if (checked.claims.mn !== meeting.meeting_id) return refuse(4015, 'The meeting number associated with the provided OBF token does not match the current meeting.');
    if (!userInCall(meeting, checked.user.user_id)) return refuse(4017, 'Authorized user not in meeting.');
    identity.spend(checked.claims);
    authorisedBy = checked.user.user_id;
  }
  if (external && user === null && authorisedBy === null) return refuse(4012, 'Anonymous joins are not allowed for this SDK app. Authenticate the Zoom user and provide a ZAK or OBF token.');
  const participant = requestSdkJoin(meeting, participantId, request.userName, { app: { key: app.sdk_key, name: app.name }, user_id: user, authorized_by: authorisedBy, as_host: asHost }, now);
  return { ok: true, participant };
};
