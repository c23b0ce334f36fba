import { chmodSync, closeSync, copyFileSync, constants, existsSync, mkdirSync, openSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Config } from '../../src/config.ts';
import { backupDatabase } from '../../src/db/backup.ts';
import { PRIVATE_FILE_MODE } from '../../src/db/open.ts';

/** What `lpa backup` copies from DATA_DIR: both databases, and the key secret the key hashes depend on. */
export const BACKUP_FILES = ['public.db', 'private.db'] as const;

/**
 * `lpa backup --out DIR`: an online backup of `public.db` and `private.db` (SQLite's backup API:
 * safe while the collector and server run) and a copy of `key-secret` (without it the keys in
 * private.db cannot be checked) into DIR, which must not already hold them. Restore: stop the
 * archive and copy the files back into DATA_DIR (docs/operations.md). Returns the files written.
 * The private copies are owner-only (0600) from their first byte, as in DATA_DIR, and a new DIR is
 * 0700. A file DATA_DIR lacks is named on stderr; with none of them, nothing is created and it throws.
 */
export async function runBackup(config: Config, opts: { out: string }): Promise<string[]> {
  const out = resolve(opts.out);
  const present = [...BACKUP_FILES, 'key-secret'].filter((name) => existsSync(join(config.dataDir, name)));
  if (present.length === 0) throw new Error(`nothing to back up in ${config.dataDir} (no public.db, private.db or key-secret: is DATA_DIR right?)`);
  for (const name of [...BACKUP_FILES, 'key-secret']) {
    if (!present.includes(name)) process.stderr.write(`lpa backup: ${join(config.dataDir, name)} does not exist; the backup is without it\n`);
  }
  mkdirSync(out, { recursive: true, mode: 0o700 });
  const written: string[] = [];
  for (const name of BACKUP_FILES) {
    const src = join(config.dataDir, name);
    if (!present.includes(name)) continue;
    const dest = join(out, name);
    if (existsSync(dest)) throw new Error(`${dest} exists already: back up into a new folder`);
    if (name === 'private.db') closeSync(openSync(dest, 'wx', PRIVATE_FILE_MODE)); // owner-only before any key hash is in it
    await backupDatabase(src, dest);
    if (name === 'private.db') chmodSync(dest, PRIVATE_FILE_MODE);
    written.push(dest);
  }
  const secret = join(config.dataDir, 'key-secret');
  if (present.includes('key-secret')) {
    const dest = join(out, 'key-secret');
    copyFileSync(secret, dest, constants.COPYFILE_EXCL);
    chmodSync(dest, PRIVATE_FILE_MODE);
    written.push(dest);
  }
  for (const f of written) process.stdout.write(`${f}\n`);
  return written;
}
