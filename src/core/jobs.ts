/**
 * The collector's periodic jobs as it reports them to `/api/v1/status` (`collector.jobs`, docs/api.md):
 * written by its scheduler (collector/scheduler.ts) into the public store's meta, read by the server.
 */

/** Meta key of the report (JSON array of {@link JobReport}). */
export const JOBS_META = 'collector_jobs';

/** One periodic job: its name, the setting of its interval, the interval (ms) and when it last ran (epoch ms; null: not yet). */
export interface JobReport {
  name: string;
  setting: string | null;
  intervalMs: number;
  lastRunMs: number | null;
}

/** The report kept in meta, or null when absent or not a list of jobs (a collector of an older version). */
export function parseJobs(raw: string | undefined): JobReport[] | null {
  if (!raw) return null;
  try {
    const v: unknown = JSON.parse(raw);
    if (!Array.isArray(v)) return null;
    const ok = v.every((j: Record<string, unknown>) =>
      j !== null && typeof j === 'object' && typeof j.name === 'string' && (j.setting === null || typeof j.setting === 'string') &&
      typeof j.intervalMs === 'number' && (j.lastRunMs === null || typeof j.lastRunMs === 'number'));
    return ok ? (v as JobReport[]) : null;
  } catch {
    return null;
  }
}
