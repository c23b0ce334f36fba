import type { PublicStore } from '../db/public-store.ts';
import type { DecodedTransaction } from '../core/types.ts';

/**
 * The collector's memory of the decoded transactions it keeps per mint, so that rebuilding a
 * touched launch's record each batch does not read and JSON-parse its whole history from SQLite
 * again (which made a long curve's ingest quadratic).
 *
 * Always the same list `PublicStore.transactionsFor` would return (slot order, then insertion
 * order): rows of `launch_tx` are only ever added, the collector records each row it adds, and an
 * insert out of slot order drops the mint's list. Rows it did not see come only from another
 * writer (a rebuild in the server process, `lpa rebuild`), and only then is each list checked
 * against the store's count for its mint (once, at its next use; `PublicStore.changeMark`). A
 * rolled-back batch empties the cache (its lists may hold rows the store does not). Counting on
 * every use cost the collector 13 % of its CPU at mainnet's rate (a long curve's count reads
 * thousands of row keys).
 * Least recently used mints are dropped beyond `maxTransactions` held in all (TX_CACHE_TRANSACTIONS;
 * a decoded transaction takes about 5 KB of heap).
 */
export class TransactionCache {
  private readonly byMint = new Map<string, { txs: DecodedTransaction[]; checked: number }>();
  private held = 0;
  /** The store's change mark last seen; `generation` grows when another writer committed since: a list with an older `checked` is counted again. */
  private mark: { otherWriters: number; rollbacks: number } | undefined;
  private generation = 0;

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
    const entry = this.byMint.get(mint);
    if (!entry) {
      // not cached: a new mint starts here; an older one is read whole from the store when needed
      if (this.maxTransactions > 0 && !store.hasTransactionBesides(mint, tx.signature)) {
        this.byMint.set(mint, { txs: [tx], checked: this.current(store) });
        this.held++;
        this.trim(mint);
      }
      return;
    }
    const list = entry.txs;
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
    const generation = this.current(store);
    let entry = this.byMint.get(mint);
    if (entry && entry.checked !== generation) {
      // the store changed other than by this collector's commits since the list was last checked
      if (entry.txs.length === store.transactionCount(mint)) entry.checked = generation;
      else {
        this.drop(mint);
        entry = undefined;
      }
    }
    if (!entry) {
      entry = { txs: store.transactionsFor(mint), checked: generation };
      this.held += entry.txs.length;
    } else {
      this.byMint.delete(mint); // re-insert: most recently used last
    }
    this.byMint.set(mint, entry);
    this.trim(mint);
    return entry.txs;
  }

  /** The generation of the store's rows as this cache knows them: it grows when the store's change mark changes. */
  private current(store: PublicStore): number {
    const mark = store.changeMark();
    if (this.mark && mark.rollbacks !== this.mark.rollbacks) {
      this.byMint.clear();
      this.held = 0;
    }
    if (!this.mark || mark.otherWriters !== this.mark.otherWriters) this.generation++;
    this.mark = mark;
    return this.generation;
  }

  /** Drop least recently used mints (never `keep`) until the bound holds. */
  private trim(keep: string): void {
    for (const m of this.byMint.keys()) {
      if (this.held <= this.maxTransactions || m === keep) break;
      this.drop(m);
    }
  }

  private drop(mint: string): void {
    const entry = this.byMint.get(mint);
    if (!entry) return;
    this.held -= entry.txs.length;
    this.byMint.delete(mint);
  }
}
