import type Database from 'better-sqlite3';

/**
 * The reads of the creation feed (`GET /api/v1/stream`, src/server/feed-hub.ts) from public.db:
 * records in `change_seq` order (public-schema migration 10: a number that grows with every write
 * that changes a record, kept by triggers for every writer) and whether a version is the record's
 * first write (`first_change_seq`, migration 13). Only the current version of a record is held, so
 * a record written twice between two reads comes once, at its latest version.
 */

/** One record version as the feed sends it. `document` is the canonical JSON text as stored. */
export interface FeedRow {
  /** `launch.change_seq`: the event id. */
  seq: number;
  mint: string;
  /** sha256 (hex) of `document`. */
  sha256: string;
  /** `finding.class` of the document (column `finding_class`). */
  findingClass: string;
  /** false when this version is the record's first write; true for a later version. */
  changed: boolean;
  document: string;
}

const statements = new WeakMap<Database.Database, { after: Database.Statement; max: Database.Statement }>();

function prepared(db: Database.Database) {
  let s = statements.get(db);
  if (!s) {
    s = {
      after: db.prepare(
        `SELECT change_seq AS seq, mint, sha256, finding_class AS findingClass, change_seq <> first_change_seq AS changed, document
         FROM launch WHERE change_seq > ? ORDER BY change_seq LIMIT ?`,
      ),
      max: db.prepare('SELECT COALESCE(MAX(change_seq), 0) FROM launch').pluck(),
    };
    statements.set(db, s);
  }
  return s;
}

/**
 * Record versions with `change_seq` greater than `afterSeq`, ascending, at most `limit` (≥ 1).
 * Uses the unique index on change_seq (one range scan).
 */
export function feedRowsAfter(db: Database.Database, afterSeq: number, limit: number): FeedRow[] {
  const rows = prepared(db).after.all(afterSeq, limit) as (Omit<FeedRow, 'changed'> & { changed: number })[];
  return rows.map((r) => ({ ...r, changed: r.changed === 1 }));
}

/** The highest change_seq held (0 for an empty archive): where a feed that has seen everything stands. */
export function latestFeedSeq(db: Database.Database): number {
  return prepared(db).max.get() as number;
}
