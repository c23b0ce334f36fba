import type Database from 'better-sqlite3';
import { ROW_COLUMNS, type ListRow } from './lists.ts';
import { schemaHas } from './open.ts';

/**
 * Name and symbol search over the launch table (migration 9: FTS5 table `launch_fts`, index
 * `launch_symbol`; migration 16: prefix indexes of 1-8 characters, so a prefix of up to 8 characters
 * streams its matches newest first and stops at the LIMIT). Terms arrive already split into words of letters and digits
 * (src/server/search.ts `searchTerms`); each is quoted here, so no character of the user's text
 * reaches FTS5's query syntax.
 *
 * The index is keyed by `launch.rowid`, which is not an INTEGER PRIMARY KEY; a VACUUM keeps it all
 * the same, because SQLite copies a table that has an index (here the one of `mint TEXT PRIMARY
 * KEY`) with its rowids — held by tests/unit/search-vacuum.test.ts, with the control of a table
 * without any index, which VACUUM does renumber. A copy made row by row (`.dump`, `.recover`)
 * gets new rowids: after one, `INSERT INTO launch_fts (launch_fts) VALUES ('rebuild')`.
 */

type Statements = ReturnType<typeof prepare> & { search: (terms: readonly string[], limit: number, symbol?: string) => ListRow[] };
const cache = new WeakMap<Database.Database, Statements>();

function prepare(db: Database.Database) {
  return {
    // exact symbol (case-insensitive), newest first: index launch_symbol alone (its entries carry the rowid)
    bySymbol: db.prepare('SELECT rowid FROM launch WHERE symbol = ? COLLATE NOCASE ORDER BY rowid DESC LIMIT ?').pluck(),
    // every term a prefix of a word of the name or the symbol; newest rows first (rowid order streams: no ranking of every match)
    byPrefix: db.prepare('SELECT rowid FROM launch_fts WHERE launch_fts MATCH ? ORDER BY rowid DESC LIMIT ?').pluck(),
    // the rows of a JSON array of rowids, in the array's order
    rows: db.prepare(`SELECT ${ROW_COLUMNS} FROM json_each(?) j JOIN launch ON launch.rowid = j.value ORDER BY j.key`),
    // a wallet page is written for every wallet with a role in a launch held (creator, bundled or first-30-s buyer, buyout): wallet_role's primary key
    hasWalletPage: schemaHas(db, 'table', 'wallet_role')
      ? db.prepare('SELECT 1 FROM wallet_role WHERE wallet = @wallet UNION ALL SELECT 1 FROM launch WHERE creator = @wallet LIMIT 1').pluck()
      : db.prepare('SELECT 1 FROM launch WHERE creator = @wallet LIMIT 1').pluck(),
  };
}

function statements(db: Database.Database): Statements {
  let s = cache.get(db);
  if (!s) {
    const p = prepare(db);
    cache.set(db, (s = { ...p, search: db.transaction((terms: readonly string[], limit: number, symbol?: string) => search(p, terms, limit, symbol)) }));
  }
  return s;
}

/**
 * The FTS5 query of `terms`: each term as a quoted string (a `"` inside doubled, FTS5 §3.1) with
 * the prefix operator, all required: `"pep"* "fro"*`. Terms must be non-empty.
 * @example ftsQuery(['pe"pe', 'frog']) // '"pe""pe"* "frog"*'
 */
export function ftsQuery(terms: readonly string[]): string {
  return terms.map((t) => `"${t.replaceAll('"', '""')}"*`).join(' ');
}

/**
 * Records whose name or symbol match `terms` (every term a word prefix), at most `limit`: exact
 * symbol matches of a one-term query first, then the rest newest first, without repeats.
 * `symbol`: a symbol looked up exactly (case-insensitive) before anything else — a search text of
 * signs only, such as `🐸` (src/server/search.ts `parseSearch`), for which `terms` is empty.
 */
export function searchByText(db: Database.Database, terms: readonly string[], limit: number, symbol?: string): ListRow[] {
  if (terms.length === 0 && symbol === undefined) return [];
  return statements(db).search(terms, limit, symbol);
}

/**
 * {@link searchByText} in one read transaction: the matches' rowids first (indexes only), then the
 * rows of those kept, each read once (over 1,000,000 records a symbol prefix's search took ~440 µs
 * when each query read its matches' rows, ~280 this way: an exact symbol is also a prefix match, and
 * its row was read twice).
 */
function search(s: ReturnType<typeof prepare>, terms: readonly string[], limit: number, symbol?: string): ListRow[] {
  const ids: number[] = [];
  const seen = new Set<number>();
  const add = (found: number[]) => {
    for (const id of found) if (!seen.has(id) && ids.length < limit) (seen.add(id), ids.push(id));
  };
  if (symbol !== undefined) add(s.bySymbol.all(symbol, limit) as number[]);
  if (terms.length === 1 && ids.length < limit) add(s.bySymbol.all(terms[0], limit) as number[]);
  if (terms.length > 0 && ids.length < limit) add(s.byPrefix.all(ftsQuery(terms), limit) as number[]);
  return ids.length === 0 ? [] : (s.rows.all(JSON.stringify(ids)) as ListRow[]);
}

/** Whether `address` has a wallet page: a role (creator, bundled or first-30-s buyer, buyout) in a launch held. */
export function hasWalletPage(db: Database.Database, address: string): boolean {
  return statements(db).hasWalletPage.get({ wallet: address }) === 1;
}
