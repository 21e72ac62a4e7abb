import { configFromEnv } from './config';
import { startService } from './service';

const main = async () => {
  const service = await startService(configFromEnv());
  const shutdown = async (signal: string) => {
    service.log.info({ signal }, 'stopping');
    await service.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
