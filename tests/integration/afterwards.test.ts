/**
 * The afterwards sweep (collector/enrich/afterwards.ts, methodology "Buyout afterwards"): what each
 * buyout wallet did in the pool is unknown (null, never "none") until its token account's history
 * has been read to the end; the sweep runs at most every AFTERWARDS_SWEEP_MS across cron runs,
 * continues from where it stopped, and ends equal to truth.json. The pool refresh
 * (collector/enrich/pool-refresh.ts) brings a graduated record's pool to the chain's end, which no pump
 * transaction would. Simulated chain served live by the replay RPC (slots landed by the test); the
 * collector's clock is the test's.
 */
import { join } from 'node:path';
import { startServedChain, type ServedChain } from '../helpers/live-chain.ts';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { SimulatedChain } from '../../devchain/simulate/chain.ts';
import { startReplayRpc, type ReplayRpc } from '../../devchain/replay/server.ts';
import { collectOnce } from '../helpers/collect-once.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { walletRecord } from '../../src/server/wallet.ts';
import { statusBody } from '../../src/facts/status.ts';
import { loadConfig } from '../../src/config.ts';
import { JOBS_META, parseJobs } from '../../src/core/jobs.ts';

let tmp: string;
let chain: SimulatedChain;
let rpc: ReplayRpc;
/** slot of every transaction signature of the chain */
const slotOf = new Map<string, number>();

let served: ServedChain;
beforeAll(async () => {
  served = await startServedChain('afterwards', 120, 3107, { live: true, speed: 1e-6 });
  ({ tmp, chain, rpc } = served);
  for (const l of chain.transactions) {
    const t = JSON.parse(l) as { slot: number; transaction: { signatures: string[] } };
    slotOf.set(t.transaction.signatures[0]!, t.slot);
  }
}, 120_000);

afterAll(() => served?.close());

describe('afterwards sweep and pool refresh', () => {
  it('unknown until read to the end; read at most every AFTERWARDS_SWEEP_MS; continues across runs; ends equal to truth', async () => {
    const dataDir = join(tmp, 'data');
    let clock = Date.UTC(2026, 10, 20, 12, 0, 0);
    const run = (env: Record<string, string>) => collectOnce(dataDir, rpc.url, () => clock, env);
    const buyouts = Object.entries(chain.truth.records).filter(([, t]) => t.curveBuyout);
    /** each buyout's afterwards as the wallet endpoint renders it, in truth's shape */
    const served = () => {
      const store = new PublicStore(join(dataDir, 'public.db'));
      try {
        return new Map(buyouts.map(([mint, t]) => {
          const w = t.curveBuyout!.wallet;
          const a = walletRecord(w, store.walletRoles(w, 1000).roles, store.afterwardsOfWallet(w)).buyouts?.find((b) => b.mint === mint)?.afterwards ?? null;
          return [mint, a && { sold: a.sold, soldTokens: a.soldTokens, venues: a.venues, signatures: a.signatures, firstSoldAtMs: a.firstSoldAt?.ms ?? null, lastSoldAtMs: a.lastSoldAt?.ms ?? null, balanceTokens: a.balanceTokens }];
        }));
      } finally {
        store.close();
      }
    };
    const saleSlots = buyouts.flatMap(([, t]) => t.buyoutAfterwards!.signatures.map((s) => slotOf.get(s)!)).sort((a, b) => a - b);
    expect(saleSlots.length).toBeGreaterThan(3);
    const lastSlot = Math.max(...slotOf.values());
    // Land the chain up to the first sale of a wallet that sold in two transactions: the second is not on chain yet.
    const twoStep = buyouts.find(([, t]) => t.buyoutAfterwards!.signatures.length >= 2);
    expect(twoStep).toBeDefined();
    const mid = slotOf.get(twoStep![1].buyoutAfterwards!.signatures[0]!)!;
    rpc.advanceTo(mid);

    // No lookup budget: the histories cannot be read, so every afterwards is unknown (null), not "none".
    await run({ FUNDER_DAILY_RPC_BUDGET: '0' });
    const first = new PublicStore(join(dataDir, 'public.db'));
    const recordsAtFirst = first.counts().records;
    first.close();
    let got = served();
    const completedByMid = buyouts.filter(([, t]) => slotOf.get(t.curveBuyout!.signature)! <= mid);
    expect(completedByMid.length).toBeGreaterThan(0);
    for (const [mint] of buyouts) expect({ mint, a: got.get(mint) }).toEqual({ mint, a: null });

    // A minute later with budget: the sweep is not due (AFTERWARDS_SWEEP_MS 10 min): still unknown.
    clock += 60_000;
    await run({});
    for (const [mint, a] of served()) expect({ mint, a }).toEqual({ mint, a: null });

    // 11 minutes later: read to the end as of the middle slot — the sales up to it, no later one.
    clock += 11 * 60_000;
    await run({});
    got = served();
    let partial = 0;
    for (const [mint, t] of completedByMid) {
      const truth = t.buyoutAfterwards!;
      const upToMid = truth.signatures.filter((s) => slotOf.get(s)! <= mid);
      expect({ mint, signatures: got.get(mint)?.signatures }).toEqual({ mint, signatures: upToMid });
      if (upToMid.length < truth.signatures.length) partial++;
    }
    expect(partial).toBeGreaterThan(0);

    // The rest of the chain lands; the next due sweep continues from each account's last read transaction.
    rpc.advanceTo(lastSlot);
    clock += 11 * 60_000;
    await run({});
    got = served();
    for (const [mint, t] of buyouts) expect({ mint, a: got.get(mint) }).toEqual({ mint, a: t.buyoutAfterwards });
    const kinds = new Set(buyouts.map(([, t]) => t.buyoutAfterwards!.sold));
    expect([...kinds].sort()).toEqual(['all', 'none', 'part']);
    // the status endpoint says when the periodic jobs last ran
    const store = new PublicStore(join(dataDir, 'public.db'));
    const periodic = statusBody({ publicStore: store, config: loadConfig({ DATA_DIR: dataDir }) }, clock).collector.periodic;
    // the search index merge (hourly) ran once, at the first run, after the pass that wrote the records
    const merge = parseJobs(store.getMeta(JOBS_META))?.find((j) => j.name === 'search index merge');
    const downloadsRecords = Number(store.getMeta('downloads_records'));
    const recordsNow = store.counts().records;
    store.close();
    expect(merge).toEqual({ name: 'search index merge', setting: null, intervalMs: 3_600_000, lastRunMs: clock - 23 * 60_000 });
    expect(periodic.afterwardsSweep?.ms).toBe(clock);
    expect(periodic.poolRefresh?.ms).toBe(clock);
    expect(periodic.funderSweep?.ms).toBe(clock);
    // DOWNLOADS_INTERVAL_MS 1 h, but the archive more than doubled once the rest of the chain landed: the last run wrote them again, with every record
    expect(downloadsRecords).toBe(recordsNow);
    expect(recordsNow).toBeGreaterThan(2 * recordsAtFirst);
    expect(periodic.downloads?.ms).toBe(clock);
  }, 180_000);

  it('the pool refresh: a graduated record read before a pool sale shows the pool then; a due refresh brings it to the chain’s end', async () => {
    const dataDir = join(tmp, 'data-pool');
    let clock = Date.UTC(2026, 10, 21, 12, 0, 0);
    // a replay of its own: the first test left the shared one at the chain's end
    const live = await startReplayRpc({ chainDir: join(tmp, 'chain'), live: true, speed: 1e-6 });
    onTestFinished(() => live.close());
    const run = (env: Record<string, string> = {}) => collectOnce(dataDir, live.url, () => clock, env);
    const pool = (mint: string) => {
      const store = new PublicStore(join(dataDir, 'public.db'));
      try {
        const row = store.getLaunch(mint)!;
        const d = JSON.parse(row.document) as { pool: { baseReserves: string; quoteReserves: string; asOf: { ms: number } } | null };
        return { reserves: d.pool && { base: d.pool.baseReserves, quote: d.pool.quoteReserves }, asOfMs: d.pool?.asOf.ms ?? null, sha256: row.sha256 };
      } finally {
        store.close();
      }
    };
    // a launch that sold in its pool in two transactions; land the chain up to its first sale
    const [mint, t] = Object.entries(chain.truth.records).find(([, r]) => (r.buyoutAfterwards?.signatures.length ?? 0) >= 2)!;
    const [first, second] = t.buyoutAfterwards!.signatures.map((s) => slotOf.get(s)!);
    live.advanceTo(first!);
    await run();
    const before = pool(mint);
    expect(before.reserves).not.toBeNull();
    expect(before.reserves).not.toEqual(t.poolReserves); // the second sale has not happened yet

    live.advanceTo(Math.max(...slotOf.values()));
    clock += 60_000; // not due (POOL_REFRESH_MS 10 min): the record keeps the pool it read
    await run();
    expect(pool(mint)).toEqual(before);

    clock += 10 * 60_000; // due: every graduated pool is read again; a changed one makes a new document
    await run();
    const after = pool(mint);
    expect(after.reserves).toEqual(t.poolReserves);
    expect(after.asOfMs).toBe(clock);
    expect(after.sha256).not.toBe(before.sha256);
    expect(Number(after.reserves!.base)).toBeGreaterThan(Number(before.reserves!.base)); // the sale put tokens into the pool
    expect(second!).toBeGreaterThan(first!);

    // every PumpSwap-graduated record now has truth's pool; a refresh that finds nothing new changes no document
    const store = new PublicStore(join(dataDir, 'public.db'));
    const shas = new Map(Object.keys(chain.truth.records).map((m) => [m, store.getLaunch(m)?.sha256]));
    store.close();
    for (const [m, r] of Object.entries(chain.truth.records)) if (r.poolReserves) expect({ m, pool: pool(m).reserves }).toEqual({ m, pool: r.poolReserves });
    clock += 11 * 60_000;
    await run();
    const again = new PublicStore(join(dataDir, 'public.db'));
    for (const [m, sha] of shas) expect({ m, sha: again.getLaunch(m)?.sha256 }).toEqual({ m, sha });
    again.close();
  }, 180_000);
});
