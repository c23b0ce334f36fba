/**
 * Pages written again after the page template changed (src/ingest/page-backlog.ts, public
 * migration 20): a page on disk written by another SITE_TEMPLATE_VERSION is listed and rewritten
 * with the time the page passes have left, after the pages of records that changed; each ends as
 * the current template renders its record; a crash-free run leaves the backlog empty and the
 * version noted, and a later start lists nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { writeSiteFiles } from '../../src/ingest/publish.ts';
import { BACKLOG_LOG_MS, newBacklogProgress, noteBacklogProgress, refreshSiteTemplate, writeBacklogPages } from '../../src/ingest/page-backlog.ts';
import type { Logger } from '../../src/log.ts';
import { settledMarkerPath, sitePaths, walletPagePath } from '../../src/ingest/write-site.ts';
import { renderTokenPage, tokenPageOptions } from '../../src/render/token-page.ts';
import { CREATOR_PAGE_ROWS, creatorPageOptions, renderCreatorPage } from '../../src/render/creator-page.ts';
import { SITE_TEMPLATE_META, SITE_TEMPLATE_VERSION } from '../../src/render/site-template.ts';
import { untilPagesDue } from '../../collector/publish/pacing.ts';
import type { LaunchDocument } from '../../src/core/types.ts';
import { commitLaunch } from '../helpers/committed-launch.ts';

let dir: string;
let config: Config;
let store: PublicStore;
const log = createLogger('silent');
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lpa-backlog-'));
  config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' });
  store = new PublicStore(config.publicDbPath);
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The page the current template renders for a record held, and for a wallet. */
const tokenPage = (mint: string) => {
  const row = store.getLaunch(mint)!;
  return renderTokenPage(JSON.parse(row.document) as LaunchDocument, tokenPageOptions(config, row.sha256, store.transactionsFor(mint)));
};
const creatorPage = (wallet: string) => renderCreatorPage(wallet, store.walletPage(wallet, CREATOR_PAGE_ROWS), creatorPageOptions(config));
const creatorOf = (mint: string) => (JSON.parse(store.getLaunch(mint)!.document) as LaunchDocument).launch!.creator;
const OLD = '<!doctype html><p>the page as an older template wrote it</p>';

describe('pages written by another template', () => {
  it('a new archive notes the version and lists nothing', () => {
    expect(refreshSiteTemplate(store, log)).toEqual({ tokens: 0, wallets: 0 });
    expect(store.getMeta(SITE_TEMPLATE_META)).toBe(String(SITE_TEMPLATE_VERSION));
    expect(store.hasPageBacklog()).toBe(false);
  });

  it('are listed at start, written after the pages of changed records, each as the current template renders it; then nothing is listed again', () => {
    const mints = Array.from({ length: 30 }, (_, i) => commitLaunch(store, 1_000 + i * 10).mint);
    writeSiteFiles(store, config, log);
    store.setMeta(SITE_TEMPLATE_META, String(SITE_TEMPLATE_VERSION)); // this archive's pages are the current template's
    // the pages on disk as an older template wrote them, and that version noted
    for (const m of mints) {
      writeFileSync(sitePaths(config.siteDir, m).page, OLD);
      writeFileSync(walletPagePath(config.siteDir, creatorOf(m)), OLD);
    }
    store.setMeta(SITE_TEMPLATE_META, String(SITE_TEMPLATE_VERSION - 1));
    expect(refreshSiteTemplate(store, log)).toEqual({ tokens: 30, wallets: 30 });
    expect(store.getMeta(SITE_TEMPLATE_META)).toBe(String(SITE_TEMPLATE_VERSION));

    // a launch recorded meanwhile: its page is written by the pass; the backlog waits (no time left)
    const fresh = commitLaunch(store, 5_000).mint;
    const now = { siteWrittenMs: 0, sitePassMs: 0 } as Parameters<typeof untilPagesDue>[1];
    writeSiteFiles(store, config, log);
    expect(writeBacklogPages(store, config, performance.now())).toBe(0);
    expect(readFileSync(sitePaths(config.siteDir, fresh).page, 'utf8')).toBe(tokenPage(fresh));
    expect(readFileSync(sitePaths(config.siteDir, mints[0]!).page, 'utf8')).toBe(OLD);
    // nothing marked, but the backlog keeps the long-running collector's page passes due
    expect(store.hasPendingPages()).toBe(false);
    expect(untilPagesDue(store, now, 0)).toBeLessThan(Infinity);

    // passes of a few milliseconds each make progress until the backlog is empty (on a loaded machine a
    // pass may find its time gone before its first page: the cap, not each pass, proves progress)
    let passes = 0;
    let written = 0;
    while (store.hasPageBacklog()) {
      written += writeBacklogPages(store, config, performance.now() + 2);
      if (++passes > 500) throw new Error('the backlog does not empty: pages written are not taken off it');
    }
    expect(passes).toBeGreaterThan(1); // a pass of 2 ms did not write all 60
    expect(written).toBe(60);
    for (const m of mints) {
      expect(readFileSync(sitePaths(config.siteDir, m).page, 'utf8')).toBe(tokenPage(m));
      expect(readFileSync(walletPagePath(config.siteDir, creatorOf(m)), 'utf8')).toBe(creatorPage(creatorOf(m)));
      expect(existsSync(settledMarkerPath(config.siteDir, m))).toBe(store.getLaunch(m)!.settled);
    }
    expect(untilPagesDue(store, now, 0)).toBe(Infinity);
    expect(refreshSiteTemplate(store, log)).toEqual({ tokens: 0, wallets: 0 });
  });

  it('tell the operator how far the backlog is: a line at the first pages, then at most once a minute with what is left and when it will be done, and one at its end', () => {
    const mints = Array.from({ length: 12 }, (_, i) => commitLaunch(store, 2_000 + i * 10).mint);
    writeSiteFiles(store, config, log);
    store.setMeta(SITE_TEMPLATE_META, String(SITE_TEMPLATE_VERSION - 1));
    expect(refreshSiteTemplate(store, log)).toEqual({ tokens: 12, wallets: 12 });
    expect(store.pageBacklogCount()).toBe(24);
    const lines: { fields: Record<string, unknown>; message: string }[] = [];
    const fake = { info: (fields: Record<string, unknown>, message: string) => void lines.push({ fields, message }) } as unknown as Logger;
    const p = newBacklogProgress();
    noteBacklogProgress(store, fake, p, 0, 1_000); // no page written yet: quiet
    expect(lines).toEqual([]);
    // pages written as the passes would (a chunk of the backlog each), at t = 1 s, 31 s, 61 s, then to the end
    const pass = (n: number, atMs: number) => {
      const chunk = store.pageBacklog(0, n);
      store.clearPageBacklog(chunk.map((c) => c.id));
      noteBacklogProgress(store, fake, p, chunk.length, atMs);
    };
    pass(4, 1_000);
    expect(lines).toEqual([{ fields: { template: SITE_TEMPLATE_VERSION, written: 4, left: 20 }, message: expect.stringMatching(/^page template backlog: /) }]);
    pass(6, 31_000); // within the minute: no line
    expect(lines).toHaveLength(1);
    pass(2, 1_000 + BACKLOG_LOG_MS);
    // 8 pages in the minute since the first line: 12 left, done in 2 minutes at that rate
    expect(lines[1]).toEqual({ fields: { template: SITE_TEMPLATE_VERSION, written: 8, left: 12, perMinute: 8, doneInMinutes: 2 }, message: expect.stringMatching(/^page template backlog: /) });
    pass(12, 2_000 + BACKLOG_LOG_MS);
    expect(lines[2]).toEqual({ fields: { template: SITE_TEMPLATE_VERSION, written: 24 }, message: 'page template backlog done: every page on disk is of the running template' });
    // and quiet again afterwards
    noteBacklogProgress(store, fake, p, 0, 3_000 + BACKLOG_LOG_MS);
    expect(lines).toHaveLength(3);
    expect(mints).toHaveLength(12);
  });

  it('an archive from before the versions were noted has all its pages listed once', () => {
    const mints = Array.from({ length: 5 }, (_, i) => commitLaunch(store, 100 + i).mint);
    expect(store.getMeta(SITE_TEMPLATE_META)).toBeUndefined();
    expect(refreshSiteTemplate(store, log)).toEqual({ tokens: 5, wallets: 5 });
    // newest launch first
    expect(store.pageBacklog(0, 1)[0]).toMatchObject({ kind: 'token', key: mints[4] });
    expect(refreshSiteTemplate(store, log)).toEqual({ tokens: 0, wallets: 0 });
  });
});
