import Database from 'better-sqlite3';

/**
 * Copy the SQLite database `src` to `dest` with SQLite's online backup API (better-sqlite3
 * `db.backup`): consistent while the collector and server keep writing (WAL), unlike copying the
 * file. Returns the pages copied. Errors: throws when `src` does not exist or `dest` cannot be written.
 * @example await backupDatabase('data/public.db', 'backups/2026-11-25/public.db')
 */
export async function backupDatabase(src: string, dest: string): Promise<number> {
  const db = new Database(src, { readonly: true, fileMustExist: true });
  try {
    const r = await db.backup(dest);
    return r.totalPages;
  } finally {
    db.close();
  }
}
