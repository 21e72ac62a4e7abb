import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import * as E from 'fp-ts/Either';
import { privateFolder } from './adapters/disk/private-files';
import type { EventStore, RecordedEvent } from './adapters/event-store/port';
import { SecretBox } from './adapters/crypto/secret-box';
import { loadServiceKeys } from './adapters/signing/load-service-keys';
import { openPersonalDataLog } from './capabilities/personal-data-log';
import { openReadStore, readModelsFile, readStoreKind, type ReadStoreKind } from './adapters/read-store';
import type { CommandDeps } from './commands/command-deps';
import { describeTeam } from './commands/describe-team';
import { createTeamWithKey, handleTeamCommand, issueApiKey } from './commands/team-commands';
import { configFromEnv } from './config';
import { ApiError } from './http/api-error';
import { decodeAddTokens, decodeCreateTeam, decodeIssueKey, decodeSetLimits } from './http/admin/admin-requests';
import { allProjections } from './capabilities';
import { rebuildProjections } from './subscribers/rebuild-projections';

/** What a rebuild from here changed, by read store. */
const rebuiltWhere: Record<ReadStoreKind, string> = {
  mongodb: '',
  sqlite: ' (DATA_DIR/read-models.sqlite3; with the service stopped: a running service rebuilds its own through POST /admin/rebuild-projections)',
  memory: ' (the memory read store lives in the service process and is rebuilt at every start; this run rebuilt a copy here)',
};

const usage = `usage: npm run admin -- <command> [options]
  create-team --name <name> [--tokens <n>] [--daily-bot-cap <n>] [--rate-limit <per second>]
  issue-key --team <team_id> [--permission full|sending]
  revoke-key --team <team_id> --key <key_id>
  add-tokens --team <team_id> --amount <tokens>
  set-limits --team <team_id> [--scheduled-bots <n>] [--webhook-endpoints <n>] [--calendars <n>]
  show-team --team <team_id>
  rebuild-projections
  export-events [--stream <name>]    the event log as JSON lines (a bot's deleted personal data reads as deleted)
Reads DATA_DIR, EVENTSTORE_URL, DATABASE_URL, MONGO_URL, READ_STORE and the service's secret like the service; prints JSON.`;

const print = (value: unknown) => console.log(JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v), 2));

const fail = (message: string): never => {
  console.error(message);
  process.exit(2);
};

/** Every event (or one stream's) as one JSON line each, in log order, read a page at a time. */
const exportEvents = async (eventStore: EventStore, stream: string | undefined): Promise<void> => {
  const line = (e: RecordedEvent) =>
    console.log(JSON.stringify({ position: e.position.toString(), stream: e.streamName, revision: e.revision.toString(), type: e.type, recorded_at: e.recordedAt.toISOString(), data: e.data }));
  if (stream !== undefined) return (await eventStore.readStream(stream)).forEach(line);
  for (let after: bigint | undefined; ; ) {
    const page = await eventStore.readAll({ ...(after === undefined ? {} : { fromPosition: after }), maxCount: 1000 });
    page.forEach(line);
    if (page.length < 1000) return;
    after = page[page.length - 1]!.position;
  }
};

const numberOption = (value: string | undefined): number | undefined => (value === undefined ? undefined : Number(value));

const main = async () => {
  const [command, ...rest] = process.argv.slice(2);
  const { values } = parseArgs({
    args: rest,
    options: {
      name: { type: 'string' },
      tokens: { type: 'string' },
      'daily-bot-cap': { type: 'string' },
      'rate-limit': { type: 'string' },
      team: { type: 'string' },
      key: { type: 'string' },
      permission: { type: 'string' },
      amount: { type: 'string' },
      'scheduled-bots': { type: 'string' },
      'webhook-endpoints': { type: 'string' },
      calendars: { type: 'string' },
      stream: { type: 'string' },
    },
  });
  if (!command || command === 'help' || command === '--help') return void console.log(usage);

  const config = configFromEnv();
  privateFolder(config.dataDir);
  // The log as the service reads it: bots' personal fields opened with their keys, deleted ones as deleted.
  const { keys } = loadServiceKeys(config, config.dataDir);
  const { eventStore, keyVault } = await openPersonalDataLog(config, new SecretBox(keys));
  const deps: CommandDeps = { eventStore, clock: () => new Date(), newId: () => randomUUID() };
  const team = () => values.team ?? fail('--team is required');
  const orFail = <A>(result: E.Either<{ message: string }, A>): A => (E.isLeft(result) ? fail(result.left.message) : result.right);

  try {
    switch (command) {
      case 'create-team': {
        const body = decodeCreateTeam({
          name: values.name,
          tokens: numberOption(values.tokens),
          daily_bot_cap: numberOption(values['daily-bot-cap']),
          rate_limit_per_second: numberOption(values['rate-limit']),
        });
        const created = orFail(await createTeamWithKey(deps, body));
        return print({ team_id: created.team_id, key_id: created.key_id, api_key: created.api_key });
      }
      case 'issue-key': {
        const { permission } = decodeIssueKey({ permission: values.permission ?? 'full' });
        const issued = orFail(await issueApiKey(deps, team(), permission));
        return print({ key_id: issued.key_id, api_key: issued.api_key, permission });
      }
      case 'revoke-key':
        orFail(await handleTeamCommand(deps, team(), { type: 'RevokeApiKey', key_id: values.key ?? fail('--key is required'), now: new Date().toISOString() }));
        return print({ key_id: values.key, revoked: true });
      case 'add-tokens': {
        const { amount } = decodeAddTokens({ amount: numberOption(values.amount) });
        orFail(await handleTeamCommand(deps, team(), { type: 'AddTokens', operation_id: randomUUID(), amount, now: new Date().toISOString() }));
        return print(await describeTeam(deps, team()));
      }
      case 'set-limits': {
        const { limits } = decodeSetLimits({
          scheduled_bots: numberOption(values['scheduled-bots']),
          webhook_endpoints: numberOption(values['webhook-endpoints']),
          calendars: numberOption(values.calendars),
        });
        orFail(await handleTeamCommand(deps, team(), { type: 'SetLimits', limits, now: new Date().toISOString() }));
        return print(await describeTeam(deps, team()));
      }
      case 'show-team':
        return print((await describeTeam(deps, team())) ?? fail('team not found'));
      case 'rebuild-projections': {
        const readStoreConfig = { mongoUrl: config.mongoUrl, mongoDatabase: config.mongoDatabase, embedded: config.readStore, sqlitePath: readModelsFile(config.dataDir) };
        const kind = readStoreKind(readStoreConfig);
        const readStore = await openReadStore(readStoreConfig);
        const report = await rebuildProjections(eventStore, readStore, allProjections);
        await readStore.close();
        return print({ ...report, read_store: `${kind}${rebuiltWhere[kind]}` });
      }
      case 'export-events':
        return await exportEvents(eventStore, values.stream);
      default:
        fail(`unknown command ${command}\n${usage}`);
    }
  } catch (error) {
    if (error instanceof ApiError) fail(`${error.details ?? error.message}`);
    throw error;
  } finally {
    await eventStore.close();
    await keyVault.close();
  }
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
