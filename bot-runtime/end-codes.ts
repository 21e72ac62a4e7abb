/**
 * How a run ends, mapped to the EndReport's outcome and the spec's v2 error code. Pure; the table is
 * documented in bot-runtime/README.md.
 */
import type { EndReport, Platform } from '../contract/bot-contract';
import type { LeaveReason, Phase } from './leave-rules';

export type EndCause =
  /** leave ControlRequest, or SIGINT/SIGTERM of a standalone bot */
  | { readonly kind: 'leave_requested' }
  /** SIGTERM/SIGINT of a bot started by the service */
  | { readonly kind: 'terminated'; readonly signal: string }
  | { readonly kind: 'removed' }
  | { readonly kind: 'meeting_ended' }
  /** the host, or the platform (a refused name), did not let the bot in */
  | { readonly kind: 'denied'; readonly message?: string }
  | { readonly kind: 'auto_leave'; readonly reason: LeaveReason }
  | { readonly kind: 'permission_denied' }
  | { readonly kind: 'invalid_url'; readonly message: string }
  | { readonly kind: 'cannot_join'; readonly message: string }
  /** the meeting lets only signed-in users in */
  | { readonly kind: 'login_required'; readonly message: string }
  /** the platform ended the request to join itself, nobody having answered (Meet after about 10 minutes) */
  | { readonly kind: 'lobby_expired'; readonly message: string }
  /** the page showed nothing the driver recognises for too long (a diagnostic was stored) */
  | { readonly kind: 'unrecognised_page'; readonly message: string }
  /** the bot could not sign in (mt), or no login had room and its fallback is `fail`: the service's code */
  | { readonly kind: 'sign_in_failed'; readonly error_code: string; readonly message: string }
  /** a streaming WebSocket of the job could not be connected before joining */
  | { readonly kind: 'streaming_setup_failed'; readonly message: string }
  | { readonly kind: 'internal_error'; readonly message: string }
  /** vc: the platform, or the service getting the join's tokens, refused the join with a vc code of the spec */
  | { readonly kind: 'vc_refused'; readonly error_code: string; readonly message: string }
  /** vc: the OBF token's user left the meeting, and the platform ended the bot's session with theirs */
  | { readonly kind: 'authorized_user_left' };

export interface EndContext {
  readonly platform: Platform;
  /** the phase the bot was in when the cause happened */
  readonly phase: Phase;
  /** in_call_recording was reported */
  readonly recordingStarted: boolean;
}

export type EndVerdict = Pick<EndReport, 'outcome' | 'error_code' | 'error_message'>;

const completed = (error_code: string, error_message: string): EndVerdict => ({ outcome: 'completed', error_code, error_message });
const failed = (error_code: string, error_message: string): EndVerdict => ({ outcome: 'failed', error_code, error_message });

/**
 * The spec keeps EXITING_MEETING_BEFORE_RECORD for a bot "left through the API, scheduled bot deletion or
 * calendar bot cancellation, or the meeting ended before admission": a leave before recording.
 */
const leaveRequested = (ctx: EndContext): EndVerdict =>
  ctx.recordingStarted
    ? completed('API_REQUEST', 'The bot was asked to leave.')
    : failed('EXITING_MEETING_BEFORE_RECORD', 'The bot was asked to leave before it started recording.');

const waiting = (phase: Phase) => phase === 'waiting_for_host' || phase === 'lobby' || phase === 'waiting_for_user';

/**
 * The spec (vc OBF behaviour, 3): the authorised user leaving ends the session; a bot that recorded ends
 * normally, its recording kept: BOT_REMOVED (the platform removed it), as the legacy `bot_removed`.
 */
const authorizedUserLeft = (ctx: EndContext): EndVerdict => {
  if (ctx.recordingStarted) return completed('BOT_REMOVED', 'The authorised user (OBF) left the meeting, and the platform ended the bot\'s session with theirs.');
  if (ctx.phase === 'in_call') return failed('BOT_REMOVED_TOO_EARLY', 'The authorised user (OBF) left the meeting before the bot recorded anything.');
  return failed('BOT_NOT_ACCEPTED', 'The authorised user (OBF) left the meeting while the bot waited to be admitted.');
};

export const endVerdict = (cause: EndCause, ctx: EndContext): EndVerdict => {
  switch (cause.kind) {
    case 'leave_requested':
      return leaveRequested(ctx);
    case 'terminated':
      return failed('SIGTERM', `The bot process received ${cause.signal}.`);
    case 'removed':
      if (waiting(ctx.phase) || ctx.phase === 'joining') return failed('BOT_NOT_ACCEPTED', 'The bot was removed from the waiting room.');
      if (ctx.recordingStarted) return completed('BOT_REMOVED', 'The bot was removed from the meeting.');
      // Admitted, but out before it recorded anything (vc awaiting permission): the spec's "video too short".
      return failed('BOT_REMOVED_TOO_EARLY', 'The bot was removed from the meeting before it recorded anything.');
    case 'meeting_ended':
      if (ctx.recordingStarted) return completed('BOT_REMOVED', 'The meeting ended.');
      // The spec's pre-recording stop names "the meeting ended before admission" on every platform; vc's own
      // code is for a meeting that ends after admission, while the recording permission is awaited.
      if (ctx.platform === 'vc' && ctx.phase === 'in_call') return failed('MEETING_ENDED_PREMATURELY', 'The meeting ended before the bot could record.');
      return failed('EXITING_MEETING_BEFORE_RECORD', 'The meeting ended before the bot could record.');
    case 'denied':
      return failed('BOT_NOT_ACCEPTED', cause.message ?? 'The host refused to admit the bot.');
    case 'permission_denied':
      return failed('RECORDING_RIGHTS_NOT_GRANTED', 'The host refused the recording permission.');
    case 'invalid_url':
      return failed('INVALID_MEETING_URL', cause.message);
    case 'cannot_join':
      return failed('CANNOT_JOIN_MEETING', cause.message);
    case 'login_required':
      // the spec's mt sign-in code; LOGIN_REQUIRED is its general one (tm, and vc until it has its own)
      return failed(ctx.platform === 'mt' ? 'MT_LOGIN_REQUIRED' : 'LOGIN_REQUIRED', cause.message);
    case 'lobby_expired':
      return failed('TIMEOUT_WAITING_TO_START', cause.message);
    case 'unrecognised_page':
      // before the call the bot could not join; in the call its driver lost track of the page
      return ctx.phase === 'in_call' ? failed('INTERNAL_ERROR', cause.message) : failed('CANNOT_JOIN_MEETING', cause.message);
    case 'streaming_setup_failed':
      return failed('STREAMING_SETUP_FAILED', cause.message);
    case 'sign_in_failed':
      return failed(cause.error_code, cause.message);
    case 'internal_error':
      return failed('INTERNAL_ERROR', cause.message);
    case 'vc_refused':
      return failed(cause.error_code, cause.message);
    case 'authorized_user_left':
      return authorizedUserLeft(ctx);
    case 'auto_leave':
      switch (cause.reason) {
        case 'waiting_room_timeout':
          if (ctx.phase === 'waiting_for_user') return failed('WAITING_FOR_AUTHORIZED_USER_TIMEOUT', 'The user of the OBF token did not join the meeting within the waiting room timeout.');
          // the host-absent code is vc's; elsewhere waiting for the host is waiting to start
          return ctx.phase === 'waiting_for_host' && ctx.platform === 'vc'
            ? failed('WAITING_FOR_HOST_TIMEOUT', 'The host did not start the meeting within the waiting room timeout.')
            : failed('TIMEOUT_WAITING_TO_START', 'The bot was not admitted within the waiting room timeout.');
        case 'permission_timeout':
          return failed('RECORDING_START_TIMEOUT', 'The host did not answer the recording permission request within the waiting room timeout.');
        case 'no_attendees':
          return completed('NO_ATTENDEES', 'Nobody else was in the meeting for the no-one-joined timeout.');
        case 'no_speaker':
          return completed('NO_SPEAKER', 'Nobody spoke for the silence timeout.');
        case 'recording_timeout':
          return completed('RECORDING_TIMEOUT', 'The maximum recording duration was reached.');
      }
  }
};
