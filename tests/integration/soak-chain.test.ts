/**
 * The soak's dense chain (bench/soak/mainnet-chain.ts) is a consistent chain: at every slot of a
 * launch's history, its bonding curve account agrees with the state the transactions up to that
 * slot give — the comparison of the collector's history completeness check
 * (src/core/record/curve-history.ts). Copied trades move their curve as the trades they copy did;
 * before they did, the history of a launch ended on copies whose reserves the account never showed,
 * and the collector rightly marked quiet ones `history_incomplete` (4 of 180 in every soak).
 * A small simulated chain of the 2026-10 era, densified as the soak does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeChain } from '../../devchain/simulate/write-chain.ts';
import { loadChain } from '../../devchain/replay/load-chain.ts';
import { renderTransaction } from '../../devchain/replay/transaction.ts';
import { mainnetRateChain } from '../../bench/soak/mainnet-chain.ts';
import { bondingCurveAddress } from '../../src/chain/pda.ts';
import { decodeTransaction } from '../../src/core/decode/index.ts';
import { decodeBondingCurve } from '../../src/core/decode/accounts.ts';
import { compareCurveHistory, curveReadOf } from '../../src/core/record/curve-history.ts';

const tmp = mkdtempSync(join(tmpdir(), 'lpa-soak-chain-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the soak chain', () => {
  it('holds curve accounts that agree with the history at every slot, copied trades included', async () => {
    const simulated = writeChain({ launches: 30, seed: 25, out: tmp, era2610Share: 1 });
    // the 2026-10 launches only, as bench/soak/replay.ts keeps them
    const today = Object.entries(simulated.truth.records).filter(([, r]) => r.kind.split('+').includes('era2026_10'));
    const older = new Set(Object.keys(simulated.truth.records).filter((m) => !today.some(([t]) => t === m)));
    const loaded = loadChain(tmp);
    const base = { ...loaded, transactions: loaded.transactions.filter((t) => !t.accountKeys.some((k) => older.has(k))) };
    const truth = await Promise.all(today.map(async ([mint, r]) => ({ mint, creationSignature: r.creationSignature, createdAtMs: r.createdAtMs, creator: r.creator, completes: r.completed, curve: await bondingCurveAddress(mint) })));
    const dense = mainnetRateChain(base, truth, { seconds: 120, tps: 380, seed: 24, firstSlot: base.transactions[0]!.slot });
    expect(dense.summary.copies).toBeGreaterThan(10_000);

    const simulatedSigs = new Set(base.transactions.map((t) => t.signature));
    let launchesEndingOnCopies = 0;
    let compared = 0;
    const disagreements: string[] = [];
    for (const { mint, curve } of truth) {
      const history = dense.chain.transactions.filter((t) => t.accountKeys.includes(mint));
      const decoded = history.map((t) => decodeTransaction(renderTransaction(t, 'json', true)));
      if (history.some((t) => !simulatedSigs.has(t.signature)) && !simulatedSigs.has(history.at(-1)!.signature)) launchesEndingOnCopies++;
      // the replay serves the version of the highest slot at or before the read; the later-added one of a slot
      const versions = dense.chain.accounts.map((a, i) => ({ a, i })).filter(({ a }) => a.address === curve).sort((x, y) => x.a.slot - y.a.slot || x.i - y.i).map(({ a }) => a);
      // every slot where the history or the account changes
      for (const slot of new Set([...history.map((t) => t.slot), ...versions.map((a) => a.slot)])) {
        const account = versions.findLast((a) => a.slot <= slot);
        if (!account) continue;
        compared++;
        const c = compareCurveHistory(mint, decoded, curveReadOf(decodeBondingCurve(account.data)!.fields, slot));
        if (!c.agrees) disagreements.push(`${mint} at slot ${slot}`);
      }
    }
    // not vacuous: launches whose history ends on copied trades, compared at thousands of slots
    expect(launchesEndingOnCopies).toBeGreaterThan(0);
    expect(compared).toBeGreaterThan(1_500);
    expect(disagreements).toEqual([]);
  }, 300_000);
});
