import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import type { PublicStore } from '../db/public-store.ts';
import type { LaunchDocument } from '../core/types.ts';
import { renderTokenPage } from '../render/token-page.ts';
import { sitePaths, writeFileAtomic } from './write-site.ts';

/**
 * Write the page `t/{mint}.html` and document `d/{mint}.json` of every record marked pending in
 * the store (set in the same SQLite transaction that changed the record), atomically, then clear
 * the marks in one transaction. A crash between commit and write leaves the mark, so the next run
 * writes them; a record changed by another process after it was read here keeps its mark.
 * Returns how many records' files were written.
 */
export function writeSiteFiles(store: PublicStore, config: Config, log: Logger): number {
  let n = 0;
  const written = new Map<string, string | undefined>();
  for (const mint of store.pendingPages()) {
    const row = store.getLaunch(mint);
    written.set(mint, row?.sha256);
    if (row) {
      const doc = JSON.parse(row.document) as LaunchDocument;
      const paths = sitePaths(config.siteDir, mint);
      writeFileAtomic(paths.document, row.document);
      writeFileAtomic(paths.page, renderTokenPage(doc, { explorerTxUrl: config.EXPLORER_TX_URL, baseUrl: config.baseUrl, sha256: row.sha256, demo: config.DEMO }));
      n++;
    }
  }
  if (written.size) store.clearPending(written);
  if (n) log.debug({ pages: n }, 'site files written');
  return n;
}
