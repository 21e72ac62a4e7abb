/**
 * What the bot noted of the meeting from its reads of the page: its own participant id, the chat
 * messages and the participants (the `chat_messages.json` and `participants.json` artifacts), and the
 * last screen it saw (to know whether there is a call to leave).
 */
import { ChatLog, type ChatMessageRecord } from '../chat-log';
import type { PageSnapshot, Screen } from '../drivers/page-driver';
import { ParticipantsLog, type ParticipantsArtifact } from '../participants-log';

export class MeetingNotes {
  private readonly chat: ChatLog;
  private readonly participants: ParticipantsLog;
  private self: string | null = null;
  private screen: Screen | null = null;

  constructor(botName: string, ignoredNames: readonly string[]) {
    this.chat = new ChatLog(botName);
    this.participants = new ParticipantsLog(ignoredNames);
  }

  /** the bot's own participant id, once the page has shown it */
  get selfId(): string | null {
    return this.self;
  }

  get lastScreen(): Screen | null {
    return this.screen;
  }

  /** chat messages noted so far: the page is asked only for the ones after them */
  get chatCount(): number {
    return this.chat.count;
  }

  /** A tick's read of the page: the screen, the bot's id as soon as it shows, new chat messages. */
  noteSnapshot(now: number, snap: PageSnapshot): void {
    this.screen = snap.screen;
    if (snap.selfId && snap.selfId !== this.self) {
      this.self = snap.selfId;
      this.participants.setSelf(snap.selfId);
    }
    if (snap.chat.length) this.chat.add(now, snap.chat, this.self);
  }

  /** Who is present and who speaks (only while the bot is in the call). */
  noteParticipants(now: number, snap: PageSnapshot): void {
    this.participants.update(now, snap.participants, snap.activeSpeaker);
  }

  /** The read just before leaving: chat messages and participants seen at the very end. */
  noteLastLook(now: number, snap: PageSnapshot): void {
    if (snap.chat.length) this.chat.add(now, snap.chat, this.self);
    if (snap.screen === 'in_call') this.participants.update(now, snap.participants, snap.activeSpeaker);
    this.screen = snap.screen;
  }

  /** The bot is out: every presence and speaking turn still open ends now. */
  close(now: number): void {
    this.participants.close(now);
  }

  /** Everyone's names seen so far (to keep them out of diagnostics). */
  knownNames(): string[] {
    return this.participants.toArtifact().participants.map((p) => p.name);
  }

  chatArtifact(): ChatMessageRecord[] {
    return this.chat.toArtifact();
  }

  participantsArtifact(): ParticipantsArtifact {
    return this.participants.toArtifact();
  }

  participantsSummary(): { readonly participants: string[]; readonly speakers: string[] } {
    return this.participants.summary();
  }
}
