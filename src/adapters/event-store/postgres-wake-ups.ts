import pg from 'pg';

const RECONNECT_MS = 1000;

/**
 * A connection of its own that LISTENs on one channel (a pooled connection would be handed to other
 * queries and miss notices). When it drops it connects again after a pause: notices sent meanwhile are
 * lost, which is why subscriptions also poll.
 */
export class PostgresWakeUps {
  private client: pg.Client | null = null;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;
  private readonly listeners: (() => void)[] = [];

  private constructor(
    private readonly url: string,
    private readonly channel: string,
  ) {}

  /** Listens before it returns: a server that cannot be reached fails the start. */
  static async listen(url: string, channel: string): Promise<PostgresWakeUps> {
    const wakeUps = new PostgresWakeUps(url, channel);
    await wakeUps.connect();
    return wakeUps;
  }

  onNotice(listener: () => void): void {
    this.listeners.push(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 10_000, application_name: `meeting-bot-service listener ${this.channel}` });
    const lost = () => {
      if (this.client !== client) return;
      this.client = null;
      client.end().catch(() => undefined);
      this.reconnectLater();
      // Whatever was appended while the connection was going down is found by reading now.
      this.notify();
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', () => this.notify());
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
  }

  private reconnectLater(): void {
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      if (this.closed) return;
      this.connect().then(
        () => this.notify(),
        () => this.reconnectLater(),
      );
    }, RECONNECT_MS);
    this.retry.unref();
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}
