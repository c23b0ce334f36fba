import { mkdirSync, renameSync, writeFileSync, openSync, fsyncSync, closeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * Write a file atomically: a temporary file in the same folder, fsync, then rename over the target,
 * so a reader (or the CDN) never sees half a file, and a crash leaves the old file or the new one.
 */
export function writeFileAtomic(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${randomBytes(6).toString('hex')}.tmp`);
  writeFileSync(tmp, content, 'utf8');
  const fd = openSync(tmp, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}

/** Paths of a mint's static files under the site folder (`t/{mint}.html`, `d/{mint}.json`). */
export function sitePaths(siteDir: string, mint: string): { page: string; document: string } {
  return { page: join(siteDir, 't', `${mint}.html`), document: join(siteDir, 'd', `${mint}.json`) };
}
