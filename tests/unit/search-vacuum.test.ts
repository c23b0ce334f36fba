/**
 * Does a VACUUM of public.db desync name search? `launch_fts` is an external-content FTS5 index
 * keyed by `launch.rowid`, and `launch` has no INTEGER PRIMARY KEY (its key is `mint TEXT`), so
 * SQLite's documentation allows a VACUUM to renumber its rowids. What SQLite does: VACUUM copies
 * each table with the transfer optimisation (insert.c xferOptimization), which keeps the source's
 * rowids when the table has an index and gives new ones only when it has none; `launch` always has
 * one (the index of its PRIMARY KEY). This test holds the archive to that: after VACUUM — with
 * gaps in the rowids, rewritten names, through the bundled SQLite and through the `sqlite3` shell
 * running the README's page-size procedure, and VACUUM INTO — every record is still found by its
 * name and FTS5's own integrity check against the content table passes. The control shows the
 * test would see a renumbering: a table shaped like `launch` without any index is renumbered by
 * the same VACUUM, and its index desyncs.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { PublicStore } from '../../src/db/public-store.ts';
import { searchByText } from '../../src/db/search.ts';
import { launchDoc, putDoc, randomAddress } from '../helpers/launch-doc.ts';

const T0 = Date.parse('2026-11-25T12:00:00Z');
const SQLITE3 = '/usr/bin/sqlite3';
const N = 60;

let dir: string;
let path: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lpa-search-vacuum-'));
  path = join(dir, 'public.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Launches named `word{i}` / symbol `S{i}`, a third renamed afterwards, and a run of rows removed (gaps in rowids). */
function fill(): Map<string, { name: string; symbol: string }> {
  const store = new PublicStore(path);
  const held = new Map<string, { name: string; symbol: string }>();
  const mints = Array.from({ length: N }, () => randomAddress());
  mints.forEach((mint, i) => {
    putDoc(store, launchDoc(mint, T0 + i, { name: `Alpha${i}zz token`, symbol: `S${i}Q` }), T0);
    held.set(mint, { name: `Alpha${i}zz`, symbol: `S${i}Q` });
  });
  mints.forEach((mint, i) => {
    if (i % 3 !== 0) return;
    putDoc(store, launchDoc(mint, T0 + i, { name: `Beta${i}yy token`, symbol: `R${i}W` }), T0);
    held.set(mint, { name: `Beta${i}yy`, symbol: `R${i}W` });
  });
  // rows removed from the middle (an operator's DELETE; the triggers keep the index in step)
  for (const mint of mints.slice(10, 20)) {
    store.db.prepare('DELETE FROM launch WHERE mint = ?').run(mint);
    held.delete(mint);
  }
  store.close();
  return held;
}

const rowids = (db: Database.Database) => db.prepare('SELECT mint, rowid FROM launch ORDER BY mint').all();

/** Every held record is found by its name and by its symbol, and FTS5 checks its index against the content table. */
function expectSearchInStep(file: string, held: Map<string, { name: string; symbol: string }>): void {
  const store = new PublicStore(file, { readonly: true });
  try {
    for (const [mint, { name, symbol }] of held) {
      expect(searchByText(store.db, [name], 5).map((r) => r.mint), name).toEqual([mint]);
      expect(searchByText(store.db, [symbol], 5).map((r) => r.mint), symbol).toEqual([mint]);
    }
    expect(searchByText(store.db, ['Alpha15zz'], 5)).toEqual([]); // a removed row is not found
  } finally {
    store.close();
  }
  const db = new Database(file);
  try {
    // 'integrity-check' with rank 1 compares the index with the external content table's rows
    expect(() => db.prepare("INSERT INTO launch_fts (launch_fts, rank) VALUES ('integrity-check', 1)").run()).not.toThrow();
  } finally {
    db.close();
  }
}

describe('VACUUM and the FTS5 index of launch names (migrations 9 and 16)', () => {
  it('VACUUM (bundled SQLite) keeps every rowid of launch, and search finds every record by name', () => {
    const held = fill();
    const db = new Database(path);
    const before = rowids(db);
    expect(new Set(before.map((r) => (r as { rowid: number }).rowid)).size).toBe(N - 10);
    db.exec('VACUUM');
    expect(rowids(db)).toEqual(before);
    db.close();
    expectSearchInStep(path, held);
  });

  it.skipIf(!existsSync(SQLITE3))("the README's page-size conversion through the sqlite3 shell keeps them too", () => {
    const held = fill();
    const db = new Database(path);
    const before = rowids(db);
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    execFileSync(SQLITE3, [path, 'PRAGMA journal_mode=DELETE; PRAGMA page_size=16384; VACUUM; PRAGMA journal_mode=WAL;']);
    const after = new Database(path);
    expect(after.pragma('page_size', { simple: true })).toBe(16384);
    expect(rowids(after)).toEqual(before);
    after.close();
    expectSearchInStep(path, held);
  });

  it('VACUUM INTO a copy keeps them', () => {
    const held = fill();
    const db = new Database(path);
    const before = rowids(db);
    const copy = join(dir, 'copy.db');
    db.prepare('VACUUM INTO ?').run(copy);
    db.close();
    const c = new Database(copy);
    expect(rowids(c)).toEqual(before);
    c.close();
    expectSearchInStep(copy, held);
  });

  it('control: the same VACUUM renumbers a table without any index, and an FTS5 index over it desyncs (what the test would catch)', () => {
    const db = new Database(path);
    db.exec(`CREATE TABLE bare (mint TEXT, name TEXT);
      CREATE VIRTUAL TABLE bare_fts USING fts5(name, content = 'bare', content_rowid = 'rowid');
      CREATE TRIGGER bare_ai AFTER INSERT ON bare BEGIN INSERT INTO bare_fts (rowid, name) VALUES (new.rowid, new.name); END;
      CREATE TRIGGER bare_ad AFTER DELETE ON bare BEGIN INSERT INTO bare_fts (bare_fts, rowid, name) VALUES ('delete', old.rowid, old.name); END;`);
    for (let i = 0; i < 20; i++) db.prepare('INSERT INTO bare VALUES (?, ?)').run(`m${i}`, `word${i}`);
    db.exec("DELETE FROM bare WHERE mint IN ('m3', 'm4', 'm5')");
    const find = (w: string) => db.prepare('SELECT bare.mint FROM bare_fts JOIN bare ON bare.rowid = bare_fts.rowid WHERE bare_fts MATCH ?').pluck().all(`"${w}"`);
    expect(find('word12')).toEqual(['m12']);
    db.exec('VACUUM');
    expect(find('word12')).not.toEqual(['m12']); // rowids renumbered: the index points at other rows
    db.close();
  });
});
