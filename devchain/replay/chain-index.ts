/**
 * In-memory indexes over a replay chain: transactions by signature, by every account key they
 * reference and by slot; account versions by address. Every query takes `upto`, the newest slot
 * visible (the replay clock), so one index serves both history and live mode.
 *
 * Order: by slot, then by the order transactions were added (file order = block order).
 */
import type { ChainAccount } from './account.ts';
import type { ChainTransaction } from './transaction.ts';

interface Entry {
  tx: ChainTransaction;
  seq: number;
}

const before = (a: Entry, slot: number, seq: number) => a.tx.slot < slot || (a.tx.slot === slot && a.seq < seq);

/** Index of the first element of sorted `arr` for which `lt(el)` is false. */
function lowerBound<T>(arr: T[], lt: (el: T) => boolean): number {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (lt(arr[mid])) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Options of {@link ChainIndex.signaturesFor}; `before`/`until` are exclusive signatures. */
export interface SignatureQuery {
  limit: number;
  before?: string;
  until?: string;
}

/** The indexes (mutable: transactions and account versions can be added at any time). */
export class ChainIndex {
  private seq = 0;
  private readonly bySig = new Map<string, Entry>();
  private readonly byAddress = new Map<string, Entry[]>();
  private readonly bySlot = new Map<number, ChainTransaction[]>();
  /** distinct slots holding transactions, ascending */
  readonly txSlots: number[] = [];
  private readonly accounts = new Map<string, ChainAccount[]>();
  private readonly blockTimes = new Map<number, number>();
  private maxAccountSlot = 0;

  constructor(init: { transactions?: ChainTransaction[]; accounts?: ChainAccount[]; blockTimes?: Map<number, number> } = {}) {
    for (const [s, t] of init.blockTimes ?? []) this.blockTimes.set(s, t);
    for (const tx of init.transactions ?? []) this.addTransaction(tx);
    for (const a of init.accounts ?? []) this.addAccount(a);
  }

  /** Add a transaction (after every same-slot one already held). Returns false for a known signature. */
  addTransaction(tx: ChainTransaction): boolean {
    if (this.bySig.has(tx.signature)) return false;
    const e: Entry = { tx, seq: this.seq++ };
    this.bySig.set(tx.signature, e);
    for (const key of tx.accountKeys) {
      let list = this.byAddress.get(key);
      if (!list) this.byAddress.set(key, (list = []));
      const last = list[list.length - 1];
      if (!last || before(last, tx.slot, e.seq)) list.push(e);
      else list.splice(lowerBound(list, (x) => before(x, tx.slot, e.seq)), 0, e);
    }
    let inSlot = this.bySlot.get(tx.slot);
    if (!inSlot) {
      this.bySlot.set(tx.slot, (inSlot = []));
      const last = this.txSlots[this.txSlots.length - 1];
      if (last === undefined || last < tx.slot) this.txSlots.push(tx.slot);
      else this.txSlots.splice(lowerBound(this.txSlots, (s) => s < tx.slot), 0, tx.slot);
    }
    inSlot.push(tx);
    if (tx.blockTime !== null && !this.blockTimes.has(tx.slot)) this.blockTimes.set(tx.slot, tx.blockTime);
    return true;
  }

  /** Add an account version (a later-added version of the same slot wins). */
  addAccount(acc: ChainAccount): void {
    let list = this.accounts.get(acc.address);
    if (!list) this.accounts.set(acc.address, (list = []));
    list.splice(lowerBound(list, (x) => x.slot <= acc.slot), 0, acc);
    if (acc.slot > this.maxAccountSlot) this.maxAccountSlot = acc.slot;
  }

  /** The transaction with this signature if it has landed by `upto`. */
  transaction(signature: string, upto: number): ChainTransaction | undefined {
    const e = this.bySig.get(signature);
    return e && e.tx.slot <= upto ? e.tx : undefined;
  }

  /**
   * getSignaturesForAddress: transactions referencing `address`, landed by `upto`, newest first,
   * strictly older than `before` and strictly newer than `until` (an unknown or not-yet-landed
   * `before` gives []; an unknown `until` is ignored), at most `limit`.
   */
  signaturesFor(address: string, upto: number, q: SignatureQuery): ChainTransaction[] {
    const list = this.byAddress.get(address);
    if (!list) return [];
    let hi = lowerBound(list, (x) => x.tx.slot <= upto);
    if (q.before !== undefined) {
      const b = this.bySig.get(q.before);
      if (!b || b.tx.slot > upto) return [];
      hi = Math.min(hi, lowerBound(list, (x) => before(x, b.tx.slot, b.seq)));
    }
    let lo = 0;
    if (q.until !== undefined) {
      const u = this.bySig.get(q.until);
      if (u) lo = lowerBound(list, (x) => before(x, u.tx.slot, u.seq + 1));
    }
    const out: ChainTransaction[] = [];
    for (let i = hi - 1; i >= lo && out.length < q.limit; i--) out.push(list[i].tx);
    return out;
  }

  /** The newest version of an account existing at `upto`, or null. */
  account(address: string, upto: number): ChainAccount | null {
    const list = this.accounts.get(address);
    if (!list) return null;
    const i = lowerBound(list, (x) => x.slot <= upto) - 1;
    return i >= 0 ? list[i] : null;
  }

  /** The transactions of one slot in block order. */
  inSlot(slot: number): ChainTransaction[] {
    return this.bySlot.get(slot) ?? [];
  }

  /** Slots holding transactions in (from, to]. */
  txSlotsBetween(from: number, to: number): number[] {
    const lo = lowerBound(this.txSlots, (s) => s <= from);
    const hi = lowerBound(this.txSlots, (s) => s <= to);
    return this.txSlots.slice(lo, hi);
  }

  /** Known block time of a slot (from transactions or chain.json blockTimes). */
  blockTime(slot: number): number | undefined {
    return this.blockTimes.get(slot);
  }

  /** Newest slot of any transaction or account version (0 for an empty chain). */
  maxSlot(): number {
    return Math.max(this.txSlots[this.txSlots.length - 1] ?? 0, this.maxAccountSlot);
  }

  /** Counts for the banner: transactions and distinct account addresses. */
  counts(): { transactions: number; accounts: number } {
    return { transactions: this.bySig.size, accounts: this.accounts.size };
  }
}
