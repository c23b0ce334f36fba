import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';

/** The file whose lock one collector holds while it runs (in DATA_DIR; never served or published). */
export const LOCK_FILE = 'collector.lock';
/** Who holds the lock, for the refusal's message: `{ pid, host, since }` as JSON, written once the lock is held. */
export const HOLDER_FILE = 'collector.pid';

/** Another collector runs on the same DATA_DIR: this one did not start, and nothing was read or written. */
export class CollectorRunningError extends Error {
  override name = 'CollectorRunningError';
}

// the connections holding a lock: a better-sqlite3 connection that nothing references is closed when it
// is garbage-collected, which would release the lock while the collector still runs (seen with a dropped handle)
const holding = new Set<Database.Database>();

/** A held collector lock; `release()` lets the next collector start (a process that dies releases it too). */
export interface CollectorLock {
  release(): void;
}

/**
 * Hold the one-collector-per-DATA_DIR lock, or refuse at once. Two collectors on one data folder
 * would both advance the same cursor and write the same launches (the long-running one of
 * `lpa start` and a cron `lpa collect --once`, say). The lock is SQLite's exclusive lock on
 * `DATA_DIR/collector.lock` (a POSIX record lock, held by an exclusive-mode connection in an open
 * transaction), so the operating system releases it when the holding process ends in any way,
 * kill -9 included: no stale lock file to remove by hand.
 * Errors: {@link CollectorRunningError} naming the holder (pid, host, since) when another process
 * holds it; an Error naming DATA_DIR and the path when the folder cannot be made or written.
 * @example const lock = holdCollectorLock(config.dataDir); try { … } finally { lock.release(); }
 */
export function holdCollectorLock(dataDir: string): CollectorLock {
  const path = join(dataDir, LOCK_FILE);
  let db: Database.Database;
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    db = new Database(path, { timeout: 0 });
  } catch (e) {
    throw new Error(`DATA_DIR=${dataDir}: cannot create or open ${path} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); the collector needs a folder it can write`);
  }
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    // the exclusive lock is taken by the first write and kept until the connection closes (locking_mode EXCLUSIVE)
    db.exec('BEGIN EXCLUSIVE');
  } catch (e) {
    db.close();
    if ((e as { code?: string }).code === 'SQLITE_BUSY') throw new CollectorRunningError(`another collector is already running on DATA_DIR=${dataDir}${describeHolder(dataDir)}; stop it first (one collector per data folder: they would write the same launches and cursor), or give this one another DATA_DIR`);
    throw new Error(`DATA_DIR=${dataDir}: cannot lock ${path} (${(e as Error).message})`);
  }
  const holderPath = join(dataDir, HOLDER_FILE);
  const tmp = `${holderPath}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() }) + '\n', { mode: 0o600 });
  renameSync(tmp, holderPath);
  holding.add(db);
  let held = true;
  return {
    release() {
      if (!held) return;
      held = false;
      rmSync(holderPath, { force: true });
      holding.delete(db);
      db.close();
    },
  };
}

/** " (pid 123 on host, since …)" from the holder file, or "" when it cannot be read (written a moment after the lock is taken). */
function describeHolder(dataDir: string): string {
  try {
    const h = JSON.parse(readFileSync(join(dataDir, HOLDER_FILE), 'utf8')) as { pid?: unknown; host?: unknown; since?: unknown };
    return ` (pid ${String(h.pid)} on ${String(h.host)}, since ${String(h.since)})`;
  } catch {
    return '';
  }
}
