/**
 * The public lists' reads (src/db/lists.ts): each list reads its own index, whatever SQLite's
 * planner would guess without statistics (it took launch_class_change of public migration 19 for
 * the FINDINGS list and sorted every FINDINGS record per page: ~1.3 s a page over 1,000,000
 * records), the newest creation time is one index entry (public migration 21), and the rows are
 * those of the plain queries. A database without the indexes is read by the planner's choice.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { PublicStore } from '../../src/db/public-store.ts';
import { ROW_COLUMNS, listCount, listRows, newestCreationMs, type ListName } from '../../src/db/lists.ts';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'lpa-lists-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const T0 = Date.UTC(2026, 10, 27);

/** 600 launches: every third FINDINGS, every tenth graduated, the last 20 without a creation held; creation times a second apart. */
function archive(path: string): PublicStore {
  const store = new PublicStore(path);
  const put = store.db.prepare(
    `INSERT INTO launch (mint, creator, creation_slot, created_at_ms, graduated_at_ms, origin, observed_at_launch, finding_class, settled, method_version, document, sha256, updated_at_ms, graduated)
     VALUES (?, 'W', ?, ?, ?, 'observed', 1, ?, 0, 'markers-v2', '{}', ?, 0, ?)`,
  );
  store.db.transaction(() => {
    for (let i = 0; i < 600; i++) {
      const held = i < 580;
      // two launches share each slot, so the mint orders them within it
      put.run(`M${String(i).padStart(4, '0')}`, held ? 1000 + Math.floor(i / 2) : null, held ? T0 + i * 1000 : 0, i % 10 === 0 ? T0 + i * 1000 + 500 : null, i % 3 === 0 ? 'FINDINGS' : 'NO_MARKERS', `s${i}`, i % 10 === 0 ? 1 : 0);
    }
  })();
  return store;
}

/** The plain queries the lists answer, for SQLite's own choice of plan. */
const PLAIN: Record<ListName, string> = {
  latest: `SELECT ${ROW_COLUMNS} FROM launch NOT INDEXED WHERE creation_slot IS NOT NULL ORDER BY creation_slot DESC, mint LIMIT ? OFFSET ?`,
  graduated: `SELECT ${ROW_COLUMNS} FROM launch NOT INDEXED WHERE graduated_at_ms >= @from AND graduated_at_ms <= @to ORDER BY graduated_at_ms DESC, mint LIMIT @limit OFFSET @offset`,
  findings: `SELECT ${ROW_COLUMNS} FROM launch NOT INDEXED WHERE finding_class = 'FINDINGS' AND created_at_ms >= @from AND created_at_ms <= @to ORDER BY created_at_ms DESC, mint LIMIT @limit OFFSET @offset`,
};

describe('public lists', () => {
  it('read their own indexes: no scan of the table, no sort of a whole list', () => {
    const store = archive(join(dir, 'a.db'));
    const db = store.db;
    const plans: string[] = [];
    const prepare = db.prepare.bind(db);
    db.prepare = ((sql: string) => {
      if (/FROM launch/.test(sql) && !/sqlite_master/.test(sql)) plans.push(`${sql.replace(/\s+/g, ' ')} → ${(prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...Array(sql.split('?').length - 1).fill(0)) as { detail: string }[]).map((r) => r.detail).join('; ')}`);
      return prepare(sql);
    }) as typeof db.prepare;
    listRows(db, 'latest', { fromMs: 0, toMs: T0 * 2 }, 5);
    db.prepare = prepare;
    const plan = (what: RegExp) => plans.find((p) => what.test(p)) ?? `no statement ${what}`;
    expect(plan(/FINDINGS' AND created_at_ms >= \? AND created_at_ms <= \? ORDER BY/)).toMatch(/USING INDEX launch_findings/);
    expect(plan(/SELECT count\(\*\) FROM \(SELECT 1 FROM launch INDEXED BY launch_findings/)).toMatch(/launch_findings/);
    expect(plan(/ORDER BY creation_slot DESC/)).toMatch(/USING INDEX launch_created\b/);
    expect(plan(/max\(created_at_ms\)/)).toMatch(/launch_created_ms/);
    for (const p of plans) {
      expect(p, p).not.toMatch(/SCAN launch\b/);
      expect(p, p).not.toMatch(/USE TEMP B-TREE FOR ORDER BY/); // a last-term sort (ties of one slot or time) is all
    }
    store.close();
  });

  it('give the rows and counts of the plain queries, page by page, and the newest creation time held', () => {
    const store = archive(join(dir, 'b.db'));
    const db = store.db;
    const window = { fromMs: T0 + 100_000, toMs: T0 + 500_000 };
    for (const list of ['latest', 'graduated', 'findings'] as const) {
      const plain = db.prepare(PLAIN[list]);
      for (const offset of [0, 7, 50, 190]) {
        const want = list === 'latest' ? plain.all(7, offset) : plain.all({ from: window.fromMs, to: window.toMs, limit: 7, offset });
        expect(listRows(db, list, window, 7, offset), `${list} @${offset}`).toEqual(want);
      }
      const all = list === 'latest' ? plain.all(10_000, 0) : plain.all({ from: window.fromMs, to: window.toMs, limit: 10_000, offset: 0 });
      expect(listCount(db, list, window), list).toBe(all.length);
      expect(listCount(db, list, window, 3), list).toBe(3);
    }
    expect(listCount(db, 'findings', window)).toBe(133); // i in 100..500 with i % 3 === 0: 102, 105, …, 498
    expect(newestCreationMs(db)).toBe(T0 + 579_000);
    store.close();
  });

  it('read a database without the indexes (an older generation) by the planner\'s choice', () => {
    const path = join(dir, 'c.db');
    archive(path).close();
    const raw = new Database(path);
    raw.exec('DROP INDEX launch_findings; DROP INDEX launch_created; DROP INDEX launch_created_ms');
    raw.close();
    const old = new Database(path, { readonly: true });
    expect(listRows(old, 'findings', { fromMs: 0, toMs: T0 * 2 }, 3).map((r) => r.mint)).toEqual(['M0579', 'M0576', 'M0573']);
    expect(listRows(old, 'latest', { fromMs: 0, toMs: T0 * 2 }, 3).map((r) => r.mint)).toEqual(['M0578', 'M0579', 'M0576']);
    expect(newestCreationMs(old)).toBe(T0 + 579_000);
    old.close();
  });
});
