import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { mkdir, open, rename, unlink } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { newBatchId, siteWriters } from './site-writers.ts';

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
export function writeFileAtomic(path: string, content: string | Uint8Array): void {
  replaceFile(path, content, true);
}

/**
 * `content` written to a temporary file beside `path` (its folder created when missing), fsynced
 * when `fsync`, then renamed over `path`; on a failure the temporary file is removed and the error thrown.
 */
function replaceFile(path: string, content: string | Uint8Array, fsync: boolean): void {
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
      if (typeof content === 'string') writeFileSync(fd, content, 'utf8');
      else writeFileSync(fd, content);
      if (fsync) fsyncSync(fd);
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

/**
 * Up to this many files a commit fsyncs each (and their folders) rather than ask for a syncfs:
 * the long-running collector's passes often write one or two records.
 */
export const FSYNC_EACH_UP_TO = 8;

/**
 * Files written atomically whose durability is paid once for the lot, for the collector's pages and
 * documents (src/ingest/publish.ts). {@link write} queues a file to be put in place as
 * writeFileAtomic does — a temporary file in the same folder renamed over the target, so a reader
 * (the server, nginx, a CDN) sees the old file or the new one, never part of one — without an fsync
 * per file, by the writer threads (site-writers.ts), so the caller renders the next page meanwhile;
 * {@link commit} waits until every queued file is in place, then makes them durable with one
 * `syncfs(2)` of their file system (`sync -f`, GNU coreutils, run by the writers' helper), or — for
 * a few files ({@link FSYNC_EACH_UP_TO}), or where that cannot run — an fsync of each file and of
 * each folder. A file is in place by the time commit returns (not before: readers may see the old
 * one until then). Record the files as written (clear the marks that ask for them) only after
 * commit returns: a power loss before it may leave a file old, new or empty, and the marks still
 * set then have the next run write it again. One syncfs instead of an fsync per file, and the
 * writes on other cores, are what let the collector write several times more pages a second
 * (docs/benchmarks.md "Token pages").
 * Errors: commit throws the first failed write's file system error (ENOSPC, EACCES, …; `code` kept),
 * after every queued file was tried and each failed one's temporary file removed, and throws when
 * neither syncfs nor the fsyncs succeed.
 * @example const b = new SiteWriteBatch(); b.write(page, html); b.write(doc, json); b.commit(); store.clearPending(…)
 */
export class SiteWriteBatch {
  private files: string[] = [];
  private removed: string[] = [];
  private readonly id = newBatchId();

  /** Files queued since the last commit. */
  get pending(): number {
    return this.files.length;
  }

  /** Queue `content` (UTF-8) to be put at `path` atomically (folders created as needed); in place and durable at the next {@link commit}. */
  write(path: string, content: string): void {
    siteWriters().write(this.id, path, content);
    this.files.push(path);
  }

  /** Queue the removal of `path` (gone already is fine), after any write of it queued before; done, and durable, by the next {@link commit}. */
  remove(path: string): void {
    siteWriters().remove(this.id, path);
    this.removed.push(path);
  }

  /**
   * Count a removal the caller made itself (one that must precede the writes it queues next, such
   * as an unsettled record's settled marker: publish.ts writeTokenFiles), so the next commit makes
   * it durable with the others (its folder fsynced, or in the syncfs).
   */
  noteRemoved(path: string): void {
    this.removed.push(path);
  }

  /** Wait for every queued file, then make those written durable (see the class); nothing to sync when none was. */
  commit(): void {
    const files = this.files;
    const removed = this.removed;
    this.files = [];
    this.removed = [];
    const failures = siteWriters().drain(this.id);
    if (failures.length) {
      const first = failures[0]!;
      throw Object.assign(new Error(`${first.path}: ${first.message}${failures.length > 1 ? ` (and ${failures.length - 1} more failed writes)` : ''}`), { code: first.code, path: first.path });
    }
    const changed = files.length + removed.length;
    if (changed === 0) return;
    // syncfs of the folder's file system (a file written may be removed since)
    if (changed > FSYNC_EACH_UP_TO && siteWriters().syncFileSystem(dirname(files[0] ?? removed[0]!))) return;
    const gone = new Set(removed);
    for (const path of files) syncPath(path, false, gone.has(path));
    // the folders: the renames into them, and the removals (a removed page must not come back after a power loss)
    for (const dir of new Set([...files, ...removed].map((f) => dirname(f)))) syncPath(dir, true);
  }
}

/** fsync a file or folder through a read-only descriptor; for a folder, file systems that cannot (EINVAL, ENOTSUP) are let be; a missing path is nothing to do when `mayBeGone` (a folder's default). */
function syncPath(path: string, folder = false, mayBeGone = folder): void {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    // not there: nothing to make durable (a folder where nothing was written, a file removed after its write)
    if (mayBeGone && (err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  try {
    fsyncSync(fd);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (!folder || (code !== 'EINVAL' && code !== 'ENOTSUP')) throw err;
  } finally {
    closeSync(fd);
  }
}

/** How many files {@link writeFilesAtomic} keeps in flight by default (enough for the fsyncs to overlap). */
export const WRITE_IN_FLIGHT = 16;

/**
 * Write many files atomically and durably, the durability cost shared: each file is written to a
 * temporary file in its folder, fsynced through its descriptor and renamed over its target, as
 * {@link writeFileAtomic} does (the same crash-safety: no rename before the file's content is on
 * disk, so a reader or a crash sees the old file or the new one, never part of one), up to
 * `inFlight` at once through `fs/promises`, so the fsyncs — most of a write's time — overlap (they
 * run on libuv's threadpool: 4 at once unless UV_THREADPOOL_SIZE says otherwise) and ext4 can
 * commit several in one journal transaction; then each distinct folder is fsynced once, so the
 * renames themselves survive a crash (writeFileAtomic, one file at a time, does not fsync the
 * folder). Of two files given for one path only the later is written. Each distinct folder is
 * created once, before the writes. Resolves when every file is written; on a failure the other
 * files are still written, each failed file's temporary file is removed, and the first error is
 * thrown.
 * @param files target paths and their content (UTF-8)
 * @param inFlight files written at once ({@link WRITE_IN_FLIGHT} by default)
 */
export async function writeFilesAtomic(files: { path: string; content: string }[], inFlight = WRITE_IN_FLIGHT): Promise<void> {
  // one write per path: two renames onto one path in flight at once could land in either order
  const latest = new Map<string, string>();
  for (const f of files) {
    latest.delete(f.path);
    latest.set(f.path, f.content);
  }
  const list = [...latest];
  const dirs = new Set(list.map(([path]) => dirname(path)));
  for (const dir of dirs) await mkdir(dir, { recursive: true });
  let next = 0;
  let failure: unknown = null;
  const worker = async () => {
    while (next < list.length) {
      const [path, content] = list[next++]!;
      let tmp: string | null = null;
      try {
        tmp = await writeTemporary(path, content);
        await rename(tmp, path);
      } catch (err) {
        if (tmp !== null) await unlink(tmp).catch(() => undefined);
        failure ??= err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(inFlight, list.length)) }, worker));
  for (const dir of dirs) {
    try {
      await syncFolder(dir);
    } catch (err) {
      failure ??= err;
    }
  }
  if (failure !== null) throw failure;
}

/** A temporary file next to `path` holding `content`, written and fsynced; removed again on a failure. */
async function writeTemporary(path: string, content: string): Promise<string> {
  const tmp = join(dirname(path), `${TMP_PREFIX}${(tmpCounter++).toString(36)}.tmp`);
  try {
    const fh = await open(tmp, 'w');
    try {
      await fh.writeFile(content, 'utf8');
      await fh.sync();
    } finally {
      await fh.close();
    }
    return tmp;
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
}

/**
 * fsync a folder (its entries: the renames into it) through a read-only descriptor, as Linux
 * allows. A file system that cannot fsync a folder (EINVAL, ENOTSUP: some network and FUSE file
 * systems) is not an error: the files themselves were fsynced, as writeFileAtomic does.
 */
async function syncFolder(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EINVAL' && code !== 'ENOTSUP') throw err;
  } finally {
    await fh.close();
  }
}

/** A temporary file of writeFileAtomic: `.{pid base 36}-{8 hex}-{counter}.tmp`, or the older `.{12 hex}.tmp`. */
const TMP_NAME = /^\.(?:([0-9a-z]+)-[0-9a-f]{8}-[0-9a-z]+|[0-9a-f]{12})\.tmp$/;

/** Whether process `pid` is running on this machine (signal 0: EPERM means it is, someone else's). */
export function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Remove the temporary files a killed writer left in the site's `t/`, `d/`, `w/` and `settled/` folders (a
 * `kill -9` between writeFileAtomic's open and rename): those of a process no longer running, and
 * older-format ones (no process id in the name) modified more than `olderThanMs` before `nowMs`.
 * A file of a running process — another writer, such as a rebuild — is kept. Returns how many were
 * removed. Missing folders are skipped; a file removed meanwhile is not an error.
 */
export function removeStaleTemporaryFiles(siteDir: string, olderThanMs: number, nowMs: number): number {
  let removed = 0;
  for (const sub of ['t', 'd', 'w', 'settled']) {
    const dir = join(siteDir, sub);
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    for (const name of names) {
      const m = TMP_NAME.exec(name);
      if (!m) continue;
      const path = join(dir, name);
      try {
        const stale = m[1] !== undefined ? !running(parseInt(m[1], 36)) : statSync(path).mtimeMs < nowMs - olderThanMs;
        if (!stale) continue;
        unlinkSync(path);
        removed++;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    }
  }
  return removed;
}

/** Paths of a mint's static files under the site folder (`t/{mint}.html`, `d/{mint}.json`, and its first-30-seconds page `t/{mint}.early.html` when it has one). */
export function sitePaths(siteDir: string, mint: string): { page: string; document: string; early: string } {
  return { page: join(siteDir, 't', `${mint}.html`), document: join(siteDir, 'd', `${mint}.json`), early: join(siteDir, 't', `${mint}.early.html`) };
}

/**
 * The settled marker of a mint: an empty file `settled/{mint}` that exists while its record is
 * settled, so a static tier that cannot read the record (nginx: collector/cluster/nginx-config.ts)
 * sends the same Cache-Control as the server for `t/{mint}.html` and `d/{mint}.json`.
 */
export function settledMarkerPath(siteDir: string, mint: string): string {
  return join(siteDir, 'settled', mint);
}

/** Path of a wallet's creator page under the site folder (`w/{address}.html`). */
export function walletPagePath(siteDir: string, address: string): string {
  return join(siteDir, 'w', `${address}.html`);
}

/** The project's static assets (`public/`): the site's stylesheet, served by the server from there. */
export const PUBLIC_DIR = fileURLToPath(new URL('../../public/', import.meta.url));

/**
 * The site's assets, relative to `public/` and the site folder: the stylesheet every static page
 * links (shell.ts `STYLESHEET_PATH`), the icon browsers ask for at `/favicon.ico`, and `/robots.txt`.
 */
export const SITE_ASSETS = ['site.css', 'favicon.ico', 'robots.txt'] as const;

/**
 * Copy the site's assets from `public/` into the site folder (`site.css` beside `t/` and `d/`),
 * byte for byte, atomically and only when the content differs, so the static files a CDN serves
 * from the site folder are styled like the server's. Returns how many files were written. Errors: the file
 * system's (a missing `public/` file is a broken install and throws ENOENT).
 */
export function writeSiteAssets(siteDir: string, publicDir = PUBLIC_DIR): number {
  let n = 0;
  for (const name of SITE_ASSETS) {
    const content = readFileSync(join(publicDir, name));
    let current: Buffer | null = null;
    try {
      current = readFileSync(join(siteDir, name));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    if (current?.equals(content)) continue;
    writeFileAtomic(join(siteDir, name), content);
    n++;
  }
  return n;
}
