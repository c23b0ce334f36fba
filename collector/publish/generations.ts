/**
 * Publish a generation of the public database (src/generations.ts): a consistent snapshot of
 * `public.db` taken with SQLite's online backup API (better-sqlite3 `backup()`: writes made
 * meanwhile through the same connection are carried into the copy, which is consistent when it
 * ends), switched to rollback-journal mode so it opens read-only as one file, fsynced, hashed, and
 * only then named by the manifest, written atomically. A node that reads the manifest therefore
 * never finds a half-written file. Older generations beyond `keep` are removed after (a node that
 * still has one open keeps reading it: the inode lives until it closes).
 */
import { chmodSync, closeSync, createReadStream, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import Database from 'better-sqlite3';
import { instant } from '../../src/core/canonical.ts';
import type { PublicStore } from '../../src/db/public-store.ts';
import { generationFile, readGenerationManifest, type GenerationManifest } from '../../src/generations.ts';
import { writeFileAtomic } from '../../src/ingest/write-site.ts';

/** Generations kept on disk by default: the newest and two before it, for nodes still swapping. */
export const KEEP_GENERATIONS = 3;

const GENERATION_NAME = /^public\.(\d+)\.db$/;

async function sha256OfFile(path: string): Promise<string> {
  const h = createHash('sha256');
  await pipeline(createReadStream(path), h);
  return h.digest('hex');
}

function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Snapshot `store` as the next generation in `dir` and publish it. Returns its manifest.
 * Errors: an I/O or SQLite error throws, after removing the partial file; the previous generation
 * stays published.
 * @example await publishGeneration(store, join(dataDir, 'generations'), Date.now())
 */
export async function publishGeneration(store: PublicStore, dir: string, nowMs: number, keep = KEEP_GENERATIONS): Promise<GenerationManifest> {
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  // numbered after the manifest and after every generation file present: a lost or damaged manifest (unreadable JSON is
  // taken as none, and the one written here replaces it) never numbers a generation at or below one the nodes may serve
  const generation = Math.max(manifestGeneration(dir), newestGenerationFile(dir)) + 1;
  const file = generationFile(generation);
  const tmp = join(dir, `.${file}.${randomBytes(4).toString('hex')}.tmp`);
  let published = false;
  try {
    await store.db.backup(tmp);
    const copy = new Database(tmp);
    let records: number;
    let slot: number | null;
    try {
      copy.pragma('journal_mode = DELETE');
      records = copy.prepare('SELECT count(*) FROM launch').pluck().get() as number;
      slot = (copy.prepare('SELECT max(slot) FROM cursor').pluck().get() as number | null) ?? null;
    } finally {
      copy.close();
    }
    chmodSync(tmp, 0o644); // public data, read by the API nodes' user
    fsyncPath(tmp);
    const sha256 = await sha256OfFile(tmp);
    const bytes = statSync(tmp).size;
    renameSync(tmp, join(dir, file));
    fsyncPath(dir);
    const manifest: GenerationManifest = { generation, file, bytes, sha256, records, slot, writtenAt: instant(nowMs) };
    writeFileAtomic(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
    published = true;
    pruneGenerations(dir, generation, keep);
    return manifest;
  } finally {
    if (!published) rmSync(tmp, { force: true });
  }
}

/** The manifest's generation number; 0 when there is none or it cannot be read (damaged JSON, no number). */
function manifestGeneration(dir: string): number {
  try {
    const n = readGenerationManifest(dir)?.generation;
    return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : 0;
  } catch {
    return 0;
  }
}

/** The highest number of a `public.<n>.db` in `dir` (0: none). */
function newestGenerationFile(dir: string): number {
  let newest = 0;
  for (const name of readdirSync(dir)) {
    const m = GENERATION_NAME.exec(name);
    if (m) newest = Math.max(newest, Number(m[1]));
  }
  return newest;
}

/** Remove generations older than the newest `keep` (and temporary files of interrupted runs). */
function pruneGenerations(dir: string, newest: number, keep: number): void {
  for (const name of readdirSync(dir)) {
    const m = GENERATION_NAME.exec(name);
    if (m ? Number(m[1]) <= newest - keep : (name.endsWith('.tmp') || name.endsWith('.tmp-journal')) && name.startsWith('.public.')) rmSync(join(dir, name), { force: true });
  }
}
