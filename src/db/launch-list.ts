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

/** Changes read in order before a sync from a slot turns to the slot range. */
export const SYNC_SCAN = 500;

const COLUMNS = 'mint, sha256, document, creation_slot AS creationSlot, change_seq AS changeSeq';

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
 * fixed fragments: no value is ever spliced into the text. Each page is an index range read in
 * order (EXPLAIN QUERY PLAN: no temporary B-tree for the ORDER BY):
 * - `newest`: the records with a creation slot from index launch_created (creation_slot, mint)
 *   backwards, after the cursor by the row value (creation_slot, mint); then, when the page is not
 *   full, the records without one (`creation_slot IS NULL`, the same index, mint descending);
 * - `changes`: index launch_change (change_seq) forwards from the cursor; from a slot (`sinceSlot`),
 *   the next {@link SYNC_SCAN} changes of that index, then the rest of the page from index
 *   launch_slot_change (public migration 13) after them: a page costs at most those index reads
 *   plus the slot range's index entries (about 0.1-0.3 s for half of a 1,000,000-record archive,
 *   when the range's records are not among the next changes: the first page of a sync from an old slot).
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
  const select = (w: string[], orderBy: string, index?: string) =>
    statement(db, `SELECT ${COLUMNS} FROM launch${index ? ` INDEXED BY ${index}` : ''}${w.length ? ` WHERE ${w.join(' AND ')}` : ''} ORDER BY ${orderBy} LIMIT @limit`);
  if (order === 'changes') {
    params.seq = after?.order === 'changes' ? after.seq : 0;
    if (filter.sinceSlot === undefined || filter.sinceSlot === 0) return select([...where, 'change_seq > @seq'], 'change_seq ASC').all(params) as ListedRecord[];
    params.sinceSlot = filter.sinceSlot;
    // From a slot: first the next SYNC_SCAN changes in order (a sync under way finds its page there),
    // then, for what is missing, the slot range from launch_slot_change (creation_slot, change_seq),
    // read from the index alone, after the last change scanned. The two parts never overlap.
    const bound = statement(db, 'SELECT change_seq FROM launch WHERE change_seq > ? ORDER BY change_seq LIMIT 1 OFFSET ?').pluck().get(params.seq, SYNC_SCAN - 1) as number | undefined;
    const w = [...where, 'creation_slot >= @sinceSlot', 'change_seq > @seq'];
    const near = (bound === undefined ? select(w, 'change_seq ASC', 'launch_change') : select([...w, 'change_seq <= @bound'], 'change_seq ASC', 'launch_change')).all({ ...params, bound }) as ListedRecord[];
    if (near.length >= limit || bound === undefined) return near;
    const far = select([...where, 'creation_slot >= @sinceSlot', 'change_seq > @bound'], 'change_seq ASC', 'launch_slot_change').all({ ...params, bound, limit: limit - near.length }) as ListedRecord[];
    return [...near, ...far];
  }
  const pos = after?.order === 'newest' ? after : null;
  const rows: ListedRecord[] = [];
  // (creation_slot, mint) descending with NULL slots last: first the rows with a slot after the cursor
  if (!pos || pos.slot !== null) {
    const w = [...where, 'creation_slot IS NOT NULL'];
    if (pos) {
      w.push('(creation_slot, mint) < (@slot, @mint)');
      params.slot = pos.slot;
      params.mint = pos.mint;
    }
    rows.push(...(select(w, 'creation_slot DESC, mint DESC').all(params) as ListedRecord[]));
  }
  if (rows.length < limit) {
    const w = [...where, 'creation_slot IS NULL'];
    if (pos?.slot === null) {
      w.push('mint < @mint');
      params.mint = pos.mint;
    }
    delete params.slot;
    if (!w.includes('mint < @mint')) delete params.mint;
    params.limit = limit - rows.length;
    rows.push(...(select(w, 'mint DESC').all(params) as ListedRecord[]));
  }
  return rows;
}

/** The highest change_seq held (0 for an empty archive): where a sync that has seen everything stands. */
export function lastChangeSeq(db: Database.Database): number {
  return (statement(db, 'SELECT COALESCE(MAX(change_seq), 0) AS n FROM launch').get() as { n: number }).n;
}
