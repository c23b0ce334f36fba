import type Database from 'better-sqlite3';

/**
 * Upkeep of the name and symbol search index (`launch_fts`, FTS5, public migrations 9 and 16).
 *
 * FTS5 keeps its index as a set of b-trees ("segments"): each write transaction that changes a
 * name or symbol adds one, and FTS5's automerge folds four of a level into one of the next, so an
 * archive built record by record holds a dozen or more large segments (13 over the bench's
 * 1,000,000 records). A search looks its terms up in every segment and merges their lists of
 * records, newest first: over 1,000,000 records a one-term prefix search took ~145 µs against
 * ~23 µs once the index was one segment (bench/million-archive.ts queries; docs/benchmarks.md).
 * So the collector merges the whole index into one segment when that is worth its writes ({@link worthMerging};
 * collector/publish/search-index.ts),
 * in steps of a bounded number of pages, each step its own short write transaction: FTS5's
 * `merge` command (https://sqlite.org/fts5.html, "The 'merge' Command"). A merge stopped between
 * steps is kept in the index's structure and goes on at the next step, whoever makes it; a search
 * gives the same records at every step.
 */

const statements = new WeakMap<Database.Database, ReturnType<typeof prepare>>();

function prepare(db: Database.Database) {
  return {
    // 'merge' with a negative number of pages starts a merge of every segment; with a positive one it
    // goes on with a merge already started (or merges a level holding `usermerge` segments)
    merge: db.prepare("INSERT INTO launch_fts (launch_fts, rank) VALUES ('merge', ?)"),
    totalChanges: db.prepare('SELECT total_changes()').pluck(),
    pagesBySegment: db.prepare('SELECT count(*) FROM launch_fts_idx GROUP BY segid').pluck(),
  };
}

function prepared(db: Database.Database): ReturnType<typeof prepare> {
  let s = statements.get(db);
  if (!s) statements.set(db, (s = prepare(db)));
  return s;
}

/** How many segments (b-trees) the search index has now; 0 for an empty index. Reads `launch_fts_idx` (a row per leaf page where a term begins: thousands, not records). */
export function searchIndexSegments(db: Database.Database): number {
  return searchIndexShape(db).segments;
}

/** The search index's segments by size, largest first: `pages`, each one's leaf pages where a term begins (FTS5's `%_idx` holds a row for each; a page of one long list of records only has none), a measure of its size. */
export function searchIndexShape(db: Database.Database): { segments: number; pages: number[] } {
  const pages = (prepared(db).pagesBySegment.all() as number[]).sort((a, b) => b - a);
  return { segments: pages.length, pages };
}

/** The share of the largest segment the others must reach before the whole index is merged again. */
export const MERGE_WHEN_REST_REACHES = 1 / 8;
/** Segments beyond which the index is merged again whatever their sizes. */
export const MERGE_ABOVE_SEGMENTS = 24;

/**
 * Whether merging the whole index is worth its writes: more than one segment, and either the
 * segments besides the largest hold {@link MERGE_WHEN_REST_REACHES} of its pages or there are more
 * than {@link MERGE_ABOVE_SEGMENTS}. A merge rewrites every page of the index (over 1,000,000
 * records ~70 MB); the small segments an hour of new records leaves cost a search little (over
 * 1,000,000 records, one merged segment and 20 small ones: ~36 µs for a one-term prefix, one
 * segment ~23, the 13 of a bulk build ~145), so they wait until they are worth it. Pure.
 * @example worthMerging({ segments: 3, pages: [5000, 40, 30] }) // false
 */
export function worthMerging(shape: { segments: number; pages: readonly number[] }): boolean {
  if (shape.segments <= 1) return false;
  if (shape.segments > MERGE_ABOVE_SEGMENTS) return true;
  const [largest = 0, ...rest] = shape.pages;
  return rest.reduce((a, b) => a + b, 0) >= largest * MERGE_WHEN_REST_REACHES;
}

/**
 * One step of merging the search index into one segment: writes about `pages` pages of merged
 * index (FTS5 pages, `pgsz` 4,050 bytes by default) in one write transaction.
 * `start`: begin a merge of every segment (the first step of a run); otherwise go on with the one begun.
 * Returns whether the step did any work (FTS5: `total_changes()` rose by 2 or more); false: nothing
 * was left to merge.
 * Errors: SQLite's (SQLITE_BUSY past the busy timeout when another process writes) are thrown; the
 * step's transaction is then rolled back and the index is as before it.
 */
export function mergeSearchIndexStep(db: Database.Database, pages: number, start: boolean): boolean {
  if (!Number.isInteger(pages) || pages < 1) throw new RangeError(`pages must be a positive integer, got ${pages}`);
  const s = prepared(db);
  return db.transaction(() => {
    const before = s.totalChanges.get() as number;
    s.merge.run(start ? -pages : pages);
    return (s.totalChanges.get() as number) - before >= 2;
  })();
}
