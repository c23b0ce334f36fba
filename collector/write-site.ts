import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';

/** Temporary file names of this process: `.{pid}-{random}-{counter}.tmp`, unique across processes sharing the folder. */
const TMP_PREFIX = `.${process.pid.toString(36)}-${randomBytes(4).toString('hex')}-`;
let tmpCounter = 0;

/**
 * Write a file atomically: a temporary file in the same folder, written and fsynced through one
 * descriptor, then renamed over the target, so a reader (or the CDN) never sees half a file, and a
 * crash leaves the old file or the new one. The folder is created (with its parents) when the
 * first open finds it missing. Errors: the file system's (ENOSPC, EACCES, …), after the temporary
 * file is removed.
 */
export function writeFileAtomic(path: string, content: string): void {
  const dir = dirname(path);
  const tmp = join(dir, `${TMP_PREFIX}${(tmpCounter++).toString(36)}.tmp`);
  let fd: number;
  try {
    fd = openSync(tmp, 'w');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    mkdirSync(dir, { recursive: true });
    fd = openSync(tmp, 'w');
  }
  try {
    try {
      writeFileSync(fd, content, 'utf8');
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      // already gone
    }
    throw err;
  }
}

/** Paths of a mint's static files under the site folder (`t/{mint}.html`, `d/{mint}.json`). */
export function sitePaths(siteDir: string, mint: string): { page: string; document: string } {
  return { page: join(siteDir, 't', `${mint}.html`), document: join(siteDir, 'd', `${mint}.json`) };
}
