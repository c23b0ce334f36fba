import type Database from 'better-sqlite3';
import type { CreationAt, DecodedTransaction, FindingClass, LaunchDocument, Origin } from '../core/types.ts';
import type { FunderFact, FunderUnknownReason } from '../core/funding.ts';
import type { AfterwardsState } from '../core/afterwards.ts';
import type { WalletRole } from '../core/record/build-launch.ts';
import { openDatabase, schemaHas } from './open.ts';
import { unrecognisedOf } from '../core/decode/unrecognised.ts';
import { PUBLIC_MIGRATIONS } from './public-schema.ts';
import { formatLagSamples, keepLagSample, LAG_SAMPLES_META, parseLagSamples } from '../core/falling-behind.ts';
import { UNREACHABLE_META } from '../core/coverage.ts';
import { graduation } from '../core/record/known-graduation.ts';

/** The `graduated` column (public migrations 19, 23) of a record's {@link graduation}: the list's filter reads 0 and 1; 2 is in neither. */
const GRADUATED_COLUMN = { graduated: 1, not_graduated: 0, unknown: 2 } as const;

/** A launch row as served: the canonical document text and its sha256. */
/** A held record's row; `D`: its document as text, or as its stored UTF-8 bytes ({@link PublicStore.getLaunchBytes}). */
export interface StoredLaunch<D extends string | Buffer = string> {
  mint: string;
  document: D;
  sha256: string;
  settled: boolean;
  findingClass: FindingClass;
  origin: Origin;
  updatedAtMs: number;
}

/** What the status endpoint reports (see README "API"). */
export interface ArchiveCounts {
  /** launches observed at their creation transaction */
  launches: number;
  /** every record held */
  records: number;
  byOrigin: Record<string, number>;
  byClass: Record<string, number>;
  byOriginAndClass: Record<string, Record<string, number>>;
}

/** A role row of the wallet endpoint (detail parsed). */
/** Slots before an unattributed unreadable transaction whose launches it may belong to (PublicStore.launchesAround): 30 s of 400 ms slots, and a margin. */
export const AROUND_SLOTS = 100;

/** The kinds of role wallet_role holds, in the order a wallet's page shows them. */
const WALLET_ROLES: readonly WalletRole['role'][] = ['creator', 'buyout', 'bundled', 'early'];

export interface StoredWalletRole extends WalletRole {
  mint: string;
}

/** Meta key: the tip slot at the last program listing that found nothing newer than the cursor ('' when the last found some). */
export const PROGRAM_CAUGHT_UP_META = 'program_caught_up_slot';

/** A role of a wallet with its launch's summary (null fields: the launch row is missing). */
export interface WalletLaunchRole {
  mint: string;
  role: WalletRole['role'];
  signature: string;
  slot: number;
  detail: Record<string, unknown>;
  findingClass: FindingClass | null;
  createdAtMs: number | null;
  name: string | null;
  symbol: string | null;
  totalSupplyRaw: string | null;
  quoteMint: string | null;
  /** the launch's `launch.quoteDecimals` (null: not known, or a document before markers-v6) */
  quoteDecimals: number | null;
}

/**
 * What a wallet's page shows ({@link PublicStore.walletPage}): the newest roles of each kind, and
 * how many it has of each in all.
 */
export interface WalletPageRows {
  /** per role, at most the newest `perRole` (slot descending, then mint), newest first within each role */
  roles: WalletLaunchRole[];
  /** every role of the wallet counted, by kind (0 when none) */
  totals: Record<WalletRole['role'], number>;
  /** the launches it created, counted by their record's finding class (absent: none of that class) */
  createdByClass: Partial<Record<FindingClass, number>>;
  /** what it did afterwards with each curve it bought out, as followed so far (table buyout_afterwards; a buyout never read has none) */
  afterwards: StoredAfterwards[];
}

/** An interval the collector was not watching (coverage_gap). */
export interface CoverageGap {
  fromMs: number;
  toMs: number;
  /** the chain tip at the previous run's last heartbeat */
  fromSlot: number | null;
  /** the chain tip when the next run started */
  toSlot: number | null;
}

/** A buyout whose afterwards is due: the completing transaction, and the state followed so far (null: never read). */
export interface DueBuyout {
  mint: string;
  wallet: string;
  /** the completing transaction's signature */
  signature: string;
  state: AfterwardsState | null;
}

/** The followed afterwards of one buyout of a wallet (null state: it cannot be followed, see `reason`). */
export interface StoredAfterwards {
  mint: string;
  state: AfterwardsState | null;
  reason: string | null;
  checkedAtMs: number;
}

/**
 * What a wallet's page shows of a followed buyout (render/creator-page.ts afterwardsCell), as a
 * key: whether it is known, why it cannot be followed, and the sales, balance and tokens moved out.
 * The newest slot read and the check's time are left out: a sweep that finds nothing new changes
 * neither the facts nor the page.
 */
function afterwardsShown(state: AfterwardsState | null, reason: string | null, checkedAtMs: number): string {
  if (state === null) return `x:${reason ?? ''}`;
  if (checkedAtMs <= 0) return 'reading';
  return `${state.balance}:${state.movedOut}:${state.sales.map((x) => x.signature).join(',')}`;
}

/** Why a transaction is unreadable (table unreadable_tx). */
export type UnreadableReason = 'unsupported_version' | 'malformed' | 'rpc_error' | 'request_failed' | 'not_found';

/** A transaction the collector could not read (table unreadable_tx), with the launches it may belong to. */
export interface UnreadableTransaction {
  signature: string;
  slot: number;
  reason: UnreadableReason;
  /** the RPC's error code and message, or the failure's class */
  detail: string;
  /** failed reads so far (catch-ups and retries) */
  failures: number;
  firstFailedAtMs: number;
  lastTriedAtMs: number;
  /** mints it may belong to (from its logs notification), possibly none */
  mints: string[];
}

/** Unreadable transactions now (status `unreadable`). */
export interface UnreadableCounts {
  transactions: number;
  /** by reason; a reason with none is absent */
  byReason: Partial<Record<UnreadableReason, number>>;
}

export interface CollectorRun {
  id: number;
  startedAtMs: number;
  lastBeatMs: number;
  stoppedAtMs: number | null;
  /** chain tip when the run started, and at its latest heartbeat (null when getSlot failed) */
  startSlot: number | null;
  tipSlot: number | null;
}

/**
 * What the `coverage` object of keyed answers is computed from (src/facts/coverage.ts coverageOf):
 * meta `coverage_from_ms` and `collector_unreachable` as stored, the total length of the coverage
 * gaps (ms), and the newest run's last heartbeat (epoch ms; null when no run).
 */
export interface CoverageReads {
  coverageFromMs: string | undefined;
  unreachable: string | undefined;
  gapTotalMs: number;
  lastBeatMs: number | null;
}

/**
 * The public database: launch records, the transactions behind them, the collector's cursor and runs.
 * One writer (the collector) and any number of readers (the server), WAL mode.
 */
/** The statement parameters of a launch row (putLaunch). */
type LaunchParam =
  | 'mint' | 'bondingCurve' | 'creator' | 'creationSignature' | 'creationSlot' | 'createdAtMs' | 'origin' | 'observedAtLaunch'
  | 'findingClass' | 'cleanAtBirth' | 'settled' | 'methodVersion' | 'document' | 'sha256' | 'updatedAtMs' | 'cohortUnknown'
  | 'name' | 'symbol' | 'findingLabel' | 'findingWhy' | 'graduatedAtMs' | 'poolRefresh' | 'graduated';

/**
 * Columns of `launch` that putLaunch compares before it updates a held row in place: every column
 * an index of the table keys or filters on (migrations 1, 3, 9, 10, 12) and the FTS index's name and
 * symbol. [column, parameter]. A column added to the upsert belongs here unless it is in no index.
 */
export const KEYED_COLUMNS: readonly (readonly [string, LaunchParam])[] = [
  ['creator', 'creator'], ['creation_slot', 'creationSlot'], ['created_at_ms', 'createdAtMs'], ['origin', 'origin'],
  ['finding_class', 'findingClass'], ['cohort_unknown', 'cohortUnknown'], ['name', 'name'], ['symbol', 'symbol'],
  ['graduated_at_ms', 'graduatedAtMs'], ['pool_refresh', 'poolRefresh'], ['graduated', 'graduated'],
];

/** The other columns putLaunch writes: in no index, so updated in place when the keyed ones are unchanged. */
export const UNKEYED_COLUMNS: readonly (readonly [string, LaunchParam])[] = [
  ['bonding_curve', 'bondingCurve'], ['creation_signature', 'creationSignature'], ['observed_at_launch', 'observedAtLaunch'],
  ['clean_at_birth', 'cleanAtBirth'], ['settled', 'settled'], ['method_version', 'methodVersion'], ['document', 'document'],
  ['sha256', 'sha256'], ['updated_at_ms', 'updatedAtMs'], ['finding_label', 'findingLabel'], ['finding_why', 'findingWhy'],
];

/** Funder facts a store remembers before it starts over (a few hundred bytes each). */
const FUNDER_MEMO_MAX = 100_000;


/**
 * `db.prepare(sql)`, or, when SQLite refuses it (a read-only database of an older schema), a
 * stand-in that throws that error when it is run; `raw` and `pluck` give the stand-in back.
 */
function prepareOrDefer(db: Database.Database, sql: string): Database.Statement {
  try {
    return db.prepare(sql);
  } catch (err) {
    const fail = () => {
      throw err;
    };
    const stub: Record<string, unknown> = { run: fail, get: fail, all: fail, iterate: fail, raw: () => stub, pluck: () => stub, expand: () => stub };
    return stub as unknown as Database.Statement;
  }
}

/** The most rows {@link PublicStore.getLaunchBytes} keeps in memory (~2.5 KB a record: ~10 MB). */
export const LAUNCH_MEMO_MAX = 4_096;

export class PublicStore {
  readonly db: Database.Database;
  private readonly s;
  /** Funder facts read from wallet_funder (see {@link funderOf}); cleared when a transaction rolls back. */
  private readonly funders = new Map<string, FunderFact>();
  /** Transactions of this connection rolled back (part of {@link changeMark}). */
  private rollbacks = 0;
  /** `PRAGMA data_version` as read in this event-loop turn (null: not read yet this turn). */
  private turnDataVersion: number | null = null;
  /** Writes of this connection to what {@link coverageReads} reads (meta, runs, gaps). */
  private coverageWrites = 0;
  /** The last {@link coverageReads} and the marks it was read under. */
  private coverageMemo: { reads: CoverageReads; dataVersion: number; writes: number; rollbacks: number } | null = null;
  /**
   * Rows read by {@link getLaunchBytes} (null: not held), kept while no connection may have changed
   * them: the turn's `PRAGMA data_version` (other connections' commits) and this connection's
   * `total_changes()` (its own writes, rolled back or not) are those they were read under. At most
   * {@link LAUNCH_MEMO_MAX} mints (the oldest read dropped first). Never filled in a transaction.
   */
  private readonly launchMemo = new Map<string, StoredLaunch<Buffer> | null>();
  private launchMemoMark: { dataVersion: number; changes: number } = { dataVersion: -1, changes: -1 };
  /** {@link readEpoch}'s count: one more each time the marks above changed. */
  private epoch = 0;

  constructor(path: string, opts: { readonly?: boolean } = {}) {
    this.db = openDatabase(path, PUBLIC_MIGRATIONS, opts);
    const db = this.db;
    // Statement journals in memory: an upsert of a launch row (triggers, eleven indexes) keeps one,
    // and SQLite spills it to a temporary file past 64 KiB, four 16 KB pages: about 14 pwrite calls
    // an upsert on the ingest bench. This connection's queries sort through indexes, with LIMITs.
    if (!opts.readonly) db.pragma('temp_store = MEMORY');
    // Opened read-only, the database may be a generation of an older schema (not migrated): a
    // statement naming what it lacks (a later column) is kept as one that throws SQLite's error when
    // used, so the reads it has still work (PublicStore's write statements are never used there).
    const prepare = opts.readonly ? (sql: string) => prepareOrDefer(db, sql) : (sql: string) => db.prepare(sql);
    this.s = {
      getLaunch: prepare(
        'SELECT mint, document, sha256, settled, finding_class AS findingClass, origin, updated_at_ms AS updatedAtMs FROM launch WHERE mint = ?',
      ),
      // raw rows (arrays): getLaunchBytes makes the one object it returns
      getLaunchBytes: prepare('SELECT CAST(document AS BLOB), sha256, settled, finding_class, origin, updated_at_ms FROM launch WHERE mint = ?').raw(),
      totalChanges: prepare('SELECT total_changes()').pluck(),
      // the same row of each mint in a JSON array, with its mint first
      getLaunchesBytes: db
        .prepare('SELECT CAST(document AS BLOB), sha256, settled, finding_class, origin, updated_at_ms, mint FROM launch WHERE mint IN (SELECT value FROM json_each(?))')
        .raw(),
      upsertLaunch: prepare(`
        INSERT INTO launch (mint, bonding_curve, creator, creation_signature, creation_slot, created_at_ms, origin, observed_at_launch,
          finding_class, clean_at_birth, settled, method_version, document, sha256, updated_at_ms, cohort_unknown,
          name, symbol, finding_label, finding_why, graduated_at_ms, pool_refresh, graduated)
        VALUES (@mint, @bondingCurve, @creator, @creationSignature, @creationSlot, @createdAtMs, @origin, @observedAtLaunch,
          @findingClass, @cleanAtBirth, @settled, @methodVersion, @document, @sha256, @updatedAtMs, @cohortUnknown,
          @name, @symbol, @findingLabel, @findingWhy, @graduatedAtMs, @poolRefresh, @graduated)
        ON CONFLICT (mint) DO UPDATE SET bonding_curve = excluded.bonding_curve, creator = excluded.creator,
          creation_signature = excluded.creation_signature, creation_slot = excluded.creation_slot, created_at_ms = excluded.created_at_ms,
          origin = excluded.origin, observed_at_launch = excluded.observed_at_launch, finding_class = excluded.finding_class,
          clean_at_birth = excluded.clean_at_birth, settled = excluded.settled, method_version = excluded.method_version,
          document = excluded.document, sha256 = excluded.sha256, updated_at_ms = excluded.updated_at_ms, cohort_unknown = excluded.cohort_unknown,
          name = excluded.name, symbol = excluded.symbol, finding_label = excluded.finding_label, finding_why = excluded.finding_why,
          graduated_at_ms = excluded.graduated_at_ms, pool_refresh = excluded.pool_refresh, graduated = excluded.graduated`),
      // putLaunch's two forms (see there): the columns that decide the indexes and the FTS index
      // as stored, and an update of the others only
      launchKeyed: prepare(`SELECT ${KEYED_COLUMNS.map((c) => c[0]).join(', ')} FROM launch WHERE mint = ?`).raw(),
      updateLaunchUnkeyed: prepare(`UPDATE launch SET ${UNKEYED_COLUMNS.map(([col, param]) => `${col} = @${param}`).join(', ')} WHERE mint = @mint`),
      graduatedAfter: prepare(
        'SELECT mint FROM launch WHERE pool_refresh = 1 AND mint > ? ORDER BY mint LIMIT ?',
      ).pluck(),
      cohortUnknownAfter: prepare('SELECT mint FROM launch WHERE cohort_unknown = 1 AND mint > ? ORDER BY mint LIMIT ?').pluck(),
      setCohortUnknown: prepare('UPDATE launch SET cohort_unknown = ? WHERE mint = ? AND cohort_unknown != ?'),
      getAttempt: prepare('SELECT reason, page_cap AS pageCap, tx_cap AS txCap FROM wallet_funder_attempt WHERE wallet = ?'),
      putAttempt: prepare(
        'INSERT INTO wallet_funder_attempt (wallet, reason, page_cap, tx_cap, attempted_at_ms) VALUES (?, ?, ?, ?, ?) ON CONFLICT (wallet) DO UPDATE SET reason = excluded.reason, page_cap = excluded.page_cap, tx_cap = excluded.tx_cap, attempted_at_ms = excluded.attempted_at_ms',
      ),
      deleteAttempt: prepare('DELETE FROM wallet_funder_attempt WHERE wallet = ?'),
      getSha256: prepare('SELECT sha256 FROM launch WHERE mint = ?').pluck(),
      getCreation: prepare('SELECT creation_slot AS slot, created_at_ms AS createdAtMs FROM launch WHERE mint = ? AND creation_slot IS NOT NULL'),
      seenUnrecognised: prepare(`
        INSERT INTO unrecognised_seen (program, kind, discriminator, first_signature, first_seen_ms, last_seen_ms, count)
        VALUES (@program, @kind, @discriminator, @signature, @nowMs, @nowMs, 1)
        ON CONFLICT (program, kind, discriminator) DO UPDATE SET last_seen_ms = excluded.last_seen_ms, count = count + 1`),
      isUnrecognisedKnown: prepare('SELECT 1 FROM unrecognised_seen WHERE program = ? AND kind = ? AND discriminator = ?').pluck(),
      unrecognisedSince: prepare(`
        SELECT program, kind, discriminator, count, first_signature AS firstSignature, first_seen_ms AS firstSeenMs, last_seen_ms AS lastSeenMs
        FROM unrecognised_seen WHERE last_seen_ms >= ? ORDER BY last_seen_ms DESC LIMIT 100`),
      getOrigin: prepare('SELECT origin, observed_at_launch AS observedAtLaunch, creation_signature IS NOT NULL AS hasCreation FROM launch WHERE mint = ?'),
      insertTx: prepare(
        'INSERT OR IGNORE INTO launch_tx (mint, signature, slot, block_time, failed, decoded) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      txOf: prepare('SELECT decoded FROM launch_tx WHERE mint = ? AND signature = ?').pluck(),
      // public migration 24 (a read-only generation of an older schema has no such table: no wallet is seen there but by its roles)
      seeWallet: opts.readonly ? null : prepare('INSERT OR IGNORE INTO wallet_seen (wallet) VALUES (?)'),
      walletSeen: schemaHas(db, 'table', 'wallet_seen') ? prepare('SELECT 1 FROM wallet_seen WHERE wallet = ?').pluck() : null,
      // public migration 25 (none on a read-only generation of an older schema)
      putAddress: opts.readonly ? null : prepare('INSERT OR REPLACE INTO launch_address (address, mint, kind) VALUES (?, ?, ?)'),
      launchOfAddress: schemaHas(db, 'table', 'launch_address') ? prepare('SELECT mint, kind FROM launch_address WHERE address = ?') : null,
      dueBuyouts: prepare(`
        SELECT r.mint, r.wallet, r.signature, a.state FROM wallet_role r
        LEFT JOIN buyout_afterwards a ON a.mint = r.mint AND a.wallet = r.wallet
        WHERE r.role = 'buyout' AND (a.checked_at_ms IS NULL OR (a.state IS NOT NULL AND a.checked_at_ms <= ?))
        ORDER BY COALESCE(a.checked_at_ms, -1), r.mint LIMIT ?`),
      putAfterwards: prepare(
        'INSERT INTO buyout_afterwards (mint, wallet, state, reason, checked_at_ms) VALUES (?, ?, ?, ?, ?) ON CONFLICT (mint, wallet) DO UPDATE SET state = excluded.state, reason = excluded.reason, checked_at_ms = excluded.checked_at_ms',
      ),
      afterwardsRow: prepare('SELECT state, reason, checked_at_ms AS checkedAtMs FROM buyout_afterwards WHERE mint = ? AND wallet = ?'),
      afterwardsOfWallet: prepare('SELECT mint, state, reason, checked_at_ms AS checkedAtMs FROM buyout_afterwards WHERE wallet = ?'),
      txsForMint: prepare('SELECT decoded FROM launch_tx WHERE mint = ? ORDER BY slot, rowid'),
      countTxForMint: prepare('SELECT count(*) AS n FROM launch_tx WHERE mint = ?').pluck(),
      hasOtherTx: prepare('SELECT EXISTS (SELECT 1 FROM launch_tx WHERE mint = ? AND signature <> ?)').pluck(),
      dataVersion: prepare('PRAGMA data_version').pluck(),
      getCursor: prepare('SELECT signature, slot, updated_at_ms AS updatedAtMs FROM cursor WHERE name = ?'),
      setCursor: prepare(
        'INSERT INTO cursor (name, signature, slot, updated_at_ms) VALUES (?, ?, ?, ?) ON CONFLICT (name) DO UPDATE SET signature = excluded.signature, slot = excluded.slot, updated_at_ms = excluded.updated_at_ms',
      ),
      getMeta: prepare('SELECT value FROM meta WHERE key = ?'),
      setMeta: prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
      addToMeta: prepare("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(value AS INTEGER) + CAST(excluded.value AS INTEGER) AS TEXT) RETURNING value"),
      insertMetaOnce: prepare('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)'),
      // public migration 17's kept counts; a database without them (a generation of an older
      // collector, opened read-only and so not migrated) is counted from the launch table
      countRows: schemaHas(db, 'table', 'launch_count')
        ? prepare('SELECT origin, finding_class AS findingClass, observed_at_launch AS observed, n FROM launch_count WHERE n > 0')
        : prepare('SELECT origin, finding_class AS findingClass, observed_at_launch AS observed, count(*) AS n FROM launch GROUP BY origin, finding_class, observed_at_launch'),
      startRun: prepare('INSERT INTO collector_run (started_at_ms, last_beat_ms, start_slot, tip_slot) VALUES (?, ?, ?, ?)'),
      beat: prepare('UPDATE collector_run SET last_beat_ms = ?, tip_slot = COALESCE(?, tip_slot) WHERE id = ?'),
      stopRun: prepare('UPDATE collector_run SET last_beat_ms = ?, stopped_at_ms = ? WHERE id = ?'),
      addPending: prepare('INSERT OR IGNORE INTO pending_page (mint) VALUES (?)'),
      listPending: prepare('SELECT mint FROM pending_page ORDER BY rowid'),
      listPendingAfter: prepare('SELECT rowid AS id, mint FROM pending_page WHERE rowid > ? ORDER BY rowid LIMIT ?'),
      clearPending: prepare('DELETE FROM pending_page WHERE mint = ? AND NOT EXISTS (SELECT 1 FROM launch WHERE mint = ? AND sha256 IS NOT ?)'),
      anyPending: prepare('SELECT EXISTS (SELECT 1 FROM pending_page)').pluck(),
      // public migration 20: pages to write again after a template change (src/ingest/page-backlog.ts)
      backlogTokens: prepare("INSERT OR IGNORE INTO page_backlog (kind, key) SELECT 'token', mint FROM launch ORDER BY rowid DESC"),
      backlogWallets: prepare("INSERT OR IGNORE INTO page_backlog (kind, key) SELECT DISTINCT 'wallet', wallet FROM wallet_role"),
      backlogChunk: prepare('SELECT rowid AS id, kind, key FROM page_backlog WHERE rowid > ? ORDER BY rowid LIMIT ?'),
      clearBacklog: prepare('DELETE FROM page_backlog WHERE rowid = ?'),
      anyBacklog: prepare('SELECT EXISTS (SELECT 1 FROM page_backlog)').pluck(),
      countBacklog: prepare('SELECT count(*) FROM page_backlog').pluck(),
      getFunder: prepare('SELECT state, funder, signature, slot FROM wallet_funder WHERE wallet = ?'),
      putFunder: prepare(
        'INSERT INTO wallet_funder (wallet, state, funder, signature, slot, checked_at_ms) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (wallet) DO NOTHING',
      ),
      deleteRoles: prepare('DELETE FROM wallet_role WHERE mint = ?'),
      // an upsert, not INSERT OR REPLACE: a replaced row fires no delete trigger (recursive_triggers
      // is off), and wallet_role_count's triggers count inserts and deletes (public migration 18)
      insertRole: prepare(
        'INSERT INTO wallet_role (wallet, mint, role, signature, slot, detail) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (wallet, mint, role) DO UPDATE SET signature = excluded.signature, slot = excluded.slot, detail = excluded.detail',
      ),
      rolesOfMint: prepare('SELECT wallet, role, signature, slot, detail FROM wallet_role WHERE mint = ? ORDER BY wallet, role'),
      markWallet: prepare('INSERT INTO pending_wallet_page (wallet, seq) VALUES (?, 0) ON CONFLICT (wallet) DO UPDATE SET seq = seq + 1'),
      listPendingWallets: prepare('SELECT wallet, seq FROM pending_wallet_page ORDER BY rowid'),
      listPendingWalletsAfter: prepare('SELECT rowid AS id, wallet, seq FROM pending_wallet_page WHERE rowid > ? ORDER BY rowid LIMIT ?'),
      clearPendingWallet: prepare('DELETE FROM pending_wallet_page WHERE wallet = ? AND seq = ?'),
      walletRolesNewest: prepare(`
        SELECT r.mint, r.role, r.signature, r.slot, r.detail, l.finding_class AS findingClass, l.created_at_ms AS createdAtMs,
          json_extract(l.document, '$.name') AS name, json_extract(l.document, '$.symbol') AS symbol,
          json_extract(l.document, '$.launch.totalSupplyRaw') AS totalSupplyRaw, json_extract(l.document, '$.launch.quoteMint') AS quoteMint,
          json_extract(l.document, '$.launch.quoteDecimals') AS quoteDecimals
        FROM wallet_role r LEFT JOIN launch l ON l.mint = r.mint WHERE r.wallet = ? AND r.role = ? ORDER BY r.slot DESC, r.mint LIMIT ?`),
      // kept counts (public migration 18); a generation of an older schema opened read-only is counted from its rows
      walletRoleTotals: schemaHas(db, 'table', 'wallet_role_count')
        ? prepare('SELECT role, n FROM wallet_role_count WHERE wallet = ?')
        : prepare('SELECT role, count(*) AS n FROM wallet_role WHERE wallet = ? GROUP BY role'),
      // the created launches by class: the (wallet, role) range of wallet_role_newest, not the wallet's
      // whole primary-key range filtered (the planner's choice: ~24 ms for a wallet with 200,000 roles)
      walletCreatedByClass: prepare(
        `SELECT l.finding_class AS findingClass, count(*) AS n FROM wallet_role r${schemaHas(db, 'index', 'wallet_role_newest') ? ' INDEXED BY wallet_role_newest' : ''} JOIN launch l ON l.mint = r.mint WHERE r.wallet = ? AND r.role = 'creator' GROUP BY l.finding_class`,
      ),
      // newest first (a LIMIT of -1: all of them); walletRoles turns each list oldest first
      walletRolesOfKind: prepare('SELECT wallet, mint, role, signature, slot, detail FROM wallet_role WHERE wallet = ? AND role = ? ORDER BY slot DESC, mint DESC LIMIT ?'),
      insertGap: prepare('INSERT OR IGNORE INTO coverage_gap (from_ms, to_ms, from_slot, to_slot) VALUES (?, ?, ?, ?)'),
      gaps: prepare('SELECT from_ms AS fromMs, to_ms AS toMs, from_slot AS fromSlot, to_slot AS toSlot FROM coverage_gap ORDER BY from_ms'),
      gapTotal: prepare('SELECT COALESCE(SUM(to_ms - from_ms), 0) AS ms, COUNT(*) AS n FROM coverage_gap'),
      putUnreadable: prepare(`
        INSERT INTO unreadable_tx (signature, slot, reason, detail, failures, first_failed_at_ms, last_tried_at_ms, named) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (signature) DO UPDATE SET reason = excluded.reason, detail = excluded.detail,
          failures = unreadable_tx.failures + excluded.failures, last_tried_at_ms = excluded.last_tried_at_ms, named = max(unreadable_tx.named, excluded.named)`),
      // public migration 26: the unnamed unreadable transactions in a slot range (record-launch.ts: a graduated launch's life)
      unnamedUnreadableIn: schemaHas(db, 'table', 'unreadable_tx') && !opts.readonly ? prepare('SELECT signature FROM unreadable_tx WHERE named = 0 AND slot BETWEEN ? AND ? ORDER BY signature').pluck() : null,
      putUnreadableMint: prepare('INSERT OR IGNORE INTO unreadable_tx_mint (mint, signature) VALUES (?, ?)'),
      deleteUnreadable: prepare('DELETE FROM unreadable_tx WHERE signature = ?'),
      deleteUnreadableMints: prepare('DELETE FROM unreadable_tx_mint WHERE signature = ?'),
      unreadableDue: prepare(
        'SELECT signature, slot, reason, detail, failures, first_failed_at_ms AS firstFailedAtMs, last_tried_at_ms AS lastTriedAtMs FROM unreadable_tx WHERE last_tried_at_ms <= ? ORDER BY last_tried_at_ms, slot LIMIT ?',
      ),
      unreadableMintsOf: prepare('SELECT mint FROM unreadable_tx_mint WHERE signature = ? ORDER BY mint').pluck(),
      // the launches an unreadable transaction of unknown launches may belong to (launchesAround)
      createdInSlots: prepare('SELECT mint FROM launch WHERE creation_slot BETWEEN ? AND ?').pluck(),
      aliveAndGraduatedAt: prepare('SELECT mint FROM launch WHERE graduated_at_ms >= @t AND created_at_ms <= @t').pluck(),
      unreadableFor: prepare('SELECT signature FROM unreadable_tx_mint WHERE mint = ? ORDER BY signature').pluck(),
      anyUnreadableFor: prepare('SELECT 1 FROM unreadable_tx_mint WHERE mint = ? LIMIT 1').pluck(),
      countUnreadable: prepare('SELECT reason, count(*) AS n FROM unreadable_tx GROUP BY reason ORDER BY reason'),
      lastRun: prepare(
        'SELECT id, started_at_ms AS startedAtMs, last_beat_ms AS lastBeatMs, stopped_at_ms AS stoppedAtMs, start_slot AS startSlot, tip_slot AS tipSlot FROM collector_run ORDER BY last_beat_ms DESC, id DESC LIMIT 1',
      ),
    };
  }

  getLaunch(mint: string): StoredLaunch | undefined {
    const r = this.s.getLaunch.get(mint) as (Omit<StoredLaunch, 'settled'> & { settled: number }) | undefined;
    return r && { ...r, settled: r.settled === 1 };
  }

  /**
   * {@link getLaunch} with the document as its stored UTF-8 bytes, not decoded to a string: for
   * answers that copy the document into a response as it is (the token endpoint, the batch). Kept in memory
   * while nothing may have changed it (see {@link launchMemo}): the object and its bytes are shared
   * by the callers of one mark and must not be changed.
   */
  getLaunchBytes(mint: string): StoredLaunch<Buffer> | undefined {
    if (!this.launchMemoValid()) return this.readLaunchBytes(mint);
    const hit = this.launchMemo.get(mint);
    if (hit !== undefined) return hit ?? undefined;
    const row = this.readLaunchBytes(mint);
    this.keepLaunch(mint, row);
    return row;
  }

  private readLaunchBytes(mint: string): StoredLaunch<Buffer> | undefined {
    const r = this.s.getLaunchBytes.get(mint) as [Buffer, string, number, FindingClass, Origin, number] | undefined;
    return r && { mint, document: r[0], sha256: r[1], settled: r[2] === 1, findingClass: r[3], origin: r[4], updatedAtMs: r[5] };
  }

  /**
   * Whether {@link launchMemo} may be read and filled now: false inside a transaction (see {@link readEpoch}).
   */
  private launchMemoValid(): boolean {
    return this.readEpoch() !== null;
  }

  /**
   * What this connection reads now, as a number that changes whenever it may have changed: another
   * connection committed (the turn's `PRAGMA data_version`) or this one wrote (`total_changes()`,
   * rolled back or not). Values kept in memory with the epoch they were read under are still what
   * the database holds while it is the same (the kept rows of {@link getLaunchBytes}, the list pages
   * of src/server/list-page-memo.ts). Null inside a transaction, where nothing may be kept. A commit
   * of another process is seen from the next event-loop turn.
   */
  readEpoch(): number | null {
    if (this.db.inTransaction) return null;
    const dataVersion = this.dataVersionThisTurn();
    const changes = this.s.totalChanges.get() as number;
    const mark = this.launchMemoMark;
    if (mark.dataVersion !== dataVersion || mark.changes !== changes) {
      this.launchMemo.clear();
      this.launchMemoMark = { dataVersion, changes };
      this.epoch++;
    }
    return this.epoch;
  }

  private keepLaunch(mint: string, row: StoredLaunch<Buffer> | undefined): void {
    if (this.launchMemo.size >= LAUNCH_MEMO_MAX) this.launchMemo.delete(this.launchMemo.keys().next().value!);
    this.launchMemo.set(mint, row ?? null);
  }

  /**
   * {@link getLaunchBytes} of several mints: those kept in memory from there, the others in one
   * statement (`mint IN (SELECT value FROM json_each(?))`, then kept): the rows held, by mint; a
   * mint not held is absent. For 100 mints of a 1,000,000-record archive the statement costs about
   * a fifth less CPU than a lookup per mint (1,880 against 2,300 µs).
   */
  getLaunchesBytes(mints: readonly string[]): Map<string, StoredLaunch<Buffer>> {
    const held = new Map<string, StoredLaunch<Buffer>>();
    if (mints.length === 0) return held;
    const memo = this.launchMemoValid();
    let ask: readonly string[] = mints;
    if (memo) {
      const missing: string[] = [];
      for (const m of mints) {
        const hit = this.launchMemo.get(m);
        if (hit === undefined) missing.push(m);
        else if (hit !== null) held.set(m, hit);
      }
      ask = missing;
    }
    if (ask.length === 0) return held;
    const read = new Map<string, StoredLaunch<Buffer>>();
    for (const r of this.s.getLaunchesBytes.iterate(JSON.stringify(ask)) as Iterable<[Buffer, string, number, FindingClass, Origin, number, string]>) {
      read.set(r[6], { mint: r[6], document: r[0], sha256: r[1], settled: r[2] === 1, findingClass: r[3], origin: r[4], updatedAtMs: r[5] });
    }
    for (const m of ask) {
      const row = read.get(m);
      if (row) held.set(m, row);
      if (memo) this.keepLaunch(m, row);
    }
    return held;
  }

  /** The sha256 of a held record's document (no document read), if any. */
  launchSha256(mint: string): string | undefined {
    return this.s.getSha256.get(mint) as string | undefined;
  }

  /**
   * The creation slot and blockTime (unix seconds; null when the creation transaction had none) of a
   * held launch whose creation is known, from the launch columns (no document parse); undefined otherwise.
   */
  creationAt(mint: string): CreationAt | undefined {
    const r = this.s.getCreation.get(mint) as { slot: number; createdAtMs: number | null } | undefined;
    // created_at_ms is 0 when the creation transaction had no blockTime (build-launch: blockTime ?? 0)
    return r && { slot: r.slot, blockTime: r.createdAtMs ? r.createdAtMs / 1000 : null };
  }

  /** The stored origin of a record, if any, and whether the record holds its creation transaction. */
  getOrigin(mint: string): { origin: Origin; observedAtLaunch: boolean; hasCreation: boolean } | undefined {
    const r = this.s.getOrigin.get(mint) as { origin: Origin; observedAtLaunch: number; hasCreation: number } | undefined;
    return r && { origin: r.origin, observedAtLaunch: r.observedAtLaunch === 1, hasCreation: r.hasCreation === 1 };
  }

  /**
   * Insert or replace a launch record from its document (canonical text + sha256 computed by the
   * caller). A held row whose indexed columns ({@link KEYED_COLUMNS}: those of launch's indexes, their
   * WHERE clauses and the FTS index) keep their values — most record changes: a trade moves the
   * document, not the creator, class or name — is written by an UPDATE of the other columns only,
   * so SQLite leaves its eleven indexes alone (an upsert of every column re-keys each of them:
   * about 185 µs against 65 µs a write, measured on the ingest bench's 500 records). Either way the
   * row ends with the same values, and the change_seq trigger (UPDATE OF sha256) fires the same.
   */
  putLaunch(doc: LaunchDocument, bondingCurve: string | null, document: string, sha256: string, nowMs: number): boolean {
    const row = this.launchRow(doc, bondingCurve, document, sha256, nowMs);
    const held = this.s.launchKeyed.get(doc.mint) as unknown[] | undefined;
    const keyedChanged = !held || !KEYED_COLUMNS.every(([, param], i) => held[i] === row[param]);
    if (keyedChanged) this.s.upsertLaunch.run(row);
    else this.s.updateLaunchUnkeyed.run(row);
    this.s.addPending.run(doc.mint);
    // the launch's other addresses, for a search that holds one of them (public migration 25)
    if (bondingCurve) this.s.putAddress!.run(bondingCurve, doc.mint, 'bonding_curve');
    if (doc.pool?.address && doc.launch?.graduated) this.s.putAddress!.run(doc.pool.address, doc.mint, 'pool');
    return keyedChanged;
  }

  /** The launch whose bonding curve or canonical pool `address` is (public migration 25), or undefined. */
  launchOfAddress(address: string): { mint: string; kind: 'bonding_curve' | 'pool' } | undefined {
    return this.s.launchOfAddress?.get(address) as { mint: string; kind: 'bonding_curve' | 'pool' } | undefined;
  }

  /** The column values of a launch row (statement parameters by name), from its document. */
  private launchRow(doc: LaunchDocument, bondingCurve: string | null, document: string, sha256: string, nowMs: number): Record<LaunchParam, string | number | null> {
    return {
      mint: doc.mint,
      bondingCurve,
      creator: doc.launch?.creator ?? null,
      creationSignature: doc.launch?.transaction.signature ?? null,
      creationSlot: doc.launch?.transaction.slot ?? null,
      createdAtMs: doc.launch?.createdAt?.ms ?? null,
      origin: doc.origin,
      observedAtLaunch: doc.observedAtLaunch ? 1 : 0,
      findingClass: doc.finding.class,
      cleanAtBirth: doc.cleanAtBirth === null ? null : doc.cleanAtBirth ? 1 : 0,
      settled: doc.settled ? 1 : 0,
      methodVersion: doc.methodVersion,
      document,
      sha256,
      updatedAtMs: nowMs,
      cohortUnknown: doc.launch !== null && doc.history.complete && doc.funder.sharedCohort === null ? 1 : 0,
      // list and search columns (migration 9); the FTS index follows name and symbol by trigger
      name: doc.name,
      symbol: doc.symbol,
      findingLabel: doc.finding.label,
      findingWhy: doc.finding.why,
      graduatedAtMs: doc.launch?.graduatedAt?.ms ?? null,
      // the pool refresh's list (migration 12): graduated to a PumpSwap pool, not the Raydium-era withdraw
      poolRefresh: doc.launch?.graduated === true && doc.launch.graduationConfirmedBy !== 'withdraw' ? 1 : 0,
      // the list's graduated filter (migration 19; 2, unknown, since migration 23: graduated=false is only what the record establishes)
      graduated: GRADUATED_COLUMN[graduation(doc)],
    };
  }

  /** Keep a decoded transaction under a mint; a second insert of the same (mint, signature) is ignored. Returns whether it was added. */
  /**
   * Note the unreadable program data of a successful transaction (its `skipped` items naming a
   * program: the drift guard's input). Must run inside the caller's SQLite transaction.
   * @returns the discriminators seen for the first time (the collector warns once for each)
   */
  noteUnrecognised(tx: DecodedTransaction, nowMs: number): { program: string; kind: string; discriminator: string }[] {
    if (tx.err !== null) return [];
    const fresh: { program: string; kind: string; discriminator: string }[] = [];
    const seen = new Set<string>();
    for (const item of unrecognisedOf(tx)) {
      const key = { program: item.program ?? '', kind: item.kind ?? 'data', discriminator: item.discriminator ?? '' };
      const id = `${key.program} ${key.kind} ${key.discriminator}`;
      if (seen.has(id)) continue;
      seen.add(id);
      if (this.s.isUnrecognisedKnown.get(key.program, key.kind, key.discriminator) === undefined) fresh.push(key);
      this.s.seenUnrecognised.run({ ...key, signature: tx.signature, nowMs });
    }
    return fresh;
  }

  /** Unreadable program data last seen at or after `sinceMs` (status: the last 24 h), newest first, at most 100. */
  unrecognisedSince(sinceMs: number): { program: string; kind: string; discriminator: string; count: number; firstSignature: string; firstSeenMs: number; lastSeenMs: number }[] {
    return this.s.unrecognisedSince.all(sinceMs) as ReturnType<PublicStore['unrecognisedSince']>;
  }

  /** `text`: the transaction's JSON when the caller has it already (one per transaction, however many mints it touches). */
  addTransaction(mint: string, tx: DecodedTransaction, text = JSON.stringify(tx)): boolean {
    const added = this.s.insertTx.run(mint, tx.signature, tx.slot ?? 0, tx.blockTime, tx.err === null ? 0 : 1, text).changes === 1;
    if (added && tx.err === null) for (const wallet of curveTraders(mint, tx)) this.s.seeWallet!.run(wallet);
    return added;
  }

  /**
   * Whether the archive has seen `wallet` trade a curve it holds (table wallet_seen, public migration
   * 24: the user of a successful pump TradeEvent of a launch's mint in its kept transactions). With
   * its roles (walletRoles), what spec §2.4's `inArchive` says: a wallet with neither was never seen.
   */
  walletSeen(wallet: string): boolean {
    return this.s.walletSeen?.get(wallet) === 1;
  }

  /**
   * How many transactions the store keeps for a mint (rows are only ever added). Reads every row
   * key of the mint: thousands on a long curve, so not for each batch (see {@link changeMark}).
   */
  transactionCount(mint: string): number {
    return this.s.countTxForMint.get(mint) as number;
  }

  /** Whether the store keeps a transaction of `mint` other than `signature` (reads at most two row keys). */
  hasTransactionBesides(mint: string, signature: string): boolean {
    return this.s.hasOtherTx.get(mint, signature) === 1;
  }

  /**
   * What tells a reader whether the rows this connection sees changed other than by its own
   * committed writes: `otherWriters` changes when another connection committed (SQLite's
   * `PRAGMA data_version`), `rollbacks` grows when a {@link transaction} of this one rolled back.
   * The collector's transaction cache checks its lists against the store only then.
   */
  changeMark(): { otherWriters: number; rollbacks: number } {
    return { otherWriters: this.s.dataVersion.get() as number, rollbacks: this.rollbacks };
  }

  /** One kept transaction of a mint, or undefined. */
  transactionOf(mint: string, signature: string): DecodedTransaction | undefined {
    const raw = this.s.txOf.get(mint, signature) as string | undefined;
    return raw === undefined ? undefined : (JSON.parse(raw) as DecodedTransaction);
  }

  /**
   * Up to `limit` buyouts whose afterwards is due: never read, or read to the end at or before
   * `checkedBeforeMs` (a read that stopped early is stored with 0, so it comes first). Buyouts that
   * cannot be followed are not listed again.
   */
  dueBuyouts(checkedBeforeMs: number, limit: number): DueBuyout[] {
    return (this.s.dueBuyouts.all(checkedBeforeMs, limit) as (Omit<DueBuyout, 'state'> & { state: string | null })[]).map((r) => ({
      ...r,
      state: r.state === null ? null : (JSON.parse(r.state) as AfterwardsState),
    }));
  }

  /**
   * Store what a buyout's wallet did afterwards (`state` null with a `reason` when it cannot be
   * followed; `checkedAtMs` 0: not read to the end yet). The wallet's page is marked to be written
   * again (pending_wallet_page) when what it shows of the buyout changed ({@link afterwardsShown}):
   * not when a sweep only found the account as it was.
   */
  putAfterwards(mint: string, wallet: string, state: AfterwardsState | null, reason: string | null, checkedAtMs: number): void {
    this.transaction(() => {
      const before = this.s.afterwardsRow.get(mint, wallet) as { state: string | null; reason: string | null; checkedAtMs: number } | undefined;
      this.s.putAfterwards.run(mint, wallet, state === null ? null : JSON.stringify(state), reason, checkedAtMs);
      const was = before ? afterwardsShown(before.state === null ? null : (JSON.parse(before.state) as AfterwardsState), before.reason, before.checkedAtMs) : null;
      if (was !== afterwardsShown(state, reason, checkedAtMs)) this.s.markWallet.run(wallet);
    });
  }

  /** The followed afterwards of every buyout of a wallet (rows of buyouts read at least once). */
  afterwardsOfWallet(wallet: string): StoredAfterwards[] {
    return (this.s.afterwardsOfWallet.all(wallet) as (Omit<StoredAfterwards, 'state'> & { state: string | null })[]).map((r) => ({
      ...r,
      state: r.state === null ? null : (JSON.parse(r.state) as AfterwardsState),
    }));
  }

  /** Every kept transaction of a mint, oldest slot first (within a slot: the order they were stored). */
  transactionsFor(mint: string): DecodedTransaction[] {
    return this.transactionsAndBytesFor(mint).txs;
  }

  /** {@link transactionsFor}, with the length of their stored JSON in all (characters). */
  transactionsAndBytesFor(mint: string): { txs: DecodedTransaction[]; bytes: number } {
    let bytes = 0;
    const txs = (this.s.txsForMint.all(mint) as { decoded: string }[]).map((r) => {
      bytes += r.decoded.length;
      return JSON.parse(r.decoded) as DecodedTransaction;
    });
    return { txs, bytes };
  }

  getCursor(name: string): { signature: string | null; slot: number | null; updatedAtMs: number } | undefined {
    return this.s.getCursor.get(name) as { signature: string | null; slot: number | null; updatedAtMs: number } | undefined;
  }

  setCursor(name: string, signature: string | null, slot: number | null, nowMs: number): void {
    this.s.setCursor.run(name, signature, slot, nowMs);
  }

  /**
   * The program listing found nothing newer than its cursor while the chain tip was at least
   * `tipSlot` (the tip read before it): the records are current through that slot, though no
   * signature moved the cursor (`null`: the last listing found signatures, so only the cursor says).
   */
  setProgramCaughtUp(tipSlot: number | null): void {
    const text = tipSlot === null ? '' : String(tipSlot);
    if ((this.getMeta(PROGRAM_CAUGHT_UP_META) ?? '') !== text) this.setMeta(PROGRAM_CAUGHT_UP_META, text);
  }

  /**
   * The slot the records are current through, for the lag (tip − this): the program cursor's slot,
   * or the tip at the last listing that found nothing newer, whichever is later; null before any
   * cursor. A quiet chain (no pump transaction for a while) is not a collector falling behind.
   */
  programCurrentSlot(): number | null {
    const cursor = this.getCursor('program')?.slot ?? null;
    if (cursor === null) return null;
    const caughtUp = Number(this.getMeta(PROGRAM_CAUGHT_UP_META) || 0);
    return Math.max(cursor, Number.isSafeInteger(caughtUp) ? caughtUp : 0);
  }

  getMeta(key: string): string | undefined {
    return (this.s.getMeta.get(key) as { value: string } | undefined)?.value;
  }

  setMeta(key: string, value: string): void {
    this.coverageWrites++;
    this.s.setMeta.run(key, value);
  }

  /** Add `n` to an integer meta value (0 when unset) in one statement; returns the new value. */
  addToMeta(key: string, n: number): number {
    this.coverageWrites++;
    // `.all()` so the write steps to its end and SQLite's automatic checkpoint runs (src/db/checkpoint.ts).
    return Number((this.s.addToMeta.all(key, String(n)) as { value: string }[])[0].value);
  }

  /** Set a meta value only if it was never set (e.g. coverage.from, which never moves). */
  setMetaOnce(key: string, value: string): void {
    this.coverageWrites++;
    this.s.insertMetaOnce.run(key, value);
  }

  /**
   * The records held, by origin and class, and the launches observed at creation: read from the
   * counts the launch table's triggers keep (public migration 17), a few rows whatever the
   * archive's size.
   */
  counts(): ArchiveCounts {
    const rows = this.s.countRows.all() as { origin: string; findingClass: string; observed: number; n: number }[];
    const byOrigin: Record<string, number> = {};
    const byClass: Record<string, number> = {};
    const byOriginAndClass: Record<string, Record<string, number>> = {};
    let records = 0;
    let launches = 0;
    for (const r of rows) {
      records += r.n;
      if (r.observed === 1) launches += r.n;
      byOrigin[r.origin] = (byOrigin[r.origin] ?? 0) + r.n;
      byClass[r.findingClass] = (byClass[r.findingClass] ?? 0) + r.n;
      const inOrigin = (byOriginAndClass[r.origin] ??= {});
      inOrigin[r.findingClass] = (inOrigin[r.findingClass] ?? 0) + r.n;
    }
    return { launches, records, byOrigin, byClass, byOriginAndClass };
  }

  /** A new collector run starting at `nowMs` with the chain tip `startSlot` (null: unknown). */
  startRun(nowMs: number, startSlot: number | null = null): number {
    this.coverageWrites++;
    return Number(this.s.startRun.run(nowMs, nowMs, startSlot, startSlot).lastInsertRowid);
  }

  /**
   * The run is alive at `nowMs`; `tipSlot` (when known) is the chain tip now. With the tip, the lag
   * (tip − {@link programCurrentSlot}) joins the samples `/api/v1/status` reads `fallingBehind` from
   * (core/falling-behind.ts: at most one every 5 s, the last 3 minutes).
   */
  heartbeat(runId: number, nowMs: number, tipSlot: number | null = null): void {
    this.coverageWrites++;
    this.s.beat.run(nowMs, tipSlot, runId);
    const currentSlot = tipSlot === null ? null : this.programCurrentSlot();
    if (tipSlot === null || currentSlot === null) return;
    const kept = parseLagSamples(this.getMeta(LAG_SAMPLES_META));
    const next = keepLagSample(kept, { atMs: nowMs, lagSlots: Math.max(0, tipSlot - currentSlot) });
    if (next !== kept) this.setMeta(LAG_SAMPLES_META, formatLagSamples(next));
  }

  stopRun(runId: number, nowMs: number): void {
    this.coverageWrites++;
    this.s.stopRun.run(nowMs, nowMs, runId);
  }

  /** Mints whose page and document are to be (re)written (marked in the transaction that changed the record), the longest marked first. */
  pendingPages(): string[] {
    return (this.s.listPending.all() as { mint: string }[]).map((r) => r.mint);
  }

  /**
   * Up to `limit` of the {@link pendingPages} marks, oldest first, after the mark `afterId` (0: from
   * the first): a publish pass reads them a page at a time, so a pass that stops at its time budget
   * does not read every mark (100,000s after an upgrade marks every page).
   */
  pendingPagesAfter(afterId: number, limit: number): { id: number; mint: string }[] {
    return this.s.listPendingAfter.all(afterId, limit) as { id: number; mint: string }[];
  }

  /** Whether any page is marked to be written. */
  hasPendingPages(): boolean {
    return this.s.anyPending.get() === 1;
  }

  /**
   * List every record's page (newest launch first) and every creator page to be written again, and
   * note `version` as the template the pages are written by (meta `key`), in one transaction.
   * Returns how many were listed (a page listed already is not listed twice).
   */
  backlogAllPages(metaKey: string, version: number): { tokens: number; wallets: number } {
    return this.transaction(() => {
      const tokens = this.s.backlogTokens.run().changes;
      const wallets = this.s.backlogWallets.run().changes;
      this.setMeta(metaKey, String(version));
      return { tokens, wallets };
    });
  }

  /** Up to `limit` pages of the backlog after `afterId`, oldest listed first: `kind` token (key: a mint) or wallet (key: an address). */
  pageBacklog(afterId: number, limit: number): { id: number; kind: 'token' | 'wallet'; key: string }[] {
    return this.s.backlogChunk.all(afterId, limit) as { id: number; kind: 'token' | 'wallet'; key: string }[];
  }

  /** Take pages written off the backlog, in one transaction. */
  clearPageBacklog(ids: readonly number[]): void {
    if (!ids.length) return;
    this.transaction(() => {
      for (const id of ids) this.s.clearBacklog.run(id);
    });
  }

  /** How many pages wait in the backlog (0 on a database without it). One count of the table: about 8 ms over 1,000,000 pages. */
  pageBacklogCount(): number {
    return schemaHas(this.db, 'table', 'page_backlog') ? (this.s.countBacklog.get() as number) : 0;
  }

  /** Whether any page waits in the backlog (false on a database without it: a generation of an older schema). */
  hasPageBacklog(): boolean {
    return schemaHas(this.db, 'table', 'page_backlog') && this.s.anyBacklog.get() === 1;
  }

  /**
   * Clear the marks of pages written, in one transaction: `written` maps each mint to the sha256 of
   * the document written (undefined: no record held). A mark stays when the record changed since
   * (another process committed after the read), so its newer document is written next time.
   */
  clearPending(written: Map<string, string | undefined>): void {
    this.transaction(() => {
      for (const [mint, sha256] of written) this.s.clearPending.run(mint, mint, sha256 ?? null);
    });
  }

  /**
   * A wallet's first funding source, or undefined when not established. Established facts are
   * remembered ({@link funders}): a wallet_funder row is never changed or deleted once written
   * (putFunder's first answer stays), so a fact read once holds for the life of this connection,
   * and the collector asks for the same cohort wallets at every batch and record build.
   */
  funderOf(wallet: string): FunderFact | undefined {
    const known = this.funders.get(wallet);
    if (known !== undefined) return known;
    const r = this.s.getFunder.get(wallet) as { state: 'found' | 'none'; funder: string | null; signature: string | null; slot: number | null } | undefined;
    if (!r) return undefined;
    const fact: FunderFact = r.state === 'found' ? { state: 'found', funder: r.funder!, signature: r.signature!, slot: r.slot! } : { state: 'none' };
    if (this.funders.size >= FUNDER_MEMO_MAX) this.funders.clear();
    this.funders.set(wallet, fact);
    return fact;
  }

  /** Keep a wallet's first funding source (the first answer stays: the oldest transfer never changes). */
  putFunder(wallet: string, fact: FunderFact, nowMs: number): void {
    if (fact.state === 'found') this.s.putFunder.run(wallet, 'found', fact.funder, fact.signature, fact.slot, nowMs);
    else this.s.putFunder.run(wallet, 'none', null, null, null, nowMs);
    this.s.deleteAttempt.run(wallet);
  }

  /** The latest unfinished funder lookup of a wallet (table wallet_funder_attempt), if any. */
  funderAttempt(wallet: string): { reason: FunderUnknownReason; pageCap: number; txCap: number } | undefined {
    return this.s.getAttempt.get(wallet) as { reason: FunderUnknownReason; pageCap: number; txCap: number } | undefined;
  }

  /** Remember why a wallet's funder lookup could not finish, with the caps in force. */
  putFunderAttempt(wallet: string, reason: FunderUnknownReason, caps: { pageCap: number; txCap: number }, nowMs: number): void {
    this.s.putAttempt.run(wallet, reason, caps.pageCap, caps.txCap, nowMs);
  }

  /** Up to `limit` mints graduated to a PumpSwap pool (not by a Raydium-era withdraw), in mint order after `after`. */
  graduatedMints(after: string, limit: number): string[] {
    return this.s.graduatedAfter.all(after, limit) as string[];
  }

  /**
   * Whether the funder sweep should take up a record whose cohort is unknown (launch.cohort_unknown,
   * which putLaunch sets from the document alone): `pending` — some cohort wallet's funder is not
   * established yet and a lookup may still give it — or not, when every cohort wallet's lookup
   * ended and one of them found no SOL transfer (markers-v9: unknown for good, its history being
   * complete), so the sweep does not take it up again every round, ahead of records it can complete.
   */
  markCohortPending(mint: string, pending: boolean): void {
    const v = pending ? 1 : 0;
    this.s.setCohortUnknown.run(v, mint, v);
  }

  /** Up to `limit` mints whose record's funding cohort is unknown (launch.cohort_unknown), in mint order after `after`. */
  cohortUnknownMints(after: string, limit: number): string[] {
    return this.s.cohortUnknownAfter.all(after, limit) as string[];
  }

  /**
   * How many records wait for the funder sweep (launch.cohort_unknown = 1: a cohort not yet read, or
   * queued by a migration to be recorded again under a new method), and how many of those a method
   * other than `methodVersion` made. Counted on the partial index launch_cohort_unknown (the
   * second count reads those rows): for the sweep's log line, not for every request.
   */
  sweepQueue(methodVersion: string): { records: number; olderMethod: number } {
    const row = this.db
      .prepare('SELECT count(*) AS records, coalesce(sum(method_version IS NOT ?), 0) AS olderMethod FROM launch WHERE cohort_unknown = 1')
      .get(methodVersion) as { records: number; olderMethod: number };
    return row;
  }

  /**
   * Replace the wallet roles of one launch (inside the caller's transaction). The rows are rewritten
   * only when the roles differ from those held (after a launch's first 30 s they rarely do, while
   * every trade rewrites its record). The creator pages of the wallets named before and after are
   * marked when the roles differ, or when `summaryChanged` says the launch's summary those pages show
   * (name, symbol, class, creation time: putLaunch's return) may have: a trade that changes neither
   * marks none. Marking each named wallet on every write made a busy launch's trades rewrite the
   * pages of all its early buyers, over and over.
   */
  putWalletRoles(mint: string, roles: WalletRole[], summaryChanged = true): void {
    const held = this.s.rolesOfMint.all(mint) as { wallet: string; role: string; signature: string; slot: number; detail: string }[];
    const mark = () => {
      for (const w of new Set([...held.map((r) => r.wallet), ...roles.map((r) => r.wallet)])) this.s.markWallet.run(w);
    };
    const rows = roles.map((r) => ({ wallet: r.wallet, role: r.role as string, signature: r.signature, slot: r.slot, detail: JSON.stringify(r.detail) }));
    const next = [...rows]
      .sort((a, b) => (a.wallet < b.wallet ? -1 : a.wallet > b.wallet ? 1 : a.role < b.role ? -1 : a.role > b.role ? 1 : 0));
    const same = held.length === next.length && held.every((h, i) => {
      const n = next[i]!;
      return h.wallet === n.wallet && h.role === n.role && h.signature === n.signature && h.slot === n.slot && h.detail === n.detail;
    });
    if (same) {
      if (summaryChanged) mark();
      return;
    }
    mark();
    this.s.deleteRoles.run(mint);
    for (const r of rows) this.s.insertRole.run(r.wallet, mint, r.role, r.signature, r.slot, r.detail);
  }

  /** Wallets whose creator page is to be (re)written, the longest marked first, with the mark's sequence number (for {@link clearPendingWallets}). */
  pendingWalletPages(): { wallet: string; seq: number }[] {
    return this.s.listPendingWallets.all() as { wallet: string; seq: number }[];
  }

  /** Up to `limit` of the {@link pendingWalletPages} marks, oldest first, after the mark `afterId` (0: from the first); as {@link pendingPagesAfter}. */
  pendingWalletPagesAfter(afterId: number, limit: number): { id: number; wallet: string; seq: number }[] {
    return this.s.listPendingWalletsAfter.all(afterId, limit) as { id: number; wallet: string; seq: number }[];
  }

  /** Clear the marks of creator pages written, unless marked again since they were read (seq changed). */
  clearPendingWallets(written: { wallet: string; seq: number }[]): void {
    this.transaction(() => {
      for (const w of written) this.s.clearPendingWallet.run(w.wallet, w.seq);
    });
  }

  /**
   * What a wallet's creator page shows, bounded whatever the wallet did: of each role (creator,
   * buyout, bundled, early) the newest `perRole` with a summary of its launch, and the counts of
   * all (public migration 18: index wallet_role_newest, table wallet_role_count). Read in one
   * transaction, so the rows and the counts agree.
   */
  walletPage(wallet: string, perRole: number): WalletPageRows {
    return this.db.transaction((): WalletPageRows => {
      const roles: WalletLaunchRole[] = [];
      for (const role of WALLET_ROLES) {
        for (const r of this.s.walletRolesNewest.all(wallet, role, perRole) as (Omit<WalletLaunchRole, 'detail'> & { detail: string })[]) {
          roles.push({ ...r, detail: JSON.parse(r.detail) as Record<string, unknown> });
        }
      }
      const totals = this.walletRoleTotals(wallet);
      const createdByClass: WalletPageRows['createdByClass'] = {};
      for (const c of this.s.walletCreatedByClass.all(wallet) as { findingClass: FindingClass; n: number }[]) createdByClass[c.findingClass] = c.n;
      return { roles, totals, createdByClass, afterwards: totals.buyout > 0 ? this.afterwardsOfWallet(wallet) : [] };
    })();
  }

  /**
   * A wallet's roles across the launches held, for its wallet record: every buyout, and of each
   * other role (creator, bundled, early) the newest `perRole`; each kind oldest first (slot, then
   * mint). With every role counted by kind (wallet_role_count, public migration 18), read in the
   * same transaction.
   */
  walletRoles(wallet: string, perRole: number): { roles: StoredWalletRole[]; totals: WalletPageRows['totals'] } {
    return this.db.transaction(() => {
      const roles: StoredWalletRole[] = [];
      for (const role of WALLET_ROLES) {
        const rows = this.s.walletRolesOfKind.all(wallet, role, role === 'buyout' ? -1 : perRole) as (Omit<StoredWalletRole, 'detail'> & { detail: string })[];
        for (let i = rows.length - 1; i >= 0; i--) roles.push({ ...rows[i]!, detail: JSON.parse(rows[i]!.detail) as Record<string, unknown> });
      }
      return { roles, totals: this.walletRoleTotals(wallet) };
    })();
  }

  /** Every role of a wallet counted by kind (0 when none). */
  private walletRoleTotals(wallet: string): WalletPageRows['totals'] {
    const totals: WalletPageRows['totals'] = { creator: 0, buyout: 0, bundled: 0, early: 0 };
    for (const t of this.s.walletRoleTotals.all(wallet) as { role: WalletRole['role']; n: number }[]) totals[t.role] = t.n;
    return totals;
  }

  /**
   * Record a transaction the collector could not read (or one more failed read of it): `failures`
   * is added to its count; reason and detail become the latest; `mints` (the launches it may
   * belong to) are added to those known.
   */
  putUnreadable(t: { signature: string; slot: number; reason: UnreadableReason; detail: string; failures: number; mints: readonly string[]; named?: boolean }, nowMs: number): void {
    this.s.putUnreadable.run(t.signature, t.slot, t.reason, t.detail, t.failures, nowMs, nowMs, t.named ? 1 : 0);
    for (const m of t.mints) this.s.putUnreadableMint.run(m, t.signature);
  }

  /**
   * The unreadable transactions no notification named (public migration 26) whose slot is in
   * `fromSlot..toSlot` (a graduated launch's life), each now also listed under `mint`, so the
   * launch's record counts them and is recorded again when they are read (src/ingest/record-launch.ts).
   */
  claimUnnamedUnreadable(mint: string, fromSlot: number, toSlot: number): void {
    for (const signature of (this.s.unnamedUnreadableIn?.all(fromSlot, toSlot) ?? []) as string[]) this.s.putUnreadableMint.run(mint, signature);
  }

  /** The transaction was read: it is no longer unreadable (no-op when it was not listed). */
  clearUnreadable(signature: string): void {
    this.s.deleteUnreadable.run(signature);
    this.s.deleteUnreadableMints.run(signature);
  }

  /**
   * The held launches a transaction at `slot` (chain time `timeMs`, when known) may belong to when
   * nothing names them (an unreadable transaction no logs notification was heard for, whose answer
   * shows no held mint): those created in the {@link AROUND_SLOTS} slots up to it — its launch's bundle
   * and first 30 s, whose facts it could change — and those that graduated after it having been created
   * before it: a graduated launch's history is not checked against its curve account (the reserves have
   * left it), so a trade missing from it would go unseen. A launch not graduated is checked against
   * its curve account when next touched (collector/enrich/history-check.ts). Methodology "History and origin".
   */
  launchesAround(slot: number, timeMs: number | null): string[] {
    const mints = new Set(this.s.createdInSlots.all(Math.max(0, slot - AROUND_SLOTS), slot) as string[]);
    if (timeMs !== null) for (const m of this.s.aliveAndGraduatedAt.all({ t: timeMs }) as string[]) mints.add(m);
    return [...mints].sort();
  }

  /** Up to `limit` unreadable transactions last tried at or before `triedBeforeMs`, least recently tried first. */
  unreadableDue(triedBeforeMs: number, limit: number): UnreadableTransaction[] {
    return (this.s.unreadableDue.all(triedBeforeMs, limit) as Omit<UnreadableTransaction, 'mints'>[]).map((r) => ({ ...r, mints: this.s.unreadableMintsOf.all(r.signature) as string[] }));
  }

  /**
   * Signatures of the unreadable transactions that may belong to the launch `mint` (sorted): while
   * any is listed, the launch's history may be missing a transaction.
   */
  unreadableFor(mint: string): string[] {
    // Almost every launch has none, and a .get() answers that in about a quarter of the CPU time
    // of an empty .all() (measured on the bench chain: ~4 µs against ~18 µs; every record build asks).
    if (this.s.anyUnreadableFor.get(mint) === undefined) return [];
    return this.s.unreadableFor.all(mint) as string[];
  }

  /** How many transactions are unreadable now, in all and by reason (status `unreadable`). */
  unreadableCounts(): UnreadableCounts {
    const byReason: Partial<Record<UnreadableReason, number>> = {};
    let transactions = 0;
    for (const r of this.s.countUnreadable.all() as { reason: UnreadableReason; n: number }[]) {
      byReason[r.reason] = r.n;
      transactions += r.n;
    }
    return { transactions, byReason };
  }

  /** Record an interval the collector was not watching (once per start). */
  addGap(gap: CoverageGap): void {
    this.coverageWrites++;
    this.s.insertGap.run(gap.fromMs, gap.toMs, gap.fromSlot, gap.toSlot);
  }

  gaps(): CoverageGap[] {
    return this.s.gaps.all() as CoverageGap[];
  }

  /** Total length and number of the coverage gaps. */
  gapTotal(): { ms: number; count: number } {
    const r = this.s.gapTotal.get() as { ms: number; n: number };
    return { ms: r.ms, count: r.n };
  }

  /** The run with the newest heartbeat. */
  lastRun(): CollectorRun | undefined {
    return this.s.lastRun.get() as CollectorRun | undefined;
  }

  /**
   * The rows the `coverage` object is computed from ({@link CoverageReads}), read once and kept
   * while nothing may have changed them: no other connection committed (`PRAGMA data_version`,
   * read once per event-loop turn, as the private store's key cache does: a commit of another
   * process is seen from the next turn on) and this connection neither wrote meta, runs or gaps
   * nor rolled back. Inside a transaction they are read each time (what it wrote may roll back).
   * The same object is returned while it is kept. Keyed answers read it on every request; its
   * four statements cost more than the record's own lookup.
   */
  coverageReads(): CoverageReads {
    if (this.db.inTransaction) return this.readCoverage();
    const dataVersion = this.dataVersionThisTurn();
    const m = this.coverageMemo;
    if (m && m.dataVersion === dataVersion && m.writes === this.coverageWrites && m.rollbacks === this.rollbacks) return m.reads;
    const writes = this.coverageWrites;
    const rollbacks = this.rollbacks;
    const reads = this.readCoverage();
    this.coverageMemo = { reads, dataVersion, writes, rollbacks };
    return reads;
  }

  private readCoverage(): CoverageReads {
    const gaps = this.s.gapTotal.get() as { ms: number };
    return {
      coverageFromMs: this.getMeta('coverage_from_ms'),
      unreachable: this.getMeta(UNREACHABLE_META),
      gapTotalMs: gaps.ms,
      lastBeatMs: this.lastRun()?.lastBeatMs ?? null,
    };
  }

  /** `PRAGMA data_version`, read once per event-loop turn (again after the turn's `setImmediate`). */
  private dataVersionThisTurn(): number {
    if (this.turnDataVersion === null) {
      this.turnDataVersion = this.s.dataVersion.get() as number;
      setImmediate(() => (this.turnDataVersion = null));
    }
    return this.turnDataVersion;
  }

  /** Run `fn` in one SQLite transaction (no awaits inside: better-sqlite3 transactions are synchronous). */
  transaction<T>(fn: () => T): T {
    try {
      return this.db.transaction(fn)();
    } catch (e) {
      // rolled back: a funder fact read inside it may not have been committed
      this.funders.clear();
      this.rollbacks++;
      throw e;
    }
  }

  close(): void {
    this.db.close();
  }
}

/**
 * The wallets that traded `mint`'s curve in `tx`: the `user` of each pump TradeEvent of that mint
 * (a buy or a sell, a multi-hop hop included), each once. What wallet_seen keeps (public migration
 * 24, the same rule in SQL). Pure.
 */
export function curveTraders(mint: string, tx: Pick<DecodedTransaction, 'events'>): string[] {
  const users = new Set<string>();
  for (const e of tx.events) {
    if (e.program === 'pump' && e.name === 'TradeEvent' && e.fields.mint === mint && typeof e.fields.user === 'string') users.add(e.fields.user);
  }
  return [...users];
}
