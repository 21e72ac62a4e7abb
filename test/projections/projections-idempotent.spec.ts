import assert from 'node:assert/strict';
import { defaultBotConfig } from '../../src/domain/bot/bot-config';
import { MemoryReadStore } from '../../src/adapters/read-store/memory-read-store';
import type { DomainEvent } from '../../src/domain/all-events';
import { applyEventToProjections } from '../../src/projections/apply-event';
import { allProjections } from '../../src/capabilities';
import { BOTS } from '../../src/projections/bot-view';
import { API_KEYS } from '../../src/projections/api-key-view';

const botId = '11111111-1111-4111-8111-111111111111';
const created: DomainEvent = {
  type: 'BotCreated',
  data: {
    bot_id: botId,
    team_id: 'team-1',
    meeting_url: 'https://meet.google.com/abc-defg-hij',
    platform: 'mt',
    bot_name: 'Twice',
    extra: null,
    config: defaultBotConfig(),
    created_by: null,
    created_at: '2026-11-21T10:00:00.000Z',
  },
};
const joining: DomainEvent = { type: 'StatusChanged', data: { bot_id: botId, status: 'joining_call', at: '2026-11-21T10:00:05.000Z' } };

describe('read models apply an event only if their stored position is older', () => {
  it('applying the same events twice changes nothing', async () => {
    const store = new MemoryReadStore();
    await applyEventToProjections(store, allProjections, created, 10n);
    await applyEventToProjections(store, allProjections, joining, 11n);
    const once = await store.get(BOTS, botId);

    await applyEventToProjections(store, allProjections, created, 10n);
    await applyEventToProjections(store, allProjections, joining, 11n);
    const twice = await store.get(BOTS, botId);

    assert.deepEqual(twice, once);
    assert.equal((once!.doc as unknown as { status_history: unknown[] }).status_history.length, 2);
    assert.equal(once!.position, 11n);
  });

  it('an older event arriving late does not roll a document back', async () => {
    const store = new MemoryReadStore();
    await applyEventToProjections(store, allProjections, created, 10n);
    await applyEventToProjections(store, allProjections, joining, 11n);
    await applyEventToProjections(store, allProjections, created, 10n);
    assert.equal((await store.get<{ id: string; status: string }>(BOTS, botId))!.doc.status, 'joining_call');
  });

  it('an API key revoked stays revoked when its issue is replayed', async () => {
    const store = new MemoryReadStore();
    const issued: DomainEvent = { type: 'ApiKeyIssued', data: { team_id: 't', key_id: 'k', key_hash: 'h', permission: 'full', at: '2026-11-21T10:00:00.000Z' } };
    const revoked: DomainEvent = { type: 'ApiKeyRevoked', data: { team_id: 't', key_id: 'k', key_hash: 'h', at: '2026-11-21T10:01:00.000Z' } };
    await applyEventToProjections(store, allProjections, issued, 1n);
    await applyEventToProjections(store, allProjections, revoked, 2n);
    await applyEventToProjections(store, allProjections, issued, 1n);
    assert.equal((await store.get<{ id: string; revoked: boolean }>(API_KEYS, 'h'))!.doc.revoked, true);
  });
});
