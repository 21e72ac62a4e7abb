import assert from 'node:assert/strict';
import type { Usage } from '../../src/domain/bot/bot-events';
import { availableTokens, teamDecider, type TeamCommand } from '../../src/domain/team/team-decider';
import { type ReleaseReason, TeamEvent } from '../../src/domain/team/team-events';
import { at, deciderSpec, stateAfter } from './given-when-then';

const spec = deciderSpec(teamDecider, TeamEvent);

const TEAM = 'team-0001';
const T0 = '2025-03-03T09:00:00.000Z';
const NOW = at(T0, { m: 30 });
const DAY_SECONDS = 24 * 3600;

// ---- events ---------------------------------------------------------------------------------------------

const teamCreated = (daily_bot_cap = 75): TeamEvent => ({
  type: 'TeamCreated',
  data: { team_id: TEAM, name: 'Acme', daily_bot_cap, rate_limit_per_second: 10, at: T0 },
});
const tokensAdded = (amount: number, operation_id = `op-${amount}`): TeamEvent => ({
  type: 'TokensAdded',
  data: { team_id: TEAM, operation_id, amount, at: T0 },
});
const reserved = (bot_id: string, when: string = T0): TeamEvent => ({
  type: 'TokensReserved',
  data: { team_id: TEAM, bot_id, amount: 500, at: when },
});
const released = (bot_id: string, reason: ReleaseReason, when: string = at(T0, { m: 1 })): TeamEvent => ({
  type: 'TokensReleased',
  data: { team_id: TEAM, bot_id, amount: 500, reason, at: when },
});
const charged = (bot_id: string, amount: number, when: string = at(T0, { h: 1 })): TeamEvent => ({
  type: 'TokensCharged',
  data: { team_id: TEAM, bot_id, amount, error_code: 'API_REQUEST', at: when },
});
const keyIssued: TeamEvent = {
  type: 'ApiKeyIssued',
  data: { team_id: TEAM, key_id: 'key-1', key_hash: 'sha256:abc', permission: 'full', at: T0 },
};

// ---- commands -------------------------------------------------------------------------------------------

const createTeam = (initial_tokens: number): TeamCommand => ({
  type: 'CreateTeam',
  team_id: TEAM,
  name: 'Acme',
  daily_bot_cap: 75,
  rate_limit_per_second: 10,
  initial_tokens,
  now: T0,
});
const reserve = (bot_id: string, now: string = NOW): TeamCommand => ({ type: 'ReserveTokensForBot', bot_id, now });
const release = (bot_id: string, reason: ReleaseReason): TeamCommand => ({ type: 'ReleaseReservation', bot_id, reason, now: NOW });
const addTokens = (amount: number, operation_id = 'op-topup'): TeamCommand => ({ type: 'AddTokens', operation_id, amount, now: NOW });
const charge = (bot_id: string, error_code: string, usage: Usage): TeamCommand => ({
  type: 'ChargeBot',
  bot_id,
  error_code,
  usage,
  features: { transcription: true },
  now: NOW,
});
const hour: Usage = { recorded_seconds: 3600, waiting_room_seconds: 60 };

const reservedEvent = (bot_id: string, when: string = NOW): TeamEvent => ({
  type: 'TokensReserved',
  data: { team_id: TEAM, bot_id, amount: 500, at: when },
});

describe('team decider (the token ledger)', () => {
  describe('a team is created once', () => {
    it('without initial tokens: only TeamCreated', () => {
      spec.given([]).when(createTeam(0)).then([teamCreated()]);
    });

    it('with initial tokens: TeamCreated then TokensAdded with a deterministic operation id', () => {
      spec.given([]).when(createTeam(5000)).then([
        teamCreated(),
        { type: 'TokensAdded', data: { team_id: TEAM, operation_id: `initial-${TEAM}`, amount: 5000, at: T0 } },
      ]);
    });

    it('creating it twice is refused with TEAM_EXISTS', () => {
      spec.given([teamCreated()]).when(createTeam(0)).thenRejects({ code: 'TEAM_EXISTS', message: `Team ${TEAM} already exists` });
    });

    it('negative initial tokens are refused with INVALID_AMOUNT', () => {
      spec.given([]).when(createTeam(-1)).thenRejects({ code: 'INVALID_AMOUNT' });
    });

    it('a non-integer number of thousandths is refused with INVALID_AMOUNT', () => {
      spec.given([]).when(createTeam(0.5)).thenRejects({ code: 'INVALID_AMOUNT' });
      spec.given([]).when(createTeam(Number.NaN)).thenRejects({ code: 'INVALID_AMOUNT' });
    });

    it('the initial tokens are the balance', () => {
      const state = stateAfter(teamDecider, [teamCreated(), tokensAdded(5000, `initial-${TEAM}`)]);
      assert.ok(state.kind === 'present');
      assert.equal(state.balance, 5000);
      assert.equal(availableTokens(state), 5000);
    });
  });

  describe('a command for a team that does not exist is refused with TEAM_NOT_FOUND', () => {
    const commands: readonly TeamCommand[] = [
      { type: 'IssueApiKey', key_id: 'key-1', key_hash: 'sha256:abc', permission: 'full', now: NOW },
      { type: 'RevokeApiKey', key_id: 'key-1', now: NOW },
      addTokens(1000),
      reserve('bot-1'),
      release('bot-1', 'creation_aborted'),
      charge('bot-1', 'API_REQUEST', hour),
    ];
    for (const command of commands) {
      it(command.type, () => spec.given([]).when(command).thenRejects({ code: 'TEAM_NOT_FOUND' }));
    }
  });

  describe('API keys are issued once and revoked once', () => {
    it('issuing a key records only its hash and permission', () => {
      spec.given([teamCreated()])
        .when({ type: 'IssueApiKey', key_id: 'key-2', key_hash: 'sha256:def', permission: 'sending', now: NOW })
        .then([{ type: 'ApiKeyIssued', data: { team_id: TEAM, key_id: 'key-2', key_hash: 'sha256:def', permission: 'sending', at: NOW } }]);
    });

    it('issuing the same key id again is nothing', () => {
      spec.given([teamCreated(), keyIssued])
        .when({ type: 'IssueApiKey', key_id: 'key-1', key_hash: 'sha256:abc', permission: 'full', now: NOW })
        .thenNothing();
    });

    it('revoking a key records its hash (so that the key stops working at once)', () => {
      spec.given([teamCreated(), keyIssued]).when({ type: 'RevokeApiKey', key_id: 'key-1', now: NOW }).then([
        { type: 'ApiKeyRevoked', data: { team_id: TEAM, key_id: 'key-1', key_hash: 'sha256:abc', at: NOW } },
      ]);
    });

    it('revoking it again is nothing', () => {
      const revoked: TeamEvent = { type: 'ApiKeyRevoked', data: { team_id: TEAM, key_id: 'key-1', key_hash: 'sha256:abc', at: T0 } };
      spec.given([teamCreated(), keyIssued, revoked]).when({ type: 'RevokeApiKey', key_id: 'key-1', now: NOW }).thenNothing();
    });

    it('revoking an unknown key is refused with API_KEY_NOT_FOUND', () => {
      spec.given([teamCreated(), keyIssued]).when({ type: 'RevokeApiKey', key_id: 'key-9', now: NOW }).thenRejects({ code: 'API_KEY_NOT_FOUND' });
    });
  });

  describe('tokens are added in positive whole thousandths, once per operation', () => {
    it('a positive integer amount is added', () => {
      spec.given([teamCreated()]).when(addTokens(2500)).then([
        { type: 'TokensAdded', data: { team_id: TEAM, operation_id: 'op-topup', amount: 2500, at: NOW } },
      ]);
    });

    for (const amount of [0, -500, 1.5, Number.POSITIVE_INFINITY]) {
      it(`${amount} is refused with INVALID_AMOUNT`, () => {
        spec.given([teamCreated()]).when(addTokens(amount)).thenRejects({ code: 'INVALID_AMOUNT' });
      });
    }

    it('the same operation id twice is nothing', () => {
      spec.given([teamCreated(), tokensAdded(2500, 'op-topup')]).when(addTokens(2500, 'op-topup')).thenNothing();
    });

    it('the initial credit is an operation too: replaying it is nothing', () => {
      spec.given([teamCreated(), tokensAdded(5000, `initial-${TEAM}`)]).when(addTokens(5000, `initial-${TEAM}`)).thenNothing();
    });

    it('additions sum into the balance', () => {
      const state = stateAfter(teamDecider, [teamCreated(), tokensAdded(1000, 'a'), tokensAdded(250, 'b')]);
      assert.ok(state.kind === 'present');
      assert.equal(state.balance, 1250);
    });
  });

  describe('each new bot reserves 0.5 token (500 thousandths), once', () => {
    it('a team with enough tokens reserves 500 for the bot', () => {
      spec.given([teamCreated(), tokensAdded(1000)]).when(reserve('bot-1')).then([reservedEvent('bot-1')]);
    });

    it('reserving twice for the same bot is nothing', () => {
      spec.given([teamCreated(), tokensAdded(1000), reserved('bot-1')]).when(reserve('bot-1')).thenNothing();
    });

    it('reserving again for a bot already settled is nothing', () => {
      spec.given([teamCreated(), tokensAdded(1000), reserved('bot-1'), charged('bot-1', 300)]).when(reserve('bot-1')).thenNothing();
      spec.given([teamCreated(), tokensAdded(1000), reserved('bot-1'), released('bot-1', 'nothing_to_charge')]).when(reserve('bot-1')).thenNothing();
    });
  });

  describe('a team whose available tokens (balance minus open reservations) are below 500 cannot create a bot', () => {
    it('balance 999 with one open reservation: 499 available -> INSUFFICIENT_TOKENS', () => {
      spec.given([teamCreated(), tokensAdded(999), reserved('bot-1')]).when(reserve('bot-2')).thenRejects({
        code: 'INSUFFICIENT_TOKENS',
        available: 499,
        required: 500,
      });
    });

    it('balance 1000 with one open reservation: exactly 500 available -> reserved', () => {
      spec.given([teamCreated(), tokensAdded(1000), reserved('bot-1')]).when(reserve('bot-2')).then([reservedEvent('bot-2')]);
    });

    it('a team with no tokens at all -> INSUFFICIENT_TOKENS with 0 available', () => {
      spec.given([teamCreated()]).when(reserve('bot-1')).thenRejects({ code: 'INSUFFICIENT_TOKENS', available: 0, required: 500 });
    });

    it('a released reservation frees its tokens again', () => {
      spec.given([teamCreated(), tokensAdded(1000), reserved('bot-1'), reserved('bot-2')]).when(reserve('bot-3')).thenRejects({
        code: 'INSUFFICIENT_TOKENS',
        available: 0,
      });
      spec.given([teamCreated(), tokensAdded(1000), reserved('bot-1'), reserved('bot-2'), released('bot-1', 'nothing_to_charge')])
        .when(reserve('bot-3'))
        .then([reservedEvent('bot-3')]);
    });
  });

  describe('the daily bot cap counts bots created in the last 24 hours, from their creation times', () => {
    const twoBots = [teamCreated(2), tokensAdded(10_000), reserved('bot-1', T0), reserved('bot-2', at(T0, { h: 1 }))];

    it('cap 2: bots at t0 and t0+1h, a third at t0+2h is refused, retry after 22 h', () => {
      spec.given(twoBots).when(reserve('bot-3', at(T0, { h: 2 }))).thenRejects({
        code: 'DAILY_BOT_CAP_REACHED',
        retry_after_seconds: 22 * 3600,
        message: 'Daily bot cap of 2 reached',
      });
    });

    it('one second before the oldest bot leaves the window, retry after 1 s', () => {
      spec.given(twoBots).when(reserve('bot-3', at(T0, { h: 24, s: -1 }))).thenRejects({
        code: 'DAILY_BOT_CAP_REACHED',
        retry_after_seconds: 1,
      });
    });

    it('a partial second of waiting is rounded up to a whole second', () => {
      spec.given(twoBots).when(reserve('bot-3', at(T0, { h: 2, ms: 1 }))).thenRejects({
        code: 'DAILY_BOT_CAP_REACHED',
        retry_after_seconds: 22 * 3600,
      });
    });

    it('at t0+24h+1ms the oldest bot has left the window: allowed again', () => {
      const when = at(T0, { h: 24, ms: 1 });
      spec.given(twoBots).when(reserve('bot-3', when)).then([reservedEvent('bot-3', when)]);
    });

    it('at t0+24h exactly, the retry time given, the oldest bot no longer counts', () => {
      const when = at(T0, { h: 24 });
      spec.given(twoBots).when(reserve('bot-3', when)).then([reservedEvent('bot-3', when)]);
    });

    it('the window rolls: after the oldest leaves and a new bot fills the cap, the next retry is 24 h after the second bot', () => {
      const third = reserved('bot-3', at(T0, { h: 24, ms: 1 }));
      spec.given([...twoBots, third]).when(reserve('bot-4', at(T0, { h: 24, m: 30 }))).thenRejects({
        code: 'DAILY_BOT_CAP_REACHED',
        retry_after_seconds: 30 * 60,
      });
    });

    it('settled bots still count: the cap is about creations, not about running bots', () => {
      spec.given([...twoBots, charged('bot-1', 100), charged('bot-2', 100)]).when(reserve('bot-3', at(T0, { h: 2 }))).thenRejects({
        code: 'DAILY_BOT_CAP_REACHED',
      });
    });

    it('the cap is checked before the balance: a team at the cap with zero tokens gets DAILY_BOT_CAP_REACHED', () => {
      const history = [teamCreated(1), tokensAdded(500), reserved('bot-1', T0), charged('bot-1', 500)];
      const state = stateAfter(teamDecider, history);
      assert.ok(state.kind === 'present');
      assert.equal(availableTokens(state), 0);
      spec.given(history).when(reserve('bot-2')).thenRejects({ code: 'DAILY_BOT_CAP_REACHED', retry_after_seconds: DAY_SECONDS - 30 * 60 });
    });

    it('below the cap with zero tokens, the balance is what refuses', () => {
      spec.given([teamCreated(2), tokensAdded(500), reserved('bot-1', T0), charged('bot-1', 500)]).when(reserve('bot-2')).thenRejects({
        code: 'INSUFFICIENT_TOKENS',
      });
    });

    it('a team whose cap is 0 is always refused, with a finite retry of 24 h (not Infinity)', () => {
      spec.given([teamCreated(0), tokensAdded(10_000)]).when(reserve('bot-1')).thenRejects({
        code: 'DAILY_BOT_CAP_REACHED',
        retry_after_seconds: DAY_SECONDS,
      });
    });

    it('a bot stamped after now (a clock ahead of ours, or the winner of the race this command retries) counts too', () => {
      spec.given([teamCreated(1), tokensAdded(10_000), reserved('bot-1', at(T0, { s: 1 }))]).when(reserve('bot-2', T0)).thenRejects({
        code: 'DAILY_BOT_CAP_REACHED',
        retry_after_seconds: DAY_SECONDS + 1,
      });
    });

    it('a reservation released because the creation was aborted does not count towards the cap', () => {
      spec.given([teamCreated(1), tokensAdded(1000), reserved('bot-1', T0), released('bot-1', 'creation_aborted')])
        .when(reserve('bot-2'))
        .then([reservedEvent('bot-2')]);
    });

    it('a reservation released because there was nothing to charge does count', () => {
      spec.given([teamCreated(1), tokensAdded(1000), reserved('bot-1', T0), released('bot-1', 'nothing_to_charge')])
        .when(reserve('bot-2'))
        .thenRejects({ code: 'DAILY_BOT_CAP_REACHED', retry_after_seconds: DAY_SECONDS - 30 * 60 });
    });
  });

  describe('a reservation is released once', () => {
    it('releasing an open reservation returns its 500 with the reason', () => {
      spec.given([teamCreated(), tokensAdded(1000), reserved('bot-1')]).when(release('bot-1', 'creation_aborted')).then([
        { type: 'TokensReleased', data: { team_id: TEAM, bot_id: 'bot-1', amount: 500, reason: 'creation_aborted', at: NOW } },
      ]);
    });

    it('releasing an unknown reservation is nothing', () => {
      spec.given([teamCreated(), tokensAdded(1000)]).when(release('bot-9', 'creation_aborted')).thenNothing();
    });

    it('releasing it twice is nothing', () => {
      spec.given([teamCreated(), tokensAdded(1000), reserved('bot-1'), released('bot-1', 'creation_aborted')])
        .when(release('bot-1', 'creation_aborted'))
        .thenNothing();
    });

    it('a release leaves the balance untouched', () => {
      const state = stateAfter(teamDecider, [teamCreated(), tokensAdded(1000), reserved('bot-1'), released('bot-1', 'nothing_to_charge')]);
      assert.ok(state.kind === 'present');
      assert.equal(state.balance, 1000);
      assert.equal(availableTokens(state), 1000);
    });
  });

  describe('charging settles the reservation by the outcome', () => {
    it('a normal end charges by duration and features, streaming by its connected seconds', () => {
      const streamedHour: Usage = { ...hour, streaming_seconds: { input: 3600, output: 3600 } };
      spec.given([teamCreated(), tokensAdded(5000), reserved('bot-1')]).when(charge('bot-1', 'API_REQUEST', streamedHour)).then([
        { type: 'TokensCharged', data: { team_id: TEAM, bot_id: 'bot-1', amount: 1450, error_code: 'API_REQUEST', at: NOW } },
      ]);
    });

    it('BOT_NOT_ACCEPTED charges the waiting-room time', () => {
      spec.given([teamCreated(), tokensAdded(5000), reserved('bot-1')])
        .when(charge('bot-1', 'BOT_NOT_ACCEPTED', { recorded_seconds: 0, waiting_room_seconds: 1800 }))
        .then([{ type: 'TokensCharged', data: { team_id: TEAM, bot_id: 'bot-1', amount: 500, error_code: 'BOT_NOT_ACCEPTED', at: NOW } }]);
    });

    it('the charged amount is taken from the balance and the reservation is closed', () => {
      const state = stateAfter(teamDecider, [teamCreated(), tokensAdded(5000), reserved('bot-1'), charged('bot-1', 1450)]);
      assert.ok(state.kind === 'present');
      assert.equal(state.balance, 3550);
      assert.equal(state.reservations.size, 0);
      assert.equal(state.reservedTotal, 0);
      assert.equal(availableTokens(state), 3550);
    });

    it('so what is left after a charge is what the next bot can reserve against', () => {
      spec.given([teamCreated(), tokensAdded(1000), reserved('bot-1'), charged('bot-1', 600)]).when(reserve('bot-2')).thenRejects({
        code: 'INSUFFICIENT_TOKENS',
        available: 400,
      });
    });

    it('a long bot may take the balance below zero', () => {
      const state = stateAfter(teamDecider, [teamCreated(), tokensAdded(1000), reserved('bot-1'), charged('bot-1', 17_400)]);
      assert.ok(state.kind === 'present');
      assert.equal(state.balance, -16_400);
    });

    it('an outcome that costs nothing releases the reservation with nothing_to_charge', () => {
      spec.given([teamCreated(), tokensAdded(1000), reserved('bot-1')])
        .when(charge('bot-1', 'EXITING_MEETING_BEFORE_RECORD', { recorded_seconds: 0, waiting_room_seconds: 300 }))
        .then([{ type: 'TokensReleased', data: { team_id: TEAM, bot_id: 'bot-1', amount: 500, reason: 'nothing_to_charge', at: NOW } }]);
      spec.given([teamCreated(), tokensAdded(1000), reserved('bot-1')])
        .when(charge('bot-1', 'CANNOT_JOIN_MEETING', hour))
        .then([{ type: 'TokensReleased', data: { team_id: TEAM, bot_id: 'bot-1', amount: 500, reason: 'nothing_to_charge', at: NOW } }]);
    });

    it('charging twice is nothing', () => {
      spec.given([teamCreated(), tokensAdded(5000), reserved('bot-1'), charged('bot-1', 1450)]).when(charge('bot-1', 'API_REQUEST', hour)).thenNothing();
    });

    it('charging after a release is nothing', () => {
      spec.given([teamCreated(), tokensAdded(5000), reserved('bot-1'), released('bot-1', 'nothing_to_charge')])
        .when(charge('bot-1', 'API_REQUEST', hour))
        .thenNothing();
    });

    it('charging a bot with no reservation is nothing', () => {
      spec.given([teamCreated(), tokensAdded(5000)]).when(charge('bot-9', 'API_REQUEST', hour)).thenNothing();
    });
  });
});

describe('a reservation recorded out of time order (another process’s clock ran behind)', () => {
  it('still counts towards the daily cap window by its own time', () => {
    const team = '33333333-3333-4333-8333-333333333333';
    const created = { type: 'TeamCreated' as const, data: { team_id: team, name: 'n', daily_bot_cap: 2, rate_limit_per_second: 1, at: '2026-11-20T00:00:00.000Z' } };
    const tokens = { type: 'TokensAdded' as const, data: { team_id: team, operation_id: 'o', amount: 10_000, at: '2026-11-20T00:00:00.000Z' } };
    const reserved = (bot: string, at: string) => ({ type: 'TokensReserved' as const, data: { team_id: team, bot_id: bot, amount: 500, at } });
    // b2 is recorded after b1 but carries an earlier time; at 24 h after b2 only b1 is still in the window.
    const state = [created, tokens, reserved('b1', '2026-11-21T10:00:00.000Z'), reserved('b2', '2026-11-21T09:00:00.000Z')].reduce(
      teamDecider.evolve,
      teamDecider.initialState(),
    );
    const decision = teamDecider.decide({ type: 'ReserveTokensForBot', bot_id: 'b3', now: '2026-11-22T09:30:00.000Z' }, state);
    assert.equal(decision._tag, 'Right', 'b2 left the window at 09:00, so a third bot fits under the cap of 2');
    const refused = teamDecider.decide({ type: 'ReserveTokensForBot', bot_id: 'b3', now: '2026-11-22T08:30:00.000Z' }, state);
    assert.equal(refused._tag, 'Left', 'before 09:00 both are in the window');
  });
});
