import type Database from 'better-sqlite3';
import { ROW_COLUMNS, type ListRow } from './lists.ts';

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

type Statements = ReturnType<typeof prepare>;
const cache = new WeakMap<Database.Database, Statements>();

function prepare(db: Database.Database) {
  return {
    // exact symbol first (case-insensitive), newest first
    bySymbol: db.prepare(`SELECT ${ROW_COLUMNS} FROM launch WHERE symbol = ? COLLATE NOCASE ORDER BY rowid DESC LIMIT ?`),
    // every term a prefix of a word of the name or the symbol; newest rows first (rowid order streams: no ranking of every match)
    byPrefix: db.prepare(`SELECT ${ROW_COLUMNS} FROM launch_fts JOIN launch ON launch.rowid = launch_fts.rowid
      WHERE launch_fts MATCH ? ORDER BY launch_fts.rowid DESC LIMIT ?`),
    isCreator: db.prepare('SELECT 1 FROM launch WHERE creator = ? LIMIT 1').pluck(),
  };
}

function statements(db: Database.Database): Statements {
  let s = cache.get(db);
  if (!s) cache.set(db, (s = prepare(db)));
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
  const s = statements(db);
  const out: ListRow[] = [];
  const seen = new Set<string>();
  const add = (rows: ListRow[]) => {
    for (const r of rows) if (!seen.has(r.mint) && out.length < limit) (seen.add(r.mint), out.push(r));
  };
  if (symbol !== undefined) add(s.bySymbol.all(symbol, limit) as ListRow[]);
  if (terms.length === 1 && out.length < limit) add(s.bySymbol.all(terms[0], limit) as ListRow[]);
  if (terms.length > 0 && out.length < limit) add(s.byPrefix.all(ftsQuery(terms), limit) as ListRow[]);
  return out;
}

/** Whether any record held names `address` as its creator. */
export function isCreator(db: Database.Database, address: string): boolean {
  return statements(db).isCreator.get(address) === 1;
}
