import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PublicStore } from '../../src/db/public-store.ts';
import { searchByText } from '../../src/db/search.ts';
import { MERGE_ABOVE_SEGMENTS, mergeSearchIndexStep, searchIndexSegments, searchIndexShape, worthMerging } from '../../src/db/search-index.ts';
import { SEARCH_INDEX_MERGED_META, mergeSearchIndex } from '../../collector/publish/search-index.ts';
import { launchDoc, putDoc, randomAddress } from '../helpers/launch-doc.ts';

/**
 * The search index's merge into one segment (src/db/search-index.ts, collector/publish/search-index.ts):
 * a store whose index is merged, with records written between its steps, answers every search as a
 * store with the same records whose index never was.
 */

const WORDS = ['pepe', 'peppa', 'moon', 'moonshot', 'cat', 'catwif', 'dog', 'frog', 'inu', 'baby', 'king', 'sol', 'based', 'chad', 'ドージ', 'ñandú'];
const T0 = Date.parse('2026-11-25T12:00:00Z');

/** A deterministic name of 1-3 words and a symbol for record `i`. */
function naming(i: number): { name: string; symbol: string } {
  const h = Math.imul(i + 1, 2654435761) >>> 0;
  const w = (k: number) => WORDS[(h >>> (k * 8)) % WORDS.length]!;
  const words = [w(0), w(1), w(2)].slice(0, 1 + (i % 3));
  return { name: words.map((x, k) => (k === 0 ? x[0]!.toUpperCase() + x.slice(1) : x)).join(' '), symbol: (w(1).slice(0, 4) + (i % 10)).toUpperCase() };
}

const QUERIES: string[][] = [['p'], ['pe'], ['pep'], ['pepe'], ['moon'], ['moonsh'], ['cat'], ['cat', 'moon'], ['frog', 'king'], ['ドー'], ['nandu'], ['chad', 'ba'], ['PEPE1'], ['zzz']];

describe('merging the search index', () => {
  let dir: string;
  let merged: PublicStore;
  let control: PublicStore;
  let n = 0;
  const mints: string[] = [];

  /** Write the same new record to both stores, each write its own transaction (a segment each). */
  const add = (count: number) => {
    for (let k = 0; k < count; k++, n++) {
      const mint = randomAddress();
      mints.push(mint);
      const doc = launchDoc(mint, T0 + n * 1000, naming(n));
      putDoc(merged, doc);
      putDoc(control, doc);
    }
  };
  /** A record renamed in both (the FTS update trigger: a delete and an insert). */
  const rename = (i: number, name: string) => {
    const doc = launchDoc(mints[i]!, T0 + i * 1000, { name, symbol: 'RENAMED' });
    putDoc(merged, doc);
    putDoc(control, doc);
  };
  const answers = (store: PublicStore) => QUERIES.map((q) => searchByText(store.db, q, 50).map((r) => r.mint));

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lpa-search-index-'));
    merged = new PublicStore(join(dir, 'merged.db'));
    control = new PublicStore(join(dir, 'control.db'));
    // FTS5's automerge off (a setting kept in the index): every write transaction leaves a segment of
    // its own, as a large archive's index holds many (over 1,000,000 records written in batches: 13)
    for (const s of [merged, control]) s.db.exec("INSERT INTO launch_fts (launch_fts, rank) VALUES ('automerge', 0)");
    n = 0;
    mints.length = 0;
    add(300);
  });
  afterEach(() => {
    merged.close();
    control.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('leaves one segment and the same answers, newest first, as an index never merged', async () => {
    const before = searchIndexSegments(merged.db);
    expect(before).toBeGreaterThan(10); // a segment per write transaction, up to FTS5's crisismerge (16)
    expect(answers(merged)).toEqual(answers(control));
    expect(answers(merged).filter((a) => a.length > 0).length).toBeGreaterThanOrEqual(QUERIES.length - 1); // the queries find records

    const m = await mergeSearchIndex(merged, () => T0, { stepPages: 1 });
    expect(m).toMatchObject({ segmentsBefore: before, segmentsAfter: 1, finished: true });
    expect(m.steps).toBeGreaterThan(2); // one page a step: many steps
    expect(searchIndexSegments(merged.db)).toBe(1);
    expect(searchIndexSegments(control.db)).toBe(before);
    expect(answers(merged)).toEqual(answers(control));
    expect(() => merged.db.exec("INSERT INTO launch_fts (launch_fts) VALUES ('integrity-check')")).not.toThrow();
    expect(merged.getMeta(SEARCH_INDEX_MERGED_META)).toBe(String(T0));

    // nothing left: the next run takes no step and records its time
    const again = await mergeSearchIndex(merged, () => T0 + 1);
    expect(again).toEqual({ segmentsBefore: 1, segmentsAfter: 1, steps: 0, finished: true });
    expect(merged.getMeta(SEARCH_INDEX_MERGED_META)).toBe(String(T0 + 1));
    expect(mergeSearchIndexStep(merged.db, 16, true)).toBe(false);
  });

  it('keeps every answer right with records written and renamed between its steps', async () => {
    let steps = 0;
    let worked = true;
    while (worked) {
      worked = mergeSearchIndexStep(merged.db, 1, steps === 0);
      steps++;
      add(1);
      if (steps % 2 === 1) rename(steps * 3, `Renamed moon ${steps}`);
      expect(answers(merged)).toEqual(answers(control));
      if (steps > 10_000) throw new Error('the merge did not end');
    }
    expect(steps).toBeGreaterThan(3);
    expect(answers(merged)).toEqual(answers(control));
    expect(searchByText(merged.db, ['renamed'], 50).length).toBeGreaterThan(0);
    expect(() => merged.db.exec("INSERT INTO launch_fts (launch_fts) VALUES ('integrity-check')")).not.toThrow();
    expect(searchIndexSegments(merged.db)).toBeLessThan(searchIndexSegments(control.db));
  });

  it('stops between steps when aborted, and the next run finishes the merge begun', async () => {
    const stop = new AbortController();
    stop.abort();
    const stopped = await mergeSearchIndex(merged, () => T0, { signal: stop.signal });
    expect(stopped).toMatchObject({ steps: 0, finished: false });
    expect(merged.getMeta(SEARCH_INDEX_MERGED_META)).toBeUndefined();

    // a merge begun and left after two steps (as a stop between steps leaves it)
    expect(mergeSearchIndexStep(merged.db, 1, true)).toBe(true);
    expect(mergeSearchIndexStep(merged.db, 1, false)).toBe(true);
    expect(answers(merged)).toEqual(answers(control));
    const rest = await mergeSearchIndex(merged, () => T0);
    expect(rest.finished).toBe(true);
    expect(searchIndexSegments(merged.db)).toBe(1);
    expect(answers(merged)).toEqual(answers(control));
  });

  it('leaves the few small segments written since a merge until they are worth one', async () => {
    // small FTS5 pages (a setting kept in the index): the 300 records' merged segment spans many, as a large archive's does
    merged.db.exec("INSERT INTO launch_fts (launch_fts, rank) VALUES ('pgsz', 64)");
    await mergeSearchIndex(merged, () => T0);
    const largest = searchIndexShape(merged.db).pages[0]!;
    // records written one by one: a small segment each, merged again only once they hold an eighth of
    // the largest's pages (or there are more than MERGE_ABOVE_SEGMENTS)
    let waited = 0;
    for (;;) {
      add(1);
      const shape = searchIndexShape(merged.db);
      if (worthMerging(shape)) break;
      waited++;
      const m = await mergeSearchIndex(merged, () => T0 + waited);
      expect(m).toEqual({ segmentsBefore: shape.segments, segmentsAfter: shape.segments, steps: 0, finished: true });
      expect(merged.getMeta(SEARCH_INDEX_MERGED_META)).toBe(String(T0 + waited)); // looked at: the interval starts again
      if (waited > 100) throw new Error('never worth a merge');
    }
    expect(waited).toBeGreaterThan(0);
    const shape = searchIndexShape(merged.db);
    expect(shape.pages[0]).toBe(largest);
    expect(answers(merged)).toEqual(answers(control));
    const m = await mergeSearchIndex(merged, () => T0);
    expect(m).toMatchObject({ segmentsBefore: shape.segments, segmentsAfter: 1, finished: true });
    expect(answers(merged)).toEqual(answers(control));
  });

  it('weighs a merge by the segments besides the largest, and by their count', () => {
    expect(worthMerging({ segments: 0, pages: [] })).toBe(false);
    expect(worthMerging({ segments: 1, pages: [5000] })).toBe(false);
    expect(worthMerging({ segments: 3, pages: [5000, 400, 200] })).toBe(false); // 600 < 625
    expect(worthMerging({ segments: 3, pages: [5000, 425, 200] })).toBe(true); // 625: an eighth
    expect(worthMerging({ segments: 13, pages: [2233, 2228, 1096, 1091, 1089, 653, 351, 350, 349, 348, 100, 99, 24] })).toBe(true); // a bulk build's
    const many = Array.from({ length: MERGE_ABOVE_SEGMENTS + 1 }, (_, i) => (i === 0 ? 100_000 : 1));
    expect(worthMerging({ segments: many.length, pages: many })).toBe(true);
    const fewer = many.slice(0, MERGE_ABOVE_SEGMENTS);
    expect(worthMerging({ segments: fewer.length, pages: fewer })).toBe(false);
  });

  it('refuses a step of no pages', () => {
    expect(() => mergeSearchIndexStep(merged.db, 0, true)).toThrow(RangeError);
  });
});
