/**
 * A time the chain did not give (a transaction without a blockTime) is placed by slot distance
 * × 0.4 s (src/render/chart-data.ts). The token page must not show such a time as measured: it is
 * marked "≈" wherever shown and the page says why; times from block times are shown bare.
 */
import { describe, expect, it } from 'vitest';
import { analyzeLaunch } from '../../src/core/record/build-launch.ts';
import { classifyLaunch } from '../../src/core/record/classify.ts';
import type { DecodedTransaction } from '../../src/core/types.ts';
import { chartSeries, clearChartSeriesCache } from '../../src/render/chart-data.ts';
import { renderTokenPage } from '../../src/render/token-page.ts';
import { createEvent, trade, tx } from '../helpers/synthetic-launch.ts';
import { OWN_FUNDERS } from '../helpers/synthetic-launch.ts';

const MINT = 'Mint111111111111111111111111111111111111pump';
const CREATOR = 'Creator1111111111111111111111111111111111111';
const A = 'WalletA111111111111111111111111111111111111';
const B = 'WalletB111111111111111111111111111111111111';
const T0 = 1_791_000_000;
const OPTS = { explorerTxUrl: 'https://explorer.example/tx/', baseUrl: 'https://archive.example', sha256: 'a'.repeat(64) };
const real = (n: bigint) => ({ real_sol_reserves: n.toString() });
const build = (txs: DecodedTransaction[]) =>
  classifyLaunch(analyzeLaunch(MINT, txs, true, OWN_FUNDERS), { origin: 'observed', observedAtLaunch: true, asOfMs: (T0 + 5_000) * 1000 });
const render = (txs: DecodedTransaction[]) => {
  clearChartSeriesCache();
  return renderTokenPage(build(txs), { ...OPTS, transactions: txs });
};
const early = (html: string) => html.match(/<td data-label="First buy">([^<]*)<\/td>/g)?.map((c) => c.replace(/<[^>]+>/g, ''));

const create = tx({ slot: 100, blockTime: T0, events: [createEvent(MINT, CREATOR), trade(MINT, CREATOR, true, 10n ** 13n, 10n ** 9n, real(10n ** 9n))] });
const timedBuy = tx({ slot: 110, blockTime: T0 + 5, events: [trade(MINT, A, true, 10n ** 12n, 10n ** 8n, real(11n * 10n ** 8n))] });
// 20 slots after creation, no block time: placed at 20 × 0.4 = 8 s
const untimedBuy = tx({ slot: 120, blockTime: null, events: [trade(MINT, B, true, 10n ** 12n, 10n ** 8n, real(12n * 10n ** 8n))] });

describe('times estimated from the slot distance', () => {
  it('the series marks the points, buyers and the series placed by slot', () => {
    const s = chartSeries(build([create, timedBuy, untimedBuy]), [create, timedBuy, untimedBuy]);
    expect(s.timesEstimated).toBe(true);
    expect(s.earlyBuyers.map((b) => [b.wallet, b.t, b.estimated ?? false])).toEqual([[A, 5, false], [B, 8, true]]);
    expect(s.timeline!.points.filter((p) => p.estimated).map((p) => p.wallet)).toEqual([B]);
    const timed = chartSeries(build([create, timedBuy]), [create, timedBuy]);
    expect(timed.timesEstimated).toBe(false);
    expect(timed.timeline!.points.some((p) => 'estimated' in p)).toBe(false);
  });

  it('the page marks an estimated time "≈" and says why; measured times stay bare and the note is absent', () => {
    const page = render([create, timedBuy, untimedBuy]);
    expect(early(page)).toEqual(['5 s after creation', '≈8 s after creation']);
    expect(page).toContain('id="times-estimated"');
    expect(page).toMatch(/Times marked ≈ are estimated from the slot distance[^<]*some of this launch’s transactions/);
    // the curve's table: its last trade is the untimed one
    expect(page).toMatch(/≈8 s after creation<\/td><\/tr>\n<tr><th scope="row">Completed/);
    const plain = render([create, timedBuy]);
    expect(early(plain)).toEqual(['5 s after creation']);
    expect(plain).not.toContain('times-estimated');
    expect(plain).not.toContain('≈');
  });
});
