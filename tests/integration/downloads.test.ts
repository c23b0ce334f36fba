/**
 * The collector's bulk downloads (collector/publish/downloads.ts, spec §4): written on the first run,
 * rewritten only every DOWNLOADS_INTERVAL_MS (across cron runs), published as a set by the
 * manifest with the previous versions removed; the files' sha256 and sizes are the manifest's.
 * Real mainnet fixture chain through the replay RPC; the collector's clock is the test's.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReplayRpc, type ReplayRpc } from '../../devchain/replay/server.ts';
import { collectOnce } from '../helpers/collect-once.ts';
import Database from 'better-sqlite3';
import { PublicStore } from '../../src/db/public-store.ts';
import { downloadsDir, readManifest } from '../../src/downloads.ts';
import { writeDownloads } from '../../collector/publish/downloads.ts';
import { openDownload } from '../../src/server/downloads.ts';
import { open, rm } from 'node:fs/promises';

const ROOT = resolve(import.meta.dirname, '../..');
let tmp: string;
let rpc: ReplayRpc;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'lpa-downloads-'));
  rpc = await startReplayRpc({ chainDir: join(ROOT, 'tests/fixtures/chains/mainnet') });
});

afterAll(async () => {
  await rpc?.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('bulk downloads', () => {
  it('first run writes them; a run within DOWNLOADS_INTERVAL_MS keeps them; a later run replaces them as a set', async () => {
    let clock = Date.UTC(2026, 10, 23, 9, 0, 0);
    const run = () => collectOnce(tmp, rpc.url, () => clock);
    const dir = downloadsDir(tmp);
    await run();
    const first = readManifest(tmp)!;
    expect(first.files['record.db']!.writtenAt.ms).toBe(clock);
    for (const entry of Object.values(first.files)) {
      const bytes = readFileSync(join(dir, entry.file));
      expect({ bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') }).toEqual({ bytes: entry.bytes, sha256: entry.sha256 });
    }
    const lines = gunzipSync(readFileSync(join(dir, first.files['documents.ndjson.gz']!.file))).toString('utf8').trimEnd().split('\n');
    const store = new PublicStore(join(tmp, 'public.db'));
    expect(lines.map((l) => (JSON.parse(l) as { mint: string }).mint)).toEqual(store.db.prepare('SELECT mint FROM launch ORDER BY mint').pluck().all());
    // record.db: the online backup, in rollback-journal mode (header bytes 18–19 = 1: one file, no -wal needed), intact, every launch row
    const dbPath = join(dir, first.files['record.db']!.file);
    expect([...readFileSync(dbPath).subarray(18, 20)]).toEqual([1, 1]);
    const copy = new Database(dbPath, { readonly: true, fileMustExist: true });
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(copy.prepare('SELECT mint, sha256 FROM launch ORDER BY mint').all()).toEqual(store.db.prepare('SELECT mint, sha256 FROM launch ORDER BY mint').all());
    copy.close();
    store.close();

    clock += 60_000; // cron a minute later: not due
    await run();
    expect(readManifest(tmp)).toEqual(first);

    clock += 60 * 60_000; // an hour later: due
    await run();
    const second = readManifest(tmp)!;
    expect(second.files['record.db']!.writtenAt.ms).toBe(clock);
    expect(second.files['record.db']!.file).not.toBe(first.files['record.db']!.file);
    expect(readdirSync(dir).sort()).toEqual(['manifest.json', second.files['documents.ndjson.gz']!.file, second.files['record.db']!.file].sort());
  });

  it('the documents file pages through the archive: 1,203 records, every one once, in mint order, exactly as stored', async () => {
    const dir = join(tmp, 'many');
    const store = new PublicStore(join(dir, 'public.db'));
    try {
      const insert = store.db.prepare(
        "INSERT INTO launch (mint, origin, observed_at_launch, finding_class, settled, method_version, document, sha256, updated_at_ms) VALUES (?, 'observed', 0, 'UNKNOWN', 0, 'v1', ?, ?, 0)",
      );
      const rows = Array.from({ length: 1203 }, (_, i) => {
        const mint = `M${String(i).padStart(5, '0')}`;
        const document = JSON.stringify({ mint, n: i, name: '<script>alert(1)</script> "quoted" \u2028' });
        return { mint, document, sha256: createHash('sha256').update(document).digest('hex') };
      });
      store.transaction(() => rows.forEach((r) => insert.run(r.mint, r.document, r.sha256)));
      const m = await writeDownloads(store, dir, Date.UTC(2026, 10, 23));
      const text = gunzipSync(readFileSync(join(downloadsDir(dir), m.files['documents.ndjson.gz']!.file))).toString('utf8');
      expect(text.endsWith('\n')).toBe(true);
      const lines = text.trimEnd().split('\n');
      expect(lines).toEqual(rows.map((r) => `{"mint":"${r.mint}","sha256":"${r.sha256}","document":${r.document}}`));
    } finally {
      store.close();
    }
  });

  it('the two files are one snapshot: a record the collector changes while they are written is the same in both', async () => {
    const dir = join(tmp, 'moving');
    const store = new PublicStore(join(dir, 'public.db'));
    try {
      const insert = store.db.prepare(
        "INSERT INTO launch (mint, origin, observed_at_launch, finding_class, settled, method_version, document, sha256, updated_at_ms) VALUES (?, 'observed', 0, 'UNKNOWN', 0, 'v1', ?, ?, 0)",
      );
      const doc = (mint: string, n: number) => JSON.stringify({ mint, n });
      store.transaction(() => {
        for (let i = 0; i < 3000; i++) {
          const mint = `M${String(i).padStart(5, '0')}`;
          insert.run(mint, doc(mint, 0), createHash('sha256').update(doc(mint, 0)).digest('hex'));
        }
      });
      // the last record (its line is read last) changed on every turn of the event loop while the downloads are written
      const last = 'M02999';
      const update = store.db.prepare('UPDATE launch SET document = ?, sha256 = ? WHERE mint = ?');
      let n = 0;
      let moving = true;
      const tick = () => {
        if (!moving) return;
        n++;
        update.run(doc(last, n), createHash('sha256').update(doc(last, n)).digest('hex'), last);
        setImmediate(tick);
      };
      setImmediate(tick);
      const m = await writeDownloads(store, dir, Date.UTC(2026, 10, 28)).finally(() => (moving = false));
      expect(n).toBeGreaterThan(2); // the record did change while they were written
      const line = gunzipSync(readFileSync(join(downloadsDir(dir), m.files['documents.ndjson.gz']!.file))).toString('utf8').trimEnd().split('\n').at(-1)!;
      const copy = new Database(join(downloadsDir(dir), m.files['record.db']!.file), { readonly: true });
      try {
        const row = copy.prepare('SELECT document FROM launch WHERE mint = ?').get(last) as { document: string };
        expect((JSON.parse(line) as { document: unknown }).document).toEqual(JSON.parse(row.document));
      } finally {
        copy.close();
      }
    } finally {
      store.close();
    }
  });

  it('a download asked for while the collector replaces the files is served from the new manifest, never 404 (openDownload)', async () => {
    const dir = join(tmp, 'replaced');
    const store = new PublicStore(join(dir, 'public.db'));
    try {
      expect(await openDownload(dir, 'record.db')).toBeUndefined(); // nothing written yet: 404
      const first = await writeDownloads(store, dir, Date.UTC(2026, 10, 28, 1));
      let second: Awaited<ReturnType<typeof writeDownloads>> | undefined;
      const opened: string[] = [];
      // between the server's read of the manifest and its open, the collector publishes new files and deletes the old
      const got = await openDownload(dir, 'record.db', async (path) => {
        opened.push(path);
        if (!second) second = await writeDownloads(store, dir, Date.UTC(2026, 10, 28, 2));
        return open(path);
      });
      expect(opened).toEqual([join(downloadsDir(dir), first.files['record.db']!.file), join(downloadsDir(dir), second!.files['record.db']!.file)]);
      expect(got!.entry).toEqual(second!.files['record.db']);
      await got!.file.close();
      // a manifest whose file is gone for good (no newer manifest): not found, after a few reads
      await rm(join(downloadsDir(dir), second!.files['record.db']!.file));
      expect(await openDownload(dir, 'record.db')).toBeUndefined();
    } finally {
      store.close();
    }
  });
});
