import { unlinkSync } from 'node:fs';
import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import type { PublicStore } from '../db/public-store.ts';
import type { LaunchDocument } from '../core/types.ts';
import { renderTokenPage, tokenPageOptions } from '../render/token-page.ts';
import { renderEarlyPage } from '../render/early-page.ts';
import { CREATOR_PAGE_ROWS, creatorPageOptions, renderCreatorPage } from '../render/creator-page.ts';
import { SiteWriteBatch, settledMarkerPath, sitePaths, walletPagePath } from './write-site.ts';
import type { TransactionCache } from './tx-cache.ts';

/** Records whose files are made durable together (one syncfs: write-site.ts SiteWriteBatch), then their marks cleared. */
export const SITE_WRITE_CHUNK = 256;

/**
 * Write the page `t/{mint}.html` and document `d/{mint}.json` of every record marked pending in
 * the store (set in the same SQLite transaction that changed the record), atomically, then clear
 * the marks. Files are made durable a chunk of {@link SITE_WRITE_CHUNK} records at a time (one
 * syncfs: write-site.ts SiteWriteBatch) and only then are that chunk's marks cleared, in one
 * transaction: a crash — of the process or of the machine — before that leaves the marks, so the
 * next run writes those files again; a record changed by another process after it was read here
 * keeps its mark. The token page is rendered with the launch's transactions (`launch_tx`: its charts
 * and first-30-s wallets). Then the creator pages `w/{wallet}.html` of the wallets marked pending
 * (pending_wallet_page: the wallets named by a changed record) are written the same way.
 * A settled record also gets its marker `settled/{mint}` (static tiers' Cache-Control: long caching),
 * written only once its page and document are durable, so no power loss can leave a marker over a
 * page that did not reach the disk; an unsettled record's marker is removed before its files.
 * Returns how many records' files were written.
 *
 * `untilMs` (a `performance.now()` time; default: none) bounds the call for the long-running
 * collector, whose commits wait while it runs (issue 24, the soak's lag): once it has passed, no
 * further record or creator page is started; the marks of those not written stay, and the next call
 * takes them first (marks are listed oldest first), so none waits for ever.
 *
 * `txs`: the collector's {@link TransactionCache}, which holds the decoded transactions of the
 * curves it is recording (the same lists `PublicStore.transactionsFor` returns). Without it each
 * page reads and JSON-parses its launch's whole history from `launch_tx`: about 19 ms for a
 * 2,000-trade curve (3.1 MB of JSON), some 25 times the page's render, on every rewrite of a busy
 * curve's page (bench/pages.ts "read" figures).
 */
/** Marks read at once by a publish pass ({@link pendingMarks}): a 250 ms pass writes a few hundred pages at most. */
export const MARKS_READ = 4 * SITE_WRITE_CHUNK;

/**
 * The marks of `read` (oldest first), read `size` at a time as they are taken: a pass that stops
 * early (its time budget) has read one page of them, not every mark. A mark added during the pass
 * after the last one read is taken too; one cleared and added again keeps its place or comes next pass.
 */
function* pendingMarks<T extends { id: number }>(read: (afterId: number, limit: number) => T[], size = MARKS_READ): Generator<T> {
  let after = 0;
  for (;;) {
    const marks = read(after, size);
    for (const m of marks) {
      after = m.id;
      yield m;
    }
    if (marks.length < size) return;
  }
}

export function writeSiteFiles(store: PublicStore, config: Config, log: Logger, opts: { untilMs?: number; txs?: TransactionCache; marksRead?: number } = {}): number {
  const untilMs = opts.untilMs ?? Infinity;
  const txs = opts.txs;
  let n = 0;
  const batch = new SiteWriteBatch();
  let chunk = new Map<string, string | undefined>();
  let settled: string[] = [];
  const finish = () => {
    commitWithMarkers(batch, config, settled);
    if (chunk.size) store.clearPending(chunk);
    chunk = new Map();
    settled = [];
  };
  for (const { mint } of pendingMarks((after, limit) => store.pendingPagesAfter(after, limit), opts.marksRead)) {
    if (performance.now() >= untilMs) break;
    const row = writeTokenFiles(store, config, batch, mint, txs);
    chunk.set(mint, row?.sha256);
    if (row) {
      if (row.settled) settled.push(mint);
      n++;
    }
    if (chunk.size >= SITE_WRITE_CHUNK) finish();
  }
  finish();
  const wallets = writeCreatorPages(store, config, untilMs, opts.marksRead);
  if (n || wallets) log.debug({ pages: n, creatorPages: wallets }, 'site files written');
  return n;
}

/** Remove a file now; whether one was there (ENOENT is none; other errors are thrown). */
function removeFile(path: string): boolean {
  try {
    unlinkSync(path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

/**
 * Make a chunk's files durable, then the settled markers of its settled records (`settled`: their
 * mints), durable in turn: no power loss leaves a marker over a page that did not reach the disk.
 * The caller clears the chunk's marks (or backlog entries) only after this.
 */
export function commitWithMarkers(batch: SiteWriteBatch, config: Config, settled: readonly string[]): void {
  batch.commit(); // pages and documents durable
  for (const mint of settled) batch.write(settledMarkerPath(config.siteDir, mint), '');
  batch.commit(); // then their markers
}

/**
 * Put a record's document and token page into `batch` (the page rendered with its launch's
 * transactions, from `txs` when given); an unsettled record's settled marker is removed first.
 * Returns the row written, or undefined when no record is held (nothing is written). The caller
 * writes a settled record's marker once the batch is durable.
 */
export function writeTokenFiles(store: PublicStore, config: Config, batch: SiteWriteBatch, mint: string, txs?: TransactionCache): { sha256: string; settled: boolean } | undefined {
  const row = store.getLaunch(mint);
  if (!row) return undefined;
  const doc = JSON.parse(row.document) as LaunchDocument;
  const paths = sitePaths(config.siteDir, mint);
  if (!row.settled && removeFile(settledMarkerPath(config.siteDir, mint))) batch.noteRemoved(settledMarkerPath(config.siteDir, mint)); // before the files: never a cacheable answer for an unsettled one
  batch.write(paths.document, row.document);
  const opts = tokenPageOptions(config, row.sha256, txs ? txs.transactionsFor(store, mint) : store.transactionsFor(mint));
  batch.write(paths.page, renderTokenPage(doc, opts));
  // the first-30-seconds page, for a launch with too many first-30-s buyers or trades for its token page (the series is the one just drawn)
  const early = renderEarlyPage(doc, opts);
  if (early !== null) batch.write(paths.early, early);
  else batch.remove(paths.early);
  return { sha256: row.sha256, settled: row.settled };
}

/**
 * Put a wallet's creator page into `batch`, or remove it when no record names the wallet any more
 * (the server then answers its "not seen" page with 404). Returns whether a page was written.
 */
export function writeCreatorFiles(store: PublicStore, config: Config, batch: SiteWriteBatch, wallet: string, opts = creatorPageOptions(config)): boolean {
  const page = store.walletPage(wallet, CREATOR_PAGE_ROWS);
  if (!page.roles.length) {
    batch.remove(walletPagePath(config.siteDir, wallet));
    return false;
  }
  batch.write(walletPagePath(config.siteDir, wallet), renderCreatorPage(wallet, page, opts));
  return true;
}

/**
 * Write the creator page of every wallet marked pending, atomically; a wallet no record names any
 * more has its page removed (the server then answers its "not seen" page with 404). Marks are
 * cleared, unless set again meanwhile, once the pages of their chunk are durable (as in {@link writeSiteFiles}). Returns how many pages were written. `untilMs` as in
 * {@link writeSiteFiles}: past it no further page is started and the remaining marks stay.
 */
export function writeCreatorPages(store: PublicStore, config: Config, untilMs = Infinity, marksRead = MARKS_READ): number {
  if (!store.pendingWalletPagesAfter(0, 1).length) return 0;
  const pending = pendingMarks((after, limit) => store.pendingWalletPagesAfter(after, limit), marksRead);
  const opts = creatorPageOptions(config);
  const batch = new SiteWriteBatch();
  let n = 0;
  let done: { wallet: string; seq: number }[] = [];
  const finish = () => {
    batch.commit();
    if (done.length) store.clearPendingWallets(done);
    done = [];
  };
  for (const mark of pending) {
    if (performance.now() >= untilMs) break;
    done.push(mark);
    if (writeCreatorFiles(store, config, batch, mark.wallet, opts)) n++;
    if (done.length >= SITE_WRITE_CHUNK) finish();
  }
  finish();
  return n;
}
