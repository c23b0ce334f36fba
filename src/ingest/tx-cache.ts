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
 *
 * Holds the curves that are active: a mint not used (added to or read) for `idleMs` (TX_CACHE_IDLE_S)
 * is dropped at the next use of the cache, and read whole from the store if it is touched again.
 * Without that the cache held every curve it had seen until its byte bound, long-dead ones
 * included, and the collector's RSS grew for as long as it ran (the soak, issue 24: 470 → 897 MB
 * after warm-up at mainnet's rate). So memory follows the working set, not the history.
 *
 * Bounded by the heap its lists take, estimated from each transaction's stored JSON: least recently
 * used mints are dropped beyond `maxBytes` in all (TX_CACHE_MB), the ceiling whatever the working
 * set. Transactions differ in size (one decoded whole, about 4 KB of JSON; a later trade taken from
 * its logs, less), so a bound in bytes holds the memory it says where a count did not.
 */
/**
 * Heap bytes a parsed transaction takes per character of its JSON: 1.29, measured over the ingest
 * bench's chain (6,408 pump transactions decoded whole, 4,020 characters of JSON and 5,182 bytes of
 * heap each; `node --expose-gc`, heapUsed before and after holding them parsed).
 */
export const HEAP_PER_JSON_BYTE = 1.3;

export class TransactionCache {
  /** by mint, least recently used first (each use moves a mint last) */
  private readonly byMint = new Map<string, { txs: DecodedTransaction[]; bytes: number; checked: number; usedMs: number }>();
  private held = 0;
  private heldBytes = 0;
  /** The store's change mark last seen; `generation` grows when another writer committed since: a list with an older `checked` is counted again. */
  private mark: { otherWriters: number; rollbacks: number } | undefined;
  private generation = 0;

  /**
   * `maxBytes`: estimated heap the lists may take in all (0: no cache, every use reads the store);
   * `idleMs`: a mint not used for this long is dropped (0: kept until the byte bound drops it);
   * `now`: the clock (epoch ms; tests inject one).
   */
  constructor(readonly maxBytes = 1024 * 2 ** 20, readonly idleMs = 60_000, private readonly now: () => number = Date.now) {}

  /** Transactions held now (all mints). */
  get size(): number {
    return this.held;
  }

  /** Mints whose lists are held now. */
  get mints(): number {
    return this.byMint.size;
  }

  /** Estimated heap bytes held now (all mints). */
  get bytes(): number {
    return this.heldBytes;
  }

  /**
   * Record that `tx` was added to the store under `mint` (call after a successful insert). A mint
   * not cached starts its list here when this is the store's only row for it (a new launch), so
   * its first record build does not read back and re-parse what was just inserted.
   */
  added(store: PublicStore, mint: string, tx: DecodedTransaction, jsonLength = JSON.stringify(tx).length): void {
    const bytes = Math.ceil(jsonLength * HEAP_PER_JSON_BYTE);
    const nowMs = this.dropIdle();
    const entry = this.byMint.get(mint);
    if (!entry) {
      // not cached: a new mint starts here; an older one is read whole from the store when needed
      if (this.maxBytes > 0 && !store.hasTransactionBesides(mint, tx.signature)) {
        this.byMint.set(mint, { txs: [tx], bytes, checked: this.current(store), usedMs: nowMs });
        this.held++;
        this.heldBytes += bytes;
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
    entry.bytes += bytes;
    entry.usedMs = nowMs;
    this.byMint.delete(mint); // re-insert: most recently used last
    this.byMint.set(mint, entry);
    this.held++;
    this.heldBytes += bytes;
    this.trim(mint);
  }

  /** Every transaction the store keeps for `mint`, oldest slot first. Reads the store on a miss. */
  transactionsFor(store: PublicStore, mint: string): DecodedTransaction[] {
    if (this.maxBytes === 0) return store.transactionsFor(mint);
    const nowMs = this.dropIdle();
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
      const read = store.transactionsAndBytesFor(mint);
      entry = { txs: read.txs, bytes: Math.ceil(read.bytes * HEAP_PER_JSON_BYTE), checked: generation, usedMs: nowMs };
      this.held += entry.txs.length;
      this.heldBytes += entry.bytes;
    } else {
      entry.usedMs = nowMs;
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
      this.heldBytes = 0;
    }
    if (!this.mark || mark.otherWriters !== this.mark.otherWriters) this.generation++;
    this.mark = mark;
    return this.generation;
  }

  /**
   * Drop the mints not used for `idleMs` (the least recently used come first, so only those are
   * looked at) and return the time now (epoch ms).
   */
  private dropIdle(): number {
    const nowMs = this.now();
    if (this.idleMs <= 0) return nowMs;
    for (const [m, e] of this.byMint) {
      if (nowMs - e.usedMs < this.idleMs) break;
      this.drop(m);
    }
    return nowMs;
  }

  /** Drop least recently used mints (never `keep`) until the bound holds. */
  private trim(keep: string): void {
    for (const m of this.byMint.keys()) {
      if (this.heldBytes <= this.maxBytes || m === keep) break;
      this.drop(m);
    }
  }

  private drop(mint: string): void {
    const entry = this.byMint.get(mint);
    if (!entry) return;
    this.held -= entry.txs.length;
    this.heldBytes -= entry.bytes;
    this.byMint.delete(mint);
  }
}
