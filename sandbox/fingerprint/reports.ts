/**
 * The fingerprint reports pages posted, newest last, per host (the last 200 kept): the control API lists
 * them for tests (`GET /control/fingerprints`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readJson, sendHtml, sendJson } from '../http-util';
import { SandboxError } from '../meeting-state';
import { FINGERPRINT_PATH, FINGERPRINT_REPORT_PATH, fingerprintPage } from './page';

export interface FingerprintCheck {
  readonly id: string;
  readonly ok: boolean;
  readonly detail: unknown;
}

export interface FingerprintReport {
  readonly host: string;
  readonly page: string;
  /** the report after the join button's click (it carries the click's own verdict) */
  readonly final: boolean;
  readonly checks: FingerprintCheck[];
  readonly tripped: string[];
  readonly received_at: string;
}

const KEPT = 200;

const isCheck = (c: unknown): c is FingerprintCheck =>
  typeof c === 'object' && c !== null && typeof (c as FingerprintCheck).id === 'string' && typeof (c as FingerprintCheck).ok === 'boolean';

export class FingerprintReports {
  private readonly reports: FingerprintReport[] = [];

  add(host: string, body: Readonly<Record<string, unknown>>, now: Date): FingerprintReport {
    const checks = body.checks;
    if (!Array.isArray(checks) || !checks.every(isCheck)) throw new SandboxError(400, 'checks must be a list of {id, ok, detail}');
    const report: FingerprintReport = {
      host,
      page: typeof body.page === 'string' ? body.page : '',
      final: body.final === true,
      checks: checks.map((c) => ({ id: c.id, ok: c.ok, detail: c.detail ?? null })),
      tripped: checks.filter((c) => !c.ok).map((c) => c.id),
      received_at: now.toISOString(),
    };
    this.reports.push(report);
    if (this.reports.length > KEPT) this.reports.splice(0, this.reports.length - KEPT);
    return report;
  }

  list(host?: string): FingerprintReport[] {
    return host ? this.reports.filter((r) => r.host === host) : [...this.reports];
  }
}

/** `GET /fingerprint` and `POST /fingerprint/report` on any host; false for other paths. */
export async function handleFingerprint(reports: FingerprintReports, host: string, req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
  if (path === FINGERPRINT_PATH && (req.method === 'GET' || req.method === 'HEAD')) {
    sendHtml(res, 200, fingerprintPage(req.headers));
    return true;
  }
  if (path === FINGERPRINT_REPORT_PATH && req.method === 'POST') {
    const report = reports.add(host, await readJson(req), new Date());
    sendJson(res, 200, { tripped: report.tripped });
    return true;
  }
  return false;
}
