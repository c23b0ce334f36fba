/**
 * openDatabase (src/db/open.ts): a database it creates gets NEW_DATABASE_PAGE_SIZE pages; a database
 * that already exists keeps its own page size (SQLite cannot change it in WAL mode) and still gets
 * its migrations. The public store's launch_tx keeps no slot index (migration 6) and still gives a
 * launch's transactions in slot order.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NEW_DATABASE_PAGE_SIZE, openDatabase, type Migration } from '../../src/db/open.ts';
import { PUBLIC_MIGRATIONS } from '../../src/db/public-schema.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import type { DecodedTransaction } from '../../src/core/types.ts';

const dir = mkdtempSync(join(tmpdir(), 'lpa-open-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MIGRATIONS: Migration[] = [{ version: 1, name: 'one table', sql: 'CREATE TABLE t (x TEXT NOT NULL)' }];

describe('openDatabase page size', () => {
  it('a new public store is created with 16 KB pages, in WAL mode, and keeps them when reopened', () => {
    expect(NEW_DATABASE_PAGE_SIZE).toBe(16_384);
    const path = join(dir, 'new.db');
    const store = new PublicStore(path);
    expect(store.db.pragma('page_size', { simple: true })).toBe(16_384);
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    store.close();
    const again = new PublicStore(path);
    expect(again.db.pragma('page_size', { simple: true })).toBe(16_384);
    again.close();
  });

  it('a database created earlier with 4 KB pages keeps them, and its data and later migrations are intact', () => {
    const path = join(dir, 'old.db');
    const old = new Database(path);
    old.pragma('page_size = 4096');
    old.pragma('journal_mode = WAL');
    old.exec('CREATE TABLE kept (v TEXT)');
    old.prepare('INSERT INTO kept (v) VALUES (?)').run('row from before');
    old.close();
    const db = openDatabase(path, MIGRATIONS);
    expect(db.pragma('page_size', { simple: true })).toBe(4096);
    expect(db.prepare('SELECT v FROM kept').pluck().get()).toBe('row from before');
    db.prepare('INSERT INTO t (x) VALUES (?)').run('migrated');
    expect(db.prepare('SELECT count(*) FROM schema_migrations').pluck().get()).toBe(1);
    db.close();
  });
});

describe('launch_tx without its slot index (public migration 6)', () => {
  const tx = (signature: string, slot: number): DecodedTransaction => ({
    signature, slot, blockTime: null, err: null, accountKeys: [], signers: [], instructions: [], events: [],
    preTokenBalances: [], postTokenBalances: [], logsTruncated: false, fromLogsOnly: false, jitoTipLamports: null, skipped: [],
  });
  const slotIndex = (db: Database.Database) => db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'launch_tx_slot'").pluck().get();

  it('a store made before it loses the index on open; transactions still come back oldest slot first, then in stored order', () => {
    const path = join(dir, 'v5.db');
    const before = openDatabase(path, PUBLIC_MIGRATIONS.filter((m) => m.version <= 5));
    expect(slotIndex(before)).toBe(1);
    before.close();
    const store = new PublicStore(path);
    expect(slotIndex(store.db)).toBe(0);
    for (const [sig, slot] of [['c', 30], ['a', 10], ['d', 20], ['b', 10]] as const) store.addTransaction('MINT', tx(sig, slot));
    store.addTransaction('OTHER', tx('e', 5));
    expect(store.transactionsFor('MINT').map((t) => t.signature)).toEqual(['a', 'b', 'd', 'c']);
    const plan = store.db.prepare("EXPLAIN QUERY PLAN SELECT decoded FROM launch_tx WHERE mint = 'MINT' ORDER BY slot, rowid").all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' | ')).toMatch(/USING INDEX sqlite_autoindex_launch_tx_1 \(mint=\?\)/);
    store.close();
  });
});
