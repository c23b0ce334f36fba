import { describe, expect, it } from 'vitest';
import { analyzeLaunch } from '../../src/core/record/build-launch.ts';
import { classifyLaunch } from '../../src/core/record/classify.ts';
import { chartSeries, chartSeriesCached, CURVE_MAX_POINTS } from '../../src/render/chart-data.ts';
import { complete, createEvent, migration, tx, trade } from '../helpers/synthetic-launch.ts';
import { OWN_FUNDERS } from '../helpers/synthetic-launch.ts';

/** The token page's chart series (src/render/chart-data.ts) on simulated launches whose truth the test states. */

const MINT = 'MintAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAApump';
const CREATOR = 'Creator1111111111111111111111111111111111';
const A = 'WalletA111111111111111111111111111111111111';
const B = 'WalletB111111111111111111111111111111111111';
const C = 'WalletC111111111111111111111111111111111111';
const T0 = 1_785_000_000;
const NO_FUNDER = OWN_FUNDERS;
const docOf = (txs: Parameters<typeof analyzeLaunch>[1], complete = true) =>
  classifyLaunch(analyzeLaunch(MINT, txs, complete, NO_FUNDER), { origin: 'observed', observedAtLaunch: true, asOfMs: (T0 + 4000) * 1000 });
const real = (n: bigint) => ({ real_sol_reserves: n.toString() });

describe('chartSeries', () => {
  const create = tx({ slot: 100, blockTime: T0, events: [createEvent(MINT, CREATOR), trade(MINT, CREATOR, true, 100_000_000_000_000n, 3n * 10n ** 9n, real(3n * 10n ** 9n))] });
  const bundled = tx({ slot: 100, blockTime: T0, events: [trade(MINT, A, true, 50_000_000_000_000n, 2n * 10n ** 9n, real(5n * 10n ** 9n))] });
  const early = tx({ slot: 110, blockTime: T0 + 5, events: [trade(MINT, B, true, 20_000_000_000_000n, 10n ** 9n, real(6n * 10n ** 9n))] });
  const creatorSell = tx({ slot: 120, blockTime: T0 + 10, events: [trade(MINT, CREATOR, false, 40_000_000_000_000n, 10n ** 9n, real(5n * 10n ** 9n))] });
  const late = tx({ slot: 900, blockTime: T0 + 3600, events: [trade(MINT, C, true, 10_000_000_000_000n, 10n ** 9n, real(6n * 10n ** 9n))] });
  // any order across slots; within a slot the stored order is kept (the chain gives none)
  const txs = [late, creatorSell, early, create, bundled];
  const doc = docOf(txs);
  const s = chartSeries(doc, txs);

  it('splits the supply as the builder counts it: creator, bundled, first 30 s, the rest not bought', () => {
    expect(s.missing).toBeNull();
    expect(s.supply!.atCreationSlot).toEqual({ creator: doc.launch!.creatorTokensRaw, bundled: '50000000000000', early: '0', other: '0', curve: '850000000000000' });
    expect(s.supply!.at30s).toEqual({ creator: '60000000000000', bundled: '50000000000000', early: '20000000000000', other: '0', curve: '870000000000000' });
  });

  it('the timeline holds the first window only, with the builder\'s counts of bundled and first-30-s wallets', () => {
    expect(s.timeline!.points.map((p) => [p.who, p.isBuy, p.t])).toEqual([['creator', true, 0], ['bundled', true, 0], ['early', true, 5], ['creator', false, 10]]);
    expect(s.timeline!.bundledWallets).toBe(doc.launch!.bundledBuyers);
    expect(s.timeline!.first30sWallets).toBe(doc.launch!.buyersFirst30s);
    expect(s.earlyBuyers.map((b) => b.wallet)).toEqual([B]);
  });

  it('the curve follows the events\' real reserves to the last trade; completion and migration are marked', () => {
    expect(s.curve!.points.map((p) => p.realQuote)).toEqual(['0', '3000000000', '5000000000', '6000000000', '5000000000', '6000000000']);
    expect(s.curve!.source).toBe('events');
    expect(s.curve!.completedAt).toBeNull();
    const done = tx({ slot: 950, blockTime: T0 + 3700, events: [trade(MINT, A, true, 10n ** 12n, 10n ** 9n, real(85n * 10n ** 9n)), complete(MINT, A)] });
    const mig = tx({ slot: 960, blockTime: T0 + 3710, events: migration(MINT, 'Pool1111111111111111111111111111111111111') });
    const s2 = chartSeries(docOf([...txs, done, mig]), [...txs, done, mig]);
    expect(s2.curve!.completedAt).toBe(3700);
    expect(s2.curve!.migratedAt).toBe(3710);
  });

  it('sums the trades when the era\'s events carry no reserves', () => {
    const c = tx({ slot: 100, blockTime: T0, events: [createEvent(MINT, CREATOR), trade(MINT, CREATOR, true, 10n ** 12n, 10n ** 9n)] });
    const b = tx({ slot: 200, blockTime: T0 + 60, events: [trade(MINT, A, true, 10n ** 12n, 2n * 10n ** 9n)] });
    const x = chartSeries(docOf([c, b]), [c, b]);
    expect(x.curve!.source).toBe('trades');
    expect(x.curve!.points.map((p) => p.realQuote)).toEqual(['0', '1000000000', '3000000000']);
  });

  it('keeps every trade of a transaction holding several (more points than transactions: the columns grow)', () => {
    const c = tx({ slot: 100, blockTime: T0, events: [createEvent(MINT, CREATOR), trade(MINT, CREATOR, true, 10n ** 12n, 10n ** 9n, real(10n ** 9n))] });
    // 20 trades in one transaction: more than the walk's first room for points (one a transaction), so it grows mid-transaction
    const ks = Array.from({ length: 20 }, (_, i) => BigInt(i + 1));
    const hops = tx({ slot: 200, blockTime: T0 + 60, events: ks.map((k) => trade(MINT, k % 2n ? A : B, true, 10n ** 12n, 10n ** 9n, real((1n + k) * 10n ** 9n))) });
    const x = chartSeries(docOf([c, hops]), [c, hops]);
    expect(x.curve!.points.map((p) => [p.t, p.slot, p.realQuote])).toEqual([
      [0, 100, '0'],
      [0, 100, '1000000000'],
      ...ks.map((k) => [60, 200, `${k + 1n}000000000`]),
    ]);
  });

  it('a long curve keeps at most CURVE_MAX_POINTS points, the last one included', () => {
    const many = Array.from({ length: 2000 }, (_, i) => tx({ slot: 1000 + i, blockTime: T0 + 100 + i * 7, events: [trade(MINT, C, true, 10n ** 9n, 10n ** 6n, real(BigInt(i) * 10n ** 6n))] }));
    const all = [create, ...many];
    const x = chartSeries(docOf(all), all);
    expect(x.curve!.points.length).toBeLessThanOrEqual(CURVE_MAX_POINTS);
    expect(x.curve!.points.at(-1)!.realQuote).toBe(String(1999n * 10n ** 6n));
  });

  it('draws nothing from an incomplete history or without the creation, and says why', () => {
    expect(chartSeries(docOf(txs, false), txs).missing).toMatch(/incomplete/);
    const noCreation = docOf([late]);
    expect(chartSeries(noCreation, [late])).toMatchObject({ missing: expect.stringMatching(/creation transaction is not held/), supply: null, timeline: null, curve: null });
  });

  it('remembers a series per record version: the same record gives the same series, a changed one a new one', () => {
    const sha = 'a'.repeat(64);
    const first = chartSeriesCached(doc, sha, txs);
    expect(first).toEqual(s);
    expect(chartSeriesCached(doc, sha, [...txs])).toBe(first);
    // a placeholder sha256 does not hide a change of the transactions or of the document
    const more = [...txs, tx({ slot: 901, blockTime: T0 + 3601, events: [trade(MINT, C, true, 10n ** 12n, 10n ** 8n, real(7n * 10n ** 9n))] })];
    expect(chartSeriesCached(doc, sha, more).curve!.points.length).toBe(s.curve!.points.length + 1);
    expect(chartSeriesCached(docOf(txs, false), sha, txs).missing).toMatch(/incomplete/);
  });
});

describe('a busy curve\'s series, its walk resumed as trades are appended (chartSeriesCached)', () => {
  it('equals the series computed whole at every step; the first window\'s part stays the same objects once the window is past', () => {
    let seed = 11;
    const rnd = (n: number) => (seed = (seed * 48271) % 2147483647) % n;
    const wallets = [A, B, C, 'WalletD111111111111111111111111111111111111', 'WalletE111111111111111111111111111111111111'];
    const create = tx({ slot: 100, blockTime: T0, events: [createEvent(MINT, CREATOR), trade(MINT, CREATOR, true, 10n ** 14n, 3n * 10n ** 9n, real(3n * 10n ** 9n))] });
    let list = [create];
    let slot = 100;
    let reserves = 3n * 10n ** 9n;
    let prev: ReturnType<typeof chartSeries> | null = null;
    let resumedSteps = 0;
    let keptWindow = 0;
    for (let step = 0; step < 240; step++) {
      const r = rnd(100);
      if (r < 3 && list.length > 3) {
        // the cache dropped the mint and read it again: a new array of the same transactions
        list = [...list];
      } else if (r < 5) {
        // a late-arriving transaction of an earlier slot: the walk cannot resume (out of slot order)
        list.push(tx({ slot: slot - 1 - rnd(3), blockTime: T0 + (slot - 101 - rnd(3)) * 0.4, events: [trade(MINT, wallets[rnd(5)]!, true, 10n ** 11n, 10n ** 7n, real(reserves))] }));
      } else {
        slot += step < 40 ? rnd(3) : 1 + rnd(20);
        const isBuy = rnd(4) !== 0;
        reserves += isBuy ? 10n ** 8n : -(10n ** 7n);
        const events = [trade(MINT, rnd(10) === 0 ? CREATOR : wallets[rnd(5)]!, isBuy, 10n ** 11n + BigInt(rnd(1000)), 10n ** 7n, real(reserves))];
        if (step === 200) events.push(complete(MINT, A));
        list.push(tx({ slot, blockTime: T0 + (slot - 100) * 0.4, err: rnd(15) === 0 ? { InstructionError: [0, 'Custom'] } : undefined, events: step === 210 ? migration(MINT, 'Pool1111111111111111111111111111111111111') : events }));
      }
      const doc = docOf(list);
      const got = chartSeriesCached(doc, `sha${step}`, list);
      expect(got, `step ${step}`).toEqual(chartSeries(doc, [...list]));
      if (prev && got.supply === prev.supply) {
        keptWindow++;
        expect(got.timeline).toBe(prev.timeline);
        expect(got.earlyBuyers).toBe(prev.earlyBuyers);
      }
      if (prev && got.curve && prev.curve && got.curve.points.length > 0) resumedSteps++;
      prev = got;
      // the collector's cache drops a list that took a transaction out of slot order; the store gives it back sorted
      if (list.some((t, i) => i > 0 && (t.slot ?? 0) < (list[i - 1]!.slot ?? 0))) list = [...list].sort((a, b) => (a.slot ?? 0) - (b.slot ?? 0));
    }
    // the window (30 s = 75 slots of 0.4 s) is passed within the first steps: most steps reuse its part
    expect(keptWindow, `${keptWindow} steps kept the window part`).toBeGreaterThan(120);
    expect(resumedSteps).toBeGreaterThan(200);
  });
});
