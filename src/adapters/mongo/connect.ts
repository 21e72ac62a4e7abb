import type { MongoClientOptions, MongoClient } from 'mongodb';

/** How long the driver looks for the server before an operation fails (its default is 30 s). */
const SERVER_SELECTION_TIMEOUT_MS = 10_000;

/** The service's defaults; the URL's own options win (the driver lets client options override the URL's). */
export const clientOptions = (url: string, options: MongoClientOptions = {}): MongoClientOptions => ({
  ...(/[?&]serverSelectionTimeoutMS=/i.test(url) ? {} : { serverSelectionTimeoutMS: SERVER_SELECTION_TIMEOUT_MS }),
  ...options,
});

/** The URL without its password, to name the server in messages. */
export const describeMongoUrl = (url: string): string => {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    return parsed.toString();
  } catch {
    return '(an unparsable MONGO_URL)';
  }
};

/** Connects now: an unreachable server fails the start with its address (never the password) in the message. */
export const connectOrExplain = async (client: MongoClient, url: string, purpose: string): Promise<void> => {
  try {
    await client.connect();
    await client.db('admin').command({ ping: 1 });
  } catch (error) {
    await client.close().catch(() => undefined);
    throw new Error(`cannot reach MongoDB at ${describeMongoUrl(url)} (MONGO_URL) for the ${purpose}: ${(error as Error).message}`);
  }
};
