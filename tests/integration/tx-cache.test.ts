/**
 * The collector's transaction cache (src/ingest/tx-cache.ts) over a real SQLite store: it always
 * answers what the store would, including after another writer (a rebuild) adds rows, after an
 * insert out of slot order, after a rolled-back batch, under its size bound (estimated heap bytes),
 * and when it drops the launches idle for TX_CACHE_IDLE_S (an injected clock).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PublicStore } from '../../src/db/public-store.ts';
import type { DecodedTransaction } from '../../src/core/types.ts';
import { HEAP_PER_JSON_BYTE, TransactionCache } from '../../src/ingest/tx-cache.ts';

const tx = (signature: string, slot: number): DecodedTransaction => ({
  signature, slot, blockTime: 1_700_000_000 + slot, err: null, accountKeys: [], signers: [], instructions: [], events: [],
  preTokenBalances: [], postTokenBalances: [], logsTruncated: false, fromLogsOnly: false, jitoTipLamports: null, skipped: [],
});
const sigs = (txs: DecodedTransaction[]) => txs.map((t) => t.signature);

describe('TransactionCache', () => {
  let dir: string;
  let store: PublicStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lpa-txcache-'));
    store = new PublicStore(join(dir, 'public.db'));
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const add = (cache: TransactionCache, mint: string, t: DecodedTransaction) => {
    if (store.addTransaction(mint, t)) cache.added(store, mint, t);
  };

  it('serves appended transactions without reading the store, equal to the store', () => {
    const cache = new TransactionCache();
    add(cache, 'M', tx('a', 10));
    expect(sigs(cache.transactionsFor(store, 'M'))).toEqual(['a']);
    add(cache, 'M', tx('b', 11));
    add(cache, 'M', tx('b', 11)); // a second insert of the same signature is ignored by the store and the cache
    const list = cache.transactionsFor(store, 'M');
    expect(sigs(list)).toEqual(['a', 'b']);
    expect(sigs(list)).toEqual(sigs(store.transactionsFor('M')));
    expect(list[1]).toBe(cache.transactionsFor(store, 'M')[1]); // the same objects: no re-parse
  });

  it('starts a new mint at its first transaction (no read back), but not a mint the store already holds', () => {
    const cache = new TransactionCache();
    const first = tx('a', 10);
    add(cache, 'N', first);
    expect(cache.size).toBe(1);
    expect(cache.transactionsFor(store, 'N')[0]).toBe(first); // the inserted object itself: nothing re-parsed
    store.addTransaction('O', tx('o1', 1)); // held by the store before this cache saw it
    add(cache, 'O', tx('o2', 2));
    expect(cache.size).toBe(1); // O not started from its second row
    expect(sigs(cache.transactionsFor(store, 'O'))).toEqual(['o1', 'o2']);
  });

  it('reads the store again when another writer added rows, or a row lands before the cached ones', () => {
    const cache = new TransactionCache();
    add(cache, 'M', tx('a', 10));
    add(cache, 'M', tx('c', 30));
    cache.transactionsFor(store, 'M');
    const other = new PublicStore(join(dir, 'public.db')); // a rebuild in the server process
    other.addTransaction('M', tx('b', 20));
    other.close();
    expect(sigs(cache.transactionsFor(store, 'M'))).toEqual(['a', 'b', 'c']);
    add(cache, 'M', tx('z', 5)); // older slot: the store orders it first
    expect(sigs(cache.transactionsFor(store, 'M'))).toEqual(['z', 'a', 'b', 'c']);
  });

  it('counts a mint\'s rows only after another writer committed, once per list', () => {
    const cache = new TransactionCache();
    let counts = 0;
    const count = store.transactionCount.bind(store);
    store.transactionCount = (mint: string) => (counts++, count(mint));
    add(cache, 'M', tx('a', 10));
    for (let i = 0; i < 5; i++) {
      add(cache, 'M', tx(`m${i}`, 11 + i));
      cache.transactionsFor(store, 'M');
    }
    expect(counts).toBe(0);
    const other = new PublicStore(join(dir, 'public.db'));
    other.addTransaction('M', tx('x', 100));
    other.close();
    expect(sigs(cache.transactionsFor(store, 'M'))).toEqual(['a', 'm0', 'm1', 'm2', 'm3', 'm4', 'x']);
    cache.transactionsFor(store, 'M');
    expect(counts).toBe(1);
  });

  it('heals after a rolled-back batch, even when another writer added as many rows', () => {
    const cache = new TransactionCache();
    add(cache, 'M', tx('a', 10));
    cache.transactionsFor(store, 'M');
    expect(() => store.transaction(() => {
      add(cache, 'M', tx('b', 11));
      throw new Error('crash mid-batch');
    })).toThrow('crash mid-batch');
    const other = new PublicStore(join(dir, 'public.db'));
    other.addTransaction('M', tx('c', 12));
    other.close();
    expect(sigs(cache.transactionsFor(store, 'M'))).toEqual(['a', 'c']);
  });

  it('heals after a rolled-back batch', () => {
    const cache = new TransactionCache();
    add(cache, 'M', tx('a', 10));
    cache.transactionsFor(store, 'M');
    expect(() => store.transaction(() => {
      add(cache, 'M', tx('b', 11));
      throw new Error('crash mid-batch');
    })).toThrow('crash mid-batch');
    expect(sigs(cache.transactionsFor(store, 'M'))).toEqual(['a']);
  });

  it('drops least recently used mints beyond its bound (estimated heap bytes) and still answers from the store', () => {
    const one = Math.ceil(JSON.stringify(tx('A1', 1)).length * HEAP_PER_JSON_BYTE); // every tx() here has the same length
    const cache = new TransactionCache(3 * one);
    for (const m of ['A', 'B', 'C']) {
      add(cache, m, tx(`${m}1`, 1));
      add(cache, m, tx(`${m}2`, 2));
      cache.transactionsFor(store, m);
    }
    // bound 3 transactions' bytes: only the most recent mint's 2 transactions stay cached
    expect(cache.size).toBe(2);
    expect(cache.bytes).toBe(2 * one);
    add(cache, 'A', tx('A3', 3)); // A was dropped: not appended, read whole when needed
    expect(sigs(cache.transactionsFor(store, 'A'))).toEqual(['A1', 'A2', 'A3']);
    expect(cache.size).toBe(3); // A read whole; C dropped

    expect(sigs(cache.transactionsFor(store, 'C'))).toEqual(['C1', 'C2']);
  });
  describe('idle launches (TX_CACHE_IDLE_S)', () => {
    const one = Math.ceil(JSON.stringify(tx('L1', 1)).length * HEAP_PER_JSON_BYTE);
    /** counts the store's whole-history reads (a cache miss) */
    const countReads = () => {
      const read = store.transactionsAndBytesFor.bind(store);
      const reads: string[] = [];
      store.transactionsAndBytesFor = (mint: string) => (reads.push(mint), read(mint));
      return reads;
    };

    it('drops a launch not used for the idle time and keeps the active one, served without reading the store', () => {
      let now = 1_000_000;
      const cache = new TransactionCache(1024 * 2 ** 20, 60_000, () => now);
      const reads = countReads();
      add(cache, 'OLD', tx('o1', 1));
      add(cache, 'LIVE', tx('L1', 1));
      cache.transactionsFor(store, 'OLD');
      cache.transactionsFor(store, 'LIVE');
      expect(cache.mints).toBe(2);
      // LIVE trades every 20 s for two minutes; OLD is never touched again
      for (let i = 2; i <= 7; i++) {
        now += 20_000;
        add(cache, 'LIVE', tx(`L${i}`, i));
        const live = sigs(cache.transactionsFor(store, 'LIVE'));
        expect(reads).toEqual([]); // answered from the cache
        expect(live).toEqual(sigs(store.transactionsFor('LIVE')));
        reads.length = 0; // (the line above read the store itself)
        // OLD last used at 1,000,000: kept while idle under 60 s, dropped at the first use from then on
        expect(cache.mints).toBe(now - 1_000_000 < 60_000 ? 2 : 1);
      }
      expect(cache.size).toBe(7); // LIVE's 7 transactions; OLD's gone
      expect(cache.bytes).toBe(7 * one);
      // OLD trades again: not appended (dropped), read whole from the store when used: the same list
      add(cache, 'OLD', tx('o2', 9));
      expect(sigs(cache.transactionsFor(store, 'OLD'))).toEqual(['o1', 'o2']);
      expect(reads).toEqual(['OLD']);
      expect(cache.mints).toBe(2);
    });

    it('counts a use 1 ms short of the idle time as active', () => {
      let now = 0;
      const cache = new TransactionCache(1024 * 2 ** 20, 60_000, () => now);
      add(cache, 'M', tx('a', 1));
      now = 59_999;
      add(cache, 'N', tx('n', 1));
      expect(cache.mints).toBe(2);
      now = 60_000;
      add(cache, 'N', tx('n2', 2));
      expect(cache.mints).toBe(1);
      expect(sigs(cache.transactionsFor(store, 'M'))).toEqual(['a']); // read back from the store
    });

    it('with idle time 0 keeps every launch until the byte bound', () => {
      let now = 0;
      const cache = new TransactionCache(1024 * 2 ** 20, 0, () => now);
      add(cache, 'M', tx('a', 1));
      now = 10 * 86_400_000;
      add(cache, 'N', tx('n', 1));
      expect(cache.mints).toBe(2);
    });

    it('answers what the store holds for every launch, whatever it dropped, over a random run', () => {
      let now = 0;
      const cache = new TransactionCache(8 * one, 30_000, () => now);
      let seed = 7;
      const rand = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
      const slots = new Map<string, number>();
      let dropsSeen = 0;
      for (let i = 0; i < 400; i++) {
        now += Math.floor(rand() * 15_000);
        const mint = `M${Math.floor(rand() * 6)}`;
        const slot = (slots.get(mint) ?? 0) + 1 + Math.floor(rand() * 3);
        slots.set(mint, slot);
        const before = cache.mints;
        add(cache, mint, tx(`${mint}-${i}`, slot));
        if (cache.mints < before) dropsSeen++;
        if (rand() < 0.7) expect(sigs(cache.transactionsFor(store, mint))).toEqual(sigs(store.transactionsFor(mint)));
      }
      expect(dropsSeen).toBeGreaterThan(0);
      for (const mint of slots.keys()) expect(sigs(cache.transactionsFor(store, mint))).toEqual(sigs(store.transactionsFor(mint)));
    });
  });
});
