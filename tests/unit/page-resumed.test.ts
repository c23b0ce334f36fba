import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PublicStore } from '../../src/db/public-store.ts';
import { recordLaunch } from '../../src/ingest/record-launch.ts';
import { chartSeries } from '../../src/render/chart-data.ts';
import { renderTokenPage } from '../../src/render/token-page.ts';
import type { LaunchDocument } from '../../src/core/types.ts';
import { commitHypedLaunch } from '../helpers/hyped-launch.ts';
import { randomAddress } from '../helpers/launch-doc.ts';
import { trade, tx } from '../helpers/synthetic-launch.ts';

/**
 * A busy curve's page, written again after each of its trades the way the collector writes it (the
 * transaction cache's list grown by appends: chartSeriesCached resumes the walk and keeps the first
 * window's part, whose sections charts.ts and token-page.ts remember), is byte for byte the page
 * rendered from a series computed whole.
 */
let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'lpa-resumed-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('a page rendered again as its launch trades', () => {
  it('equals the page of the series computed whole, at every trade, in and after the first window', () => {
    const store = new PublicStore(join(dir, 'public.db'));
    const { mint, txs } = commitHypedLaunch(store, { slot: 5000, bundled: 3, early: 30 });
    const list = [...txs]; // the collector's cached list: appended to in place
    const opts = { explorerTxUrl: 'https://explorer.example/tx/', baseUrl: 'https://archive.example' };
    let slot = 5070;
    let reserves = 10n ** 10n;
    let withTable = 0;
    let previous = '';
    for (let step = 0; step < 40; step++) {
      // the first steps still fall in the first 30 s (slot 5000 + 75); the rest after it
      slot += step < 4 ? 1 : 7;
      reserves += 10n ** 7n;
      const t = tx({ slot, blockTime: 1_790_000_000 + Math.floor(slot * 0.4), events: [trade(mint, step % 3 ? randomAddress() : txs[1]!.events[0]!.fields.user as string, step % 5 !== 4, 10n ** 9n, 10n ** 7n, { real_sol_reserves: reserves.toString() })] });
      store.db.transaction(() => {
        store.addTransaction(mint, t);
        recordLaunch(store, mint, { origin: 'observed', observedAtLaunch: true, nowMs: (1_790_000_000 + slot) * 1000 });
      })();
      list.push(t);
      const row = store.getLaunch(mint)!;
      const doc = JSON.parse(row.document) as LaunchDocument;
      const collectors = renderTokenPage(doc, { ...opts, sha256: row.sha256, transactions: list });
      const whole = renderTokenPage(doc, { ...opts, sha256: row.sha256, series: chartSeries(doc, [...list]) });
      expect(collectors, `step ${step}`).toBe(whole);
      expect(collectors).not.toBe(previous);
      previous = collectors;
      if (step >= 5 && collectors.includes('id="early-table"')) withTable++;
    }
    expect(withTable).toBe(35);
    store.close();
  });
});
