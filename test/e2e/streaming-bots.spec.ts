/**
 * Streaming through the service: a bot created through the API with `streaming_enabled` streams to a
 * local `ws` server (the bot a child process, real Chromium, the sandbox), and the team is charged for
 * the streaming it reported connected, not for what it asked; a refused endpoint fails the bot
 * STREAMING_SETUP_FAILED and charges nothing.
 */
import assert from 'node:assert/strict';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { framesOf, StreamReceiver } from '../bot-runtime/stream-receiver';
import { freePort } from '../support/free-port';
import * as bots from '../support/api-bots';
import { adminClient, apiClient, createTeam } from '../support/http-client';
import { startTestService, type TestService } from '../support/test-service';

describe('streaming bots through the API (child processes, real Chromium, sandbox, ws)', function () {
  this.timeout(180_000);
  let sandbox: RunningSandbox;
  let t: TestService;
  let receiver: StreamReceiver;

  before(async () => {
    sandbox = await startSandbox({ port: 0 });
    t = await startTestService({ botSlots: 2 });
    receiver = await StreamReceiver.start();
  });
  after(async () => {
    await t?.stop();
    await receiver?.stop();
    await sandbox?.stop();
  });

  const newTeam = async () => {
    const team = await createTeam(t.url, { tokens: 10 });
    return { ...team, api: apiClient(t.url, team.api_key) };
  };
  const balanceOf = async (teamId: string): Promise<number> => Number((await adminClient(t.url).get(`/admin/teams/${teamId}`)).body.data.balance);

  it('is charged per direction for the seconds connected while recording, a drop not included', async () => {
    const { team_id, api } = await newTeam();
    const meeting = await sandbox.client.createMeeting({ platform: 'mt', lobby: false });
    await sandbox.client.addSimulated(meeting.meeting_id, 'Alice');
    const botId = await bots.createBot(api, meeting.url, {
      streaming_enabled: true,
      streaming_config: { output_url: receiver.url(`/out-${Date.now()}`), audio_frequency: 24000 },
    });
    await bots.waitForBot(api, botId, (b) => b.status === 'in_call_recording');
    const path = receiver.connections[receiver.connections.length - 1]!.path;
    await receiver.waitFor(() => framesOf(receiver.on(path)[0]!).length >= 20, 'frames');
    const hello = JSON.parse(receiver.on(path)[0]!.messages[0]!.text!) as { bot_id: string; sample_rate: number };
    assert.deepEqual([hello.bot_id, hello.sample_rate], [botId, 24000]);
    receiver.on(path)[0]!.socket.terminate();
    await receiver.waitFor(() => receiver.on(path).length === 2 && framesOf(receiver.on(path)[1]!).length >= 10, 'the reconnection');
    assert.equal((await api.post(`/v2/bots/${botId}/leave`)).status, 200);
    const ended = await bots.waitForBot(api, botId, bots.hasEnded);
    assert.equal(bots.outcome(ended), 'completed API_REQUEST');

    const events = (await api.get(`/v2/bots/${botId}/events`)).body.data.events as { type: string; data: any }[];
    const usage = events.find((e) => e.type === 'BotCompleted')!.data.usage;
    console.log(`      usage: ${JSON.stringify(usage)}`);
    assert.equal(usage.streaming_seconds.input, 0);
    assert.ok(usage.streaming_seconds.output > 0 && usage.streaming_seconds.output < usage.recorded_seconds - 0.5, JSON.stringify(usage));
    const deadline = Date.now() + 10_000;
    while ((await balanceOf(team_id)) === 10 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    // recording 1 token per hour, streaming 0.1 per direction per connected hour; rounded up once, in thousandths
    const charged = Math.ceil((1000 * Math.round(usage.recorded_seconds * 1000) + 100 * Math.round(usage.streaming_seconds.output * 1000)) / 3_600_000);
    assert.equal(Math.round((10 - (await balanceOf(team_id))) * 1000), charged);
  });

  it('an endpoint that refuses the connection fails the bot STREAMING_SETUP_FAILED; nothing is charged', async () => {
    const { team_id, api } = await newTeam();
    const meeting = await sandbox.client.createMeeting({ platform: 'mt', lobby: false });
    const port = await freePort();
    const botId = await bots.createBot(api, meeting.url, { streaming_enabled: true, streaming_config: { input_url: `ws://127.0.0.1:${port}/in` } });
    const ended = await bots.waitForBot(api, botId, bots.hasEnded);
    assert.equal(bots.outcome(ended), 'failed STREAMING_SETUP_FAILED');
    // the reservation is released once the end is settled
    const deadline = Date.now() + 10_000;
    while ((await balanceOf(team_id)) !== 10 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    assert.equal(await balanceOf(team_id), 10);
    const team = (await adminClient(t.url).get(`/admin/teams/${team_id}`)).body.data;
    assert.equal(Number(team.reserved), 0, JSON.stringify(team));
  });
});
