import type { PublicStore } from '../db/public-store.ts';
import type { DecodedTransaction } from '../core/types.ts';

/**
 * The collector's memory of the decoded transactions it keeps per mint, so that rebuilding a
 * touched launch's record each batch does not read and JSON-parse its whole history from SQLite
 * again (which made a long curve's ingest quadratic).
 *
 * Always the same list `PublicStore.transactionsFor` would return (slot order, then insertion
 * order): rows of `launch_tx` are only ever added, the collector records each row it adds, and
 * before each use the cached length is checked against the store's count for the mint — another
 * writer (a rebuild in the server process) or an insert out of slot order makes it read the store.
 * Least recently used mints are dropped beyond `maxTransactions` held in all (TX_CACHE_TRANSACTIONS;
 * a decoded transaction takes about 5 KB of heap).
 */
export class TransactionCache {
  private readonly byMint = new Map<string, DecodedTransaction[]>();
  private held = 0;

  constructor(readonly maxTransactions = 20_000) {}

  /** Transactions held now (all mints). */
  get size(): number {
    return this.held;
  }

  /**
   * Record that `tx` was added to the store under `mint` (call after a successful insert). A mint
   * not cached starts its list here when this is the store's only row for it (a new launch), so
   * its first record build does not read back and re-parse what was just inserted.
   */
  added(store: PublicStore, mint: string, tx: DecodedTransaction): void {
    const list = this.byMint.get(mint);
    if (!list) {
      // not cached: a new mint starts here; an older one is read whole from the store when needed
      if (this.maxTransactions > 0 && store.transactionCount(mint) === 1) {
        this.byMint.set(mint, [tx]);
        this.held++;
        this.trim(mint);
      }
      return;
    }
    const last = list[list.length - 1];
    if (last && (tx.slot ?? 0) < (last.slot ?? 0)) {
      this.drop(mint); // the store would order it earlier
      return;
    }
    list.push(tx);
    this.held++;
  }

  /** Every transaction the store keeps for `mint`, oldest slot first. Reads the store on a miss. */
  transactionsFor(store: PublicStore, mint: string): DecodedTransaction[] {
    if (this.maxTransactions === 0) return store.transactionsFor(mint);
    let list = this.byMint.get(mint);
    if (list && list.length !== store.transactionCount(mint)) {
      this.drop(mint);
      list = undefined;
    }
    if (!list) {
      list = store.transactionsFor(mint);
      this.held += list.length;
    } else {
      this.byMint.delete(mint); // re-insert: most recently used last
    }
    this.byMint.set(mint, list);
    this.trim(mint);
    return list;
  }

  /** Drop least recently used mints (never `keep`) until the bound holds. */
  private trim(keep: string): void {
    for (const m of this.byMint.keys()) {
      if (this.held <= this.maxTransactions || m === keep) break;
      this.drop(m);
    }
  }

  private drop(mint: string): void {
    const list = this.byMint.get(mint);
    if (!list) return;
    this.held -= list.length;
    this.byMint.delete(mint);
  }
}
