import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const root = path.resolve(__dirname, '../..');

describe('the layers of DESIGN.md hold (dependency-cruiser, .dependency-cruiser.cjs)', function () {
  this.timeout(120_000);

  it('no import breaks a layer rule, no module imports itself in a circle, and the service and the bot share only contract/', async () => {
    const cruise = await promisify(execFile)(
      process.execPath,
      [path.join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'), 'src', 'contract', 'bot-runtime', '--config', '.dependency-cruiser.cjs', '--output-type', 'err'],
      { cwd: root, maxBuffer: 16 * 2 ** 20 },
    ).then(
      (done) => ({ failed: false, report: done.stdout + done.stderr }),
      (error: { stdout?: string; stderr?: string; message: string }) => ({ failed: true, report: `${error.stdout ?? ''}${error.stderr ?? ''}` || error.message }),
    );
    assert.equal(cruise.failed, false, cruise.report);
    assert.match(cruise.report, /no dependency violations found/);
  });
});
