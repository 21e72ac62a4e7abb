/** The service's side of a bot's host: whom bots run as, and a DATA_DIR only the service may enter. */
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import bunyan from 'bunyan';
import { botIdentityFor } from '../../src/adapters/bot-launcher/bot-identity';
import { childProcessLauncherFor, defaultBotPoolSize } from '../../src/adapters/bot-launcher/child-process-launcher';
import { privateFolder } from '../../src/adapters/disk/private-files';
import { configFromEnv } from '../../src/config';

const meetbot = { name: 'meetbot', uid: 999, gid: 995 };

describe('whom bots run as', () => {
  it('a service running as root runs them as the bot user', () => {
    assert.deepEqual(botIdentityFor(0, 'meetbot', meetbot, false), { kind: 'bot_user', user: meetbot });
  });

  it('a root service without the bot user refuses, naming the install script', () => {
    const identity = botIdentityFor(0, 'meetbot', null, false);
    assert.equal(identity.kind, 'refused');
    assert.match(identity.kind === 'refused' ? identity.reason : '', /"meetbot" does not exist: run scripts\/install-system-packages\.sh as root/);
  });

  it('never runs bots as root, even when BOT_USER names root', () => {
    assert.equal(botIdentityFor(0, 'root', { name: 'root', uid: 0, gid: 0 }, false).kind, 'refused');
  });

  it('a service that cannot switch user refuses to run bots unless told so for development', () => {
    const refused = botIdentityFor(1000, 'meetbot', meetbot, false);
    assert.equal(refused.kind, 'refused');
    assert.match(refused.kind === 'refused' ? refused.reason : '', /not root.*BOT_SAME_USER=1/);
    assert.deepEqual(botIdentityFor(1000, 'meetbot', meetbot, true), { kind: 'service_user' });
  });

  it('BOT_SAME_USER=1 as root contradicts switching user: refused', () => {
    assert.equal(botIdentityFor(0, 'meetbot', meetbot, true).kind, 'refused');
  });

  it('a service that would run bots but cannot isolate them does not start; one that runs none may', async () => {
    const log = bunyan.createLogger({ name: 'test', streams: [] });
    const config = configFromEnv({ BOT_USER: 'no-such-user-here', BOT_SAME_USER: '1' });
    assert.equal(config.botUser, 'no-such-user-here');
    assert.equal(config.botSameUser, true);
    assert.throws(() => childProcessLauncherFor(log, config, 2), /Bots cannot run safely here/);
    const idle = childProcessLauncherFor(log, config, 0);
    await assert.rejects(async () => idle.launch({ bot_id: 'b' } as never, { serviceUrl: 'http://s', botToken: 't' }), /bots cannot run on this machine/);
  });

  it('keeps two bots warm by default, never more than the slots, none where no bot runs', () => {
    assert.deepEqual([0, 1, 2, 8].map(defaultBotPoolSize), [0, 1, 2, 2]);
  });

  it('reads BOT_USER and BOT_SAME_USER, off unless set', () => {
    const config = configFromEnv({});
    assert.equal(config.botUser, undefined);
    assert.equal(config.botSameUser, false);
  });
});

describe('DATA_DIR', () => {
  const base = mkdtempSync(path.join(os.tmpdir(), 'mbs-data-dir-'));
  after(() => rmSync(base, { recursive: true, force: true }));

  it('is made for the service only (0700)', () => {
    const dir = path.join(base, 'fresh', 'data');
    assert.equal(privateFolder(dir), null);
    assert.equal(statSync(dir).mode & 0o777, 0o700);
  });

  it('is closed at start when it was open to others, and says what it was', () => {
    const dir = path.join(base, 'open');
    privateFolder(dir);
    chmodSync(dir, 0o755);
    assert.equal(privateFolder(dir), 0o755);
    assert.equal(statSync(dir).mode & 0o777, 0o700);
  });
});
