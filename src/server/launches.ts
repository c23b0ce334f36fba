import { z } from 'zod';
import { instant } from '../core/canonical.ts';
import type { FindingClass, Instant, LaunchDocument } from '../core/types.ts';
import type Database from 'better-sqlite3';
import { lastChangeSeq, listedItemsJson, listLaunchKeys, type ListedKey, type ListFilter, type ListPosition } from '../db/launch-list.ts';
import type { Deps } from './deps.ts';
import { errorResponse, type ErrorCode } from './errors.ts';
import { CACHE_NONE, addressProblem, jsonPartsResponse, licenseOf } from './http.ts';
import { ListPageMemo } from './list-page-memo.ts';
import { admitKeyedRequest, rateLimitHeaders } from './quota.ts';

/**
 * `GET /api/v1/launches` (key): list the records held, or sync a mirror of them (docs/api.md
 * "Listing and syncing"). One page counts one request against the daily quota.
 *
 * - Browsing (no `since`): newest launch first (creation slot, then mint, descending); `next` is the
 *   cursor of the following page, null after the last.
 * - Syncing (`since=<slot>`, then `cursor=<next>`): records in the order they were written or last
 *   changed (change sequence ascending); `next` is always given — a mirror keeps it and asks again
 *   later, and every record written or changed since comes then, a changed one again.
 * Cursors are opaque, carry the filters they were issued with, and stay valid while records are
 * inserted or changed.
 */

/** Records per page unless `limit` says otherwise. */
export const LIST_DEFAULT_LIMIT = 50;
/** The largest `limit`. */
export const LIST_MAX_LIMIT = 100;

const PARAMS = new Set(['class', 'graduated', 'creator', 'since', 'cursor', 'limit']);
const CLASSES: FindingClass[] = ['FINDINGS', 'NOTE', 'NO_MARKERS', 'UNKNOWN'];

/** What a cursor holds (base64url of this JSON): its order, its position, the filters it was issued with. */
const Cursor = z.object({
  v: z.literal(1),
  o: z.enum(['n', 'c']),
  s: z.number().int().min(0).nullable().optional(),
  m: z.string().max(44).optional(),
  q: z.number().int().min(0).optional(),
  /** the page size the first page asked for, when not the default: later pages keep it */
  l: z.number().int().min(1).max(LIST_MAX_LIMIT).optional(),
  f: z.object({ class: z.enum(CLASSES as [FindingClass, ...FindingClass[]]).optional(), graduated: z.boolean().optional(), creator: z.string().max(44).optional(), sinceSlot: z.number().int().min(0).optional() }),
});
type CursorData = z.infer<typeof Cursor>;

export interface ListQuery {
  order: 'newest' | 'changes';
  filter: ListFilter;
  after: ListPosition | null;
  limit: number;
}

type Refusal = { code: ErrorCode; message?: string };

/** Encode a cursor (opaque to clients). */
export function encodeCursor(c: CursorData): string {
  return Buffer.from(JSON.stringify(c)).toString('base64url');
}

function decodeCursor(text: string): CursorData | null {
  if (!/^[A-Za-z0-9_-]{1,512}$/.test(text)) return null;
  try {
    const parsed = Cursor.safeParse(JSON.parse(Buffer.from(text, 'base64url').toString('utf8')));
    if (!parsed.success) return null;
    const c = parsed.data;
    if (c.o === 'n' ? c.m === undefined || c.s === undefined : c.q === undefined) return null;
    return c;
  } catch {
    return null;
  }
}

const bad = (message: string): Refusal => ({ code: 'invalid_query', message: `${message} Nothing was looked up.` });

/**
 * The list query of a URL's search parameters, or the refusal to answer (400 `invalid_query`
 * naming the parameter, 400 `invalid_cursor`). Pure.
 * @example parseListQuery(new URLSearchParams('class=NOTE&limit=10')) // {order: 'newest', filter: {class: 'NOTE'}, after: null, limit: 10}
 */
export function parseListQuery(search: URLSearchParams): ListQuery | Refusal {
  for (const name of search.keys()) {
    if (!PARAMS.has(name)) return bad(`Unknown query parameter "${name}": this endpoint takes class, graduated, creator, since, cursor and limit.`);
    if (search.getAll(name).length > 1) return bad(`The query parameter "${name}" is given more than once.`);
  }
  const filter: ListFilter = {};
  const cls = search.get('class');
  if (cls !== null) {
    if (!CLASSES.includes(cls as FindingClass)) return bad(`class must be one of ${CLASSES.join(', ')} (it is "${cls}").`);
    filter.class = cls as FindingClass;
  }
  const grad = search.get('graduated');
  if (grad !== null) {
    if (grad !== 'true' && grad !== 'false') return bad(`graduated must be true or false (it is "${grad}").`);
    filter.graduated = grad === 'true';
  }
  const creator = search.get('creator');
  if (creator !== null) {
    const problem = addressProblem(creator, 'the value');
    // the problem already ends by saying nothing was looked up
    if (problem) return { code: 'invalid_query', message: `creator: ${problem}` };
    filter.creator = creator;
  }
  const limitText = search.get('limit');
  let limit = LIST_DEFAULT_LIMIT;
  if (limitText !== null) {
    if (!/^[0-9]{1,4}$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > LIST_MAX_LIMIT) return bad(`limit must be a whole number from 1 to ${LIST_MAX_LIMIT} (it is "${limitText}").`);
    limit = Number(limitText);
  }
  const since = search.get('since');
  let cursorText = search.get('cursor');
  if (since !== null && cursorText !== null) return bad('Give since or cursor, not both: since starts a sync, the cursor of its pages continues it.');
  if (since !== null) {
    if (/^[0-9]{1,15}$/.test(since)) return { order: 'changes', filter: { ...filter, sinceSlot: Number(since) }, after: null, limit };
    cursorText = since; // a sync cursor may also be sent as since
  }
  if (cursorText === null) return { order: 'newest', filter, after: null, limit };
  const c = decodeCursor(cursorText);
  if (!c) {
    if (since === null) return { code: 'invalid_cursor' };
    const shown = since.length > 40 ? `${since.slice(0, 40)}…` : since;
    return { code: 'invalid_cursor', message: `since takes a slot (a whole number of at most 15 digits) or the cursor of a sync page; "${shown}" is neither. Nothing was looked up.` };
  }
  if (since !== null && c.o !== 'c') return bad('since takes a slot or the cursor of a sync page; this cursor is of a browsing page.');
  // a cursor keeps the first page's limit; a limit given with it wins
  if (limitText === null && c.l !== undefined) limit = c.l;
  for (const k of ['class', 'graduated', 'creator'] as const) {
    if (filter[k] !== undefined && filter[k] !== c.f[k]) return bad(`${k} differs from the cursor's (a cursor keeps the filters of the first page; leave them out or repeat them).`);
  }
  return c.o === 'n'
    ? { order: 'newest', filter: { class: c.f.class, graduated: c.f.graduated, creator: c.f.creator }, after: { order: 'newest', slot: c.s ?? null, mint: c.m! }, limit }
    : { order: 'changes', filter: c.f, after: { order: 'changes', seq: c.q! }, limit };
}

/** One record of a page: as a line of documents.ndjson.gz, plus its change sequence. */
export interface ListedItem {
  mint: string;
  sha256: string;
  /** Grows with every write that changed the record: a mirror keeps the document of the highest. */
  changeSeq: number;
  document: LaunchDocument;
}

/** Body of `GET /api/v1/launches` (docs/api.md "Listing and syncing"). */
export interface LaunchListBody {
  apiVersion: 'v1';
  order: 'newest' | 'changes';
  records: ListedItem[];
  /** The cursor of the next page; null only when browsing reached the end (a sync always gives one). */
  next: string | null;
  /** Whether more records are held past this page now. */
  hasMore: boolean;
  generatedAt: Instant;
  license: string;
}

/**
 * A page of records for a parsed query, from the public database: the UTF-8 bytes of the JSON of a
 * {@link LaunchListBody}. The page is assembled by SQLite in one value (listedItemsJson: each stored
 * canonical document copied as its bytes, not decoded, parsed or serialised again, between the
 * other members, in the interface's order). `key` (the request's query string, which decides the
 * page) names it in the process's {@link ListPageMemo}: a page asked for again while the public
 * database is unchanged is a copy of the one built, its `generatedAt` now.
 */
export function launchPage(deps: Pick<Deps, 'publicStore' | 'config'>, q: ListQuery, nowMs: number, key?: string): Buffer {
  const parts = launchPageParts(deps, q, nowMs, key);
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}

/** {@link launchPage} as the parts of its body in order (a kept page's bytes around its new `generatedAt`: not copied, not to be changed). */
export function launchPageParts(deps: Pick<Deps, 'publicStore' | 'config'>, q: ListQuery, nowMs: number, key?: string): readonly Buffer[] {
  const generatedAt = JSON.stringify(instant(nowMs));
  const build = () => buildLaunchPage(deps, q, generatedAt);
  return key === undefined ? [build().body] : memoOf(deps).page(deps.publicStore, key, generatedAt, build);
}

const memos = new WeakMap<Deps['publicStore'], ListPageMemo>();
/** The list-page memo of a public store (a generation's store has its own, gone with it). */
function memoOf(deps: Pick<Deps, 'publicStore' | 'config'>): ListPageMemo {
  let memo = memos.get(deps.publicStore);
  if (!memo) memos.set(deps.publicStore, (memo = new ListPageMemo(deps.config.LIST_CACHE_MB * 1024 * 1024)));
  return memo;
}

/** {@link launchPage} built from the database: its body and the byte offset of its `generatedAt` value (the JSON text `generatedAt`). */
function buildLaunchPage(deps: Pick<Deps, 'publicStore' | 'config'>, q: ListQuery, generatedAt: string): { body: Buffer; generatedAtOffset: number } {
  const license = licenseOf(deps.config);
  let tail = '';
  // one read transaction: the page, its records and the newest change it is measured against are one snapshot
  const body = pageRead(deps.publicStore.db)(q, (keys, newest) => {
    const hasMore = keys.length > q.limit;
    const count = Math.min(keys.length, q.limit);
    const f = { class: q.filter.class, graduated: q.filter.graduated, creator: q.filter.creator, ...(q.order === 'changes' ? { sinceSlot: q.filter.sinceSlot } : {}) };
    const last = count ? keys[count - 1] : undefined;
    // the page size goes on with the cursor when it is not the default
    const l = q.limit !== LIST_DEFAULT_LIMIT ? { l: q.limit } : {};
    let next: string | null = null;
    if (q.order === 'newest') {
      if (hasMore && last) next = encodeCursor({ v: 1, o: 'n', s: last.creationSlot ?? null, m: last.mint, ...l, f });
    } else {
      // a sync always continues: from the last record seen, or where it stood (an empty first page: the newest write now)
      const seq = last ? last.changeSeq! : q.after?.order === 'changes' ? q.after.seq : newest;
      next = encodeCursor({ v: 1, o: 'c', q: seq, ...l, f });
    }
    const s = JSON.stringify;
    tail = `,"license":${s(license)}}`;
    // a LaunchListBody, members in its order
    return [`{"apiVersion":"v1","order":${s(q.order)},"records":[`, `],"next":${s(next)},"hasMore":${s(hasMore)},"generatedAt":${generatedAt}${tail}`];
  });
  return { body, generatedAtOffset: body.length - Buffer.byteLength(tail) - generatedAt.length };
}

/** The text of a page around its records, from the keys of its rows (one more than its limit) and, for a sync, the newest change sequence. */
type PageFrame = (keys: ListedKey[], newest: number) => [before: string, after: string];
const pageReads = new WeakMap<Database.Database, (q: ListQuery, frame: PageFrame) => Buffer>();

/**
 * The page of `q` in one transaction of `db`: the keys of its rows (one more than its limit, to
 * tell whether more follow) and, for a sync, the newest change sequence; then the JSON of its
 * records (the first `limit`) between the two texts `frame` makes of them. The transaction
 * function is made once per connection (better-sqlite3's `db.transaction` makes a new one on every
 * call otherwise).
 */
function pageRead(db: Database.Database): (q: ListQuery, frame: PageFrame) => Buffer {
  let read = pageReads.get(db);
  if (!read) {
    read = db.transaction((q: ListQuery, frame: PageFrame): Buffer => {
      const keys = listLaunchKeys(db, q.order, q.filter, q.after, q.limit + 1);
      const [before, after] = frame(keys, q.order === 'changes' ? lastChangeSeq(db) : 0);
      return listedItemsJson(db, keys.slice(0, q.limit).map((k) => k.id), false, before, after);
    });
    pageReads.set(db, read);
  }
  return read;
}

/**
 * `GET /api/v1/launches`: checks in the token endpoint's order — the query (400 `invalid_query` /
 * `invalid_cursor`), the key (401), the daily quota (429, one request per page) — then 200 with the
 * page, `Cache-Control: no-store`.
 */
export async function handleLaunches(request: Request, deps: Deps): Promise<Response> {
  const nowMs = deps.now();
  const url = new URL(request.url);
  const q = parseListQuery(url.searchParams);
  if ('code' in q) return errorResponse(q.code, { nowMs, message: q.message });
  const admitted = await admitKeyedRequest(request, deps, nowMs);
  if ('refused' in admitted) return admitted.refused;
  return jsonPartsResponse(launchPageParts(deps, q, nowMs, url.search), 200, { 'Cache-Control': CACHE_NONE, ...rateLimitHeaders(admitted.usage) });
}
