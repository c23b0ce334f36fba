/**
 * Public-database generations (issue 26): the collector's snapshot writer (collector/publish/generations.ts)
 * and the API node's reader (src/db/generation-reader.ts), over real SQLite files. Launches are
 * built by the real builder from synthetic decoded transactions whose count the test knows.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { publishGeneration } from '../../collector/publish/generations.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { GenerationReader } from '../../src/db/generation-reader.ts';
import { generationFile, readGenerationManifest } from '../../src/generations.ts';
import { commitLaunch } from '../helpers/committed-launch.ts';

let tmp: string;
let store: PublicStore;
let dir: string;
let slot = 1000;

function addLaunches(n: number): void {
  for (let i = 0; i < n; i++) commitLaunch(store, (slot += 10), (create, nowMs) => store.setCursor('history', create.signature, create.slot, nowMs));
}

const launches = (s: PublicStore) => s.db.prepare('SELECT count(*) FROM launch').pluck().get() as number;

beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'lpa-generations-'));
  store = new PublicStore(join(tmp, 'public.db'));
  dir = join(tmp, 'generations');
});

afterEach(() => {
  store.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('publishing a generation', () => {
  it('writes a whole, read-only-openable snapshot, then the manifest naming it with its sha256, count and slot', async () => {
    addLaunches(20);
    const m = await publishGeneration(store, dir, Date.UTC(2026, 10, 25));
    expect(m).toMatchObject({ generation: 1, file: generationFile(1), records: 20, slot });
    expect(readGenerationManifest(dir)).toEqual(m);
    const bytes = readFileSync(join(dir, m.file));
    expect(bytes.length).toBe(m.bytes);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(m.sha256);
    expect([...bytes.subarray(18, 20)]).toEqual([1, 1]); // rollback journal: one file, no -wal needed
    const copy = new Database(join(dir, m.file), { readonly: true, fileMustExist: true });
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(copy.prepare('SELECT mint, sha256 FROM launch ORDER BY mint').all()).toEqual(store.db.prepare('SELECT mint, sha256 FROM launch ORDER BY mint').all());
    copy.close();
  });

  it('is consistent while the collector keeps writing, numbers generations upwards and keeps the newest three', async () => {
    addLaunches(200);
    let writing = true;
    const writer = (async () => {
      while (writing) {
        addLaunches(5);
        await new Promise((r) => setImmediate(r));
      }
    })();
    const manifests = [];
    for (let i = 0; i < 4; i++) manifests.push(await publishGeneration(store, dir, Date.now()));
    writing = false;
    await writer;
    expect(manifests.map((m) => m.generation)).toEqual([1, 2, 3, 4]);
    for (const m of manifests.slice(1)) {
      const copy = new Database(join(dir, m.file), { readonly: true, fileMustExist: true });
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      // every launch row has its creation transaction: no write was half-copied
      expect(copy.prepare('SELECT count(*) FROM launch').pluck().get()).toBe(m.records);
      expect(copy.prepare('SELECT count(*) FROM launch l WHERE NOT EXISTS (SELECT 1 FROM launch_tx t WHERE t.mint = l.mint)').pluck().get()).toBe(0);
      copy.close();
    }
    expect(manifests[3]!.records).toBeGreaterThanOrEqual(manifests[1]!.records);
    expect(existsSync(join(dir, generationFile(1)))).toBe(false);
    expect([2, 3, 4].every((n) => existsSync(join(dir, generationFile(n))))).toBe(true);
  });
});

describe('a lost or damaged manifest (a cluster review: numbering restarted at 1, behind what the nodes served; damaged, it stopped the collector)', () => {
  it('numbers the next generation after every generation file present, and a damaged manifest is replaced', async () => {
    addLaunches(5);
    for (let i = 0; i < 3; i++) await publishGeneration(store, dir, Date.now());
    rmSync(join(dir, 'manifest.json'));
    expect((await publishGeneration(store, dir, Date.now())).generation).toBe(4);
    writeFileSync(join(dir, 'manifest.json'), '{"generation": 4');
    const m = await publishGeneration(store, dir, Date.now());
    expect(m.generation).toBe(5);
    expect(readGenerationManifest(dir)).toEqual(m);
  });
});

describe('an API node reading generations', () => {
  it('serves nothing before the first generation, then the newest, and finishes leases on the one they began with', async () => {
    const reader = new GenerationReader(dir);
    expect(await reader.refresh()).toEqual({ reason: 'no_manifest' });
    expect(reader.acquire()).toBeNull();
    addLaunches(3);
    await publishGeneration(store, dir, Date.now());
    expect(await reader.refresh()).toBe(1);
    const inFlight = reader.acquire()!;
    expect([inFlight.generation, launches(inFlight.store)]).toEqual([1, 3]);
    addLaunches(2);
    await publishGeneration(store, dir, Date.now());
    expect(await reader.refresh()).toBe(2);
    const next = reader.acquire()!;
    expect([next.generation, launches(next.store)]).toEqual([2, 5]);
    // the request that began on generation 1 still reads it, and it closes when that request ends
    expect(launches(inFlight.store)).toBe(3);
    expect(inFlight.store.db.open).toBe(true);
    inFlight.release();
    expect(inFlight.store.db.open).toBe(false);
    next.release();
    expect(next.store.db.open).toBe(true); // still the one served
    reader.close();
    expect(next.store.db.open).toBe(false);
  });

  it('never serves a half-written or damaged file, and never goes backwards', async () => {
    addLaunches(3);
    await publishGeneration(store, dir, Date.now());
    addLaunches(1);
    const second = await publishGeneration(store, dir, Date.now());
    const reader = new GenerationReader(dir);
    expect(await reader.refresh()).toBe(2);
    // a manifest naming generation 3 whose file is still being copied (cut short)
    const whole = readFileSync(join(dir, second.file));
    writeFileSync(join(dir, generationFile(3)), whole.subarray(0, whole.length / 2));
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...second, generation: 3, file: generationFile(3) }));
    expect(await reader.refresh()).toEqual({ reason: 'size_mismatch', generation: 3 });
    // the right size, other bytes (damaged in transit)
    const damaged = Buffer.from(whole);
    damaged[damaged.length - 1] ^= 0xff;
    writeFileSync(join(dir, generationFile(3)), damaged);
    expect(await reader.refresh()).toEqual({ reason: 'sha256_mismatch', generation: 3 });
    // an older manifest (a folder restored from an old copy)
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...second, generation: 1, file: generationFile(1) }));
    expect(await reader.refresh()).toEqual({ reason: 'older', generation: 1, served: 2 });
    expect(reader.generation).toBe(2);
    const lease = reader.acquire()!;
    expect(launches(lease.store)).toBe(4);
    lease.release();
    reader.close();
  });

  it('swaps under load without a request ever finding its database closed', async () => {
    addLaunches(50);
    await publishGeneration(store, dir, Date.now());
    const reader = new GenerationReader(dir);
    await reader.refresh();
    const seen: number[] = [];
    let errors = 0;
    let stop = false;
    const request = async () => {
      while (!stop) {
        const lease = reader.acquire()!;
        try {
          seen.push(lease.generation);
          await new Promise((r) => setImmediate(r)); // a request that awaits between reads
          launches(lease.store);
        } catch {
          errors++;
        } finally {
          lease.release();
        }
      }
    };
    const clients = Array.from({ length: 20 }, request);
    for (let i = 0; i < 5; i++) {
      addLaunches(5);
      await publishGeneration(store, dir, Date.now());
      await reader.refresh();
    }
    stop = true;
    await Promise.all(clients);
    expect(errors).toBe(0);
    expect(reader.generation).toBe(6);
    // per request order, the generation never went backwards
    expect(seen.every((g, i) => i === 0 || g >= seen[i - 1]!)).toBe(true);
    expect(new Set(seen).size).toBeGreaterThan(1);
    reader.close();
  });
});
