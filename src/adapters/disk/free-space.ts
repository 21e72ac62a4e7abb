import { statfs } from 'node:fs/promises';

const mib = (bytes: number) => `${Math.floor(bytes / 2 ** 20)} MiB`;

/**
 * A guard for writes into `folder`: what is wrong with writing `incomingBytes` more there, or null. It
 * keeps `minFreeBytes` free, so that the event log beside the artifacts never runs out of room first.
 * The message names sizes only, never the folder.
 */
export const freeSpaceGuard =
  (folder: string, minFreeBytes: number) =>
  async (incomingBytes: number): Promise<string | null> => {
    const stats = await statfs(folder);
    const free = Number(stats.bavail) * Number(stats.bsize);
    if (free - incomingBytes >= minFreeBytes) return null;
    return `The service is short of disk space (${mib(free)} free, ${mib(minFreeBytes)} kept free for its event log): try again later`;
  };
