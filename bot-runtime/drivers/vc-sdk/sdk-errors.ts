/**
 * The Meeting SDK for Web's error codes (developers.zoom.us meeting-sdk/web/error-codes; the SDK's own
 * mapping of the platform's refusals, read in @zoom/meetingsdk 6.2.0) as the run's outcomes. Pure.
 */
import type { EndCause } from '../../end-codes';

export type SdkErrorOutcome =
  /** the OBF token's user is not in the meeting yet: join again later (spec: every 30 s) */
  | { readonly kind: 'retry' }
  | { readonly kind: 'waiting_for_host' }
  | { readonly kind: 'end'; readonly cause: EndCause };

const vc = (error_code: string, message: string): SdkErrorOutcome => ({ kind: 'end', cause: { kind: 'vc_refused', error_code, message } });

/**
 * `zak`: the join carried a ZAK (its refusals are the ZAK's, VC_ACCESS_TOKEN_ERROR); `obf`: it carried an
 * OBF token, and then the generic 1 ("Fail to join the meeting.") is read as the OBF user's absence, as
 * Attendee reads it (its zoom_web_chromedriver_page.js: SDK versions that report no 4017 say 1).
 */
export const sdkErrorOutcome = (code: number, message: string, context: { readonly zak: boolean; readonly obf?: boolean }): SdkErrorOutcome => {
  const words = `Meeting SDK error ${code}: ${message}`;
  switch (code) {
    case 4017:
      return { kind: 'retry' };
    case 1:
      return context.obf ? { kind: 'retry' } : { kind: 'end', cause: { kind: 'cannot_join', message: `Joining failed: ${words}.` } };
    case 3008:
      return { kind: 'waiting_for_host' };
    // the signature: invalid, expired, wrong meeting number or role, unknown or disabled key, no permission
    case 3704:
    case 3705:
    case 3706:
    case 3708:
    case 3710:
    case 3712:
    case 3713:
      return vc('SDK_AUTH_FAILED', `The platform refused the SDK signature (${words}).`);
    // another organisation's meeting: the app may not join it, or not without a user's token
    case 4011:
    case 4012:
    case 4013:
      return vc('UNABLE_JOIN_EXTERNAL_MEETING', `The SDK app may not join this meeting of another organisation: allow it in the marketplace app settings or use an OBF token of a user of the meeting's organisation (${words}).`);
    case 4014:
    case 4015:
    case 3636:
      return vc('VC_OBF_TOKEN_ERROR', `The platform refused the OBF token (${words}).`);
    case 3265:
    case 3003:
      return context.zak ? vc('VC_ACCESS_TOKEN_ERROR', `The platform refused the ZAK (${words}).`) : vc('SDK_AUTH_FAILED', `The platform refused the join (${words}).`);
    case 3009:
      return { kind: 'end', cause: { kind: 'removed' } };
    case 4004:
      return { kind: 'end', cause: { kind: 'meeting_ended' } };
    case 3100:
      return { kind: 'end', cause: { kind: 'login_required', message: `The meeting lets only signed-in users in (${words}).` } };
    default:
      return { kind: 'end', cause: { kind: 'cannot_join', message: `Joining failed: ${words}.` } };
  }
};

/** The platform ended the bot's session because the OBF token's user left (error 4019). */
export const AUTHORIZED_USER_LEFT_CODE = 4019;
