import { defaultBotConfig } from '../../src/domain/bot/bot-config';
import { botDecider, type BotCommand } from '../../src/domain/bot/bot-decider';
import { BotEvent } from '../../src/domain/bot/bot-events';
import { at, deciderSpec } from './given-when-then';

const spec = deciderSpec(botDecider, BotEvent);

const BOT = 'b0e5a4a2-0000-4000-8000-000000000002';
const T0 = '2026-03-03T09:00:00.000Z';
const NOW = at(T0, { h: 1 });
const KEY = 'recording.mp4';

const created: BotEvent = {
  type: 'BotCreated',
  data: { bot_id: BOT, team_id: 'team-1', meeting_url: 'https://mt.localhost/abc-defg-hij', platform: 'mt', bot_name: 'B', extra: null, config: defaultBotConfig(), created_by: null, created_at: T0 },
};
const artifact = { artifact_type: 'recording', key: KEY, content_type: 'video/mp4' };

const record: BotCommand = { type: 'RecordArtifact', ...artifact, size_bytes: 100, now: NOW };
const recordSpilled: BotCommand = { type: 'RecordArtifactSpilled', ...artifact, size_bytes: 100, reason: 'AccessDenied', now: NOW };
const recordFailed: BotCommand = { type: 'RecordArtifactUploadFailed', ...artifact, reason: 'AccessDenied', now: NOW };
const expire = (keys: readonly string[]): BotCommand => ({ type: 'ExpireArtifacts', keys, now: NOW });

const stored = (key = KEY): BotEvent => ({ type: 'ArtifactStored', data: { bot_id: BOT, ...artifact, key, size_bytes: 100, at: NOW } });
const spilled: BotEvent = { type: 'ArtifactSpilled', data: { bot_id: BOT, ...artifact, size_bytes: 100, reason: 'AccessDenied', at: NOW } };
const lostAs = (key: string): BotEvent => ({ type: 'ArtifactUploadFailed', data: { bot_id: BOT, ...artifact, key, reason: 'AccessDenied', at: NOW } });
const lost = lostAs(KEY);
const expired = (keys: string[]): BotEvent => ({ type: 'ArtifactsExpired', data: { bot_id: BOT, keys, at: NOW } });

describe('bot decider: what becomes of each artifact', () => {
  describe('stored', () => {
    it('a new artifact is stored', () => spec.given([created]).when(record).then([stored()]));
    it('the same report again records nothing', () => spec.given([created, stored()]).when(record).thenNothing());
    it('a spilled artifact is stored once its bucket accepts it', () => spec.given([created, spilled]).when(record).then([stored()]));
    it('an artifact reported lost and then uploaded after all is stored', () => spec.given([created, lost]).when(record).then([stored()]));
    it('an expired artifact is not stored again (an upload that lost the race with retention)', () =>
      spec.given([created, spilled, expired([KEY])]).when(record).thenNothing());
  });

  describe('spilled: the bucket refused it, the service holds a copy', () => {
    it('a new artifact is spilled', () => spec.given([created]).when(recordSpilled).then([spilled]));
    it('a stored artifact is not spilled by a late report', () => spec.given([created, stored()]).when(recordSpilled).thenNothing());
    it('spilled twice is spilled once', () => spec.given([created, spilled]).when(recordSpilled).thenNothing());
  });

  describe('failed: lost after retries, nothing holds it', () => {
    it('a new artifact is recorded lost', () => spec.given([created]).when(recordFailed).then([lost]));
    it('a failure after the artifact was stored or spilled changes nothing', () => {
      spec.given([created, stored()]).when(recordFailed).thenNothing();
      spec.given([created, spilled]).when(recordFailed).thenNothing();
    });
  });

  describe('expired: retention deleted it', () => {
    it('only what is still kept (stored or spilled) is recorded expired, once each', () => {
      spec
        .given([created, stored(), stored('bot.log'), lostAs('screenshots/1.png')])
        .when(expire([KEY, 'bot.log', 'bot.log', 'screenshots/1.png', 'never-stored.png']))
        .then([expired([KEY, 'bot.log'])]);
    });
    it('a spilled artifact expires too', () => spec.given([created, spilled]).when(expire([KEY])).then([expired([KEY])]));
    it('expiring again, or what was lost, records nothing', () => {
      spec.given([created, stored(), expired([KEY])]).when(expire([KEY])).thenNothing();
      spec.given([created, lost]).when(expire([KEY])).thenNothing();
    });
  });
});
