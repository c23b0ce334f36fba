import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { PublicStore } from '../../src/db/public-store.ts';
import { openDatabase } from '../../src/db/open.ts';
import { PUBLIC_MIGRATIONS } from '../../src/db/public-schema.ts';
import { BLOCK_SEQS, listedItemsJson, listLaunches, type ListedRecord } from '../../src/db/launch-list.ts';
import { launchPage, parseListQuery, type ListQuery } from '../../src/server/launches.ts';
import { launchDoc, putDoc } from '../helpers/launch-doc.ts';
import type { LaunchDocument } from '../../src/core/types.ts';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'lpa-list-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const insert = (db: Database.Database, mint: string, sha: string, slot: number | null) =>
  db
    .prepare(
      `INSERT INTO launch (mint, creation_slot, origin, observed_at_launch, finding_class, settled, method_version, document, sha256, updated_at_ms)
       VALUES (?, ?, 'observed', 1, 'NOTE', 0, 'markers-v2', '{}', ?, 0)
       ON CONFLICT (mint) DO UPDATE SET sha256 = excluded.sha256, document = excluded.document`,
    )
    .run(mint, slot, sha);
const seqs = (db: Database.Database) => Object.fromEntries((db.prepare('SELECT mint, change_seq AS s FROM launch').all() as { mint: string; s: number }[]).map((r) => [r.mint, r.s]));

describe('the change sequence (public-schema migration 10)', () => {
  it('grows with every insert and every changed document; an unchanged rewrite keeps it', () => {
    const store = new PublicStore(join(dir, 'public.db'));
    const db = store.db;
    insert(db, 'A', 'a1', 10);
    insert(db, 'B', 'b1', 11);
    expect(seqs(db)).toEqual({ A: 1, B: 2 });
    insert(db, 'A', 'a1', 10); // same document
    expect(seqs(db)).toEqual({ A: 1, B: 2 });
    insert(db, 'A', 'a2', 10); // changed
    expect(seqs(db)).toEqual({ A: 3, B: 2 });
    expect(listLaunches(db, 'changes', {}, { order: 'changes', seq: 2 }, 10).map((r) => r.mint)).toEqual(['A']);
    insert(db, 'C', 'c1', null);
    expect(listLaunches(db, 'newest', {}, null, 10).map((r) => r.mint)).toEqual(['B', 'A', 'C']);
    expect(listLaunches(db, 'newest', {}, { order: 'newest', slot: 10, mint: 'A' }, 10).map((r) => r.mint)).toEqual(['C']);
    store.close();
  });

  it('numbers the rows of a database made before it by rowid, then continues after them', () => {
    const path = join(dir, 'old.db');
    const old = openDatabase(path, PUBLIC_MIGRATIONS.filter((m) => m.version < 9));
    insert(old, 'A', 'a1', 1);
    insert(old, 'B', 'b1', 2);
    old.close();
    const store = new PublicStore(path);
    expect(seqs(store.db)).toEqual({ A: 1, B: 2 });
    insert(store.db, 'B', 'b2', 2);
    expect(seqs(store.db)).toEqual({ A: 1, B: 3 });
    store.close();
  });
});

describe('pages read by index ranges (public migration 14)', () => {
  it('give the same pages as the plain ORDER BY over the table, for syncs from a slot and browsing', () => {
    const store = new PublicStore(join(dir, 'public.db'));
    const db = store.db;
    // 200 blocks: more than one group of the summary, and runs of may-blocks longer than one range query reads
    const n = BLOCK_SEQS * 200;
    const slotOf = (i: number) => (i % 97 === 0 ? null : i % 13 === 0 ? 5 : i % 500 === 1 ? 100_000 : 100 + Math.floor(i / 2));
    const mintOf = (i: number) => `M${String((i * 7919) % n).padStart(5, '0')}`;
    // slots mostly rising with the writes, some old slots written late, a few far ahead, some records without one, ties in a slot
    db.transaction(() => {
      for (let i = 0; i < n; i++) insert(db, mintOf(i), `s${i}`, slotOf(i));
      for (let i = 0; i < n; i += 5) insert(db, mintOf(i), `t${i}`, slotOf(i));
    })();
    const mints = (rows: { mint: string }[]) => rows.map((r) => r.mint);
    const naiveSync = (since: number, seq: number, limit: number) =>
      mints(db.prepare('SELECT mint FROM launch WHERE creation_slot >= ? AND change_seq > ? ORDER BY change_seq LIMIT ?').all(since, seq, limit) as { mint: string }[]);
    const check = () => {
      for (const since of [1, 5, 100, 100 + BLOCK_SEQS, 100 + 32 * BLOCK_SEQS, 100 + 64 * BLOCK_SEQS + 7, 100 + n / 2 - 3, 100 + n, 100_000, 100_001])
        for (const seq of [0, 10, BLOCK_SEQS - 1, BLOCK_SEQS, 64 * BLOCK_SEQS - 1, 130 * BLOCK_SEQS + 3, n, n + 100, 2 * n])
          for (const limit of [1, 51, 101])
            expect(mints(listLaunches(db, 'changes', { sinceSlot: since }, seq ? { order: 'changes', seq } : null, limit)), `since ${since} seq ${seq} limit ${limit}`).toEqual(naiveSync(since, seq, limit));
    };
    check();
    // written after the summary was read: new records, old ones changed (they leave their block)
    db.transaction(() => {
      for (let i = 0; i < 200; i++) insert(db, `N${i}`, `n${i}`, i % 2 ? 100_001 : 50);
      for (let i = 1; i < n; i += 250) insert(db, mintOf(i), `u${i}`, slotOf(i));
    })();
    check();
    const all = mints(db.prepare('SELECT mint FROM launch ORDER BY creation_slot IS NULL, creation_slot DESC, mint DESC').all() as { mint: string }[]);
    const browsed: string[] = [];
    let after: { order: 'newest'; slot: number | null; mint: string } | null = null;
    for (;;) {
      const page: ListedRecord[] = listLaunches(db, 'newest', {}, after, 37);
      browsed.push(...mints(page));
      if (page.length < 37) break;
      after = { order: 'newest', slot: page.at(-1)!.creationSlot, mint: page.at(-1)!.mint };
    }
    expect(browsed).toEqual(all);
    for (const [sql, index] of [
      ['SELECT mint FROM launch WHERE creation_slot IS NOT NULL AND (creation_slot, mint) < (1, 2) ORDER BY creation_slot DESC, mint DESC LIMIT 5', 'launch_created'],
      ['SELECT change_seq / 4096, max(creation_slot) FROM launch INDEXED BY launch_slot_change WHERE creation_slot IS NOT NULL GROUP BY 1', 'COVERING INDEX launch_slot_change'],
    ]) {
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail).join('; ');
      expect(plan).toContain(index);
    }
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'launch_latest'").get()).toBeUndefined();
    store.close();
  });
});

describe('a sync from a slot over long runs of blocks that may hold one', () => {
  it('reads them a range at a time and loses no record between two ranges', () => {
    const store = new PublicStore(join(dir, 'public.db'));
    const db = store.db;
    // one record in every block created at slot 60,000, the others long before: every block may, each holds one
    const n = BLOCK_SEQS * 300;
    db.transaction(() => {
      for (let i = 0; i < n; i++) insert(db, `M${String(i).padStart(6, '0')}`, `s${i}`, i % BLOCK_SEQS === 7 ? 60_000 : 100 + i);
    })();
    for (const seq of [0, 1, 8, BLOCK_SEQS * 64 - 1, BLOCK_SEQS * 100 + 9])
      for (const limit of [1, 51, 101]) {
        const want = db.prepare('SELECT change_seq FROM launch WHERE creation_slot >= 60000 AND change_seq > ? ORDER BY change_seq LIMIT ?').pluck().all(seq, limit);
        expect(listLaunches(db, 'changes', { sinceSlot: 60_000 }, seq ? { order: 'changes', seq } : null, limit).map((r) => r.changeSeq), `seq ${seq} limit ${limit}`).toEqual(want);
      }
    store.close();
  });
});

describe('graduated=false lists only launches known not to have graduated (public migration 23)', () => {
  // every shape of what a record establishes about its graduation (src/core/record/known-graduation.ts)
  const check = (over: Partial<NonNullable<LaunchDocument['launch']>['graduationCheck']>) => ({ checkedAt: { ms: 1, iso: '1970-01-01T00:00:00.001Z' }, curveComplete: null, poolFound: null, pool: null, ...over });
  const shapes: [string, 'graduated' | 'not_graduated' | 'unknown', (d: LaunchDocument) => LaunchDocument][] = [
    ['graduated', 'graduated', (d) => ({ ...d, launch: { ...d.launch!, completed: true, graduated: true } })],
    ['complete history, not completed', 'not_graduated', (d) => d],
    ['complete history, completed, not migrated', 'not_graduated', (d) => ({ ...d, launch: { ...d.launch!, completed: true } })],
    ['no creation held', 'unknown', (d) => ({ ...d, launch: null })],
    ['incomplete history, nothing read', 'unknown', (d) => ({ ...d, history: { ...d.history, complete: false } })],
    ['incomplete, the curve account says not complete (v2)', 'not_graduated', (d) => ({ ...d, history: { ...d.history, complete: false }, launch: { ...d.launch!, graduationCheck: check({ curveComplete: false }) } })],
    ['incomplete, the same read under markers-v1', 'unknown', (d) => ({ ...d, methodVersion: 'markers-v1', history: { ...d.history, complete: false }, launch: { ...d.launch!, graduationCheck: check({ curveComplete: false }) } })],
    ['incomplete, completed, pool not found (v7)', 'not_graduated', (d) => ({ ...d, methodVersion: 'markers-v7', history: { ...d.history, complete: false }, launch: { ...d.launch!, completed: true, graduationCheck: check({ curveComplete: true, poolFound: false }) } })],
    ['incomplete, completed, pool not found (v6: may mean not read)', 'unknown', (d) => ({ ...d, methodVersion: 'markers-v6', history: { ...d.history, complete: false }, launch: { ...d.launch!, completed: true, graduationCheck: check({ curveComplete: true, poolFound: false }) } })],
    ['incomplete, completed, pool unread', 'unknown', (d) => ({ ...d, methodVersion: 'markers-v7', history: { ...d.history, complete: false }, launch: { ...d.launch!, completed: true, graduationCheck: check({ curveComplete: true }) } })],
  ];
  const fill = (store: PublicStore) => {
    const mints = new Map<string, (typeof shapes)[number][1]>();
    shapes.forEach(([, known, shape], i) => {
      const mint = `Mint${String(i).padStart(40, '1')}`;
      putDoc(store, shape(launchDoc(mint, 1_790_000_000_000 + i * 1000)));
      mints.set(mint, known);
    });
    return mints;
  };
  const listed = (store: PublicStore, graduated: boolean) => new Set(listLaunches(store.db, 'newest', { graduated }, null, 100).map((r) => r.mint));
  const expected = (mints: Map<string, string>, known: string) => new Set([...mints].filter(([, k]) => k === known).map(([m]) => m));

  it('as putLaunch writes them: unknown is in neither filter', () => {
    const store = new PublicStore(join(dir, 'public.db'));
    const mints = fill(store);
    expect(listed(store, false)).toEqual(expected(mints, 'not_graduated'));
    expect(listed(store, true)).toEqual(expected(mints, 'graduated'));
    expect(listed(store, false).size + listed(store, true).size).toBe(shapes.length - 5); // 5 shapes are unknown
    store.close();
  });

  it('an archive written before: the migration gives each record the value putLaunch gives it', () => {
    const store = new PublicStore(join(dir, 'public.db'));
    const mints = fill(store);
    const column = () => store.db.prepare('SELECT mint, graduated FROM launch ORDER BY mint').all();
    const now = column();
    // as the code before wrote it (1 when graduated, else 0), at schema 22
    store.db.exec('UPDATE launch SET graduated = 0 WHERE graduated = 2; DELETE FROM schema_migrations WHERE version = 23');
    store.close();
    const again = new PublicStore(join(dir, 'public.db'));
    expect(again.db.prepare('SELECT mint, graduated FROM launch ORDER BY mint').all()).toEqual(now);
    expect(listed(again, false)).toEqual(expected(mints, 'not_graduated'));
    again.close();
  });
});

describe('filtered pages (public migration 19)', () => {
  it('equal the plain query over the table for every filter and order, and a selective filter reads its own index, never a sort', () => {
    const store = new PublicStore(join(dir, 'public.db'));
    const db = store.db;
    // classes of very different sizes (UNKNOWN rare), about 1 in 20 graduated, a few creators with many launches, some without a slot
    const classes = ['NO_MARKERS', 'FINDINGS', 'NOTE', 'UNKNOWN'] as const;
    const n = 3000;
    const put = db.prepare(
      `INSERT INTO launch (mint, creator, creation_slot, origin, observed_at_launch, finding_class, settled, method_version, document, sha256, updated_at_ms, graduated)
       VALUES (@mint, @creator, @slot, 'observed', 1, @cls, 0, 'markers-v2', @doc, @sha, 0, json_extract(@doc, '$.launch.graduated') IS 1)
       ON CONFLICT (mint) DO UPDATE SET sha256 = excluded.sha256, document = excluded.document, finding_class = excluded.finding_class, graduated = excluded.graduated`,
    );
    const row = (i: number, v: string) => ({
      mint: `M${String((i * 7919) % n).padStart(5, '0')}`,
      creator: i % 10 === 0 ? `C${i % 3}` : `W${i}`,
      slot: i % 89 === 0 ? null : 1000 + Math.floor(i / 3),
      cls: classes[i % 41 === 0 ? 3 : i % 3]!,
      doc: JSON.stringify({ launch: i % 20 === 7 ? { graduated: true } : i % 2 ? { graduated: false } : null }),
      sha: `${v}${i}`,
    });
    db.transaction(() => {
      for (let i = 0; i < n; i++) put.run(row(i, 'a'));
      for (let i = 0; i < n; i += 7) put.run(row(i, 'b')); // rewritten: later change sequences
    })();
    // launch_count, as the triggers keep it, says UNKNOWN is rare
    const filters = [{ class: 'UNKNOWN' as const }, { class: 'NOTE' as const }, { graduated: true }, { graduated: false }, { creator: 'C1' }, { creator: 'C1', class: 'UNKNOWN' as const }, { class: 'UNKNOWN' as const, graduated: true }, { class: 'NOTE' as const, graduated: true }];
    const where = (f: { class?: string; graduated?: boolean; creator?: string }) =>
      [
        f.class ? `finding_class = '${f.class}'` : '1',
        f.creator ? `creator = '${f.creator}'` : '1',
        f.graduated === undefined ? '1' : f.graduated ? "json_extract(document, '$.launch.graduated') = 1" : "COALESCE(json_extract(document, '$.launch.graduated'), 0) = 0",
      ].join(' AND ');
    const mints = (rows: { mint: string }[]) => rows.map((r) => r.mint);
    for (const f of filters) {
      const newest = mints(db.prepare(`SELECT mint FROM launch WHERE ${where(f)} ORDER BY creation_slot IS NULL, creation_slot DESC, mint DESC`).all() as { mint: string }[]);
      expect(newest.length, JSON.stringify(f)).toBeGreaterThan(0);
      const browsed: string[] = [];
      let after: { order: 'newest'; slot: number | null; mint: string } | null = null;
      for (;;) {
        const page: ListedRecord[] = listLaunches(db, 'newest', f, after, 23);
        browsed.push(...mints(page));
        if (page.length < 23) break;
        after = { order: 'newest', slot: page.at(-1)!.creationSlot, mint: page.at(-1)!.mint };
      }
      expect(browsed, JSON.stringify(f)).toEqual(newest);
      for (const since of [0, 1500])
        for (const seq of [0, 700, 3100]) {
          const want = mints(db.prepare(`SELECT mint FROM launch WHERE ${where(f)} AND change_seq > ? ${since ? 'AND creation_slot >= ?' : ''} ORDER BY change_seq LIMIT 31`).all(...(since ? [seq, since] : [seq])) as { mint: string }[]);
          expect(mints(listLaunches(db, 'changes', { ...f, sinceSlot: since }, seq ? { order: 'changes', seq } : null, 31)), `${JSON.stringify(f)} since ${since} seq ${seq}`).toEqual(want);
        }
    }
    store.close();
  });

  it('choose their index: a creator\'s, graduated launches\', a rare class\'s, the smaller of graduated and a class; never a sort', () => {
    let k = 0;
    // the query plans of the statements one page reads, on a fresh store (statements are prepared once per connection)
    const planOf = (order: 'newest' | 'changes', f: object) => {
      const store = new PublicStore(join(dir, `plan-${k++}.db`));
      const db = store.db;
      const put = db.prepare(
        `INSERT INTO launch (mint, creator, creation_slot, origin, observed_at_launch, finding_class, settled, method_version, document, sha256, updated_at_ms, graduated)
         VALUES (?, ?, ?, 'observed', 1, ?, 0, 'markers-v2', ?, ?, 0, ?)`,
      );
      db.transaction(() => {
        // 10 UNKNOWN, 20 NOTE, the rest NO_MARKERS; 10 graduated
        for (let i = 0; i < 400; i++) put.run(`M${i}`, `W${i % 50}`, 1000 + i, i < 10 ? 'UNKNOWN' : i < 30 ? 'NOTE' : 'NO_MARKERS', JSON.stringify({ launch: { graduated: i % 40 === 0 } }), `s${i}`, i % 40 === 0 ? 1 : 0);
      })();
      const plans: string[] = [];
      const prepare = db.prepare.bind(db);
      db.prepare = ((sql: string) => {
        if (/^SELECT mint, sha256/.test(sql)) plans.push((prepare(`EXPLAIN QUERY PLAN ${sql}`).all({ limit: 1, class: 'x', creator: 'x', seq: 0, sinceSlot: 1, slot: 1, mint: 'x', to: 9 }) as { detail: string }[]).map((r) => r.detail).join('; '));
        return prepare(sql);
      }) as typeof db.prepare;
      listLaunches(db, order, f, null, 5);
      db.prepare = prepare;
      store.close();
      expect(plans.length).toBeGreaterThan(0);
      return plans.join(' | ');
    };
    for (const order of ['newest', 'changes'] as const) {
      const sfx = order === 'newest' ? 'created' : 'change';
      for (const [f, index] of [
        [{ creator: 'W3' }, `launch_creator_${sfx}`],
        [{ creator: 'W3', class: 'UNKNOWN' }, `launch_creator_${sfx}`],
        [{ graduated: true }, `launch_graduated_${sfx}`],
        [{ class: 'UNKNOWN' }, `launch_class_${sfx}`],
        // 10 graduated, 10 UNKNOWN, 20 NOTE: graduated is as small as UNKNOWN and smaller than NOTE
        [{ class: 'NOTE', graduated: true }, `launch_graduated_${sfx}`],
        [{ graduated: true, sinceSlot: 1200 }, `launch_graduated_${sfx}`],
        // from a slot (changes order): a rare class's own range, not the whole block summary's order
        [{ class: 'UNKNOWN', sinceSlot: 1200 }, `launch_class_${sfx}`],
      ] as const) {
        const plan = planOf(order, f);
        expect(plan, `${order} ${JSON.stringify(f)}`).toContain(index);
        expect(plan, `${order} ${JSON.stringify(f)}`).not.toContain('TEMP B-TREE');
      }
      // a common class: whichever index the planner takes, no sort; from a slot, the block summary's order
      expect(planOf(order, { class: 'NO_MARKERS' })).not.toContain('TEMP B-TREE');
    }
    expect(planOf('changes', { class: 'NO_MARKERS', sinceSlot: 1200 })).toContain('INDEX launch_change');
  });
});

describe('the graduated column (public migration 19)', () => {
  it('is filled from the documents of an archive written before it; an older read-only generation filters on its documents', () => {
    const path = join(dir, 'public.db');
    const store = new PublicStore(path);
    const docs = Array.from({ length: 30 }, (_, i) => {
      const d = launchDoc(`Mint${String(i).padStart(3, '0')}`, 1_790_000_000_000 + i * 1000);
      return i % 4 === 0 ? { ...d, launch: { ...d.launch!, graduated: true } } : d;
    });
    for (const d of docs) putDoc(store, d);
    const graduated = docs.filter((d) => d.launch?.graduated).map((d) => d.mint).sort().reverse();
    const list = (s: PublicStore) => listLaunches(s.db, 'newest', { graduated: true }, null, 100).map((r) => r.mint);
    expect(list(store)).toEqual(graduated);
    expect(store.db.prepare('SELECT count(*) FROM launch WHERE graduated = 1').pluck().get()).toBe(graduated.length);
    // back to schema 18
    store.db.exec(`DROP INDEX launch_creator_created; DROP INDEX launch_creator_change; DROP INDEX launch_class_created; DROP INDEX launch_class_change;
      DROP INDEX launch_graduated_created; DROP INDEX launch_graduated_change; CREATE INDEX launch_creator ON launch (creator);
      ALTER TABLE launch DROP COLUMN graduated; DELETE FROM schema_migrations WHERE version = 19`);
    store.close();
    const old = new PublicStore(path, { readonly: true });
    expect(list(old)).toEqual(graduated);
    old.close();
    const migrated = new PublicStore(path);
    expect(migrated.db.prepare('SELECT mint FROM launch WHERE graduated = 1 ORDER BY mint DESC').pluck().all()).toEqual(graduated);
    expect(list(migrated)).toEqual(graduated);
    migrated.close();
  });
});

describe('parseListQuery', () => {
  const q = (s: string) => parseListQuery(new URLSearchParams(s));
  it('browses by default, syncs from a slot, refuses what it does not take', () => {
    expect(q('')).toEqual({ order: 'newest', filter: {}, after: null, limit: 50 });
    expect(q('since=0&limit=100&class=NOTE')).toEqual({ order: 'changes', filter: { class: 'NOTE', sinceSlot: 0 }, after: null, limit: 100 });
    for (const bad of ['limit=101', 'limit=1.5', 'class=clean', 'graduated=1', 'creator=x', 'since=-1', 'what=1', 'limit=1&limit=2']) expect(q(bad), bad).toMatchObject({ code: expect.stringMatching(/^invalid_(query|cursor)$/) });
    // a since neither a slot nor a sync cursor: the message names since, not a cursor the caller never sent
    expect(q('since=99999999999999999999999')).toEqual({ code: 'invalid_cursor', message: expect.stringMatching(/^since takes a slot .*"99999999999999999999999" is neither\. Nothing was looked up\.$/) });
    expect(q(`since=${'9'.repeat(60)}`)).toMatchObject({ message: expect.stringContaining(`"${'9'.repeat(40)}…"`) });
    expect(q('cursor=abc')).toEqual({ code: 'invalid_cursor' });
    // every refusal says once that nothing was looked up (a creator's said it twice)
    for (const bad of ['creator=abc', `creator=${'0'.repeat(40)}`, `creator=${'z'.repeat(44)}`, 'limit=0', 'class=clean']) {
      const m = (q(bad) as { message: string }).message;
      expect(m.match(/nothing was looked up/gi), `${bad}: ${m}`).toHaveLength(1);
    }
  });

  it('a page asked for with a limit gives cursors that keep it (browsing and syncing); a limit sent with the cursor wins', () => {
    const store = new PublicStore(join(dir, 'public.db'));
    for (let i = 0; i < 12; i++) putDoc(store, launchDoc(`Mint${String(i).padStart(40, '1')}`, 1_790_000_000_000 + i * 1000));
    const deps = { publicStore: store, config: { LICENSE_TEXT: 'x', baseUrl: 'https://a.example' } as never };
    const page = (query: ListQuery) => JSON.parse(launchPage(deps, query, 0).toString('utf8')) as { records: unknown[]; next: string | null };
    for (const first of ['limit=3', 'since=0&limit=3']) {
      const p1 = page(q(first) as ListQuery);
      expect(p1.records).toHaveLength(3);
      const next = q(`cursor=${p1.next}`) as ListQuery;
      expect(next.limit).toBe(3);
      expect(page(next).records).toHaveLength(3);
      expect((q(`cursor=${p1.next}&limit=5`) as ListQuery).limit).toBe(5);
    }
    store.close();
  });
});

describe('a page\'s records assembled by SQLite (listedItemsJson)', () => {
  it('are the rows of the ids in their order, each document copied byte for byte, whatever the order read', () => {
    const store = new PublicStore(join(dir, 'public.db'));
    const db = store.db;
    const names = ['🚀🚀 MOON', 'ドージ', 'שלום \u202e', '<script>alert(1)</script>', '"quoted" \\ back', 'plain'];
    for (let i = 0; i < 60; i++) putDoc(store, launchDoc(`M${String(i).padStart(3, '0')}`, 1_700_000_000_000 + i * 1000, { name: names[i % names.length]! }), 1_700_000_100_000);
    const rows = db.prepare('SELECT rowid AS id, mint, sha256, change_seq AS changeSeq, document FROM launch').all() as { id: number; mint: string; sha256: string; changeSeq: number; document: string }[];
    const byId = new Map(rows.map((r) => [r.id, r]));
    // what the page held before: each member written by JSON.stringify, the stored text as the document
    const expected = (ids: number[]) => ids.map((id) => { const r = byId.get(id)!; return `{"mint":${JSON.stringify(r.mint)},"sha256":${JSON.stringify(r.sha256)},"changeSeq":${r.changeSeq},"document":${r.document}}`; }).join(',');
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const orders = [rows.map((r) => r.id), rows.map((r) => r.id).reverse(), [rows[5]!.id], []];
    for (let k = 0; k < 20; k++) orders.push([...rows.map((r) => r.id)].sort(() => rnd() - 0.5).slice(0, 1 + Math.floor(rnd() * 51)));
    for (const ids of orders) {
      const want = expected(ids);
      expect(listedItemsJson(db, ids).toString('utf8')).toBe(want);
      expect(listedItemsJson(db, ids, true).toString('utf8')).toBe(want);
      // the page's text around them, in the same value (an empty page: the two texts alone)
      expect(listedItemsJson(db, ids, false, '{"records":[', '],"é":1}').toString('utf8')).toBe(`{"records":[${want}],"é":1}`);
      expect(listedItemsJson(db, ids, true, '[', ']').toString('utf8')).toBe(`[${want}]`);
      if (ids.length) expect(JSON.parse(`[${want}]`).map((r: { mint: string }) => r.mint)).toEqual(ids.map((id) => byId.get(id)!.mint));
    }
    // a stored document that is not an object's text as it stands: re-serialised, as the page did before
    db.prepare("UPDATE launch SET document = ' {\"a\": [1, 2]} ' WHERE rowid = ?").run(rows[0]!.id);
    expect(listedItemsJson(db, [rows[0]!.id]).toString()).toBe(`{"mint":"${rows[0]!.mint}","sha256":"${rows[0]!.sha256}","changeSeq":${rows[0]!.changeSeq},"document":{"a":[1,2]}}`);
    // a row gone is an error, not a shorter page
    expect(() => listedItemsJson(db, [rows[1]!.id, 999_999])).toThrow(/1 of 2 listed records are no longer held/);
    store.close();
  });
});
