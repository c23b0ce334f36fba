import Database from 'better-sqlite3';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { configureWal, keepWalSmall } from './checkpoint.ts';
import { ConfigError } from '../config.ts';

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

/** Mode of a private database and its `-wal`/`-shm` (owner only: it holds key hashes and usage). */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Create a private database file owner-only before SQLite opens it (SQLite then gives its `-wal`
 * and `-shm` the database file's mode), and take group/other access off one created before.
 */
function restrictFiles(path: string): void {
  if (!existsSync(path)) closeSync(openSync(path, 'a', PRIVATE_FILE_MODE));
  for (const p of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      chmodSync(p, PRIVATE_FILE_MODE);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }
}

/**
 * Open (creating if needed) a SQLite database in WAL mode with a busy timeout, and apply the
 * numbered migrations it has not seen, each in its own transaction. A new database gets
 * {@link NEW_DATABASE_PAGE_SIZE} pages. `private`: the file and its `-wal`/`-shm` are owner-only
 * (0600). A writable connection keeps its WAL small (checkpoint.ts). A new parent folder is 0700.
 * Statements wait up to `busyTimeoutMs` (default {@link BUSY_TIMEOUT_MS}) for another connection's
 * lock; the migrations up to {@link MIGRATION_WAIT_MS} (another process may be migrating).
 * Errors: throws if a migration fails (the database is left at the last good version);
 * {@link DatabaseTooNewError} when a writable connection finds a migration newer than any this
 * release knows (a read-only one opens it: a generation only ever gains columns and tables).
 */
export function openDatabase(path: string, migrations: Migration[], opts: { readonly?: boolean; private?: boolean; busyTimeoutMs?: number } = {}): Database.Database {
  if (path !== ':memory:' && !opts.readonly) {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    if (opts.private) restrictFiles(path);
  }
  // Two processes opening the same new database at once (the server and the collector) can meet
  // in SQLite's lock upgrade of the first WAL switch, where one gets SQLITE_BUSY at once, without
  // the busy timeout: that one opens again, a few times, before giving up.
  for (let attempt = 1; ; attempt++) {
    const db = new Database(path, { readonly: opts.readonly ?? false, fileMustExist: opts.readonly ?? false });
    try {
      return prepareDatabase(db, path, migrations, opts);
    } catch (e) {
      db.close();
      if ((e as { code?: string }).code !== 'SQLITE_BUSY' || attempt >= OPEN_ATTEMPTS) throw e;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50 * attempt);
    }
  }
}

/** How many times {@link openDatabase} opens a database that answered SQLITE_BUSY while it was set up. */
const OPEN_ATTEMPTS = 5;

function prepareDatabase(db: Database.Database, path: string, migrations: Migration[], opts: { readonly?: boolean; busyTimeoutMs?: number }): Database.Database {
  const busyTimeoutMs = opts.busyTimeoutMs ?? BUSY_TIMEOUT_MS;
  db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  if (opts.readonly) return db;
  // Takes effect only while the file is still empty (before the first table); a no-op afterwards.
  db.pragma(`page_size = ${NEW_DATABASE_PAGE_SIZE}`);
  db.pragma('journal_mode = WAL');
  configureWal(db);
  if (path !== ':memory:') keepWalSmall(db);
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at_ms INTEGER NOT NULL)');
  const applied = new Set(
    (db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version),
  );
  const known = migrations.reduce((n, m) => Math.max(n, m.version), 0);
  const newest = Math.max(0, ...applied);
  if (newest > known) throw new DatabaseTooNewError(path, newest, known);
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at_ms) VALUES (?, ?, ?)');
  const isApplied = db.prepare('SELECT 1 FROM schema_migrations WHERE version = ?').pluck();
  const pending = [...migrations].sort((a, b) => a.version - b.version).filter((m) => !applied.has(m.version));
  // a migration may hold the write lock for a while (public 18-19: 32 s over 1,000,000 records): another
  // process opening the database meanwhile waits for it (up to MIGRATION_WAIT_MS) rather than failing at 5 s
  if (pending.length > 0) db.pragma(`busy_timeout = ${MIGRATION_WAIT_MS}`);
  for (const m of pending) {
    // under the write lock, asked again: another process opening the same new database (the server
    // and the collector of `lpa start`) may have applied it since the read above
    db.transaction(() => {
      if (isApplied.get(m.version)) return;
      db.exec(m.sql);
      record.run(m.version, m.name, Date.now());
    }).immediate();
  }
  if (pending.length > 0) db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  return db;
}

/**
 * A database a newer release has migrated (a migration above every one this release knows): an
 * older release writing to it would undo part of that upgrade for good — records made again under
 * the old method, pages under the old template, while the newer migrations stay "applied" and never
 * run again (an operator's review of a downgrade found 80 records left so, with no line in the log).
 * A configuration error: the server and `lpa` stop, saying what to do.
 */
export class DatabaseTooNewError extends ConfigError {
  constructor(path: string, newest: number, known: number) {
    super(
      `${path} was migrated by a newer release of the archive (its migration ${newest}; this release knows up to ${known}). Running this release on it would undo part of that upgrade: run the newer release, or restore the backup taken before the upgrade (docs/operations.md "Rolling back an upgrade").`,
    );
  }
}

/** How long (ms) a statement waits for another connection's lock before SQLITE_BUSY (`opts.busyTimeoutMs` of {@link openDatabase}). */
export const BUSY_TIMEOUT_MS = 5_000;

/** How long (ms) a process opening a database waits for the write lock to apply its migrations (another process's may be running). */
export const MIGRATION_WAIT_MS = 10 * 60_000;

const schemaNames = new WeakMap<Database.Database, Set<string>>();

/**
 * Whether the database has a table or index of that name, from sqlite_master read once per
 * connection. Code that chooses its statements by what a database has (a read-only generation of
 * an older schema is never migrated) asks here; a connection that migrates does so when it opens,
 * before any question.
 */
export function schemaHas(db: Database.Database, type: 'table' | 'index', name: string): boolean {
  let names = schemaNames.get(db);
  if (!names) {
    const rows = db.prepare("SELECT type, name FROM sqlite_master WHERE type IN ('table', 'index')").all() as { type: string; name: string }[];
    schemaNames.set(db, (names = new Set(rows.map((r) => `${r.type}:${r.name}`))));
  }
  return names.has(`${type}:${name}`);
}

/**
 * The migrations this database took since `sinceMs` (its `schema_migrations` rows, oldest first):
 * what a process that just opened it logs, so an operator sees an upgrade's schema changes and how
 * long they took (`applied_at_ms` is when each ended). Empty for a database without the table.
 * @example for (const m of migrationsAppliedSince(store.db, startedAt)) log.info(m, 'public database migrated')
 */
export function migrationsAppliedSince(db: Database.Database, sinceMs: number): { version: number; name: string; appliedAtMs: number }[] {
  if (!schemaHas(db, 'table', 'schema_migrations')) return [];
  return db.prepare('SELECT version, name, applied_at_ms AS appliedAtMs FROM schema_migrations WHERE applied_at_ms >= ? ORDER BY version').all(sinceMs) as { version: number; name: string; appliedAtMs: number }[];
}

/**
 * Log, at info, the migrations the public database took since `sinceMs` (one line: their versions
 * and names, and the time from `sinceMs` to the last one's end), when an existing database took
 * any: an upgrade's schema changes can take tens of seconds over a large archive (docs/operations.md
 * "Upgrade"). A database made now (it took them all) gets one short line instead.
 */
export function logMigrations(log: { info: (fields: object, message: string) => void }, db: Database.Database, sinceMs: number): void {
  const applied = migrationsAppliedSince(db, sinceMs);
  if (applied.length === 0) return;
  const all = (db.prepare('SELECT count(*) FROM schema_migrations').pluck().get() as number) === applied.length;
  const tookMs = Math.max(0, applied[applied.length - 1]!.appliedAtMs - sinceMs);
  if (all) log.info({ schemaVersion: applied[applied.length - 1]!.version }, 'public database created');
  else log.info({ migrations: applied.map((m) => `${m.version}: ${m.name}`), tookMs }, 'public database migrated');
}
