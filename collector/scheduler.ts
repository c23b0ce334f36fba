import type { Logger } from '../src/log.ts';
import type { PublicStore } from '../src/db/public-store.ts';
import { JOBS_META, type JobReport } from '../src/core/jobs.ts';

/**
 * One periodic job of the collector. Due when it never ran or `intervalMs` passed since `lastRunMs`
 * (each job keeps that time where it survives cron runs, mostly meta), unless `isDue` says otherwise.
 */
export interface Job {
  /** its name in logs and in `/api/v1/status` `collector.jobs` */
  name: string;
  /** the setting of its interval (named in the log line of a failure); null: a constant */
  setting: string | null;
  intervalMs: number;
  /** when it last ran (epoch ms), null: never */
  lastRunMs: () => number | null;
  /** whether it is due now (default: never ran, or intervalMs since lastRunMs) */
  isDue?: (nowMs: number) => boolean;
  /**
   * Run it: how many records it changed (their pages are written at once), null when it found
   * nothing due. Absent: the job runs inside another stage (the history check, in a catch-up's last
   * batch) and is only reported here.
   */
  run?: () => Promise<number | null>;
  /** run alongside the next passes, one at a time (the cron form waits for it) */
  background?: boolean;
  /** the warning logged when it fails (default `${name} failed; it runs again after ${setting}`) */
  failed?: string;
}

/**
 * The collector's one scheduler of periodic jobs: after each pass it runs the jobs that are due, in
 * order, each on its own budget and interval; a failure is logged and the job runs again when next
 * due; records a job changed have their pages written at once. It reports every job's interval and
 * last run to status (meta {@link JOBS_META}) when one changed.
 */
export class Scheduler {
  private background: Promise<void> | null = null;
  private reported = '';

  constructor(
    private readonly deps: { store: PublicStore; log: Logger; now: () => number; writePages: () => void },
    private readonly jobs: readonly Job[],
  ) {}

  /** Run the due jobs (a background job is started, and awaited when `wait`); stops early when `signal` aborts. */
  async runDue(signal: AbortSignal | undefined, wait: boolean): Promise<void> {
    for (const job of this.jobs) {
      if (!job.run || signal?.aborted || !this.due(job)) continue;
      if (job.background) {
        if (this.background !== null) continue;
        this.background = this.attempt(job, signal).finally(() => (this.background = null));
        if (wait) await this.background;
      } else await this.attempt(job, signal);
    }
    this.report();
  }

  /** The background job still running, if any (awaited at stop). */
  async settle(): Promise<void> {
    await this.background;
    this.report();
  }

  private due(job: Job): boolean {
    const now = this.deps.now();
    if (job.isDue) return job.isDue(now);
    const last = job.lastRunMs();
    return last === null || now - last >= job.intervalMs;
  }

  private async attempt(job: Job, signal: AbortSignal | undefined): Promise<void> {
    const t0 = performance.now();
    try {
      if (((await job.run!()) ?? 0) > 0) this.deps.writePages();
      const ms = performance.now() - t0;
      if (ms >= 100) this.deps.log.debug({ job: job.name, ms: Math.round(ms), background: job.background ?? false }, 'job ran');
    } catch (err) {
      if (signal?.aborted) return; // stopping: not a failure of the job
      this.deps.log.warn({ err: String(err) }, job.failed ?? `${job.name} failed; it runs again after ${job.setting}`);
    }
  }

  /** Write the jobs' intervals and last runs to meta for `/api/v1/status`, when they changed. */
  report(): void {
    const jobs: JobReport[] = this.jobs.map((j) => ({ name: j.name, setting: j.setting, intervalMs: j.intervalMs, lastRunMs: j.lastRunMs() }));
    const text = JSON.stringify(jobs);
    if (text === this.reported) return;
    this.deps.store.setMeta(JOBS_META, text);
    this.reported = text;
  }
}
