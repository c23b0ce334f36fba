import type Database from 'better-sqlite3';
import type { FindingClass } from '../core/types.ts';

/**
 * Pages of launch records for `GET /api/v1/launches` (the server's list and sync): keyset pages
 * over the public database, so a page costs one index range, whatever the offset.
 *
 * - `newest` (browsing): creation slot descending, then mint descending; records without a known
 *   creation slot last. Inserting records never moves one already listed.
 * - `changes` (syncing a mirror): `change_seq` ascending (public-schema migration 10: it grows with
 *   every write that changes a record), so a record changed after it was listed comes again later.
 */

export interface ListFilter {
  class?: FindingClass;
  graduated?: boolean;
  creator?: string;
  /** changes order only: records created at or after this slot (0: every record, also those without a known creation slot) */
  sinceSlot?: number;
}

/** Where a page starts: after this key (exclusive). */
export type ListPosition = { order: 'newest'; slot: number | null; mint: string } | { order: 'changes'; seq: number };

export interface ListedRecord {
  mint: string;
  sha256: string;
  document: string;
  creationSlot: number | null;
  changeSeq: number;
}

const cache = new WeakMap<Database.Database, Map<string, Database.Statement>>();

function statement(db: Database.Database, sql: string): Database.Statement {
  let m = cache.get(db);
  if (!m) cache.set(db, (m = new Map()));
  let s = m.get(sql);
  if (!s) m.set(sql, (s = db.prepare(sql)));
  return s;
}

/**
 * Up to `limit` records in `order` after `after` (null: from the start), filtered. Pure SQL over
 * fixed fragments: no value is ever spliced into the text.
 */
export function listLaunches(db: Database.Database, order: 'newest' | 'changes', filter: ListFilter, after: ListPosition | null, limit: number): ListedRecord[] {
  const where: string[] = [];
  const params: Record<string, unknown> = { limit };
  if (filter.class !== undefined) {
    where.push('finding_class = @class');
    params.class = filter.class;
  }
  if (filter.creator !== undefined) {
    where.push('creator = @creator');
    params.creator = filter.creator;
  }
  if (filter.graduated !== undefined) {
    where.push(filter.graduated ? "json_extract(document, '$.launch.graduated') = 1" : "COALESCE(json_extract(document, '$.launch.graduated'), 0) = 0");
  }
  let orderBy: string;
  if (order === 'changes') {
    if (filter.sinceSlot !== undefined && filter.sinceSlot > 0) {
      where.push('creation_slot >= @sinceSlot');
      params.sinceSlot = filter.sinceSlot;
    }
    if (after?.order === 'changes') {
      where.push('change_seq > @seq');
      params.seq = after.seq;
    }
    orderBy = 'change_seq ASC';
  } else {
    if (after?.order === 'newest') {
      // (creation_slot, mint) descending with NULL slots last: the rows after (slot, mint)
      if (after.slot === null) where.push('creation_slot IS NULL AND mint < @mint');
      else {
        where.push('(creation_slot < @slot OR (creation_slot = @slot AND mint < @mint) OR creation_slot IS NULL)');
        params.slot = after.slot;
      }
      params.mint = after.mint;
    }
    orderBy = 'creation_slot IS NULL, creation_slot DESC, mint DESC';
  }
  const sql = `SELECT mint, sha256, document, creation_slot AS creationSlot, change_seq AS changeSeq FROM launch${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ${orderBy} LIMIT @limit`;
  return statement(db, sql).all(params) as ListedRecord[];
}

/** The highest change_seq held (0 for an empty archive): where a sync that has seen everything stands. */
export function lastChangeSeq(db: Database.Database): number {
  return (statement(db, 'SELECT COALESCE(MAX(change_seq), 0) AS n FROM launch').get() as { n: number }).n;
}
