import type { DecodedTransaction } from '../../src/core/types.ts';
import type { PublicStore } from '../../src/db/public-store.ts';
import { recordLaunch } from '../../src/ingest/record-launch.ts';
import { randomAddress, randomSignature } from './launch-doc.ts';
import { createEvent, trade, tx } from './synthetic-launch.ts';

/** Block time (s) of slot 0 in {@link commitHypedLaunch}'s launches. */
const T0 = 1_790_000_000;

/**
 * A launch that drew attention, committed to `store` as the collector records one it observed:
 * the creation (with the creator's buy), `bundled` outside buys in the creation slot, then `early`
 * outside wallets buying over its first 28 s (a different amount each, so the largest are known),
 * every trade carrying the curve's real reserves; signatures of a real signature's length (the
 * page links each: a short made-up one would understate the page's size). Returns the mint and the transactions.
 */
export function commitHypedLaunch(store: PublicStore, opts: { slot: number; bundled: number; early: number }): { mint: string; txs: DecodedTransaction[] } {
  const mint = randomAddress();
  const creator = randomAddress();
  let reserves = 0n;
  const buy = (user: string, tokens: bigint, sol: bigint) => {
    reserves += sol;
    return trade(mint, user, true, tokens, sol, { real_sol_reserves: reserves.toString() });
  };
  const at = (slot: number) => T0 + Math.floor(slot * 0.4);
  const txs: DecodedTransaction[] = [tx({ slot: opts.slot, blockTime: at(opts.slot), signature: randomSignature(), events: [createEvent(mint, creator), buy(creator, 10n ** 13n, 10n ** 9n)] })];
  for (let i = 0; i < opts.bundled; i++) txs.push(tx({ slot: opts.slot, blockTime: at(opts.slot), signature: randomSignature(), events: [buy(randomAddress(), 10n ** 12n, 10n ** 8n)] }));
  for (let i = 0; i < opts.early; i++) {
    const slot = opts.slot + 1 + Math.floor((i * 69) / opts.early);
    txs.push(tx({ slot, blockTime: at(slot), signature: randomSignature(), events: [buy(randomAddress(), BigInt(10 ** 9 + ((i * 7919) % 1000) * 10 ** 8), 10n ** 7n)] }));
  }
  store.db.transaction(() => {
    for (const t of txs) store.addTransaction(mint, t);
    recordLaunch(store, mint, { origin: 'observed', observedAtLaunch: true, nowMs: (at(opts.slot) + 3600) * 1000 });
  })();
  return { mint, txs };
}
