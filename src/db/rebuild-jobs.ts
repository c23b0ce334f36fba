import type Database from 'better-sqlite3';
import { openDatabase } from './open.ts';
import { PRIVATE_MIGRATIONS } from './private-schema.ts';

/** A rebuild job (private.db `rebuild_job`, migration 3). Times are epoch ms. */
export interface RebuildJob {
  mint: string;
  state: 'queued' | 'running' | 'failed';
  queuedAtMs: number;
  startedAtMs: number | null;
  leaseUntilMs: number | null;
  attempts: number;
  signaturesRead: number;
  transactionsRead: number;
  error: string | null;
}

/**
 * Outcome of asking to start a rebuild: started — by this call, or `joined`: the mint's job was
 * already queued or running, so this call started nothing and counted no start (its answer carries
 * no rebuild policy) — or the limit that refused it.
 */
export type StartOutcome =
  | { started: true; job: RebuildJob; joined: boolean }
  | { started: false; refused: 'rate_limited'; retryAfterS: number }
  | { started: false; refused: 'rebuild_budget_exhausted'; retryAfterS: number }
  | { started: false; refused: 'busy'; retryAfterS: number };

/** Limits checked, in this order, when a rebuild would start (spec §3, §8). */
export interface StartLimits {
  /** starts per caller in any 60-minute window (spec §8: 5) */
  perCallerHourly: number;
  /** starts per UTC day, service-wide */
  dailyCeiling: number;
  /** jobs queued or running at most */
  maxQueue: number;
}

export const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** Start of the UTC day of `nowMs` (the daily ceiling counts starts from here). */
export function utcDayStartMs(nowMs: number): number {
  return Math.floor(nowMs / DAY_MS) * DAY_MS;
}

/**
 * Which limit refuses a new start, in order: the caller's starts in the last hour (`mine`: count
 * and oldest start, ms), the day's starts service-wide, the jobs queued or running. Null: none.
 * Pure; both queue implementations (SQLite, PostgreSQL) decide with it inside their transaction.
 */
export function startRefusal(
  mine: { n: number; oldest: number | null },
  dayStarts: number,
  active: number,
  nowMs: number,
  limits: StartLimits,
): Extract<StartOutcome, { started: false }> | null {
  if (mine.n >= limits.perCallerHourly) {
    return { started: false, refused: 'rate_limited', retryAfterS: Math.max(1, Math.ceil(((mine.oldest ?? nowMs) + HOUR_MS - nowMs) / 1000)) };
  }
  const dayStart = utcDayStartMs(nowMs);
  if (dayStarts >= limits.dailyCeiling) {
    return { started: false, refused: 'rebuild_budget_exhausted', retryAfterS: Math.max(1, Math.ceil((dayStart + DAY_MS - nowMs) / 1000)) };
  }
  if (active >= limits.maxQueue) return { started: false, refused: 'busy', retryAfterS: 60 };
  return null;
}

/**
 * The rebuild job queue in private.db. Every decision that must not race (start under the limits,
 * claim a job, finish it) is one SQLite transaction, so concurrent requests and a second server
 * process cannot start a job twice or exceed a limit.
 */
export class RebuildJobs {
  readonly db: Database.Database;
  private readonly s;

  /** `db`: a path to open, or an open private.db connection to share (src/db/private-state-sqlite.ts). */
  constructor(pathOrDb: string | Database.Database) {
    this.db = typeof pathOrDb === 'string' ? openDatabase(pathOrDb, PRIVATE_MIGRATIONS, { private: true }) : pathOrDb;
    const db = this.db;
    const cols = `mint, state, queued_at_ms AS queuedAtMs, started_at_ms AS startedAtMs, lease_until_ms AS leaseUntilMs, attempts,
      signatures_read AS signaturesRead, transactions_read AS transactionsRead, error`;
    this.s = {
      get: db.prepare(`SELECT ${cols} FROM rebuild_job WHERE mint = ?`),
      callerStarts: db.prepare('SELECT COUNT(*) AS n, MIN(at_ms) AS oldest FROM rebuild_start WHERE caller = ? AND at_ms > ?'),
      dayStarts: db.prepare('SELECT COUNT(*) AS n FROM rebuild_start WHERE at_ms >= ?'),
      active: db.prepare("SELECT COUNT(*) AS n FROM rebuild_job WHERE state IN ('queued', 'running')"),
      byState: db.prepare("SELECT state, COUNT(*) AS n FROM rebuild_job WHERE state IN ('queued', 'running') GROUP BY state"),
      insertJob: db.prepare("INSERT INTO rebuild_job (mint, state, queued_at_ms) VALUES (?, 'queued', ?)"),
      insertStart: db.prepare('INSERT INTO rebuild_start (mint, caller, at_ms) VALUES (?, ?, ?)'),
      deleteJob: db.prepare('DELETE FROM rebuild_job WHERE mint = ?'),
      ahead: db.prepare("SELECT COUNT(*) AS n FROM rebuild_job WHERE state = 'queued' AND (queued_at_ms < ? OR (queued_at_ms = ? AND mint < ?))"),
      claimable: db.prepare(
        `SELECT mint FROM rebuild_job WHERE state = 'queued' OR (state = 'running' AND lease_until_ms < ?) ORDER BY queued_at_ms, mint LIMIT ?`,
      ),
      claim: db.prepare(
        `UPDATE rebuild_job SET state = 'running', started_at_ms = ?, lease_until_ms = ?, attempts = attempts + 1, signatures_read = 0, transactions_read = 0
         WHERE mint = ? AND (state = 'queued' OR (state = 'running' AND lease_until_ms < ?))`,
      ),
      progress: db.prepare("UPDATE rebuild_job SET signatures_read = ?, transactions_read = ?, lease_until_ms = ? WHERE mint = ? AND state = 'running'"),
      fail: db.prepare("UPDATE rebuild_job SET state = 'failed', lease_until_ms = NULL, error = ? WHERE mint = ?"),
      release: db.prepare("UPDATE rebuild_job SET lease_until_ms = 0 WHERE mint = ? AND state = 'running'"),
      pending: db.prepare(`SELECT ${cols} FROM rebuild_job WHERE state IN ('queued', 'running') ORDER BY queued_at_ms, mint`),
      clearFailed: db.prepare("DELETE FROM rebuild_job WHERE mint = ? AND state = 'failed'"),
    };
  }

  /** The job of a mint, if any. */
  get(mint: string): RebuildJob | undefined {
    return this.s.get.get(mint) as RebuildJob | undefined;
  }

  /** Jobs queued ahead of this one (0 = next). */
  position(job: RebuildJob): number {
    return (this.s.ahead.get(job.queuedAtMs, job.queuedAtMs, job.mint) as { n: number }).n;
  }

  /** Jobs waiting and jobs being rebuilt now (the status endpoint's `rebuilds`). */
  queueCounts(): { queued: number; running: number } {
    const out = { queued: 0, running: 0 };
    for (const r of this.s.byState.all() as { state: 'queued' | 'running'; n: number }[]) out[r.state] = r.n;
    return out;
  }

  /** Jobs queued or running. */
  activeCount(): number {
    return (this.s.active.get() as { n: number }).n;
  }

  /**
   * Start a rebuild of `mint` for `caller` unless a limit refuses it: the caller's starts in the last
   * hour (429 `rate_limited`, Retry-After until the oldest of them leaves the window), the day's
   * starts service-wide (503 `rebuild_budget_exhausted`, until 00:00 UTC), the queue length (503
   * `busy`). A mint that already has a queued or running job is not started again (returns it).
   * One transaction: exact under concurrency.
   */
  start(mint: string, caller: string, nowMs: number, limits: StartLimits): StartOutcome {
    return this.db
      .transaction((): StartOutcome => {
        const existing = this.get(mint);
        if (existing && existing.state !== 'failed') return { started: true, job: existing, joined: true };
        const mine = this.s.callerStarts.get(caller, nowMs - HOUR_MS) as { n: number; oldest: number | null };
        const dayStarts = (this.s.dayStarts.get(utcDayStartMs(nowMs)) as { n: number }).n;
        const refusal = startRefusal(mine, dayStarts, this.activeCount(), nowMs, limits);
        if (refusal) return refusal;
        if (existing) this.s.deleteJob.run(mint);
        this.s.insertJob.run(mint, nowMs);
        this.s.insertStart.run(mint, caller, nowMs);
        return { started: true, job: this.get(mint)!, joined: false };
      })
      .immediate();
  }

  /** Starts by `caller` in the hour before `nowMs` (for the rate-limit header fields). */
  callerStartsInHour(caller: string, nowMs: number): { count: number; oldestMs: number | null } {
    const r = this.s.callerStarts.get(caller, nowMs - HOUR_MS) as { n: number; oldest: number | null };
    return { count: r.n, oldestMs: r.oldest };
  }

  /**
   * Claim up to `limit` jobs to run: queued ones, and running ones whose lease ran out (their
   * worker stopped). Each claim is conditional, so two workers never claim the same job.
   */
  claim(nowMs: number, leaseMs: number, limit: number): RebuildJob[] {
    return this.db
      .transaction(() => {
        const out: RebuildJob[] = [];
        for (const { mint } of this.s.claimable.all(nowMs, limit) as { mint: string }[]) {
          if (this.s.claim.run(nowMs, nowMs + leaseMs, mint, nowMs).changes === 1) out.push(this.get(mint)!);
        }
        return out;
      })
      .immediate();
  }

  /** Record progress and renew the lease of a running job. */
  progress(mint: string, signaturesRead: number, transactionsRead: number, leaseUntilMs: number): void {
    this.s.progress.run(signaturesRead, transactionsRead, leaseUntilMs, mint);
  }

  /** Give up the lease of a running job (this process stops): claimable at once (lease 0). */
  release(mint: string): void {
    this.s.release.run(mint);
  }

  /** The job finished: its record is held now; the job row goes. */
  finish(mint: string): void {
    this.s.deleteJob.run(mint);
  }

  /** The job failed (chain reads failed after retries). The next request reports it and may start again. */
  fail(mint: string, error: string): void {
    this.s.fail.run(error.slice(0, 500), mint);
  }

  /** Remove a failed job once its failure has been reported. */
  clearFailed(mint: string): void {
    this.s.clearFailed.run(mint);
  }

  /** Jobs queued or running, oldest first. */
  pending(): RebuildJob[] {
    return this.s.pending.all() as RebuildJob[];
  }

  close(): void {
    this.db.close();
  }
}
