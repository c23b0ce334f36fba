/**
 * Coverage (issue 3 "Coverage", spec §2.1): a collector stopped for a simulated interval reports it
 * in `downtimeMinutes` and in the status gaps, and every launch created in the gap is recorded from
 * the program's history across it as `origin: "scanned"`, `observedAtLaunch: false`; launches
 * created while it ran (cron runs a minute apart count as running) are observed. The chain is a
 * simulated one served live by the replay RPC; the slots land when the test says; the collector's
 * clock is the test's.
 */
import { join } from 'node:path';
import { startServedChain, type ServedChain } from '../helpers/live-chain.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimulatedChain } from '../../devchain/simulate/chain.ts';
import type { ReplayRpc } from '../../devchain/replay/server.ts';
import { collect } from '../../collector/collect.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { createArchiveRpc } from '../../src/chain/rpc.ts';
import { statusBody } from '../../src/facts/status.ts';
import type { LaunchDocument } from '../../src/core/types.ts';

let tmp: string;
let chain: SimulatedChain;
let rpc: ReplayRpc;

let served: ServedChain;
beforeAll(async () => {
  // Live, with a clock too slow to move by itself: the test lands slots with advanceTo.
  served = await startServedChain('coverage', 90, 31, { live: true, speed: 1e-6 });
  ({ tmp, chain, rpc } = served);
}, 120_000);

afterAll(() => served?.close());

describe('downtime and the scanner', () => {
  it('a 10-minute stop: downtimeMinutes 10, one gap in slots, launches created in it scanned, the rest observed', async () => {
    const config = loadConfig({ DATA_DIR: join(tmp, 'data'), SOLANA_RPC_URL: rpc.url, COLLECT_START: 'earliest', LOG_LEVEL: 'silent' });
    const store = new PublicStore(config.publicDbPath);
    let clock = Date.UTC(2026, 10, 1, 12, 0, 0);
    const deps = { config, store, rpc: createArchiveRpc({ url: rpc.url }), log: createLogger('silent'), now: () => clock };
    const runOnce = () => collect(deps, { once: true });

    const creations = Object.values(chain.truth.records).map((r) => r.creationSlot).sort((a, b) => a - b);
    const s1 = creations[Math.floor(creations.length / 3)]!;
    const s2 = creations[Math.floor((2 * creations.length) / 3)]!;
    const last = Math.max(...chain.transactions.map((l) => (JSON.parse(l) as { slot: number }).slot));

    await runOnce(); // the first run: coverage begins at the tip (before every launch)
    const fromSlot = Number(store.getMeta('coverage_from_slot'));
    expect(fromSlot).toBeLessThan(creations[0]!);
    rpc.advanceTo(s1);
    clock += 60_000; // cron, a minute later: continuous
    await runOnce();
    rpc.advanceTo(s2); // the collector is down while these slots land
    clock += 10 * 60_000 + 20_000;
    await runOnce(); // restarts: the gap is recorded and scanned
    rpc.advanceTo(last);
    clock += 60_000;
    await runOnce();

    const status = statusBody({ publicStore: store, config }, clock);
    expect(status.coverage.downtimeMinutes).toBe(10);
    expect(status.coverage.from).toEqual({ ms: Date.UTC(2026, 10, 1, 12, 0, 0), iso: '2026-11-01T12:00:00.000Z' });
    expect(status.coverage.gaps).toEqual([expect.objectContaining({ fromSlot: s1, toSlot: s2, minutes: 10 })]);

    let scanned = 0;
    for (const [mint, t] of Object.entries(chain.truth.records)) {
      const row = store.getLaunch(mint);
      expect(row, mint).toBeDefined();
      const doc = JSON.parse(row!.document) as LaunchDocument;
      const inGap = t.creationSlot > s1 && t.creationSlot <= s2;
      expect({ mint, origin: doc.origin, observedAtLaunch: doc.observedAtLaunch }).toEqual({ mint, origin: inGap ? 'scanned' : 'observed', observedAtLaunch: !inGap });
      if (inGap) scanned++;
      // Scanned from complete history: the facts are as good as observed ones.
      expect(doc.finding.class).toBe(t.findingClass);
    }
    expect(scanned).toBeGreaterThan(20);
    expect(status.counts.records).toBe(Object.keys(chain.truth.records).length);
    expect(status.counts.launches).toBe(status.counts.records - scanned);
    expect(status.counts.byOrigin.scanned).toBe(scanned);

    // A collector that stays down: the ongoing outage counts too.
    expect(statusBody({ publicStore: store, config }, clock + 5 * 60_000).coverage.downtimeMinutes).toBe(15);
    store.close();
  }, 180_000);
});
