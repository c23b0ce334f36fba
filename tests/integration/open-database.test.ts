/**
 * openDatabase (src/db/open.ts): a database it creates gets NEW_DATABASE_PAGE_SIZE pages; a database
 * that already exists keeps its own page size (SQLite cannot change it in WAL mode) and still gets
 * its migrations. The public store's launch_tx keeps no slot index (migration 6) and still gives a
 * launch's transactions in slot order. The pool refresh lists its records by a column set by
 * putLaunch (migration 12), not by an index over the document's JSON.
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
import { canonicalJson } from '../../src/core/canonical.ts';
import { launchDoc, putDoc } from '../helpers/launch-doc.ts';

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

describe('the pool refresh list as a column (public migration 12)', () => {
  const graduated = (mint: string, confirmedBy: 'migration_event' | 'pool' | 'withdraw' | null, isGraduated = true) => {
    const doc = launchDoc(mint, 1_700_000_000_000);
    return { ...doc, launch: { ...doc.launch!, graduated: isGraduated, graduationConfirmedBy: confirmedBy } };
  };
  const docs = [graduated('A1', 'migration_event'), graduated('B2', 'withdraw'), graduated('C3', 'pool'), graduated('D4', null, false), graduated('E5', null)];
  const plan = (db: Database.Database) =>
    (db.prepare("EXPLAIN QUERY PLAN SELECT mint FROM launch WHERE pool_refresh = 1 AND mint > '' ORDER BY mint LIMIT 10").all() as { detail: string }[]).map((p) => p.detail).join(' | ');

  it('fills the column for records held before it, lists the same mints as the old index, and putLaunch keeps it', () => {
    const path = join(dir, 'v11.db');
    const before = openDatabase(path, PUBLIC_MIGRATIONS.filter((m) => m.version <= 11));
    // rows written as the version-11 store wrote them (its columns only)
    const insert = before.prepare(`INSERT INTO launch (mint, origin, observed_at_launch, finding_class, settled, method_version, document, sha256, updated_at_ms)
      VALUES (?, 'observed', 1, 'NO_MARKERS', 0, 'markers-v2', ?, 'x', 0)`);
    for (const d of docs) insert.run(d.mint, canonicalJson(d));
    const oldList = before.prepare("SELECT mint FROM launch WHERE json_extract(document, '$.launch.graduated') = 1 AND json_extract(document, '$.launch.graduationConfirmedBy') IS NOT 'withdraw' ORDER BY mint").pluck().all();
    expect(oldList).toEqual(['A1', 'C3', 'E5']);
    before.close();
    const store = new PublicStore(path);
    expect(store.graduatedMints('', 10)).toEqual(oldList);
    expect(store.graduatedMints('A1', 10)).toEqual(['C3', 'E5']);
    expect(plan(store.db)).toMatch(/USING (COVERING )?INDEX launch_pool_refresh/);
    // putLaunch sets it from the document: a withdraw-confirmed record leaves the list, a new graduated one joins it
    putDoc(store, graduated('A1', 'withdraw'));
    putDoc(store, graduated('F6', 'migration_event'));
    expect(store.graduatedMints('', 10)).toEqual(['C3', 'E5', 'F6']);
    store.close();
  });
});

describe('two processes opening the same new database at once', () => {
  it('both end with every migration applied once, neither fails ("table … already exists": the server and the collector of lpa start)', async () => {
    const { spawn } = await import('node:child_process');
    const ROOT = join(import.meta.dirname, '../..');
    const opener = (path: string, at: number) =>
      new Promise<{ code: number | null; err: string }>((done) => {
        const code = `
          const { openDatabase } = await import(${JSON.stringify(join(ROOT, 'src/db/open.ts'))});
          const { PUBLIC_MIGRATIONS } = await import(${JSON.stringify(join(ROOT, 'src/db/public-schema.ts'))});
          while (Date.now() < ${at}) {} // both start together
          openDatabase(process.env.DB, PUBLIC_MIGRATIONS).close();
        `;
        const p = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: ROOT, env: { ...process.env, DB: path }, stdio: ['ignore', 'ignore', 'pipe'] });
        let err = '';
        p.stderr!.on('data', (d) => (err += d));
        p.once('exit', (c) => done({ code: c, err }));
      });
    const failures: string[] = [];
    for (let round = 0; round < 8; round++) {
      const path = join(dir, `race-${round}.db`);
      const at = Date.now() + 2_500; // after both have loaded tsx and the modules
      const results = await Promise.all([opener(path, at), opener(path, at)]);
      for (const r of results) if (r.code !== 0) failures.push(r.err.split('\n').find((l) => /Error/.test(l)) ?? `exit ${r.code}`);
      const db = new Database(path, { readonly: true });
      expect(db.prepare('SELECT count(*) FROM schema_migrations').pluck().get()).toBe(PUBLIC_MIGRATIONS.length);
      db.close();
    }
    expect(failures).toEqual([]);
  }, 120_000);
});

describe('a migration that holds the write lock longer than the busy timeout', () => {
  it('a second process opening the database meanwhile waits for it and then applies its own, where it gave up with "database is locked" after its 5 opening attempts of one busy timeout each', async () => {
    const { spawn } = await import('node:child_process');
    const ROOT = join(import.meta.dirname, '../..');
    const path = join(dir, 'long-migration.db');
    openDatabase(path, MIGRATIONS).close();
    // another process holds the write lock for 7 s, as a long migration does
    const code = `
      const Database = (await import('better-sqlite3')).default;
      const db = new Database(process.env.DB);
      db.exec('BEGIN IMMEDIATE');
      db.exec("INSERT INTO t (x) VALUES ('held')");
      console.log('locked');
      const until = Date.now() + 7000; while (Date.now() < until) {}
      db.exec('COMMIT');
    `;
    const holder = spawn(process.execPath, ['--input-type=module', '-e', code], { cwd: ROOT, env: { ...process.env, DB: path }, stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((ok) => holder.stdout!.on('data', (d: Buffer) => d.toString().includes('locked') && ok()));
    const t0 = Date.now();
    // a short usual wait (1 s; 5 s by default), so the old way's 5 opening attempts gave up well before the holder was done
    const db = openDatabase(path, [...MIGRATIONS, { version: 2, name: 'second table', sql: 'CREATE TABLE u (y TEXT)' }], { busyTimeoutMs: 1_000 });
    const waited = Date.now() - t0;
    expect(db.prepare('SELECT count(*) FROM schema_migrations').pluck().get()).toBe(2);
    expect(db.prepare('SELECT x FROM t').pluck().all()).toEqual(['held']); // it ran after the holder committed
    expect(waited).toBeGreaterThan(5_000);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(1000); // back to the usual wait for later writes
    db.close();
    await new Promise((ok) => (holder.exitCode !== null ? ok(null) : holder.once('exit', ok)));
  }, 60_000);
});
