/**
 * The funder sweep (collector/enrich/funder-sweep.ts, methodology "Shared funder"): cohorts left unknown when
 * their launches were recorded (the daily budget spent) stay UNKNOWN — never clean — until a sweep,
 * at most every FUNDER_SWEEP_MS, looks their wallets up again and rebuilds the records, which then
 * equal truth.json on every field. A wallet stopped by a cap is not asked again until the cap is raised.
 * Simulated chain served by the replay RPC (history mode); the collector's clock is the test's.
 */
import { join } from 'node:path';
import { startServedChain, type ServedChain } from '../helpers/live-chain.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimulatedChain } from '../../devchain/simulate/chain.ts';
import type { ReplayRpc } from '../../devchain/replay/server.ts';
import { collectOnce } from '../helpers/collect-once.ts';
import { funderLookupDue } from '../../src/ingest/funding.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { statusBody } from '../../src/facts/status.ts';
import type { LaunchDocument } from '../../src/core/types.ts';
import { compareWithTruth, formatReport } from '../helpers/truth-compare.ts';

let tmp: string;
let chain: SimulatedChain;
let rpc: ReplayRpc;

let served: ServedChain;
beforeAll(async () => {
  served = await startServedChain('sweep', 60, 2611);
  ({ tmp, chain, rpc } = served);
}, 120_000);

afterAll(() => served?.close());

describe('funder sweep', () => {
  it('unknown cohorts (budget spent) are completed by a later sweep, and then every field equals truth', async () => {
    const dataDir = join(tmp, 'data');
    let clock = Date.UTC(2026, 10, 20, 12, 0, 0);
    const run = (env: Record<string, string>) => collectOnce(dataDir, rpc.url, () => clock, env);
    const read = () => {
      const store = new PublicStore(join(dataDir, 'public.db'));
      const docs = new Map(Object.keys(chain.truth.records).map((m) => [m, JSON.parse(store.getLaunch(m)!.document) as LaunchDocument]));
      const unknownRows = store.db.prepare('SELECT count(*) FROM launch WHERE cohort_unknown = 1').pluck().get() as number;
      const attempts = store.db.prepare('SELECT reason, count(*) AS n FROM wallet_funder_attempt GROUP BY reason').all();
      const attemptWallets = store.db.prepare('SELECT wallet FROM wallet_funder_attempt').pluck().all() as string[];
      const status = statusBody({ publicStore: store, config: { DEMO: false, COVERAGE_GAP_MS: 120_000 } }, clock);
      store.close();
      return { docs, unknownRows, attempts, attemptWallets, fundingChecks: status.fundingChecks };
    };
    const launches = Object.keys(chain.truth.records).length;

    // Day 1, no funder budget: every cohort of two or more wallets unknown → never clean, flagged for
    // the sweep; UNKNOWN unless another FINDINGS marker already holds (FINDINGS outranks UNKNOWN,
    // methodology "Classes"). A cohort of the creator alone shares nothing (markers-v9): checked, as truth says.
    await run({ FUNDER_DAILY_RPC_BUDGET: '0' });
    let s = read();
    let unknownClass = 0;
    const alone = new Set([...s.docs].filter(([, d]) => d.launch!.bundledBuyers === 0 && d.launch!.buyersFirst30s === 0).map(([m]) => m));
    for (const [mint, d] of s.docs) {
      const t = chain.truth.records[mint]!;
      const otherFindings = t.flags.some((f) => f.class === 'FINDINGS' && f.code !== 'shared_funder');
      const expected = alone.has(mint) ? { sharedCohort: [], cls: t.findingClass, clean: t.cleanAtBirth } : { sharedCohort: null, cls: otherFindings ? 'FINDINGS' : 'UNKNOWN', clean: false };
      expect({ mint, sharedCohort: d.funder.sharedCohort, cls: d.finding.class, clean: d.cleanAtBirth }).toEqual({ mint, ...expected });
      if (!otherFindings && !alone.has(mint)) unknownClass++;
    }
    expect(unknownClass).toBeGreaterThan(0);
    expect(s.unknownRows).toBe(launches - alone.size);
    expect(s.fundingChecks).toEqual({ waiting: launches - alone.size, olderMethod: 0 }); // what /api/v1/status says waits
    expect(s.attempts).toEqual([{ reason: 'budget', n: expect.any(Number) }]);

    // A minute later with budget: the sweep is not due yet (FUNDER_SWEEP_MS 10 min), nothing changes.
    clock += 60_000;
    await run({});
    s = read();
    expect(s.unknownRows).toBe(launches - alone.size);

    // Eleven minutes after the first sweep: it takes up 100 records — all 60 — and completes them.
    clock += 10 * 60_000;
    await run({});
    s = read();
    expect(s.unknownRows).toBe(0);
    expect(s.fundingChecks).toEqual({ waiting: 0, olderMethod: 0 });
    // every lookup was made again but those of creators alone in their cohort, whose records the sweep has no need to take up
    const aloneCreators = new Set([...alone].map((m) => s.docs.get(m)!.launch!.creator));
    expect(s.attemptWallets.filter((w) => !aloneCreators.has(w))).toEqual([]);
    const reports = compareWithTruth(chain.truth, (m) => s.docs.get(m));
    const bad = reports.filter((r) => r.equal !== r.total);
    expect(bad, formatReport(reports)).toEqual([]);
    expect(reports.find((r) => r.field === 'funderSharedCohort')!.equal).toBe(launches);
    // the chain holds shared-funder cohorts, so the sweep changed classes, not only nulls
    expect([...s.docs.values()].some((d) => (d.funder.sharedCohort ?? []).length > 0)).toBe(true);
  }, 120_000);

  it('a wallet stopped by a cap is asked again only after that cap is raised; budget and RPC failures always', () => {
    const store = new PublicStore(join(tmp, 'caps.db'));
    try {
      const caps = { FUNDER_PAGE_CAP: 3, FUNDER_TX_CAP: 25 };
      expect(funderLookupDue(store, 'W1', caps)).toBe(true); // never tried
      store.putFunderAttempt('W1', 'tx_cap', { pageCap: 3, txCap: 25 }, 1);
      store.putFunderAttempt('W2', 'page_cap', { pageCap: 3, txCap: 25 }, 1);
      store.putFunderAttempt('W3', 'budget', { pageCap: 3, txCap: 25 }, 1);
      store.putFunderAttempt('W4', 'rpc', { pageCap: 3, txCap: 25 }, 1);
      expect(['W1', 'W2', 'W3', 'W4'].map((w) => funderLookupDue(store, w, caps))).toEqual([false, false, true, true]);
      expect(['W1', 'W2'].map((w) => funderLookupDue(store, w, { FUNDER_PAGE_CAP: 3, FUNDER_TX_CAP: 50 }))).toEqual([true, false]);
      expect(['W1', 'W2'].map((w) => funderLookupDue(store, w, { FUNDER_PAGE_CAP: 4, FUNDER_TX_CAP: 25 }))).toEqual([false, true]);
      store.putFunder('W1', { state: 'none' }, 2); // an answer clears the attempt
      expect(store.funderAttempt('W1')).toBeUndefined();
    } finally {
      store.close();
    }
  });
});
