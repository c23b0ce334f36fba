/**
 * The collector's transaction cache (src/ingest/tx-cache.ts) over a real SQLite store: it always
 * answers what the store would, including after another writer (a rebuild) adds rows, after an
 * insert out of slot order, after a rolled-back batch, and under its size bound (estimated heap bytes).
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
});
