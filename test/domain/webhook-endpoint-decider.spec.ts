import assert from 'node:assert/strict';
import { signingSecrets, webhookEndpointDecider, type WebhookEndpointCommand } from '../../src/domain/webhooks/webhook-endpoint-decider';
import { WebhookEndpointEvent } from '../../src/domain/webhooks/webhook-endpoint-events';
import { foldEvents } from '../../src/domain/decider';
import { at, deciderSpec } from './given-when-then';

const spec = deciderSpec(webhookEndpointDecider, WebhookEndpointEvent);

const T0 = '2026-11-23T09:00:00.000Z';
const TEAM = 'team-1';
const ID = 'endpoint-1';
const SECRET = { sealed: 'v1.a.b.c' };
const NEW_SECRET = { sealed: 'v1.d.e.f' };

const added: WebhookEndpointEvent = {
  type: 'WebhookEndpointAdded',
  data: { endpoint_id: ID, team_id: TEAM, url: 'https://hooks.example/in', events: [], description: null, secret: SECRET, at: T0 },
};
const add: WebhookEndpointCommand = { type: 'AddEndpoint', endpoint_id: ID, team_id: TEAM, url: 'https://hooks.example/in', events: [], description: null, secret: SECRET, now: T0 };
const update = (changes: Extract<WebhookEndpointCommand, { type: 'UpdateEndpoint' }>['changes'], team_id = TEAM): WebhookEndpointCommand => ({
  type: 'UpdateEndpoint', team_id, changes, now: at(T0, { m: 1 }),
});
const updated = (fields: { url?: string; events?: string[]; description?: string | null; enabled?: boolean }): WebhookEndpointEvent => ({
  type: 'WebhookEndpointUpdated',
  data: { endpoint_id: ID, team_id: TEAM, url: 'https://hooks.example/in', events: [], description: null, enabled: true, ...fields, at: at(T0, { m: 1 }) },
});
const disable = (failing_since: string, now: string): WebhookEndpointCommand => ({ type: 'DisableFailingEndpoint', failing_since, now });
const deleted: WebhookEndpointEvent = { type: 'WebhookEndpointDeleted', data: { endpoint_id: ID, team_id: TEAM, at: at(T0, { m: 2 }) } };

describe('webhook endpoint decider', () => {
  describe('adding an endpoint', () => {
    it('given nothing, when it is added, then it exists with every event kind and its sealed secret', () => {
      spec.given([]).when(add).then([added]);
    });
    it('given it exists, when the same add comes again (a retry), then nothing more', () => {
      spec.given([added]).when(add).thenNothing();
    });
  });

  describe('updating an endpoint: only what changed, as the whole new state', () => {
    it('a new URL and a narrower subscription', () => {
      spec.given([added]).when(update({ url: 'https://hooks.example/v2', events: ['bot.completed'] })).then([updated({ url: 'https://hooks.example/v2', events: ['bot.completed'] })]);
    });
    it('switching it off, then on again after the service disabled it', () => {
      spec.given([added]).when(update({ enabled: false })).then([updated({ enabled: false })]);
      const disabled: WebhookEndpointEvent = { type: 'WebhookEndpointDisabled', data: { endpoint_id: ID, team_id: TEAM, failing_since: T0, at: at(T0, { h: 120 }) } };
      spec.given([added, disabled]).when(update({ enabled: true })).then([updated({ enabled: true })]);
    });
    it('the same values again change nothing', () => {
      spec.given([added]).when(update({ url: 'https://hooks.example/in', enabled: true, events: [] })).thenNothing();
    });
    it('another team, a deleted endpoint, or none at all: WEBHOOK_NOT_FOUND', () => {
      spec.given([added]).when(update({ enabled: false }, 'team-2')).thenRejects({ code: 'WEBHOOK_NOT_FOUND' });
      spec.given([added, deleted]).when(update({ enabled: false })).thenRejects({ code: 'WEBHOOK_NOT_FOUND' });
      spec.given([]).when(update({ enabled: false })).thenRejects({ code: 'WEBHOOK_NOT_FOUND' });
    });
  });

  describe('rotating the secret: the previous one signs for 24 more hours', () => {
    const rotate: WebhookEndpointCommand = { type: 'RotateSecret', team_id: TEAM, secret: NEW_SECRET, now: at(T0, { h: 1 }) };
    const rotated: WebhookEndpointEvent = {
      type: 'WebhookEndpointSecretRotated',
      data: { endpoint_id: ID, team_id: TEAM, secret: NEW_SECRET, previous_valid_until: at(T0, { h: 25 }), at: at(T0, { h: 1 }) },
    };
    it('given an endpoint, when its secret is rotated, then the new secret is recorded with the end of the old one’s grace', () => {
      spec.given([added]).when(rotate).then([rotated]);
    });
    it('then attempts are signed with both secrets during the grace, with the new one only after it', () => {
      const state = foldEvents(webhookEndpointDecider.evolve, webhookEndpointDecider.initialState(), [added, rotated]);
      assert.equal(state.kind, 'present');
      if (state.kind !== 'present') return;
      assert.deepEqual(signingSecrets(state, Date.parse(at(T0, { h: 2 }))), [NEW_SECRET, SECRET]);
      assert.deepEqual(signingSecrets(state, Date.parse(at(T0, { h: 25 }))), [NEW_SECRET]);
    });
  });

  describe('deleting an endpoint', () => {
    it('given it exists, when it is deleted, then it is gone; deleting again is WEBHOOK_NOT_FOUND', () => {
      spec.given([added]).when({ type: 'DeleteEndpoint', team_id: TEAM, now: at(T0, { m: 2 }) }).then([deleted]);
      spec.given([added, deleted]).when({ type: 'DeleteEndpoint', team_id: TEAM, now: at(T0, { m: 3 }) }).thenRejects({ code: 'WEBHOOK_NOT_FOUND' });
    });
  });

  describe('an endpoint failing for 5 days without a success is disabled', () => {
    it('given failures since T0, when another attempt fails 5 days later, then it is disabled', () => {
      spec.given([added]).when(disable(T0, at(T0, { h: 120 }))).then([
        { type: 'WebhookEndpointDisabled', data: { endpoint_id: ID, team_id: TEAM, failing_since: T0, at: at(T0, { h: 120 }) } },
      ]);
    });
    it('one millisecond short of 5 days, nothing', () => {
      spec.given([added]).when(disable(T0, at(T0, { h: 120, ms: -1 }))).thenNothing();
    });
    it('an endpoint already off, or deleted, is left as it is', () => {
      spec.given([added, updated({ enabled: false })]).when(disable(T0, at(T0, { h: 200 }))).thenNothing();
      spec.given([added, deleted]).when(disable(T0, at(T0, { h: 200 }))).thenNothing();
    });
  });
});
