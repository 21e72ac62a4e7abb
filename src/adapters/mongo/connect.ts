import type { MongoClientOptions, MongoClient } from 'mongodb';
import { urlWithoutPassword } from '../url-without-password';

/** How long the driver looks for the server before an operation fails (its default is 30 s). */
const SERVER_SELECTION_TIMEOUT_MS = 10_000;

/** The service's defaults; the URL's own options win (the driver lets client options override the URL's). */
export const clientOptions = (url: string, options: MongoClientOptions = {}): MongoClientOptions => ({
  ...(/[?&]serverSelectionTimeoutMS=/i.test(url) ? {} : { serverSelectionTimeoutMS: SERVER_SELECTION_TIMEOUT_MS }),
  ...options,
});

/** Connects now: an unreachable server fails the start with its address (never the password) in the message. */
export const connectOrExplain = async (client: MongoClient, url: string, purpose: string): Promise<void> => {
  try {
    await client.connect();
    await client.db('admin').command({ ping: 1 });
  } catch (error) {
    await client.close().catch(() => undefined);
    throw new Error(`cannot reach MongoDB at ${urlWithoutPassword(url, 'MONGO_URL')} (MONGO_URL) for the ${purpose}: ${(error as Error).message}`);
  }
};
