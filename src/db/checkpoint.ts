import type Database from 'better-sqlite3';

/**
 * Keeping a WAL-mode database's `-wal` file small (issue 21: 3,000 counted requests left a 49 MB
 * WAL on private.db). Three layers:
 * 1. SQLite's automatic checkpoint after a commit once the WAL holds {@link WAL_AUTOCHECKPOINT_BYTES}
 *    of pages. It runs only when a statement steps to its end: a write whose rows are read with
 *    better-sqlite3's `.get()` (`INSERT … RETURNING`) never triggers it, so such writes use `.all()`.
 * 2. An explicit `PRAGMA wal_checkpoint(PASSIVE)` every {@link CHECKPOINT_INTERVAL_MS}.
 * 3. `wal_checkpoint(TRUNCATE)` (the file back to 0 bytes) on a tick when nothing was written since
 *    the last one — by this connection or any other — tried without waiting (busy timeout 0), so a
 *    busy database never stalls the event loop.
 * `journal_size_limit` also cuts the file back to {@link WAL_SIZE_LIMIT_BYTES} whenever the WAL restarts.
 */

/** WAL size after which a commit checkpoints (bytes; in pages of the database's page size). */
export const WAL_AUTOCHECKPOINT_BYTES = 4 * 1024 * 1024;
/** Size the WAL file is truncated to when it restarts (`journal_size_limit`, bytes). */
export const WAL_SIZE_LIMIT_BYTES = 4 * 1024 * 1024;
/** Interval of the explicit checkpoint (ms). */
export const CHECKPOINT_INTERVAL_MS = 30_000;

/** What one tick did. */
export type CheckpointTick = 'passive' | 'truncate' | 'skipped';

/** The WAL settings of a writable connection (after `journal_mode = WAL`). */
export function configureWal(db: Database.Database): void {
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  db.pragma(`wal_autocheckpoint = ${Math.max(16, Math.ceil(WAL_AUTOCHECKPOINT_BYTES / pageSize))}`);
  db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
}

/**
 * The periodic checkpoint of one connection. `tick()` is what the timer runs (tests call it
 * directly); the timer is unref'd and stops by itself once the connection is closed.
 */
export function keepWalSmall(db: Database.Database, intervalMs: number = CHECKPOINT_INTERVAL_MS): { tick: () => CheckpointTick; stop: () => void } {
  const changesStmt = db.prepare('SELECT total_changes()').pluck();
  let last: string | null = null;
  const tick = (): CheckpointTick => {
    if (!db.open) {
      stop();
      return 'skipped';
    }
    try {
      const now = `${db.pragma('data_version', { simple: true })}/${changesStmt.get()}`;
      const quiet = now === last;
      last = now;
      if (!quiet) {
        db.pragma('wal_checkpoint(PASSIVE)');
        return 'passive';
      }
      const timeout = db.pragma('busy_timeout', { simple: true }) as number;
      db.pragma('busy_timeout = 0');
      try {
        db.pragma('wal_checkpoint(TRUNCATE)');
      } finally {
        db.pragma(`busy_timeout = ${timeout}`);
      }
      return 'truncate';
    } catch {
      // busy (another writer, an open iterator): the next tick tries again
      return 'skipped';
    }
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  const stop = () => clearInterval(timer);
  return { tick, stop };
}
