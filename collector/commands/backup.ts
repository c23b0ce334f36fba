import { copyFileSync, constants, existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Config } from '../../src/config.ts';
import { backupDatabase } from '../../src/db/backup.ts';

/** What `lpa backup` copies from DATA_DIR: both databases, and the key secret the key hashes depend on. */
export const BACKUP_FILES = ['public.db', 'private.db'] as const;

/**
 * `lpa backup --out DIR`: an online backup of `public.db` and `private.db` (SQLite's backup API:
 * safe while the collector and server run) and a copy of `key-secret` (without it the keys in
 * private.db cannot be checked) into DIR, which must not already hold them. Restore: stop the
 * archive and copy the files back into DATA_DIR (docs/operations.md). Returns the files written.
 */
export async function runBackup(config: Config, opts: { out: string }): Promise<string[]> {
  const out = resolve(opts.out);
  mkdirSync(out, { recursive: true });
  const written: string[] = [];
  for (const name of BACKUP_FILES) {
    const src = join(config.dataDir, name);
    if (!existsSync(src)) continue;
    const dest = join(out, name);
    if (existsSync(dest)) throw new Error(`${dest} exists already: back up into a new folder`);
    await backupDatabase(src, dest);
    written.push(dest);
  }
  const secret = join(config.dataDir, 'key-secret');
  if (existsSync(secret)) {
    copyFileSync(secret, join(out, 'key-secret'), constants.COPYFILE_EXCL);
    written.push(join(out, 'key-secret'));
  }
  if (written.length === 0) throw new Error(`nothing to back up in ${config.dataDir}`);
  for (const f of written) process.stdout.write(`${f}\n`);
  return written;
}
