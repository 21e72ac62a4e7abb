/**
 * Which fields of the log hold personal data of a bot's meeting, whose they are (the bot's), and what stands
 * in their place once the bot's data is deleted (docs/decisions.md, "Issue 25: real clients and deleting a
 * bot's data"). The log seals these fields with the bot's own data key when they are appended and opens
 * them when they are read; deleting the bot's data destroys the key, and every reader, rebuilds included,
 * then gets the placeholders. Everything else (statuses, times, usage, charges, artifact keys, who read
 * what) stays readable: it is the audit of what happened, and what billing needs.
 *
 * Personal: what names or describes people or their meeting, and free text or data the team attached for
 * them. The meeting link (it identifies a person's meeting room, often with its passcode), the bot's name
 * (it is shown to the participants and often names the person it works for), `extra` and the
 * deduplication key (the team's own data about the meeting, often names or e-mail addresses), the entry
 * message, the names the bot ignores, the participants and speakers it saw, the chat it was asked to post
 * and posted, and the transcription provider's custom parameters (vocabularies of names). The recording,
 * transcripts, chat and participant files are artifacts: they are erased from their stores, not sealed.
 * Not personal: statuses, times, error codes and messages the service wrote, usage, artifact keys, the
 * team's own endpoints (webhook, callback, streaming URLs), settings (timeouts, recording mode, images).
 */

export interface PersonalField {
  /** where it is in the event's data */
  readonly path: readonly string[];
  /** what every reader gets once the bot's data is deleted: a value of the field's own type */
  readonly placeholder: unknown;
}

export const DELETED_TEXT = '[deleted]';
/** A link that names no meeting (`.invalid` is reserved, RFC 2606) and is still a URL, as readers expect. */
export const DELETED_MEETING_URL = 'https://deleted.invalid/';

const field = (path: string, placeholder: unknown): PersonalField => ({ path: path.split('.'), placeholder });

/** What a bot is asked to do, wherever an event carries it (creation, schedule, its change). */
const definitionFields: readonly PersonalField[] = [
  field('meeting_url', DELETED_MEETING_URL),
  field('bot_name', DELETED_TEXT),
  field('extra', null),
  field('config.entry_message', null),
  field('config.ignored_participant_names', []),
  field('config.deduplication_key', null),
  field('config.transcription.custom_params', null),
  // the first stored shape of the config, the whole v2 request (bot-config-upcast.ts)
  field('config.transcription_config.custom_params', null),
];

const personalFieldsByType: Readonly<Record<string, readonly PersonalField[]>> = {
  BotCreated: definitionFields,
  BotScheduled: definitionFields,
  BotScheduleChanged: definitionFields,
  // the team's chat message, asked for (recorded for the bot to take up) and then posted
  ChatMessageRequested: [field('message', DELETED_TEXT)],
  ChatMessageSent: [field('message', DELETED_TEXT)],
  ParticipantsReported: [field('participants', []), field('speakers', [])],
  TranscriptionRequested: [field('custom_params', null)],
  MeetingLocked: [field('meeting_url', DELETED_MEETING_URL)],
  MeetingLockReleased: [field('meeting_url', DELETED_MEETING_URL)],
  DeduplicationKeyClaimed: [field('deduplication_key', DELETED_TEXT)],
  DeduplicationKeyReleased: [field('deduplication_key', DELETED_TEXT)],
  // a message about a bot keeps what its webhook said of it (links are minted when sent)
  WebhookMessageQueued: [field('payload.data.extra', null), field('payload.data.participants', []), field('payload.data.speakers', [])],
};

/** The personal fields of an event of this type (none for most). */
export const personalFieldsOf = (type: string): readonly PersonalField[] => personalFieldsByType[type] ?? [];

const botOfSubject = (subject: unknown): string | null => (typeof subject === 'string' && subject.startsWith('bot-') ? subject.slice('bot-'.length) : null);

/**
 * The bot whose personal data an event carries: its `bot_id` (the bot's own events, its meeting registration,
 * its deduplication claim), or the bot a webhook message is about. Null: the event holds none of a bot's.
 */
export const personalDataOwnerOf = (type: string, data: Readonly<Record<string, unknown>>): string | null => {
  if (personalFieldsOf(type).length === 0) return null;
  if (type === 'WebhookMessageQueued') return botOfSubject(data.subject);
  return typeof data.bot_id === 'string' ? data.bot_id : null;
};
