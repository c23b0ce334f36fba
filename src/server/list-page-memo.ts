import type { PublicStore } from '../db/public-store.ts';

/**
 * List pages (`GET /api/v1/launches`, docs/api.md "Listing and syncing") kept in memory while the
 * public database is unchanged, so a page asked for again is copied, not assembled again from 50
 * rows (over 1,000,000 records: ~270 µs of server CPU a page built, docs/benchmarks.md).
 *
 * Exact, not a time-to-live: a page is kept with the store's {@link PublicStore.readEpoch} it was
 * read under and is answered only while the epoch is the same — any commit to public.db (the
 * collector's, a rebuild's) or any write of this connection forgets every page. A node serving
 * public-database generations reads an immutable file, so its pages stay until the next generation
 * (a new store: a new memo). Only `generatedAt` differs between two answers of one page: it is
 * written again into each copy.
 *
 * Bounded by bytes (`LIST_CACHE_MB`; 0 keeps nothing): the page least recently answered goes first.
 */
export class ListPageMemo {
  private readonly pages = new Map<string, { body: Buffer; at: number; length: number }>();
  private bytes = 0;
  private epoch = -1;

  /** @param maxBytes the most body bytes kept (0: none) */
  constructor(private readonly maxBytes: number) {}

  /**
   * The body of the page `key` (the request's query string) for `store` as it is now, with its
   * `generatedAt` value replaced by `generatedAt`, as its parts in order: a kept page's bytes around
   * the new value (views of the kept buffer, not copied: do not change them), else `build()`'s
   * body (kept when there is room). `build` returns the page's UTF-8 JSON and the byte offset of its
   * `generatedAt` value, which is `generatedAt`'s length in bytes (ASCII: an Instant's JSON).
   */
  page(store: PublicStore, key: string, generatedAt: string, build: () => { body: Buffer; generatedAtOffset: number }): readonly Buffer[] {
    const epoch = this.maxBytes > 0 ? store.readEpoch() : null;
    if (epoch !== null && epoch !== this.epoch) this.clear(epoch);
    const kept = epoch === null ? undefined : this.pages.get(key);
    // an instant of another length (a year past 9999) cannot be put in place of the kept one
    if (kept && kept.length === generatedAt.length) {
      // most recently answered last
      this.pages.delete(key);
      this.pages.set(key, kept);
      const { body, at } = kept;
      return [body.subarray(0, at), Buffer.from(generatedAt, 'latin1'), body.subarray(at + kept.length)];
    }
    const built = build();
    if (epoch !== null && built.body.length <= this.maxBytes) {
      const old = this.pages.get(key);
      if (old) {
        this.pages.delete(key);
        this.bytes -= old.body.length;
      }
      this.pages.set(key, { body: built.body, at: built.generatedAtOffset, length: generatedAt.length });
      this.bytes += built.body.length;
      for (const [k, v] of this.pages) {
        if (this.bytes <= this.maxBytes) break;
        this.pages.delete(k);
        this.bytes -= v.body.length;
      }
    }
    return [built.body];
  }

  /** Pages kept and their bytes (tests, status). */
  get size(): { pages: number; bytes: number } {
    return { pages: this.pages.size, bytes: this.bytes };
  }

  private clear(epoch: number): void {
    this.pages.clear();
    this.bytes = 0;
    this.epoch = epoch;
  }
}
