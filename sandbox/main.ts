/**
 * `npm run sandbox`: runs the sandbox meeting platform until interrupted.
 * Environment: SANDBOX_PORT (default 8443), SANDBOX_HOST (default 127.0.0.1).
 */
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from './server';

async function main(): Promise<void> {
  const sandbox = await startSandbox({ host: process.env.SANDBOX_HOST || undefined });
  const certPath = join(tmpdir(), `meeting-sandbox-${sandbox.port}.pem`);
  await writeFile(certPath, sandbox.caPem);
  const example = await sandbox.client.createMeeting({ platform: 'vc', lobby: true });
  const c = sandbox.controlUrl;
  console.log(
    [
      `Meeting sandbox on port ${sandbox.port}`,
      `  host console:   ${c}/`,
      `  certificate:    ${certPath} (also GET ${c}/control/certificate)`,
      `  Chromium trust: --ignore-certificate-errors-spki-list=${sandbox.spkiSha256}`,
      `  example meeting (vc, with a lobby): ${example.url}`,
      '  the service sends bots to these meetings when started with SANDBOX_HOSTS=1 (a development setting)',
      '',
      'Create a meeting:',
      `  curl --cacert ${certPath} -X POST ${c}/control/meetings -H 'content-type: application/json' -d '{"platform":"tm","lobby":true}'`,
      'A Google Meet replica meeting (https://meet.google.com/<code>; bots reach it with SANDBOX_REPLICAS=127.0.0.1:' + sandbox.port + '):',
      `  curl --cacert ${certPath} -X POST ${c}/control/meetings -H 'content-type: application/json' -d '{"platform":"mt","replica":"meet"}'`,
      'Admit a participant from the lobby:',
      `  curl --cacert ${certPath} -X POST ${c}/control/meetings/${example.meeting_id}/participants/<participant_id>/admit`,
      'See what happened:',
      `  curl --cacert ${certPath} ${c}/control/meetings/${example.meeting_id}`,
    ].join('\n'),
  );
  const shutdown = () => {
    void sandbox.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
