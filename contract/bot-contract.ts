/**
 * The contract between the service and a bot runtime process, shared by both sides. Everything that
 * crosses the boundary is plain JSON so that a bot can run in another process or on another machine.
 */

export type Platform = 'vc' | 'tm' | 'mt';
export type RecordingMode = 'speaker_view' | 'audio_only' | 'gallery_view';

export interface TimeoutConfig {
  /** seconds */
  readonly waiting_room_timeout: number;
  readonly no_one_joined_timeout: number;
  readonly silence_timeout: number;
  /** seconds to stay after a leave condition is met, before leaving */
  readonly grace_period: number;
  /** seconds of recording at most; null: no cap beyond the service's 12 h */
  readonly max_recording_duration: number | null;
}

/** The service's upload endpoint: the bot's token opens it for this bot's artifacts only. */
export interface HttpUploadTarget {
  readonly kind: 'http';
  readonly baseUrl: string;
  readonly token: string;
}

/**
 * An S3-compatible bucket set the bot writes into directly, with a key that may only put objects (the
 * spec's ingest credential: PutObject, PutObjectTagging, AbortMultipartUpload). Objects are
 * `<prefix>/<key>` in the bucket `bucketRoleOf(artifact_type)` names.
 */
export interface S3UploadTarget {
  readonly kind: 's3';
  /** URI with scheme, e.g. https://s3.eu-west-1.amazonaws.com */
  readonly endpoint: string;
  readonly region: string;
  readonly force_path_style: boolean;
  readonly buckets: { readonly artifacts: string; readonly audio_chunks: string; readonly logs: string };
  readonly access_key_id: string;
  readonly secret_access_key: string;
  /** the bot id: every key of the bot starts with it */
  readonly prefix: string;
  /**
   * Where an artifact goes when the bucket keeps refusing it: the service holds a copy until the bucket
   * accepts it (the team's `allow_transient_spill`); null: the artifact is reported failed, and lost.
   */
  readonly spill: HttpUploadTarget | null;
}

/** Where artifacts go: a local folder (standalone), the service's upload endpoint, or a bucket. */
export type UploadTarget = { readonly kind: 'folder'; readonly path: string } | HttpUploadTarget | S3UploadTarget;

/** Which of the three buckets of a storage configuration holds an artifact type (the spec names three). */
export const bucketRoleOf = (artifactType: string): keyof S3UploadTarget['buckets'] =>
  artifactType === 'audio_chunk' ? 'audio_chunks' : artifactType === 'bot_log' ? 'logs' : 'artifacts';

/**
 * Audio out of and into the meeting over the customer's WebSockets (one socket when both URLs are the
 * same): a text handshake, then 100 ms S16LE mono frames at `audio_frequency` (bot-runtime/streaming/).
 */
export interface StreamingJob {
  readonly input_url: string | null;
  readonly output_url: string | null;
  /** 16000 | 24000 | 32000 | 48000 */
  readonly audio_frequency: number;
}

/** How several bot images are shown: cycled every `interval_seconds`, or only the first one (static). */
export interface BotImageConfigJob {
  readonly mode: 'cycle' | 'static';
  readonly interval_seconds: number;
}

export interface BotJob {
  readonly bot_id: string;
  readonly meeting_url: string;
  readonly platform: Platform;
  readonly bot_name: string;
  readonly bot_image: readonly string[];
  readonly entry_message: string | null;
  readonly recording_mode: RecordingMode;
  readonly timeout_config: TimeoutConfig;
  readonly ignored_participant_names: readonly string[];
  readonly upload: UploadTarget;
  /** Trust the sandbox's self-signed certificate (sandbox URLs only); only a service set up for development says so. */
  readonly trust_sandbox_certificate: boolean;
  /**
   * The customer's endpoints (bot images, streaming sockets, the customer's bucket) may be on private and
   * loopback addresses (development, tests). Absent or false: public addresses only, as in production.
   */
  readonly private_addresses_allowed?: boolean;
  /** absent or null: no streaming */
  readonly streaming?: StreamingJob | null;
  /** absent: cycle every 10 s */
  readonly bot_image_config?: BotImageConfigJob;
  /**
   * The bot signs in before joining (tm_config / mt_config): it asks the service for its sign-in
   * (`POST …/sign-in`, below) and reports how it went. No secret is in the job. Absent or null: a guest.
   */
  readonly sign_in?: { readonly platform: 'tm' | 'mt' } | null;
}

/**
 * What the service writes on a bot's standard input, as one JSON line: the job and how to reach the
 * service. The token travels here, never in the environment or on the command line, where Chromium and
 * the user's other processes could read it.
 */
export interface BotLaunch {
  readonly job: BotJob;
  readonly service_url: string;
  readonly token: string;
  /** tests only: a certificate authority the bot also trusts (the service's BOT_TEST_CA_PEM); never in production */
  readonly test_ca_pem?: string | null;
}

/** Statuses the bot reports while running, in the spec's v2 vocabulary. */
export type LiveStatus =
  | 'joining_call'
  | 'in_waiting_room'
  | 'in_call_not_recording'
  | 'in_call_recording'
  | 'recording_paused'
  | 'recording_resumed'
  | 'call_ended';

export interface StatusReport {
  readonly kind: 'status';
  readonly status: LiveStatus;
  readonly at: string; // ISO 8601
}

export interface ArtifactReport {
  readonly kind: 'artifact';
  /** e.g. recording, audio_chunk, screenshot, bot_log, chat_messages, participants */
  readonly artifact_type: string;
  /** object key relative to the bot's prefix, e.g. `recording.mp4` */
  readonly key: string;
  readonly content_type: string;
  readonly size_bytes: number;
  readonly at: string;
}

/** Who was in the meeting and who spoke (names, the bot itself left out); sent once, before the EndReport. */
export interface ParticipantsReport {
  readonly kind: 'participants';
  readonly participants: readonly string[];
  readonly speakers: readonly string[];
  readonly at: string;
}

/** The bucket kept refusing the artifact; the service holds a copy instead (S3UploadTarget.spill). */
export interface ArtifactSpilledReport {
  readonly kind: 'artifact_spilled';
  readonly artifact_type: string;
  readonly key: string;
  readonly content_type: string;
  readonly size_bytes: number;
  /** what the bucket said */
  readonly reason: string;
  readonly at: string;
}

/** The artifact could not be stored after retries, and nothing holds a copy: it is lost. */
export interface ArtifactFailedReport {
  readonly kind: 'artifact_failed';
  readonly artifact_type: string;
  readonly key: string;
  readonly content_type: string;
  readonly reason: string;
  readonly at: string;
}

/** The final report: exactly one per run. */
export interface EndReport {
  readonly kind: 'end';
  /** completed: normal end (error_code is the end reason); failed: the bot could not do its job */
  readonly outcome: 'completed' | 'failed';
  /** v2 code: API_REQUEST, BOT_REMOVED, NO_ATTENDEES, NO_SPEAKER, RECORDING_TIMEOUT, BOT_NOT_ACCEPTED, ... */
  readonly error_code: string;
  readonly error_message: string;
  /** seconds between in_call_recording and the end of recording; 0 when never recorded */
  readonly recorded_seconds: number;
  /** seconds spent in the waiting room (charged for BOT_NOT_ACCEPTED / TIMEOUT_WAITING_TO_START) */
  readonly waiting_room_seconds: number;
  /** vc: seconds the recording-permission request was pending (charged with the waiting room for RECORDING_START_TIMEOUT) */
  readonly permission_wait_seconds?: number;
  /** seconds each streaming direction was connected while recording (charged per direction); absent: no streaming */
  readonly streaming_seconds?: { readonly input: number; readonly output: number };
  readonly at: string;
}

export type BotReport = StatusReport | ArtifactReport | ArtifactSpilledReport | ArtifactFailedReport | ParticipantsReport | EndReport;

/** Requests the service sends to a running bot over the control channel. */
export type ControlRequest =
  | { readonly id: string; readonly kind: 'leave' }
  | { readonly id: string; readonly kind: 'chat'; readonly message: string };

export type ControlResult =
  | { readonly id: string; readonly ok: true }
  | { readonly id: string; readonly ok: false; readonly reason: 'chat_disabled' | 'not_in_call' | 'failed'; readonly message: string };

/**
 * The internal bot API of the service (HTTP, so a bot on another machine only needs to reach the
 * service). Every call carries `authorization: Bearer <per-bot token>`.
 *
 * - `POST {serviceUrl}/internal/bots/{bot_id}/reports` body: one BotReport -> 204
 * - `GET  {serviceUrl}/internal/bots/{bot_id}/control?wait_seconds=20` -> 200 `{ requests: ControlRequest[] }`
 *   (long poll: answers as soon as a request is pending, or with [] after the wait)
 * - `POST {serviceUrl}/internal/bots/{bot_id}/control/{request_id}/result` body: ControlResult -> 204
 * - `PUT  {serviceUrl}/internal/bots/{bot_id}/artifacts/{key}` raw bytes, `content-type` -> 204
 *   (UploadTarget kind `http`; `key` may contain `/`, e.g. `audio_chunks/000001.webm`)
 * - `POST {serviceUrl}/internal/bots/{bot_id}/sign-in` -> 200 SignInAnswer: the bot holds a session of a
 *   login from then on (released when it ends), or it joins as a guest, or it ends with the given code
 * - `POST {serviceUrl}/internal/bots/{bot_id}/sign-in/result` body SignInResult -> 200 `{ error_code }`
 *   (the code a failure stands for; an mt bot ends with it, a tm bot goes on as a guest)
 *
 * A bot process started by the service gets `BOT_JOB_ON_STDIN=1`, `SERVICE_URL` and `BOT_TOKEN` in its
 * environment and its job (JSON of BotJob, one line) on standard input, which the service keeps open: its
 * end means the service is gone, and the bot ends its run (SIGTERM). Exit code 0 after sending its
 * EndReport; any other exit means a crash.
 */
/** What the bot signs in with, only for its own run; or what it does when no login can take it. */
export type SignInAnswer =
  | { readonly outcome: 'sign_in'; readonly platform: 'tm'; readonly credential_id: string; readonly email: string; readonly password: string }
  /** `sso_ticket`: the one-time credential our identity provider asks the bot for */
  | { readonly outcome: 'sign_in'; readonly platform: 'mt'; readonly credential_id: string; readonly email: string; readonly sso_ticket: string }
  | { readonly outcome: 'anonymous'; readonly message: string }
  | { readonly outcome: 'fail'; readonly error_code: string; readonly error_message: string };

export type SignInFailureKind = 'wrong_password' | 'account_locked' | 'mfa_required' | 'account_not_found' | 'saml_rejected' | 'timeout';

export type SignInResult = { readonly ok: true } | { readonly ok: false; readonly kind: SignInFailureKind; readonly message: string };

export const internalPaths = {
  reports: (botId: string) => `/internal/bots/${botId}/reports`,
  control: (botId: string) => `/internal/bots/${botId}/control`,
  controlResult: (botId: string, requestId: string) => `/internal/bots/${botId}/control/${requestId}/result`,
  artifact: (botId: string, key: string) => `/internal/bots/${botId}/artifacts/${key}`,
  signIn: (botId: string) => `/internal/bots/${botId}/sign-in`,
  signInResult: (botId: string) => `/internal/bots/${botId}/sign-in/result`,
} as const;

/** Set to `1` in the environment of a bot process the service starts: its job comes on standard input. */
export const SERVICE_MODE_VARIABLE = 'BOT_JOB_ON_STDIN';

/**
 * vc joins with credentials: what the service gives a vc bot at each join (and each retry while the OBF
 * token's user is absent), from `POST {serviceUrl}/internal/bots/{bot_id}/vc-join`. `sdk` null: the bot
 * joins through the web client as anyone would (nothing to sign). Otherwise it joins through the
 * platform's Meeting SDK with these parameters, all short-lived and for this join only. A failure to get
 * them is answered 422 with `{ error_code, message }` (VC_OBF_TOKEN_ERROR, VC_ACCESS_TOKEN_ERROR,
 * CANNOT_GET_JWT_TOKEN, CANNOT_JOIN_MEETING), which is the bot's end.
 */
export interface VcSdkJoin {
  /** the Meeting SDK JWT, signed by the service with the app's secret (which never reaches the bot) */
  readonly signature: string;
  /** the signing app's key: what the banner's app is, for the bot's log */
  readonly sdk_key: string;
  readonly meeting_number: string;
  /** the meeting URL's `pwd`, the SDK's `passWord` */
  readonly passcode: string;
  /** 0: join; 1: start the meeting as its host (with the host's ZAK) */
  readonly role: 0 | 1;
  readonly obf_token: string | null;
  readonly zak: string | null;
}

export interface VcJoinCredentials {
  readonly sdk: VcSdkJoin | null;
  /** seconds between two joins while the authorised user is absent (spec: 30) */
  readonly retry_seconds: number;
  /** whether asking again gives a fresh OBF token (a token URL, a stored connection); a token of the request is the only one */
  readonly renewable: boolean;
}

export interface VcJoinRefusal {
  readonly error_code: string;
  readonly message: string;
}

export const vcJoinPath = (botId: string): string => `/internal/bots/${botId}/vc-join`;
