/** The `chat_messages.json` artifact: every message seen in the chat panel, in order. Pure (time comes in). */

export interface SeenChatMessage {
  readonly sender_name: string;
  readonly participant_id: string | null;
  readonly text: string;
}

export interface ChatMessageRecord {
  /** the sender's participant id; null for the bot's own messages (spec) */
  readonly sender_id: string | null;
  readonly sender_name: string;
  readonly text: string;
  /** when the bot first saw the message */
  readonly seen_at: string;
}

export class ChatLog {
  private readonly records: ChatMessageRecord[] = [];

  constructor(private readonly botName: string) {}

  /** Messages seen so far (the page's list only grows; the next `add` passes the ones after `count`). */
  get count(): number {
    return this.records.length;
  }

  add(now: number, messages: readonly SeenChatMessage[], selfId: string | null): void {
    for (const m of messages) {
      const own = selfId !== null && m.participant_id === selfId;
      this.records.push({
        sender_id: own ? null : m.participant_id,
        sender_name: own ? this.botName : m.sender_name,
        text: m.text,
        seen_at: new Date(now).toISOString(),
      });
    }
  }

  toArtifact(): ChatMessageRecord[] {
    return [...this.records];
  }
}
