import * as fs from 'node:fs';
import * as path from 'node:path';
import type { BotReport } from '../../contract/bot-contract';
import type { Reporter } from './reporter';

/** Standalone mode: prints each report as one JSON line and appends it to `<dir>/reports.jsonl` when a folder is given. */
export class ConsoleReporter implements Reporter {
  constructor(
    private readonly dir: string | null,
    private readonly print: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
  ) {}

  async report(report: BotReport): Promise<void> {
    const line = JSON.stringify(report);
    this.print(line);
    if (this.dir) {
      await fs.promises.mkdir(this.dir, { recursive: true });
      await fs.promises.appendFile(path.join(this.dir, 'reports.jsonl'), `${line}\n`);
    }
  }
}
