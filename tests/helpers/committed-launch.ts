import type { DecodedTransaction } from '../../src/core/types.ts';
import type { PublicStore } from '../../src/db/public-store.ts';
import { recordLaunch } from '../../src/ingest/record-launch.ts';
import { randomAddress } from './launch-doc.ts';
import { createEvent, trade, tx } from './synthetic-launch.ts';

/** Block time (s) of slot 0 in {@link commitLaunch}'s launches. */
const T0 = 1_790_000_000;

/**
 * One new launch committed to `store` at `slot` as the collector records one it observed: its
 * creation transaction (CreateEvent and the creator's first buy) kept and the record built, in one
 * transaction; `inside` runs in it too (a cursor to move, …). Returns the mint and the transaction.
 */
export function commitLaunch(store: PublicStore, slot: number, inside?: (create: DecodedTransaction, nowMs: number) => void): { mint: string; create: DecodedTransaction } {
  const mint = randomAddress();
  const creator = randomAddress();
  const nowMs = (T0 + slot) * 1000;
  const create = tx({ slot, blockTime: T0 + slot, events: [createEvent(mint, creator), trade(mint, creator, true, 10n ** 12n, 10n ** 8n)] });
  store.db.transaction(() => {
    store.addTransaction(mint, create);
    recordLaunch(store, mint, { origin: 'observed', observedAtLaunch: true, nowMs });
    inside?.(create, nowMs);
  })();
  return { mint, create };
}
