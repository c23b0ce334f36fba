/**
 * The bulk downloads of spec §4, written by the collector under `DATA_DIR/downloads/`:
 * - `record.db` — the public database as one SQLite file: SQLite's online backup (better-sqlite3
 *   `backup()`, 100 pages per event-loop turn, so the collector's heartbeat, live watch and server
 *   reads go on meanwhile; writes by the collector's own connection during it are carried into the
 *   copy, which is consistent when it ends), then switched to rollback-journal mode so it opens as
 *   one file. The public database holds chain-derived records only — keys, usage and jobs live in
 *   private.db and are never in it;
 * - `documents.ndjson.gz` — gzip of one JSON line per launch held, in mint order:
 *   `{"mint":…,"sha256":…,"document":{…}}`, where `document` is the canonical document exactly as
 *   captured (the same bytes as `/d/{mint}`) and `sha256` its sha256 (hex);
 * - `manifest.json` — `{ files: { name: { file, bytes, sha256, writtenAt } } }`: which file on disk
 *   holds each download now, and its sha256 (the server's ETag).
 * The files are written under new names (`record.<tag>.db`), fsynced, and published together by an
 * atomic rename of the manifest; the previous versions are deleted after (a download already
 * streaming keeps its open file). A reader never sees half a file or a file with another's sha256.
 */
import { chmodSync, closeSync, createReadStream, createWriteStream, fsyncSync, mkdirSync, openSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createHash, randomBytes } from 'node:crypto';
import { createGzip } from 'node:zlib';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type { PublicStore } from '../../src/db/public-store.ts';
import { instant } from '../../src/core/canonical.ts';
import { downloadsDir, readManifest, type DownloadManifest } from '../../src/downloads.ts';
import { writeFileAtomic } from '../../src/ingest/write-site.ts';
import type { CollectDeps } from '../context.ts';

async function sha256OfFile(path: string): Promise<string> {
  const h = createHash('sha256');
  await pipeline(createReadStream(path), h);
  return h.digest('hex');
}

function fsyncFile(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * One NDJSON line per launch held, in mint order, read from `db` 500 rows at a time (keyset
 * pagination: no statement stays open across the stream's awaits; no whole-archive string in
 * memory). `db` is the download's own copy of the database, not the live one: the collector goes on
 * writing while the lines are read, and the two files of one manifest must be one snapshot (a review
 * found a record's row in `record.db` at one state and its line at a later one).
 */
function documentLines(db: Database.Database): Readable {
  const page = db.prepare('SELECT mint, sha256, document FROM launch WHERE mint > ? ORDER BY mint LIMIT 500');
  return Readable.from((function* () {
    let after = '';
    for (;;) {
      const rows = page.all(after) as { mint: string; sha256: string; document: string }[];
      if (rows.length === 0) return;
      yield rows.map((r) => `{"mint":${JSON.stringify(r.mint)},"sha256":"${r.sha256}","document":${r.document}}\n`).join('');
      after = rows[rows.length - 1]!.mint;
    }
  })());
}

/**
 * Write both downloads and the manifest now. Returns the manifest. Throws on an I/O or SQLite
 * error, leaving the previous files in place (temporary files are removed).
 */
export async function writeDownloads(store: PublicStore, dataDir: string, nowMs: number): Promise<DownloadManifest> {
  const dir = downloadsDir(dataDir);
  // Owner-only: the downloads are served to keyed callers only (README "Security": file modes).
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const tag = `${nowMs}-${randomBytes(4).toString('hex')}`;
  const dbFile = `record.${tag}.db`;
  const ndFile = `documents.${tag}.ndjson.gz`;
  let published = false;
  try {
    await store.db.backup(join(dir, dbFile));
    const copy = new Database(join(dir, dbFile));
    try {
      copy.pragma('journal_mode = DELETE');
      // the documents from the copy just made: the two downloads are the same snapshot of the archive
      await pipeline(documentLines(copy), createGzip(), createWriteStream(join(dir, ndFile)));
    } finally {
      copy.close();
    }
    const files: DownloadManifest['files'] = {};
    for (const [name, file] of [['record.db', dbFile], ['documents.ndjson.gz', ndFile]] as const) {
      const path = join(dir, file);
      fsyncFile(path);
      files[name] = { file, bytes: statSync(path).size, sha256: await sha256OfFile(path), writtenAt: instant(nowMs) };
    }
    const manifest: DownloadManifest = { files };
    writeFileAtomic(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
    published = true;
    // earlier versions (and leftovers of an interrupted run) go
    for (const f of readdirSync(dir)) if (f !== 'manifest.json' && f !== dbFile && f !== ndFile) rmSync(join(dir, f), { force: true });
    return manifest;
  } finally {
    if (!published) {
      rmSync(join(dir, dbFile), { force: true });
      rmSync(join(dir, ndFile), { force: true });
    }
  }
}

/** How soon after the last downloads an archive that has more than doubled since gets new ones (ms). */
export const DOWNLOADS_GROWTH_MS = 60_000;

/**
 * Whether the bulk downloads are due (pure): none written yet; or the last written `intervalMs`
 * (DOWNLOADS_INTERVAL_MS) ago or more; or the archive holds more than twice the records it held
 * then and {@link DOWNLOADS_GROWTH_MS} have passed — so a young archive's files follow it (a first
 * collection writes them at 0 records and would otherwise serve an empty `documents.ndjson.gz` for an
 * hour while it fills), and a large one's stay on the interval. The doubling bounds the extra writes
 * to less than the size of the last. `recordsThen`: null when not recorded (files of an earlier version).
 * @example downloadsDue({ hasFiles: true, nowMs: 120_000, lastMs: 0, recordsThen: 0, recordsNow: 190, intervalMs: 3_600_000 }) // true
 */
export function downloadsDue(a: { hasFiles: boolean; nowMs: number; lastMs: number; recordsThen: number | null; recordsNow: number; intervalMs: number }): boolean {
  if (!a.hasFiles || a.nowMs - a.lastMs >= a.intervalMs) return true;
  return a.recordsThen !== null && a.recordsNow > 2 * a.recordsThen && a.nowMs - a.lastMs >= DOWNLOADS_GROWTH_MS;
}

const DOWNLOADS_WRITTEN_META = 'downloads_written_ms';
const DOWNLOADS_RECORDS_META = 'downloads_records';

/** {@link downloadsDue} for this archive now (its meta, its manifest and its record count). */
export function downloadsDueNow(store: PublicStore, dataDir: string, intervalMs: number, nowMs: number): boolean {
  const then = store.getMeta(DOWNLOADS_RECORDS_META);
  return downloadsDue({
    hasFiles: readManifest(dataDir) !== null,
    nowMs,
    lastMs: Number(store.getMeta(DOWNLOADS_WRITTEN_META) ?? 0),
    recordsThen: then === undefined ? null : Number(then),
    recordsNow: store.counts().records,
    intervalMs,
  });
}

/**
 * Rewrite the bulk downloads (spec §4; writeDownloads) when {@link downloadsDueNow} says so (the
 * time and record count of the last kept in meta across cron runs).
 */
export async function refreshDownloads(deps: CollectDeps): Promise<void> {
  const { store, config, log } = deps;
  const now = deps.now ?? Date.now;
  if (!downloadsDueNow(store, config.dataDir, config.DOWNLOADS_INTERVAL_MS, now())) return;
  const t0 = Date.now();
  const records = store.counts().records; // counted before the snapshot: the files hold at least these
  const m = await writeDownloads(store, config.dataDir, now());
  store.setMeta(DOWNLOADS_WRITTEN_META, String(now()));
  store.setMeta(DOWNLOADS_RECORDS_META, String(records));
  log.info({ ms: Date.now() - t0, recordDbBytes: m.files['record.db']?.bytes, documentsBytes: m.files['documents.ndjson.gz']?.bytes }, 'bulk downloads written');
}
