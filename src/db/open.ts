import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/** One numbered schema migration. Versions are permanent: never renumber or edit one that shipped. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/**
 * Page size, in bytes, of a database this function creates. A kept transaction (`launch_tx.decoded`)
 * averages about 4 KB of JSON, more than fits in a 4,096-byte page, so with SQLite's default each
 * spilled into an overflow page: twice the pages written to the WAL and again at each checkpoint.
 * With 16 KB pages, inserting the bench chain's 13,030 decoded transactions (three times, in
 * batches of 480) took 38–46 µs of CPU each against 52–67 µs with 4 KB pages, in alternating runs.
 * An existing database keeps the page size it was created with.
 */
export const NEW_DATABASE_PAGE_SIZE = 16_384;

/**
 * Open (creating if needed) a SQLite database in WAL mode with a busy timeout, and apply the
 * numbered migrations it has not seen, each in its own transaction. A new database gets
 * {@link NEW_DATABASE_PAGE_SIZE} pages.
 * Errors: throws if a migration fails (the database is left at the last good version).
 */
export function openDatabase(path: string, migrations: Migration[], opts: { readonly?: boolean } = {}): Database.Database {
  if (path !== ':memory:' && !opts.readonly) mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, { readonly: opts.readonly ?? false, fileMustExist: opts.readonly ?? false });
  db.pragma('busy_timeout = 5000');
  if (opts.readonly) return db;
  // Takes effect only while the file is still empty (before the first table); a no-op afterwards.
  db.pragma(`page_size = ${NEW_DATABASE_PAGE_SIZE}`);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at_ms INTEGER NOT NULL)');
  const applied = new Set(
    (db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version),
  );
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at_ms) VALUES (?, ?, ?)');
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    if (applied.has(m.version)) continue;
    db.transaction(() => {
      db.exec(m.sql);
      record.run(m.version, m.name, Date.now());
    })();
  }
  return db;
}
