import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import bunyan from 'bunyan';
import { SqliteCheckpointStore } from '../../src/adapters/checkpoint-store/sqlite-checkpoint-store';
import { ServiceKeys } from '../../src/adapters/signing/service-keys';
import { SecretBox } from '../../src/adapters/crypto/secret-box';
import { artifactStores } from '../../src/adapters/object-store/artifact-stores';
import { LocalFolderObjectStore } from '../../src/adapters/object-store/local-folder-object-store';
import type { ProviderName, ProviderTranscript, TranscriptionProvider, TranscriptionRequest } from '../../src/adapters/transcription/port';
import { defaultBotConfig } from '../../src/domain/bot/bot-config';
import type { DomainEvent } from '../../src/domain/all-events';
import { SubscriberRunner } from '../../src/subscribers/subscriber-runner';
import { transcribeRecordings } from '../../src/subscribers/transcribe-recordings';
import { temporarySqliteStore, waitFor } from './support';

const T0 = '2026-06-01T09:00:00.000Z';
const T1 = '2026-06-01T09:30:00.000Z';

/**
 * A provider that starts what it is given and finishes each transcription only when the test says so:
 * the order in which it is given recordings is the order in which the service served the teams.
 */
class GatedProvider implements TranscriptionProvider {
  readonly name = 'Default' as const;
  readonly started: string[] = [];
  private readonly finish = new Map<string, () => void>();

  problemWith(): string | null {
    return null;
  }

  async transcribe(request: TranscriptionRequest): Promise<ProviderTranscript> {
    // Each stand-in recording holds its bot's name.
    const bot = readFileSync(request.audio.path!, 'utf8');
    this.started.push(bot);
    await new Promise<void>((resolve) => this.finish.set(bot, resolve));
    return { provider: 'Default', jobIds: [], raw: {}, words: [], language: null, duration: null };
  }

  release(bot: string): void {
    const finish = this.finish.get(bot);
    assert.ok(finish, `${bot} is not being transcribed`);
    finish();
  }
}

describe('transcriptions are fair between teams', function () {
  this.timeout(30_000);

  it('a team’s single recording is transcribed right after the one running, not after another team’s backlog', async () => {
    const { store, dispose } = temporarySqliteStore();
    const folder = mkdtempSync(path.join(os.tmpdir(), 'mbs-fair-'));
    const checkpoints = new SqliteCheckpointStore(path.join(folder, 'checkpoints.sqlite3'));
    const log = bunyan.createLogger({ name: 'test', level: 'fatal' });
    const provider = new GatedProvider();
    const service = new LocalFolderObjectStore(path.join(folder, 'artifacts'), (key) => `http://127.0.0.1:9/${key}`);
    const transcriber = transcribeRecordings({
      commands: { eventStore: store, clock: () => new Date(T1), newId: randomUUID },
      stores: artifactStores(service, new SecretBox(new ServiceKeys([randomBytes(32)])), { publicAddressesOnly: false }),
      secretBox: new SecretBox(new ServiceKeys([randomBytes(32)])),
      providers: { Default: provider } as unknown as Record<ProviderName, TranscriptionProvider>,
      log,
      slots: { total: 1, perTeam: 1 },
    });
    // Counts the requests the subscriber has taken in (it must take them all while one is transcribed).
    let taken = 0;
    const runner = new SubscriberRunner(
      store,
      checkpoints,
      {
        ...transcriber,
        handle: async (event: DomainEvent, recorded) => {
          await transcriber.handle(event, recorded);
          if (event.type === 'TranscriptionRequested') taken += 1;
        },
      },
      log,
    );

    // Team A's four bots end, then team B's one: each recorded, asking for transcription.
    const bots = [...['a1', 'a2', 'a3', 'a4'].map((name) => ({ name, team: 'team-a' })), { name: 'b1', team: 'team-b' }];
    for (const { name, team } of bots) {
      const bot_id = randomUUID();
      await service.put(`${bot_id}/recording.mp3`, Buffer.from(name), 'audio/mpeg');
      const config = { ...defaultBotConfig(), transcription: { provider: 'Default', api_key: null, custom_params: null } };
      const events = [
        { type: 'BotCreated', data: { bot_id, team_id: team, meeting_url: 'https://meet.google.com/abc-defg-hij', platform: 'mt', bot_name: name, extra: null, config, created_by: null, created_at: T0 } },
        { type: 'StatusChanged', data: { bot_id, status: 'in_call_recording', at: T0 } },
        { type: 'ArtifactStored', data: { bot_id, artifact_type: 'recording', key: 'recording.mp3', content_type: 'audio/mpeg', size_bytes: name.length, at: T1 } },
        { type: 'BotCompleted', data: { bot_id, end_reason: 'API_REQUEST', usage: { recorded_seconds: 60, waiting_room_seconds: 0 }, at: T1 } },
      ];
      await store.appendToStream(`bot-${bot_id}`, events.map((e) => ({ id: randomUUID(), ...e })), 'no_stream');
    }

    try {
      await runner.start();
      await waitFor(() => provider.started.length === 1 && taken === bots.length, 'the first transcription running and every request taken in');
      assert.deepEqual(provider.started, ['a1']);
      for (let served = 1; served < bots.length; served++) {
        provider.release(provider.started[served - 1]!);
        await waitFor(() => provider.started.length === served + 1, `transcription ${served + 1}`);
      }
      assert.deepEqual(provider.started, ['a1', 'b1', 'a2', 'a3', 'a4']);
      provider.release('a4');
    } finally {
      transcriber.stop();
      await runner.stop();
      await checkpoints.close();
      await dispose();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
