import type { CreationAt, DecodedTransaction } from '../../src/core/types.ts';
import { creationsIn } from '../../src/core/record/from-logs.ts';

/**
 * Notifications the collector holds at most until their signatures come up in a catch-up (oldest
 * dropped first): about a minute of a 300 tx/s peak, a few KB each.
 */
export const HEARD_MAX = 20_000;

/**
 * The live watch's decoded notifications, by signature, until a catch-up reaches them
 * (methodology "Transactions taken from their logs"), with the creations they carried.
 */
export class HeardNotifications {
  private readonly bySignature = new Map<string, DecodedTransaction>();

  constructor(
    /** the collector's creation slot and blockTime of launches seen (mint → when), which notifications add to */
    private readonly creations: Map<string, CreationAt>,
    readonly max = HEARD_MAX,
  ) {}

  get size(): number {
    return this.bySignature.size;
  }

  get(signature: string): DecodedTransaction | undefined {
    return this.bySignature.get(signature);
  }

  /**
   * Keep a decoded notification, dropping the oldest beyond `max`, and the creation it carries
   * unless one is known already (a fetched creation's blockTime is not replaced).
   */
  add(tx: DecodedTransaction): void {
    if (!tx.signature) return;
    this.bySignature.set(tx.signature, tx);
    if (this.bySignature.size > this.max) this.bySignature.delete(this.bySignature.keys().next().value!);
    for (const [mint, at] of creationsIn(tx)) if (!this.creations.has(mint)) this.creations.set(mint, at);
  }

  /**
   * After a batch commits: drop its signatures, and every notification heard for a slot before the
   * cursor's (the catch-up has passed it; one that arrived after its signature was read is never
   * used). Notifications are held in arrival order, which follows slots, so only the oldest are looked at.
   */
  committed(signatures: Iterable<string>, cursorSlot: number): void {
    for (const s of signatures) this.bySignature.delete(s);
    for (const [signature, tx] of this.bySignature) {
      if ((tx.slot ?? 0) >= cursorSlot) break;
      this.bySignature.delete(signature);
    }
  }
}
