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
 * So the collector merges the whole index into one segment now and then (collector/publish/search-index.ts),
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
    segments: db.prepare('SELECT count(DISTINCT segid) FROM launch_fts_idx').pluck(),
  };
}

function prepared(db: Database.Database): ReturnType<typeof prepare> {
  let s = statements.get(db);
  if (!s) statements.set(db, (s = prepare(db)));
  return s;
}

/** How many segments (b-trees) the search index has now; 0 for an empty index. Reads `launch_fts_idx` (one row per segment's leaf page range: thousands, not records). */
export function searchIndexSegments(db: Database.Database): number {
  return prepared(db).segments.get() as number;
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
