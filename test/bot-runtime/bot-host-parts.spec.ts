/** The bot's side of its host: the bot user, the allow-listed environments, Chromium's command line. */
import assert from 'node:assert/strict';
import { browserCommand } from '../../bot-runtime/browser/launch-browser';
import { botUserName, parsePasswdLine } from '../../contract/host/bot-user';
import { botProcessEnvironment, chromiumEnvironment } from '../../contract/host/environment';

const meetbot = { name: 'meetbot', uid: 999, gid: 995 };

describe('the bot on its host', () => {
  it('finds the bot user in a passwd line, BOT_USER or meetbot', () => {
    assert.deepEqual(parsePasswdLine('meetbot:x:999:995::/nonexistent:/usr/sbin/nologin\n'), meetbot);
    assert.equal(parsePasswdLine('meetbot:x:nine:995::/:/bin/false'), null);
    assert.equal(parsePasswdLine(''), null);
    assert.equal(botUserName({}), 'meetbot');
    assert.equal(botUserName({ BOT_USER: 'bots' }), 'bots');
  });

  it("gives Chromium only its own folder, the programs' path and the language", () => {
    const env = { PATH: '/usr/bin:/bin', LANG: 'en_US.UTF-8', SERVICE_SECRET: 's', BOT_TOKEN: 't', HOME: '/root' };
    assert.deepEqual(chromiumEnvironment('/tmp/p', env), { PATH: '/usr/bin:/bin', HOME: '/tmp/p', TMPDIR: '/tmp/p', LANG: 'en_US.UTF-8' });
  });

  it("gives the bot process the same, and only the service's settings it reads", () => {
    const env = { PATH: '/usr/bin', ADMIN_TOKEN: 'a', SERVICE_SECRET: 's' };
    assert.deepEqual(botProcessEnvironment('/tmp/b', env, { NODE_ENV: 'production', CHROMIUM_PATH: undefined, SANDBOX_REPLICAS: '' }), {
      PATH: '/usr/bin',
      HOME: '/tmp/b',
      TMPDIR: '/tmp/b',
      LANG: 'C.UTF-8',
      NODE_ENV: 'production',
    });
  });

  describe("Chromium's command line", () => {
    it('keeps the sandbox and the audio on, and its profile where it is told', () => {
      const { executablePath, args } = browserCommand('/usr/bin/chromium', ['--host-resolver-rules=MAP a b'], '/tmp/profile', null);
      assert.equal(executablePath, '/usr/bin/chromium');
      assert.ok(!args.includes('--no-sandbox') && !args.includes('--mute-audio'), args.join(' '));
      assert.ok(args.includes('--user-data-dir=/tmp/profile') && args.includes('--host-resolver-rules=MAP a b'));
    });

    it("says nothing of automation: headful by default, no automation switch, Blink's automation flag off", () => {
      const headful = browserCommand('/usr/bin/chromium', [], '/tmp/profile', null).args;
      assert.ok(!headful.some((a) => a.startsWith('--headless')) && !headful.includes('--enable-automation'), headful.join(' '));
      assert.ok(headful.includes('--disable-blink-features=AutomationControlled') && headful.includes('--lang=en-US'), headful.join(' '));
      const headless = browserCommand('/usr/bin/chromium', [], '/tmp/profile', null, 'headless').args;
      assert.ok(headless.includes('--headless=new') && !headless.includes('--enable-automation'), headless.join(' '));
    });

    it('runs Chromium as the bot user when the bot process is root', () => {
      const { executablePath, args } = browserCommand('/usr/bin/chromium', [], '/tmp/profile', meetbot);
      assert.equal(executablePath, '/usr/bin/setpriv');
      assert.deepEqual(args.slice(0, 5), ['--reuid=999', '--regid=995', '--clear-groups', '--', '/usr/bin/chromium']);
    });

    it('refuses every switch that turns the sandbox off, whoever asks', () => {
      for (const flag of ['--no-sandbox', '--no-zygote', '--single-process', '--disable-seccomp-filter-sandbox', '--disable-namespace-sandbox']) {
        assert.throws(() => browserCommand('/usr/bin/chromium', [flag], '/tmp/p', null), /always runs with its sandbox/);
      }
      const saved = process.env.PUPPETEER_DANGEROUS_NO_SANDBOX;
      process.env.PUPPETEER_DANGEROUS_NO_SANDBOX = 'true';
      try {
        assert.throws(() => browserCommand('/usr/bin/chromium', [], '/tmp/p', null), /always runs with its sandbox/);
      } finally {
        if (saved === undefined) delete process.env.PUPPETEER_DANGEROUS_NO_SANDBOX;
        else process.env.PUPPETEER_DANGEROUS_NO_SANDBOX = saved;
      }
    });
  });
});
