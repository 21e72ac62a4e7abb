/**
 * What a process does (ROLE): `api` serves the public API and the bots' internal API, runs the commands,
 * its read models and the single-owner background work (each under its lease); `worker` runs bots
 * (BOT_SLOTS of them) and nothing else; `all` (the default) does both, as the embedded default's one
 * process does.
 */
export type Role = 'api' | 'worker' | 'all';

export interface Roles {
  readonly api: boolean;
  /** runs bots: its slots are more than 0 */
  readonly worker: boolean;
}

export const rolesOf = (role: Role, botSlots: number): Roles => ({ api: role !== 'worker', worker: role !== 'api' && botSlots > 0 });
