import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { adminClient, apiClient, createTeam, MEETING } from '../support/http-client';
import { freePort, ServiceProcess } from '../support/service-process';

interface CaughtUp {
  readonly resumed_from: string | null;
  readonly events_folded: number;
}

/** What the projector said when it had caught up at this start. */
const caughtUpAtStart = (service: ServiceProcess): CaughtUp => {
  const lines = service
    .logText()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { msg: string } & CaughtUp);
  const caughtUp = lines.filter((line) => line.msg === 'read models caught up with the log');
  assert.equal(caughtUp.length, 1, service.logText());
  return caughtUp[0]!;
};

const eventsInLog = (dataDir: string): number => {
  const db = new Database(path.join(dataDir, 'events.sqlite3'), { readonly: true });
  try {
    return db.prepare('SELECT count(*) FROM events').pluck().get() as number;
  } finally {
    db.close();
  }
};

describe('the embedded read store survives a SIGKILL of the service (a real service process)', function () {
  this.timeout(120_000);
  let dataDir: string;
  let service: ServiceProcess;

  before(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'mbs-read-models-'));
    service = new ServiceProcess(await freePort(), { DATA_DIR: dataDir, BOT_SLOTS: '0', LOG_LEVEL: 'info' });
  });
  after(async () => {
    await service.kill();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('resumes from its checkpoint instead of folding the log from the start, and answers as before', async () => {
    await service.start();
    assert.equal(caughtUpAtStart(service).resumed_from, null, 'a new data folder folds from the start');
    const team = await createTeam(service.url, { tokens: 100 });
    const api = apiClient(service.url, team.api_key);
    const bots: string[] = [];
    for (let i = 0; i < 12; i++) {
      const created = await api.post('/v2/bots', { meeting_url: MEETING, bot_name: `Bot ${i}`, extra: { n: i } });
      assert.equal(created.status, 201);
      bots.push(created.body.data.bot_id);
    }
    for (const bot of bots.slice(0, 4)) assert.equal((await api.post(`/v2/bots/${bot}/leave`)).status, 200);
    const answers = async () => ({
      list: (await api.get('/v2/bots?limit=50')).body,
      one: (await api.get(`/v2/bots/${bots[0]}`)).body,
      other: (await api.get(`/v2/bots/${bots[7]}`)).body,
      legacy: (await api.get('/bots/bots_with_metadata?limit=50')).body,
    });
    const before = await answers();
    assert.equal(before.list.data.bots.length, 12);
    await service.kill();
    const logged = eventsInLog(dataDir);

    await service.start();
    const resumed = caughtUpAtStart(service);
    assert.notEqual(resumed.resumed_from, null, 'resumed from a checkpoint');
    assert.ok(resumed.events_folded < logged / 2, `folded ${resumed.events_folded} of ${logged} events again`);
    assert.deepEqual(await answers(), before, 'the same answers after the restart');

    const later = await api.post('/v2/bots', { meeting_url: MEETING, bot_name: 'After the restart' });
    assert.equal(later.status, 201);
    assert.equal((await api.get(`/v2/bots/${later.body.data.bot_id}`)).status, 200, 'a write after the restart is readable at once');

    const rebuilt = await adminClient(service.url).post('/admin/rebuild-projections');
    assert.equal(rebuilt.status, 200);
    assert.ok(rebuilt.body.data.events_read >= logged, 'the rebuild command still folds the whole log');
    const afterRebuild = await answers();
    assert.deepEqual(afterRebuild.one, before.one);
    assert.equal(afterRebuild.list.data.bots.length, 13);
  });
});
