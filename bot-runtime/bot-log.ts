/** The bot's own log: timestamped lines kept for the `bot.log` artifact and echoed to a sink (stderr by default). */
export class BotLog {
  private readonly lines: string[] = [];

  constructor(
    private readonly echo: ((line: string) => void) | null = (line) => process.stderr.write(`${line}\n`),
    private readonly clock: () => number = Date.now,
  ) {}

  info(message: string): void {
    this.write('info', message);
  }

  warn(message: string): void {
    this.write('warn', message);
  }

  error(message: string): void {
    this.write('error', message);
  }

  private write(level: string, message: string): void {
    const line = `${new Date(this.clock()).toISOString()} ${level} ${message}`;
    this.lines.push(line);
    this.echo?.(line);
  }

  text(): string {
    return this.lines.length ? `${this.lines.join('\n')}\n` : '';
  }
}
