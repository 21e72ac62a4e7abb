/** The sandbox's own flavours: vc, tm and mt on `*.localhost` (no replica hosts: Chromium resolves `*.localhost` itself). */
import type { DriverFamily } from '../page-driver';
import { SandboxDriver } from './sandbox-driver';

const sandboxHosts = new Set(['vc.localhost', 'tm.localhost', 'mt.localhost']);

export const sandboxFamily: DriverFamily = {
  name: 'sandbox',
  drives: (host) => sandboxHosts.has(host),
  replicaHosts: [],
  navigationUrl: (meetingUrl) => meetingUrl,
  open: (page) => new SandboxDriver(page),
};
