import type Database from 'better-sqlite3';
import type { FindingClass } from '../core/types.ts';
import { schemaHas } from './open.ts';

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

/** A listed record, its document as the stored text. */
export interface ListedRecord {
  mint: string;
  sha256: string;
  document: string;
  creationSlot: number | null;
  changeSeq: number;
}

const COLUMNS = 'mint, sha256, document, creation_slot AS creationSlot, change_seq AS changeSeq';
// a page's keys only (listLaunchKeys): browsing reads them from index launch_created alone, without the table row
const KEY_COLUMNS = { newest: 'rowid AS id, mint, creation_slot AS creationSlot', changes: 'rowid AS id, mint, change_seq AS changeSeq' } as const;

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
 *   only through the blocks of change sequences that may hold a record created at or after it
 *   ({@link blockSlots}: a summary read from index launch_slot_change of public migration 14), so
 *   the first page of a sync from a recent slot does not read the whole archive's older changes.
 */
export function listLaunches(db: Database.Database, order: 'newest' | 'changes', filter: ListFilter, after: ListPosition | null, limit: number): ListedRecord[] {
  return listRows(db, COLUMNS, order, filter, after, limit) as ListedRecord[];
}

/** Where a listed record stands: its rowid and its key in the page's order (`creationSlot` when browsing, `changeSeq` when syncing). */
export interface ListedKey {
  id: number;
  mint: string;
  creationSlot?: number | null;
  changeSeq?: number;
}

/**
 * {@link listLaunches}' records as their keys only, in the same order: what a page's cursor needs
 * and which rows {@link listedItemsJson} copies. Browsing reads them from index launch_created
 * alone (about 25 µs for 51 over 1,000,000 records, where the rows with their documents took ~300).
 */
export function listLaunchKeys(db: Database.Database, order: 'newest' | 'changes', filter: ListFilter, after: ListPosition | null, limit: number): ListedKey[] {
  return listRows(db, KEY_COLUMNS[order], order, filter, after, limit) as ListedKey[];
}

function listRows(db: Database.Database, columns: string, order: 'newest' | 'changes', filter: ListFilter, after: ListPosition | null, limit: number): unknown[] {
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
    // the column of public migration 19; a database before it reads the document
    if (schemaHas(db, 'index', 'launch_graduated_created')) where.push(filter.graduated ? 'graduated = 1' : 'graduated = 0');
    else where.push(filter.graduated ? "json_extract(document, '$.launch.graduated') = 1" : "COALESCE(json_extract(document, '$.launch.graduated'), 0) = 0");
  }
  const select = (w: string[], orderBy: string, index?: string) =>
    statement(db, `SELECT ${columns} FROM launch${index ? ` INDEXED BY ${index}` : ''}${w.length ? ` WHERE ${w.join(' AND ')}` : ''} ORDER BY ${orderBy} LIMIT @limit`);
  const through = filterIndex(db, order, filter);
  if (order === 'changes') {
    params.seq = after?.order === 'changes' ? after.seq : 0;
    const since = filter.sinceSlot !== undefined && filter.sinceSlot !== 0;
    if (since) params.sinceSlot = filter.sinceSlot;
    // a selective filter: its own index, in change order (a since-slot tested on each entry: the index holds the creation slot)
    if (through) return select([...where, 'change_seq > @seq', ...(since ? ['creation_slot >= @sinceSlot'] : [])], 'change_seq ASC', through).all(params);
    if (!since) return select([...where, 'change_seq > @seq'], 'change_seq ASC').all(params);
    // From a slot: the change sequence read in order, but only through the blocks of it that may
    // hold a record created at or after the slot (see blockSlots); the rest is skipped unread.
    const rows: unknown[] = [];
    const w = [...where, 'creation_slot >= @sinceSlot', 'change_seq > @seq', 'change_seq <= @to'];
    for (const run of candidateRuns(db, params.seq as number, params.sinceSlot as number)) {
      rows.push(...(select(w, 'change_seq ASC', 'launch_change').all({ ...params, seq: Math.max(params.seq as number, run.from - 1), to: run.to, limit: limit - rows.length })));
      if (rows.length >= limit) break;
    }
    return rows;
  }
  const pos = after?.order === 'newest' ? after : null;
  const rows: unknown[] = [];
  // (creation_slot, mint) descending with NULL slots last: first the rows with a slot after the cursor
  if (!pos || pos.slot !== null) {
    const w = [...where, 'creation_slot IS NOT NULL'];
    if (pos) {
      w.push('(creation_slot, mint) < (@slot, @mint)');
      params.slot = pos.slot;
      params.mint = pos.mint;
    }
    rows.push(...(select(w, 'creation_slot DESC, mint DESC', through).all(params)));
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
    rows.push(...(select(w, 'mint DESC', through).all(params)));
  }
  return rows;
}

// One record of a page as JSON, members in ListedItem's order (src/server/launches.ts): the stored
// document copied as it is when it is a JSON object's text (always, as putLaunch writes it), else
// re-serialised by SQLite's json().
const ITEM_JSON = `printf('{"mint":%s,"sha256":%s,"changeSeq":%d,"document":%s}', json_quote(mint), json_quote(sha256), change_seq,
  CASE WHEN substr(CAST(document AS BLOB), 1, 1) = X'7B' AND substr(CAST(document AS BLOB), -1, 1) = X'7D' THEN document ELSE json(document) END)`;
// the rows of the ids in a JSON array, in the array's order: joined as they are read (json_each gives its elements in order, and
// the join reads launch by rowid inside that loop), with the element indexes joined alongside to prove that order; ITEMS_ORDERED sorts
// a page's body in one value: its text before the records, the records joined, its text after them (the parameters in that order) — so the
// answer is one copy out of SQLite, not joined again in JavaScript (over 1,000,000 records a page of 50 cost ~20 µs less)
const ITEMS = `SELECT CAST(? || group_concat(${ITEM_JSON}, ',') || ? AS BLOB) AS json, group_concat(j.key) AS keys, count(*) AS n FROM json_each(?) j JOIN launch ON launch.rowid = j.value`;
const ITEMS_ORDERED = `SELECT CAST(? || group_concat(${ITEM_JSON}, ',' ORDER BY j.key) || ? AS BLOB) AS json, NULL AS keys, count(*) AS n FROM json_each(?) j JOIN launch ON launch.rowid = j.value`;

/**
 * The listed records of `ids` (rowids from {@link listLaunchKeys}, in the page's order) as the UTF-8
 * bytes of their JSON objects, `{"mint","sha256","changeSeq","document"}`, joined by commas — the
 * inside of a page's `records` array — between `before` and `after` (the rest of the page's JSON),
 * assembled by SQLite in one value: each document is copied as its stored bytes, never decoded or
 * parsed (over 1,000,000 records, 50 of them in ~150 µs where one Buffer per row, joined in
 * JavaScript, took ~400). Read it in the transaction that read the ids. Throws when a row is gone
 * (it cannot be, inside that transaction). `sorted`: join through SQLite's sort by position
 * instead of in reading order (what happens when the reading order is not the ids'; tests).
 * @example listedItemsJson(db, [7, 3]).toString() // '{"mint":"…","sha256":"…","changeSeq":12,"document":{…}},{…}'
 * @example listedItemsJson(db, [7], false, '[', ']').toString() // '[{"mint":"…",…}]'
 */
export function listedItemsJson(db: Database.Database, ids: readonly number[], sorted = false, before = '', after = ''): Buffer {
  if (ids.length === 0) return Buffer.from(before + after, 'utf8');
  const list = JSON.stringify(ids);
  let row = statement(db, sorted ? ITEMS_ORDERED : ITEMS).get(before, after, list) as { json: Buffer; keys: string | null; n: number };
  // the order is SQLite's reading order, not a promise of its documentation: checked, and sorted when it differs
  if (!sorted && row.keys !== expectedKeys(ids.length)) row = statement(db, ITEMS_ORDERED).get(before, after, list) as typeof row;
  if (row.n !== ids.length) throw new Error(`listedItemsJson: ${ids.length - row.n} of ${ids.length} listed records are no longer held`);
  return row.json;
}

const keyLists: string[] = [''];
/** "0,1,…,n-1", as group_concat of json_each's keys gives it in order. */
function expectedKeys(n: number): string {
  while (keyLists.length <= n) keyLists.push(keyLists.length === 1 ? '0' : `${keyLists[keyLists.length - 1]},${keyLists.length - 1}`);
  return keyLists[n]!;
}

/** A class held by fewer than this share of the records is read through its own index (a common one is met soon enough in the unfiltered order). */
const RARE_CLASS_SHARE = 1 / 8;

/**
 * The index a filtered page reads (public migration 19), or undefined: SQLite's choice. A creator's
 * launches, graduated launches, and a class few records have are each a range of their own index
 * in either order, so a page costs its rows whatever the archive holds; with graduated and a class
 * together, the smaller of the two. Named because SQLite's planner, without statistics, took the
 * class index for class and graduated together (however many records the class has), and a sync
 * from a slot reads the block summary's order (launch_change), in which a rare class is a scan of
 * the whole archive (~0.9 s over 1,000,000 records). A common class is left to the planner (its
 * class index, in order) or, from a slot, to the block summary. A database without the indexes (a
 * generation of an older schema, opened read-only) reads as before. `graduated=false` (most
 * launches) names no index.
 */
function filterIndex(db: Database.Database, order: 'newest' | 'changes', filter: ListFilter): string | undefined {
  const suffix = order === 'newest' ? 'created' : 'change';
  const pick = (name: string) => (schemaHas(db, 'index', name) ? name : undefined);
  if (filter.creator !== undefined) return pick(`launch_creator_${suffix}`);
  // graduated and a class together: the smaller of the two ranges
  const cls = filter.class !== undefined ? classCount(db, filter.class) : null;
  const graduated = filter.graduated === true && schemaHas(db, 'index', `launch_graduated_${suffix}`) ? graduatedCount(db) : null;
  if (graduated !== null && (cls === null || graduated <= cls.n)) return `launch_graduated_${suffix}`;
  if (cls !== null && cls.n < cls.total * RARE_CLASS_SHARE) return pick(`launch_class_${suffix}`);
  return undefined;
}

/** The records in `cls` and in all, from launch_count (public migration 17; without it: 0 of 1, so a class index is used when there is one). */
function classCount(db: Database.Database, cls: FindingClass): { n: number; total: number } {
  if (!schemaHas(db, 'table', 'launch_count')) return { n: 0, total: 1 };
  const rows = statement(db, 'SELECT finding_class AS c, sum(n) AS n FROM launch_count GROUP BY finding_class').all() as { c: string; n: number }[];
  return { n: rows.find((r) => r.c === cls)?.n ?? 0, total: rows.reduce((t, r) => t + r.n, 0) };
}

/** How long a connection's count of graduated launches is used before it counts again (ms): it only chooses an index. */
const GRADUATED_COUNT_MS = 60_000;
const graduatedCounts = new WeakMap<Database.Database, { n: number; atMs: number }>();
/** Graduated launches, counted over index launch_graduated_change (about 1 in 100 launches), at most once a {@link GRADUATED_COUNT_MS}. */
function graduatedCount(db: Database.Database): number {
  const now = Date.now();
  let c = graduatedCounts.get(db);
  if (!c || now - c.atMs > GRADUATED_COUNT_MS) {
    c = { n: statement(db, 'SELECT count(*) FROM launch INDEXED BY launch_graduated_change WHERE graduated = 1').pluck().get() as number, atMs: now };
    graduatedCounts.set(db, c);
  }
  return c.n;
}

/**
 * Change sequences per block of the summary ({@link blockSlots}). A sync from a slot reads from the
 * start of the first block that may hold it, so up to this many rows before it are read and skipped
 * (each a table read, about 1.3 µs): 256 rather than 4,096 cut a `since=<slot>` page over 1,000,000
 * records by about 1.5 ms, and 32 rather than 256 by about 150 µs more (half a block skipped on
 * average); the summary is then 31,250 blocks, 250 KB.
 */
export const BLOCK_SEQS = 32;
/** Blocks per group of the summary: a group whose records were all created before the slot is passed over at once. */
const GROUP_BLOCKS = 64;
/** The most blocks one range query of a sync reads: the page is usually full long before, and the rest need not be scanned for its end. */
const RUN_BLOCKS = 64;
/** How many change sequences past its last summary before a connection computes it again (about 1 s over 1,000,000 records). */
const SUMMARY_REFRESH_SEQS = 262_144;

interface BlockSummary {
  /** the highest change_seq the summary covers */
  upTo: number;
  /** per block (change_seq / BLOCK_SEQS, floored) up to upTo's, the highest creation slot of its records; -1: none with a slot */
  maxSlot: Float64Array;
  /** per group of {@link GROUP_BLOCKS} blocks, the highest of their maxSlot */
  groupMax: Float64Array;
}
const summaries = new WeakMap<Database.Database, BlockSummary>();

/**
 * The largest creation slot in each block of {@link BLOCK_SEQS} change sequences, read once per
 * connection from index launch_slot_change alone (about 1 s for 1,000,000 records on a loaded
 * machine) and again when the sequence has grown {@link SUMMARY_REFRESH_SEQS} past it. It stays a
 * safe bound as records are written: a change_seq is never given twice and only grows, so a
 * block's records can only leave it (a rewritten record takes a new, higher change_seq, and its
 * creation slot never changes without its document, which gives it one): the slot it holds may be
 * too high, never too low. Blocks past `upTo` are unknown and always read.
 */
function blockSlots(db: Database.Database): BlockSummary {
  const last = lastChangeSeq(db);
  let s = summaries.get(db);
  if (!s || last > s.upTo + SUMMARY_REFRESH_SEQS || last < s.upTo) {
    const rows = statement(
      db,
      `SELECT change_seq / ${BLOCK_SEQS} AS block, max(creation_slot) AS slot FROM launch INDEXED BY launch_slot_change WHERE creation_slot IS NOT NULL GROUP BY block`,
    ).raw().all() as [number, number][];
    const maxSlot = new Float64Array(Math.floor(last / BLOCK_SEQS) + 1).fill(-1);
    for (const [block, slot] of rows) if (block < maxSlot.length) maxSlot[block] = slot;
    const groupMax = new Float64Array(Math.ceil(maxSlot.length / GROUP_BLOCKS)).fill(-1);
    for (let b = 0; b < maxSlot.length; b++) groupMax[Math.floor(b / GROUP_BLOCKS)] = Math.max(groupMax[Math.floor(b / GROUP_BLOCKS)]!, maxSlot[b]!);
    s = { upTo: last, maxSlot, groupMax };
    summaries.set(db, s);
  }
  return s;
}

/**
 * The ranges [from, to] of change_seq after `afterSeq` that may hold a record created at or after
 * `sinceSlot`, in order, none longer than {@link RUN_BLOCKS} blocks; the last one from past the
 * summary (and past every range before it) to the end.
 */
function* candidateRuns(db: Database.Database, afterSeq: number, sinceSlot: number): Generator<{ from: number; to: number }> {
  const s = blockSlots(db);
  const blocks = s.maxSlot.length;
  let b = Math.floor((afterSeq + 1) / BLOCK_SEQS);
  let covered = 0; // the first change_seq no range given covers
  while (b < blocks) {
    // the next block that may: whole groups passed over at once
    while (b < blocks && s.maxSlot[b]! < sinceSlot) b += b % GROUP_BLOCKS === 0 && s.groupMax[b / GROUP_BLOCKS]! < sinceSlot ? GROUP_BLOCKS : 1;
    if (b >= blocks) break;
    const start = b;
    while (b < blocks && s.maxSlot[b]! >= sinceSlot && b - start < RUN_BLOCKS) b++;
    covered = b * BLOCK_SEQS;
    yield { from: start * BLOCK_SEQS, to: covered - 1 };
  }
  // whatever was written after the summary
  yield { from: Math.max(s.upTo + 1, covered), to: Number.MAX_SAFE_INTEGER };
}

/** The highest change_seq held (0 for an empty archive): where a sync that has seen everything stands. */
export function lastChangeSeq(db: Database.Database): number {
  return (statement(db, 'SELECT COALESCE(MAX(change_seq), 0) AS n FROM launch').get() as { n: number }).n;
}
