/**
 * Replica flavours: pages of a real platform's web client, served under its real host names (the
 * bot's Chromium is sent here by SANDBOX_REPLICAS, bot-runtime/browser/replica-routing.ts). Each
 * flavour is a folder (`sandbox/meet/`, …) exporting one `ReplicaFlavour`; adding a platform's
 * replica is adding its folder and one line to `replicaFlavours`. The meeting rules
 * (meeting-state.ts), the control API and the page API are shared with the sandbox's own flavours.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { meetReplica } from './meet/flavour';
import { teamsReplica } from './teams/flavour';
import { zoomReplica } from './zoom/flavour';
import { SandboxError, type Meeting, type MeetingOptions, type Platform } from './meeting-state';
import type { IdentityRegistry } from './identity/identity-registry';
import type { MeetingRegistry } from './registry';

export interface ReplicaRequest {
  readonly registry: MeetingRegistry;
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** lower case, without port */
  readonly host: string;
  readonly path: string;
  readonly query: URLSearchParams;
  /** the sandbox's accounts, domains and sign-in sessions */
  readonly identity: IdentityRegistry;
}

export interface ReplicaFlavour {
  /** what `replica` says in a create request, e.g. `meet` */
  readonly name: string;
  readonly platform: Platform;
  /** the real host names it answers for (the certificate covers them) */
  readonly hosts: readonly string[];
  /** the real URL of a meeting, e.g. https://meet.google.com/abc-defg-hij (`settings`: the meeting's, which may pick the URL's form) */
  meetingUrl(meetingId: string, settings?: Readonly<Record<string, unknown>>): string;
  /** its settings from a create request (400 on bad ones), and what they change in the shared rules */
  options(body: Readonly<Record<string, unknown>>): Pick<MeetingOptions, 'replica' | 'lobby_timeout_ms' | 'join_wall' | 'host_starts_after_ms'>;
  handle(request: ReplicaRequest): Promise<void>;
  /** vc: whether a Meeting SDK join's `passWord` opens this meeting (absent: any will do) */
  sdkPasscodeOk?(meeting: Meeting, passWord: unknown): boolean;
}

export const replicaFlavours: readonly ReplicaFlavour[] = [meetReplica, teamsReplica, zoomReplica];

export const replicaFlavour = (name: string): ReplicaFlavour => {
  const flavour = replicaFlavours.find((f) => f.name === name);
  if (!flavour) throw new SandboxError(400, `replica must be one of ${replicaFlavours.map((f) => f.name).join(', ')}`);
  return flavour;
};

export const replicaForHost = (host: string): ReplicaFlavour | null => replicaFlavours.find((f) => f.hosts.includes(host)) ?? null;

export const replicaHostNames = (): string[] => replicaFlavours.flatMap((f) => f.hosts);

/** The replica part of a create request (`replica: "<flavour>"` and the flavour's settings); {} without one. */
export const replicaOptions = (body: Readonly<Record<string, unknown>>, platform: Platform): Partial<MeetingOptions> => {
  if (body.replica === undefined) return {};
  if (typeof body.replica !== 'string') throw new SandboxError(400, 'replica must be a string');
  const flavour = replicaFlavour(body.replica);
  if (flavour.platform !== platform) throw new SandboxError(400, `the ${flavour.name} replica is a ${flavour.platform} flavour, not ${platform}`);
  return flavour.options(body);
};
