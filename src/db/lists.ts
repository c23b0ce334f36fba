import type Database from 'better-sqlite3';
import type { FindingClass } from '../core/types.ts';
import { schemaHas } from './open.ts';

/**
 * The rows of the public lists and search results: what a list row shows of a record, read from
 * the launch table's columns (migration 9) without parsing its document. Only this file and
 * search.ts read them; the collector's list publisher (collector/publish/lists.ts) and the
 * server's search (src/server/search.ts) use them.
 */

/** One record as a list row shows it. `name`, `symbol`: the creator's raw text (display through displayText). */
export interface ListRow {
  mint: string;
  name: string | null;
  symbol: string | null;
  findingClass: FindingClass;
  /** the finding's label and one-line why (document finding.label / finding.why) */
  label: string | null;
  why: string | null;
  /** creation blockTime, epoch ms; null when unknown (no creation held, or the chain gave no blockTime) */
  createdAtMs: number | null;
  creationSlot: number | null;
  /** graduation time, epoch ms; null when not graduated or unknown */
  graduatedAtMs: number | null;
}

/** The public lists. */
export type ListName = 'latest' | 'graduated' | 'findings';
export const LIST_NAMES: readonly ListName[] = ['latest', 'graduated', 'findings'];

/** The SELECT list of a {@link ListRow}. */
export const ROW_COLUMNS = `launch.mint AS mint, launch.name AS name, launch.symbol AS symbol, launch.finding_class AS findingClass,
  launch.finding_label AS label, launch.finding_why AS why, NULLIF(launch.created_at_ms, 0) AS createdAtMs,
  launch.creation_slot AS creationSlot, launch.graduated_at_ms AS graduatedAtMs`;

type Statements = ReturnType<typeof prepare>;
const cache = new WeakMap<Database.Database, Statements>();

function prepare(db: Database.Database) {
  // Each list names its index: without statistics SQLite's planner took launch_class_change
  // (finding_class, change_seq, …) of public migration 19 for the FINDINGS list and sorted every
  // FINDINGS record for each page (~1.3 s a page over 1,000,000 records, where launch_findings
  // reads the page's range: ~3-60 ms), and launch_slot_change for the latest. A database without
  // the index (a read-only generation of an older schema) is left to the planner.
  const by = (index: string) => (schemaHas(db, 'index', index) ? ` INDEXED BY ${index}` : '');
  const [created, findings] = [by('launch_created'), by('launch_findings')];
  return {
    // newest creation first (index launch_created); records without a creation held are not launches to list
    latest: db.prepare(`SELECT ${ROW_COLUMNS} FROM launch${created} WHERE creation_slot IS NOT NULL ORDER BY creation_slot DESC, mint LIMIT ? OFFSET ?`),
    // counts stop at a cap (the pages written): a count of a million index entries is not needed
    latestCount: db.prepare('SELECT count(*) FROM (SELECT 1 FROM launch WHERE creation_slot IS NOT NULL LIMIT ?)').pluck(),
    graduated: db.prepare(`SELECT ${ROW_COLUMNS} FROM launch WHERE graduated_at_ms >= ? AND graduated_at_ms <= ? ORDER BY graduated_at_ms DESC, mint LIMIT ? OFFSET ?`),
    graduatedCount: db.prepare('SELECT count(*) FROM (SELECT 1 FROM launch WHERE graduated_at_ms >= ? AND graduated_at_ms <= ? LIMIT ?)').pluck(),
    findings: db.prepare(`SELECT ${ROW_COLUMNS} FROM launch${findings} WHERE finding_class = 'FINDINGS' AND created_at_ms >= ? AND created_at_ms <= ? ORDER BY created_at_ms DESC, mint LIMIT ? OFFSET ?`),
    findingsCount: db.prepare(`SELECT count(*) FROM (SELECT 1 FROM launch${findings} WHERE finding_class = 'FINDINGS' AND created_at_ms >= ? AND created_at_ms <= ? LIMIT ?)`).pluck(),
    // index launch_created_ms (public migration 21): without it a scan of every record (~660 ms over 1,000,000)
    newestCreation: db.prepare('SELECT max(created_at_ms) FROM launch WHERE creation_slot IS NOT NULL').pluck(),
  };
}

function statements(db: Database.Database): Statements {
  let s = cache.get(db);
  if (!s) cache.set(db, (s = prepare(db)));
  return s;
}

/** A time window of a list, epoch ms, both ends included. */
export interface Window {
  fromMs: number;
  toMs: number;
}

/**
 * One page of a list: `limit` rows after `offset`. `latest` ignores the window (newest creation
 * slot first); `graduated` (graduation time) and `findings` (class FINDINGS, creation time) keep
 * the rows inside it, newest first.
 */
export function listRows(db: Database.Database, list: ListName, window: Window, limit: number, offset = 0): ListRow[] {
  const s = statements(db);
  if (list === 'latest') return s.latest.all(limit, offset) as ListRow[];
  return (list === 'graduated' ? s.graduated : s.findings).all(window.fromMs, window.toMs, limit, offset) as ListRow[];
}

/** How many rows a list has (`latest`: every record with its creation held), counted up to `cap` at most. */
export function listCount(db: Database.Database, list: ListName, window: Window, cap = Number.MAX_SAFE_INTEGER): number {
  const s = statements(db);
  if (list === 'latest') return s.latestCount.get(cap) as number;
  return (list === 'graduated' ? s.graduatedCount : s.findingsCount).get(window.fromMs, window.toMs, cap) as number;
}

/** The newest creation time held (epoch ms), or null when no record holds a creation with a blockTime. */
export function newestCreationMs(db: Database.Database): number | null {
  const v = statements(db).newestCreation.get() as number | null;
  return v ? v : null;
}
