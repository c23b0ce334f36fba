import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { canonicalJson, sha256Hex } from '../../src/core/canonical.ts';
import type { FindingClass, LaunchDocument, Origin } from '../../src/core/types.ts';
import { PublicStore, type ArchiveCounts } from '../../src/db/public-store.ts';
import { launchDoc, randomAddress } from '../helpers/launch-doc.ts';

/**
 * The status's counts come from launch_count, which the launch table's triggers keep (public
 * migration 17): after any sequence of writes — new records, a record whose class, origin or
 * observed-at-launch changes, by either of putLaunch's two paths — they equal counting the rows.
 */

let dir: string;
beforeEach(() => void (dir = mkdtempSync(join(tmpdir(), 'lpa-launch-counts-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const CLASSES: FindingClass[] = ['FINDINGS', 'NOTE', 'NO_MARKERS', 'UNKNOWN'];
const ORIGINS: Origin[] = ['observed', 'scanned', 'rebuilt'];

function put(store: PublicStore, mint: string, c: FindingClass, origin: Origin, observed: boolean, name = 'Test token'): void {
  const base = launchDoc(mint, 1_000, { origin, observedAtLaunch: observed, name });
  const doc = { ...base, finding: { ...base.finding, class: c } } as LaunchDocument;
  const text = canonicalJson(doc);
  store.putLaunch(doc, null, text, sha256Hex(text), 2_000);
}

/** The counts as the status computed them before migration 17: from the launch rows. */
function counted(db: Database.Database): ArchiveCounts {
  const rows = db.prepare('SELECT origin, finding_class AS c, count(*) AS n FROM launch GROUP BY origin, finding_class').all() as { origin: string; c: string; n: number }[];
  const byOrigin: Record<string, number> = {};
  const byClass: Record<string, number> = {};
  const byOriginAndClass: Record<string, Record<string, number>> = {};
  let records = 0;
  for (const r of rows) {
    records += r.n;
    byOrigin[r.origin] = (byOrigin[r.origin] ?? 0) + r.n;
    byClass[r.c] = (byClass[r.c] ?? 0) + r.n;
    (byOriginAndClass[r.origin] ??= {})[r.c] = r.n;
  }
  const launches = (db.prepare('SELECT count(*) AS n FROM launch WHERE observed_at_launch = 1').get() as { n: number }).n;
  return { launches, records, byOrigin, byClass, byOriginAndClass };
}

describe('launch counts (public migration 17)', () => {
  it('equal counting the rows after new records and records that change class, origin or observed-at-launch', () => {
    const store = new PublicStore(join(dir, 'public.db'));
    let seed = 7;
    const r = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const mints = Array.from({ length: 40 }, () => randomAddress());
    expect(store.counts()).toEqual(counted(store.db));
    for (let i = 0; i < 400; i++) {
      const mint = mints[Math.floor(r() * mints.length)]!;
      // a name change alone takes putLaunch's full upsert; the same name its narrow update
      put(store, mint, CLASSES[Math.floor(r() * 4)]!, ORIGINS[Math.floor(r() * 3)]!, r() < 0.5, r() < 0.5 ? 'Test token' : `Name ${i}`);
      if (i % 25 === 0) expect(store.counts()).toEqual(counted(store.db));
    }
    expect(store.counts()).toEqual(counted(store.db));
    expect(store.counts().records).toBe(new Set(mints).size);
    // a rolled-back write leaves them as they were
    const before = store.counts();
    expect(() =>
      store.transaction(() => {
        put(store, randomAddress(), 'FINDINGS', 'observed', true);
        throw new Error('roll back');
      }),
    ).toThrow('roll back');
    expect(store.counts()).toEqual(before);
    // a deleted row is taken out (no code path deletes records; the trigger keeps the counts true anyway)
    store.db.prepare('DELETE FROM launch WHERE mint = ?').run(mints[0]);
    expect(store.counts()).toEqual(counted(store.db));
    store.close();
  });

  it('are computed for an archive written before the migration, and counted from the rows where the table is absent (an older read-only generation)', () => {
    const path = join(dir, 'public.db');
    const store = new PublicStore(path);
    for (let i = 0; i < 30; i++) put(store, randomAddress(), CLASSES[i % 4]!, ORIGINS[i % 3]!, i % 2 === 0);
    const truth = counted(store.db);
    // back to schema 16: no launch_count, no triggers of it
    store.db.exec('DROP TRIGGER launch_count_insert; DROP TRIGGER launch_count_delete; DROP TRIGGER launch_count_update; DROP TABLE launch_count; DELETE FROM schema_migrations WHERE version = 17');
    store.close();
    const old = new PublicStore(path, { readonly: true });
    expect(old.counts()).toEqual(truth);
    old.close();
    const migrated = new PublicStore(path);
    expect(migrated.db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'launch_count'").get()).toEqual({ n: 1 });
    expect(migrated.counts()).toEqual(truth);
    put(migrated, randomAddress(), 'NOTE', 'rebuilt', false);
    expect(migrated.counts()).toEqual(counted(migrated.db));
    migrated.close();
  });
});
