import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import type { PublicStore } from '../db/public-store.ts';
import { creatorPageOptions } from '../render/creator-page.ts';
import { SITE_TEMPLATE_META, SITE_TEMPLATE_VERSION } from '../render/site-template.ts';
import { SITE_WRITE_CHUNK, commitWithMarkers, writeCreatorFiles, writeTokenFiles } from './publish.ts';
import { SiteWriteBatch } from './write-site.ts';
import type { TransactionCache } from './tx-cache.ts';

/**
 * Pages written again after the page template changed (public migration 20, table page_backlog).
 *
 * A page on disk is written when its record changes, by the template of that day; a settled
 * record's page is never written again by that rule, so a new template — a fix, a redesign — would
 * never reach it, and the static tier would serve the old page for ever. {@link refreshSiteTemplate}
 * (the collector, at start) lists every record's page and every creator page when the pages on disk
 * were written by another SITE_TEMPLATE_VERSION (src/render/site-template.ts) than the running one;
 * {@link writeBacklogPages} writes them with the time the collector's page passes have left after
 * the pages of the records that changed, which always come first (a live launch's page does not
 * wait behind a million old ones). Until its turn an old page is served as it was: its facts are
 * the record's, only its presentation is the old template's.
 */

/**
 * When the pages on disk were written by another template version than this one (or by a version
 * before the versions were noted), list them all in the backlog and note this version. Returns how
 * many pages were listed (0 and 0 when the version is the same). A new, empty archive is only noted.
 */
export function refreshSiteTemplate(store: PublicStore, log: Logger): { tokens: number; wallets: number } {
  const was = store.getMeta(SITE_TEMPLATE_META);
  if (was === String(SITE_TEMPLATE_VERSION)) return { tokens: 0, wallets: 0 };
  const listed = store.backlogAllPages(SITE_TEMPLATE_META, SITE_TEMPLATE_VERSION);
  if (listed.tokens || listed.wallets) {
    log.info(
      { from: was === undefined ? 'unnoted' : Number.isFinite(Number(was)) ? Number(was) : was, to: SITE_TEMPLATE_VERSION, tokenPages: listed.tokens, creatorPages: listed.wallets },
      'page template changed: every page listed to be written again, after the pages of changed records',
    );
  }
  return listed;
}

/**
 * Write pages of the backlog, oldest listed first (newest launches first), until `untilMs` (a
 * `performance.now()` time): each page as its changed record's would be (writeTokenFiles,
 * writeCreatorFiles), a chunk of {@link SITE_WRITE_CHUNK} made durable at once (one syncfs), then
 * the settled records' markers, then the chunk taken off the backlog — so a crash leaves it listed.
 * Returns how many pages were written.
 */
export function writeBacklogPages(store: PublicStore, config: Config, untilMs: number, txs?: TransactionCache): number {
  if (!store.hasPageBacklog()) return 0;
  const opts = creatorPageOptions(config);
  const batch = new SiteWriteBatch();
  let n = 0;
  let after = 0;
  while (performance.now() < untilMs) {
    const chunk = store.pageBacklog(after, SITE_WRITE_CHUNK);
    if (!chunk.length) break;
    const done: number[] = [];
    const settled: string[] = [];
    for (const page of chunk) {
      if (performance.now() >= untilMs) break;
      done.push(page.id);
      if (page.kind === 'token') {
        const row = writeTokenFiles(store, config, batch, page.key, txs);
        if (row?.settled) settled.push(page.key);
        if (row) n++;
      } else if (writeCreatorFiles(store, config, batch, page.key, opts)) n++;
    }
    commitWithMarkers(batch, config, settled);
    store.clearPageBacklog(done);
    after = chunk[chunk.length - 1]!.id;
  }
  return n;
}

/** How often (ms) {@link noteBacklogProgress} logs while the backlog is being written. */
export const BACKLOG_LOG_MS = 60_000;

/** What {@link noteBacklogProgress} keeps between passes (one per collector run: {@link newBacklogProgress}). */
export interface BacklogProgress {
  /** pages written since the last line */
  written: number;
  /** pages written this run */
  total: number;
  /** when the last line was logged (epoch ms; 0: none yet this run) */
  loggedMs: number;
  /** whether the backlog was found non-empty this run (its end is logged once) */
  active: boolean;
}

/** A run's progress before any backlog page is written. */
export function newBacklogProgress(): BacklogProgress {
  return { written: 0, total: 0, loggedMs: 0, active: false };
}

/**
 * The operator's view of the backlog after a pass wrote `written` of its pages: a line when the
 * run's first pages are written and then at most every {@link BACKLOG_LOG_MS} — pages written
 * since the last line, pages left (one count of the backlog, about 8 ms over 1,000,000 pages) and,
 * from the rate since that line, when it will be done — and one line when it is empty. Quiet when
 * no backlog exists. `nowMs`: epoch ms.
 */
export function noteBacklogProgress(store: PublicStore, log: Logger, p: BacklogProgress, written: number, nowMs: number): void {
  if (written === 0 && !p.active) return;
  p.active = true;
  p.written += written;
  p.total += written;
  const empty = !store.hasPageBacklog();
  if (empty) {
    log.info({ template: SITE_TEMPLATE_VERSION, written: p.total }, 'page template backlog done: every page on disk is of the running template');
    Object.assign(p, newBacklogProgress());
    return;
  }
  if (p.loggedMs !== 0 && nowMs - p.loggedMs < BACKLOG_LOG_MS) return;
  const left = store.pageBacklogCount();
  const perMinute = p.loggedMs === 0 ? null : Math.round((p.written * 60_000) / (nowMs - p.loggedMs));
  log.info(
    { template: SITE_TEMPLATE_VERSION, written: p.written, left, ...(perMinute ? { perMinute, doneInMinutes: Math.ceil(left / perMinute) } : {}) },
    'page template backlog: pages written again in the running template (after the pages of changed records)',
  );
  p.written = 0;
  p.loggedMs = nowMs;
}

