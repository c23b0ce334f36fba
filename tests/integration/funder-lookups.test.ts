/**
 * Funder lookups (src/ingest/funding.ts lookupFunders) against a simulated chain served by the
 * replay RPC: every wallet of a shared cohort finds the funder truth.json names; the collector's
 * batched reads (many calls to an HTTP request) give exactly what one call per request through kit
 * gives, with the same calls; caps, the daily budget and a failed call leave wallets unknown — never
 * "none" — with their reason.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeChain } from '../../devchain/simulate/write-chain.ts';
import type { SimulatedChain } from '../../devchain/simulate/chain.ts';
import { startReplayRpc, type InjectedFault, type ReplayRpc } from '../../devchain/replay/server.ts';
import { ensureFunders, FunderBudget, lookupFunders, type FunderLookupDeps } from '../../src/ingest/funding.ts';
import { createLogger } from '../../src/log.ts';
import { tx, trade } from '../helpers/synthetic-launch.ts';
import { FIRST_WINDOW_SLOTS } from '../../src/core/record/build-launch.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { createArchiveRpc } from '../../src/chain/rpc.ts';
import { createTransactionReader } from '../../src/chain/transaction-reader.ts';

let tmp: string;
let chain: SimulatedChain;
let rpc: ReplayRpc;
let store: PublicStore;
let inject: ((method: string, params: unknown[]) => InjectedFault | null) | null = null;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'lpa-funders-'));
  chain = writeChain({ launches: 60, seed: 2611, out: join(tmp, 'chain') });
  rpc = await startReplayRpc({ chainDir: join(tmp, 'chain'), inject: (m, p) => inject?.(m, p) ?? null });
  store = new PublicStore(join(tmp, 'public.db'));
}, 120_000);

afterAll(async () => {
  store?.close();
  await rpc?.close();
  rmSync(tmp, { recursive: true, force: true });
});

const day = Date.UTC(2026, 10, 23, 12);
const deps = (over: Partial<FunderLookupDeps> & { perDay?: number; txCap?: number } = {}): FunderLookupDeps => ({
  rpc: createArchiveRpc({ url: rpc.url, attempts: 1 }),
  config: { FUNDER_PAGE_CAP: 3, FUNDER_TX_CAP: over.txCap ?? 25 },
  budget: new FunderBudget(store, over.perDay ?? 1_000_000, () => day),
  ...over,
});
const batchedReader = () => createTransactionReader({ url: rpc.url, batchSize: 100, attempts: 1 });
/** Calls per method and HTTP requests the replay RPC received while `fn` ran. */
async function counted<T>(fn: () => Promise<T>): Promise<{ value: T; calls: Record<string, number>; httpRequests: number }> {
  const before = { calls: { ...rpc.stats.calls }, http: rpc.stats.httpRequests };
  const value = await fn();
  const calls = Object.fromEntries(Object.entries(rpc.stats.calls).map(([m, n]) => [m, n - (before.calls[m] ?? 0)]).filter(([, n]) => n !== 0));
  return { value, calls, httpRequests: rpc.stats.httpRequests - before.http };
}

describe('funder lookups', () => {
  const cohorts = () => Object.values(chain.truth.records).flatMap((r) => r.funderSharedCohort);
  // the cohorts' wallets and creators (each first funded by a transfer: devchain fundEveryWallet), and the shared funders
  // themselves, whose histories hold only their outbound transfers (on this chain nobody funded them): 'none', or past a low tx cap
  const wallets = () => [...new Set([...cohorts().flatMap((c) => [...c.wallets, c.funder]), ...Object.values(chain.truth.records).map((r) => r.creator)])].sort();

  it('finds the funder truth.json names for every shared-cohort wallet, and batched reads equal one call per request', async () => {
    expect(cohorts().length).toBeGreaterThan(0);
    const all = wallets();
    const batched = await counted(() => lookupFunders(deps({ reader: batchedReader() }), all));
    const single = await counted(() => lookupFunders(deps(), all));
    for (const c of cohorts()) {
      for (const w of c.wallets) {
        const r = batched.value.get(w);
        expect(r?.state === 'found' && { funder: r.funder, inCohortSignatures: c.signatures.includes(r.signature) }).toEqual({ funder: c.funder, inCohortSignatures: true });
      }
    }
    expect(Object.fromEntries(batched.value)).toEqual(Object.fromEntries(single.value));
    expect(batched.value.size).toBe(all.length);
    // the shared funders, never funded by a transfer on this chain, and only they: every other wallet has its funding
    const funders = new Set(cohorts().map((c) => c.funder));
    expect([...batched.value].filter(([, r]) => r.state === 'none').map(([w]) => w).sort()).toEqual([...funders].sort());
    // the same calls, far fewer HTTP requests
    expect(batched.calls).toEqual(single.calls);
    expect(single.httpRequests).toBe(Object.values(single.calls).reduce((a, b) => a + b, 0));
    expect(batched.httpRequests).toBeLessThan(single.httpRequests / 5);
  });

  it('a provider that caps signature pages below 1,000 gives the same first funders: a short page is read past, only an empty one ends a history', async () => {
    const all = wallets();
    const roomy = (over: Partial<FunderLookupDeps> = {}) => ({ ...deps(over), config: { FUNDER_PAGE_CAP: 1000, FUNDER_TX_CAP: 25 } });
    const whole = await lookupFunders(roomy({ reader: batchedReader() }), all);
    // every page cut to its 2 newest signatures, as a provider capping `limit` answers
    inject = (method) => (method === 'getSignaturesForAddress' ? { rewrite: (r) => (Array.isArray(r) ? r.slice(0, 2) : r) } : null);
    try {
      const capped = await lookupFunders(roomy({ reader: batchedReader() }), all);
      expect(Object.fromEntries(capped)).toEqual(Object.fromEntries(whole));
      expect([...capped.values()].filter((r) => r.state === 'found').length).toBeGreaterThan(0);
    } finally {
      inject = null;
    }
  });

  it('the transaction cap, the daily budget and a failed call make a wallet unknown with its reason, the same batched or not', async () => {
    const all = wallets();
    // tx cap 1: a wallet whose oldest transaction is not its funding stops at the cap, unless that was its only one
    const capped = await lookupFunders(deps({ reader: batchedReader(), txCap: 1 }), all);
    expect(Object.fromEntries(capped)).toEqual(Object.fromEntries(await lookupFunders(deps({ txCap: 1 }), all)));
    expect([...capped.values()].some((r) => r.state === 'unknown' && r.reason === 'tx_cap')).toBe(true);

    // a budget of one call per wallet: every first page is read, no transaction is
    const budget = new FunderBudget(store, all.length, () => day + 86_400_000);
    const spent = await lookupFunders({ ...deps({ reader: batchedReader() }), budget }, all);
    expect(new Set([...spent.values()].map((r) => (r.state === 'unknown' ? r.reason : r.state)))).toEqual(new Set(['budget']));
    budget.flush();
    expect(store.getMeta('funder_rpc_2026-11-24')).toBe(String(all.length));

    // one wallet's first transaction fails on the node: that wallet is unknown ('rpc'), the others are as before
    const full = await lookupFunders(deps({ reader: batchedReader() }), all);
    const target = cohorts()[0]!.wallets[0]!;
    const failing = (full.get(target) as { signature: string }).signature;
    // the funder that sent it reads the same transaction in its own history: it is hurt too
    const sender = cohorts()[0]!.funder;
    inject = (method, params) => (method === 'getTransaction' && params[0] === failing ? { rpcError: { code: -32009, message: 'slot skipped' } } : null);
    try {
      const hurt = await lookupFunders(deps({ reader: batchedReader() }), all);
      expect(hurt.get(target)).toEqual({ state: 'unknown', reason: 'rpc' });
      expect(hurt.get(sender)).toEqual({ state: 'unknown', reason: 'rpc' });
      const others = (m: Map<string, unknown>) => Object.fromEntries([...m].filter(([w]) => w !== target && w !== sender));
      expect(others(hurt)).toEqual(others(full));
    } finally {
      inject = null;
    }
  });

  it('a held launch whose creation had no blockTime: its cohort is taken by slots (as the builder does), so a buyer 10 slots later is looked up', async () => {
    // A record held from a creation transaction without blockTime (created_at_ms 0), then a buy
    // with a blockTime in a later batch. Read as blockTime 0, no buy would fall in the first 30 s.
    const mint = 'NoB1ockTimeMint1111111111111111111111111pump';
    const buyer = 'NoB1ockTimeBuyer111111111111111111111111111';
    const late = 'NoB1ockTimeLate1111111111111111111111111111';
    store.db.prepare(`INSERT INTO launch (mint, bonding_curve, creator, creation_signature, creation_slot, created_at_ms, origin, observed_at_launch,
      finding_class, clean_at_birth, settled, method_version, document, sha256, updated_at_ms, cohort_unknown)
      VALUES (?, NULL, 'c', 's', 1000, 0, 'observed', 1, 'UNKNOWN', NULL, 0, 'v', '{}', 'x', 0, 1)`).run(mint);
    expect(store.creationAt(mint)).toEqual({ slot: 1000, blockTime: null });
    const buys = [
      tx({ slot: 1010, blockTime: 1_790_000_000, events: [trade(mint, buyer, true, 1n, 1n)] }),
      tx({ slot: 1000 + FIRST_WINDOW_SLOTS + 1, blockTime: 1_790_000_030, events: [trade(mint, late, true, 1n, 1n)] }),
    ];
    // no budget: every candidate is recorded as an attempt stopped by the budget, without any RPC call
    const looked = await ensureFunders({ ...deps({ perDay: 0 }), store, log: createLogger('silent'), now: () => day }, new Map([[mint, buys]]));
    expect(looked).toEqual({ looked: 1, unknown: 1 });
    expect(store.funderAttempt(buyer)).toMatchObject({ reason: 'budget' });
    expect(store.funderAttempt(late)).toBeUndefined();
  });
});
