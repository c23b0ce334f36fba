import type { Config } from '../../src/config.ts';
import type { Logger } from '../../src/log.ts';
import type { PublicStore } from '../../src/db/public-store.ts';
import { writeSiteFiles } from '../../src/ingest/publish.ts';
import { noteBacklogProgress, writeBacklogPages } from '../../src/ingest/page-backlog.ts';
import type { CollectorMemory } from '../context.ts';

/** During a long catch-up, pages and documents are written at most this often (ms); always at its end. */
export const SITE_WRITE_INTERVAL_MS = 30_000;
/**
 * The long-running form writes pages and documents at most this often (ms): a record changed by
 * several catch-ups within it is written once. The JSON API reads the database, so it is not delayed.
 */
export const LIVE_SITE_WRITE_MS = 1_000;
/**
 * The long-running form waits at least this many times as long as its last page-writing pass took
 * before it starts the next one, so page and document writes take at most about 1/(1 + this) of the
 * collector's time however many records change (each changed record costs a render and two file
 * writes, and its share of one syncfs a chunk, whatever the number of transactions that changed it). Under light load the wait is
 * {@link LIVE_SITE_WRITE_MS}; under heavy load pages lag further, while the database — and so the
 * JSON API and the server's `/t` and `/d`, which yield to it when a file is older — stays current.
 */
export const SITE_WRITE_SPACING = 4;
/**
 * The long-running form's page-writing pass stops starting pages after this long (ms, wall time;
 * `writeSiteFiles` `untilMs`): page writes are synchronous (render, two file writes each, a syncfs a chunk), so while they
 * run no commit can, and a heard launch would wait for them (issue 24: passes of 3–5 s of page writes
 * under load put the soak's lag above 10 s). Pages not reached stay marked, the oldest first next time.
 */
export const LIVE_SITE_WRITE_BUDGET_MS = 250;

/**
 * The cron form's time (ms, from the start of its page pass) for pages listed after a template
 * change: about 7,000 pages a run at the render and write rates of docs/benchmarks.md, so a
 * 1,000,000-record archive run every minute has every page in the new template within a few hours.
 */
export const ONCE_BACKLOG_MS = 10_000;

/** How long after a page-writing pass that took `lastPassMs` the long-running form may start the next (ms). */
export function liveSiteWriteWaitMs(lastPassMs: number): number {
  return Math.max(LIVE_SITE_WRITE_MS, SITE_WRITE_SPACING * lastPassMs);
}

/**
 * The pages and documents of what a pass committed, timed (the long-running form spaces its passes
 * by it); in the long-running form (`budgeted`) at most {@link LIVE_SITE_WRITE_BUDGET_MS} of them.
 */
export function writePagesTimed(store: PublicStore, config: Config, log: Logger, memory: CollectorMemory, now: () => number, budgeted = false): void {
  const t0 = performance.now();
  writeSiteFiles(store, config, log, { untilMs: budgeted ? t0 + LIVE_SITE_WRITE_BUDGET_MS : Infinity, txs: memory.txs });
  // then, with the time left, pages listed after a template change (src/ingest/page-backlog.ts)
  const backlog = writeBacklogPages(store, config, t0 + (budgeted ? LIVE_SITE_WRITE_BUDGET_MS : ONCE_BACKLOG_MS), memory.txs);
  noteBacklogProgress(store, log, memory.backlog, backlog, now());
  memory.sitePassMs = performance.now() - t0;
  memory.siteWrittenMs = now();
}

/** Whether the pages are due after a pass: at once in the cron form, else when the spacing since the last pass is over. */
export function pagesDue(once: boolean, memory: CollectorMemory, nowMs: number): boolean {
  return once || nowMs - memory.siteWrittenMs >= liveSiteWriteWaitMs(memory.sitePassMs);
}

/** How long the long-running form may sleep before pages waiting to be written are due (ms; Infinity: none wait). */
export function untilPagesDue(store: PublicStore, memory: CollectorMemory, nowMs: number): number {
  return store.hasPendingPages() || store.hasPageBacklog() ? Math.max(0, memory.siteWrittenMs + liveSiteWriteWaitMs(memory.sitePassMs) - nowMs) : Infinity;
}
