/**
 * The history completeness check reaches every launch with a gap once it is quiet
 * (collector/enrich/history-check.ts, collector/catch-up.ts): a disagreement the check skips — the
 * launch still trading at its first check, or over the MAX_CONFIRMATIONS cap of a check — or leaves
 * unresolved stays pending and is checked again at a later check. Before, a launch was dropped from
 * the pending list when a check took it, and a gap in a launch that went quiet was never caught.
 * A simulated chain served by the replay RPC, one trade of each of more launches than the cap taken
 * out of it (no listing shows it; the curve accounts still do): every such launch must end UNKNOWN
 * `history_incomplete`, never the class its partial history alone gives.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import PQueue from 'p-queue';
import { afterAll, describe, expect, it } from 'vitest';
import { writeChain } from '../../devchain/simulate/write-chain.ts';
import { loadChain } from '../../devchain/replay/load-chain.ts';
import { normalizeTransaction, renderTransaction, type ChainTransaction } from '../../devchain/replay/transaction.ts';
import { randomBytes } from 'node:crypto';
import { getBase58Decoder } from '@solana/kit';
import { randomAddress } from '../helpers/launch-doc.ts';
import { startReplayRpc } from '../../devchain/replay/server.ts';
import { catchUp } from '../../collector/catch-up.ts';
import { newMemory } from '../../collector/context.ts';
import { MAX_CONFIRMATIONS, QUIET_SLOTS } from '../../collector/enrich/history-check.ts';
import { HISTORY_CHECK_MS } from '../../collector/enrich/launch-states.ts';
import { decodeTransaction } from '../../src/core/decode/index.ts';
import { bondingCurveAddress } from '../../src/chain/pda.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { createArchiveRpc } from '../../src/chain/rpc.ts';
import { createTransactionReader } from '../../src/chain/transaction-reader.ts';

/** catch-ups after the first, each reading a part of the chain's rest */
const ROUNDS = 4;
const tmp = mkdtempSync(join(tmpdir(), 'lpa-history-requeue-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A successful curve trade of `mint` alone (not its creation): taking it out leaves a gap its curve account shows. */
function loneTrade(t: ChainTransaction, mint: string, mints: ReadonlySet<string>): boolean {
  if (t.err !== null || t.accountKeys.some((k) => k !== mint && mints.has(k))) return false;
  const d = decodeTransaction(renderTransaction(t, 'json', true));
  return d.events.some((e) => e.name === 'TradeEvent' && e.fields.mint === mint) && !d.events.some((e) => e.name === 'CreateEvent' || e.name === 'CompleteEvent');
}

/** A successful System Program transfer of 0.001 SOL from a new wallet to `to` in `slot` (legacy message, json form). */
function systemTransfer(to: string, slot: number): ChainTransaction {
  const data = Buffer.alloc(12);
  data.writeUInt32LE(2, 0); // SystemInstruction::Transfer
  data.writeBigUInt64LE(1_000_000n, 4);
  const payer = randomAddress();
  return normalizeTransaction({
    slot,
    blockTime: null,
    meta: {
      err: null, status: { Ok: null }, fee: 5000, preBalances: [10_000_000, 1_000_000, 1], postBalances: [8_995_000, 2_000_000, 1],
      innerInstructions: [], logMessages: ['Program 11111111111111111111111111111111 invoke [1]', 'Program 11111111111111111111111111111111 success'],
      preTokenBalances: [], postTokenBalances: [], rewards: [], loadedAddresses: { writable: [], readonly: [] },
    },
    transaction: {
      signatures: [getBase58Decoder().decode(randomBytes(64))],
      message: {
        header: { numRequiredSignatures: 1, numReadonlySignedAccounts: 0, numReadonlyUnsignedAccounts: 1 },
        accountKeys: [payer, to, '11111111111111111111111111111111'],
        recentBlockhash: randomAddress(),
        instructions: [{ programIdIndex: 2, accounts: [0, 1], data: getBase58Decoder().decode(data), stackHeight: null }],
      },
    },
  });
}

describe('the history completeness check, over more gaps than one check confirms', () => {
  it('marks every launch missing a trade history_incomplete once quiet, those over the cap and those still trading at the first check included', async () => {
    const simulated = writeChain({ launches: 48, seed: 61, out: join(tmp, 'chain') });
    const loaded = loadChain(join(tmp, 'chain'));
    const mints = new Set(Object.keys(simulated.truth.records));
    const eventsOf = new Map(loaded.transactions.map((t) => [t.signature, decodeTransaction(renderTransaction(t, 'json', true)).events]));
    const names = (t: ChainTransaction, mint: string) => eventsOf.get(t.signature)!.some((e) => e.fields.mint === mint);
    // one trade out of each launch not completed that has a lone one (the newest such trade), among
    // launches whose curve no other successful transaction of the chain touches (one not naming the
    // launch; the foreign transfers below are such transactions, added on purpose)
    const gapped = new Map<string, ChainTransaction>();
    for (const [mint, r] of Object.entries(simulated.truth.records)) {
      if (r.completed) continue;
      const curve = await bondingCurveAddress(mint);
      if (loaded.transactions.some((t) => t.err === null && t.accountKeys.includes(curve) && !names(t, mint))) continue;
      const trade = loaded.transactions.findLast((t) => t.accountKeys.includes(mint) && loneTrade(t, mint, mints));
      if (trade) gapped.set(mint, trade);
    }
    // the newest transaction the collector holds of a launch: those naming it
    const lastHeld = (mint: string) => Math.max(...loaded.transactions.filter((t) => !removedOf(t) && t.accountKeys.includes(mint) && names(t, mint)).map((t) => t.slot));
    const removedOf = (t: ChainTransaction) => gapped.get([...gapped.keys()].find((m) => t.accountKeys.includes(m)) ?? '')?.signature === t.signature;
    // the first catch-up reads the chain up to shortly after the newest gapped launch's last trade: it is still trading
    // (the newest such launch nothing touches after it, that keeps more gaps than one check confirms)
    const lastTouch = (mint: string) => Math.max(...loaded.transactions.filter((t) => t.accountKeys.includes(mint)).map((t) => t.slot));
    const cutAt = (m: string) => lastHeld(m) + QUIET_SLOTS / 2;
    const keeps = (cut: number) => [...gapped.keys()].filter((m) => lastTouch(m) <= cut);
    const newest = [...gapped.keys()].filter((m) => keeps(cutAt(m)).length > MAX_CONFIRMATIONS && lastTouch(m) <= cutAt(m)).sort((a, b) => lastHeld(b) - lastHeld(a))[0];
    expect(newest).toBeDefined();
    const cut = cutAt(newest!);
    for (const m of [...gapped.keys()]) if (lastTouch(m) > cut) gapped.delete(m);
    const removed = new Set([...gapped.values()].map((t) => t.signature));
    // A System transfer to the curve of every third gapped launch, in the slot of its last held trade:
    // another program's transaction naming the curve, which the curve's signature list shows and the
    // collector never holds (it does not invoke the pump program). It lies before the slot the catch-up
    // has read the program through, so it is no trade still to come: the launch is confirmed all the
    // same (before, one such signature among the curve's newest kept it from ever being confirmed).
    const transfers: ChainTransaction[] = [];
    for (const [k, m] of [...gapped.keys()].entries()) if (k % 3 === 0) transfers.push(systemTransfer(await bondingCurveAddress(m), lastHeld(m)));
    expect(transfers.length).toBeGreaterThan(2);
    const kept = [...loaded.transactions.filter((t) => !removed.has(t.signature) && t.slot <= cut), ...transfers].sort((a, b) => a.slot - b.slot);
    // the rest lands later, in ROUNDS parts: each the news of a later catch-up
    const later = loaded.transactions.filter((t) => t.slot > cut);
    const rounds = Array.from({ length: ROUNDS }, (_, i) => later.slice(Math.floor((i * later.length) / ROUNDS), Math.floor(((i + 1) * later.length) / ROUNDS)));
    const tip = Math.max(...kept.map((t) => t.slot));
    const stillTrading = [...gapped.keys()].filter((m) => tip - lastHeld(m) < QUIET_SLOTS);
    const quietFrom = Math.max(...[...gapped.keys()].map(lastHeld)) + QUIET_SLOTS;
    // not vacuous: more gaps than one check confirms, some launches trading at the first check, and
    // enough later checks with every gapped launch quiet to confirm them all, MAX_CONFIRMATIONS a check
    expect(gapped.size).toBeGreaterThan(MAX_CONFIRMATIONS);
    expect(stillTrading.length).toBeGreaterThan(0);
    expect(rounds.filter((r) => r.length > 0 && r.at(-1)!.slot >= quietFrom).length).toBeGreaterThanOrEqual(Math.ceil(gapped.size / MAX_CONFIRMATIONS));

    const rpc = await startReplayRpc({ chain: { ...loaded, transactions: kept, slot: tip } });
    const config = loadConfig({ DATA_DIR: join(tmp, 'data'), SOLANA_RPC_URL: rpc.url, COLLECT_START: 'earliest', LOG_LEVEL: 'silent' });
    const store = new PublicStore(config.publicDbPath);
    let clock = Date.UTC(2026, 10, 1);
    const deps = { config, store, rpc: createArchiveRpc({ url: rpc.url }), log: createLogger('silent'), now: () => clock };
    const reader = createTransactionReader({ url: rpc.url, batchSize: 100 });
    const queue = new PQueue({ concurrency: 2 });
    const memory = newMemory(config, clock);
    const classOf = (mint: string) => {
      const doc = JSON.parse(store.getLaunch(mint)!.document) as { finding: { class: string }; flags: { code: string }[]; history: { complete: boolean } };
      return { cls: doc.finding.class, incomplete: doc.flags.some((f) => f.code === 'history_incomplete'), complete: doc.history.complete };
    };
    const unmarked = () => [...gapped.keys()].filter((m) => !classOf(m).incomplete);
    try {
      await catchUp(deps, queue, reader, memory, { once: false });
      // the first check confirms MAX_CONFIRMATIONS at most, and none of those still trading
      const afterFirst = unmarked();
      expect(afterFirst.length).toBeGreaterThanOrEqual(gapped.size - MAX_CONFIRMATIONS);
      for (const m of stillTrading) expect(afterFirst).toContain(m);
      for (const m of afterFirst) expect(classOf(m).cls).not.toBe('UNKNOWN'); // a clean-looking class on a partial history

      // the chain goes on, none of the gapped launches trading: a check at each later catch-up
      for (const round of rounds) {
        for (const t of round) rpc.addTransaction(renderTransaction(t, 'json', true));
        clock += HISTORY_CHECK_MS;
        await catchUp(deps, queue, reader, memory, { once: false });
      }
      expect(unmarked()).toEqual([]);
      for (const m of gapped.keys()) expect(classOf(m)).toEqual({ cls: 'UNKNOWN', incomplete: true, complete: false });
      // launches without a gap are not marked
      for (const m of mints) if (!gapped.has(m) && store.getLaunch(m)) expect(classOf(m).incomplete).toBe(false);
    } finally {
      store.close();
      await rpc.close();
    }
  }, 120_000);
});
