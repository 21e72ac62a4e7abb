import { startFuzzTarget } from './test/support/fuzz-target';
(async () => {
  const t = await startFuzzTarget();
  console.log(JSON.stringify({ url: t.url, full: t.fullKey, sending: t.sendingKey }));
  require('fs').writeFileSync('/tmp/fuzz-target.json', JSON.stringify({ url: t.url, full: t.fullKey, sending: t.sendingKey }));
  setInterval(() => {}, 1000);
})();
