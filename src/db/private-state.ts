import type { AccountRow, AccountSummary, AdmitGrant, ApiKeyRow, CheckoutRow } from './private-store.ts';
import type { RebuildJob, StartLimits, StartOutcome } from './rebuild-jobs.ts';

/**
 * The private state every API node shares: API keys (HMAC hashes only), per-key daily request
 * counts, subscriber accounts, checkouts, applied payment events, and the rebuild job queue.
 *
 * Two implementations pass the same test suite (tests/integration/private-storage.test.ts):
 * - SQLite (`private.db`, src/db/private-state-sqlite.ts): the single-machine default; every
 *   method resolves at once (better-sqlite3 is synchronous);
 * - PostgreSQL (src/db/private-state-pg.ts), selected by `PRIVATE_DB_URL=postgres://…`: cluster
 *   mode, N API nodes over one database.
 * The interface is asynchronous so that both fit; callers await every method.
 *
 * Errors: every method rejects with {@link PrivateStateUnavailable} when the database cannot be
 * reached (the server answers 503 `unavailable`); other errors are bugs or constraint violations.
 */
export interface PrivateState {
  /** Which implementation (for logs and the status line). */
  readonly kind: 'sqlite' | 'postgres';

  /** Store a new key's hash; returns its id. Errors: rejects on a duplicate hash (a 2^-256 event). */
  insertKey(label: string, prefix: string, hash: string, nowMs: number, accountId?: number | null): Promise<number>;
  /** The key row of an HMAC hash (lower-case hex). */
  keyByHash(hash: string): Promise<ApiKeyRow | undefined>;
  keyById(id: number): Promise<ApiKeyRow | undefined>;
  /** Every key, oldest first. */
  listKeys(): Promise<ApiKeyRow[]>;
  /** Revoke a key; false when no such key or it was already revoked (revocation time never moves). */
  revokeKey(id: number, nowMs: number): Promise<boolean>;
  /**
   * Grant (`grantedAtMs`, epoch ms) or withdraw (null) the creation feed entitlement of a key
   * (`lpa keys grant|revoke --feed`). False when no key has that id; granting an entitled key again
   * keeps its first grant time.
   */
  setFeed(id: number, grantedAtMs: number | null): Promise<boolean>;

  /**
   * Admit and count one request of a key on a UTC day ('YYYY-MM-DD') if the day's count is below
   * `quota`, exact whatever the concurrency across processes and machines. Returns the day's
   * count including this request, or null when refused (count unchanged). It settles only once the
   * count is committed, so a request is never answered uncounted (a crash loses no count of an
   * answered request). PostgreSQL: ONE atomic statement per request (`INSERT … ON CONFLICT … DO
   * UPDATE … WHERE requests < quota RETURNING`). SQLite: the asks of one event-loop turn are decided
   * and written in ONE `BEGIN IMMEDIATE` transaction (group commit, PrivateStore.admitBatch), each
   * in turn as if alone.
   */
  admitRequest(keyId: number, day: string, quota: number): Promise<number | null>;
  /**
   * Admit and count `n` requests of a key at once (the batch endpoint: one per mint): the count
   * before them and how many were admitted — `min(n, quota − before)`, the first ones, exactly as
   * `n` single calls in a row would admit. One transaction (SQLite: with the turn's other asks).
   */
  admitRequests(keyId: number, day: string, quota: number, n: number): Promise<AdmitGrant>;
  /**
   * Optional (PostgreSQL only): the key check and the quota count of one keyed request together —
   * look up the key of HMAC hash `hash` (lower-case hex) and, when it exists and is not revoked,
   * admit and count one request of it on UTC day `day` if the day's count is below `quota`, exact
   * across nodes as {@link admitRequest}. The asks of one event-loop turn (and of the turns its
   * batch was out) go in ONE statement (src/db/pg-admit-batch.ts), so a keyed request costs no
   * round trip of its own. Settles only once the count is committed. Absent: the caller checks the
   * key (keyByHash) and then counts (admitRequest).
   */
  admitByHash?(hash: string, day: string, quota: number): Promise<KeyAdmission>;
  /**
   * A value that changes whenever a key row may have changed (SQLite: `PRAGMA data_version` and
   * this connection's key writes), so key rows can be kept in memory and dropped when it moves;
   * absent or null where no such cheap mark exists (PostgreSQL: keys are read on every check;
   * a keyed endpoint's check is part of its count's statement, admitByHash).
   */
  changeMark?(): string | null;
  /** Requests counted for a key on a UTC day (0 when none). */
  usage(keyId: number, day: string): Promise<number>;
  /** Set a key's count for a day (rotation carries the count over; tests and benchmarks pre-set it). */
  setUsage(keyId: number, day: string, requests: number): Promise<void>;

  /** The account of a subscription, created when new. Returns it and whether it was created now. */
  ensureAccount(stripeSubscription: string, stripeCustomer: string | null, nowMs: number): Promise<{ account: AccountRow; created: boolean }>;
  accountBySubscription(stripeSubscription: string): Promise<AccountRow | undefined>;
  accountById(id: number): Promise<AccountRow | undefined>;
  /** End an account (first end wins) and revoke all its keys; returns the number of keys revoked. */
  endAccount(id: number, reason: string, nowMs: number): Promise<number>;
  /** Every account with its key counts, oldest first. */
  listAccounts(): Promise<AccountSummary[]>;
  insertCheckout(sessionRef: string, accountId: number, keyId: number, sealed: Buffer, nowMs: number): Promise<void>;
  checkout(sessionRef: string): Promise<CheckoutRow | undefined>;
  /** Drop a checkout's sealed key and mark it shown; false when it was already shown. */
  markCheckoutShown(sessionRef: string, nowMs: number): Promise<boolean>;
  /** Record a payment event id; false when it was recorded before (a replay). Idempotent by event id. */
  recordEvent(eventId: string, type: string, nowMs: number): Promise<boolean>;

  /**
   * Run `fn` in one transaction with the write lock held (no other `transaction` of any process or
   * node interleaves: SQLite `BEGIN IMMEDIATE`, PostgreSQL a transaction-scoped advisory lock).
   * `fn` must use the `tx` it is given, and await nothing but `tx`'s methods. Nested calls of
   * `tx.transaction` join the outer transaction. A rejection of `fn` rolls everything back.
   */
  transaction<T>(fn: (tx: PrivateState) => Promise<T>): Promise<T>;

  /** The rebuild job queue. */
  readonly rebuilds: RebuildQueue;

  close(): Promise<void>;
}

/** What {@link PrivateState.admitByHash} found and did. */
export interface KeyAdmission {
  /** The key of the hash (its id, hash and revocation time); undefined when no key has that hash. */
  key: Pick<ApiKeyRow, 'id' | 'hash' | 'revokedAtMs'> | undefined;
  /**
   * The count, when the key exists and is not revoked (null otherwise: nothing counted): admitted
   * or refused, and the day's count (including this request when admitted; at least `quota` when refused).
   */
  count: { admitted: boolean; used: number } | null;
}

/**
 * The rebuild job queue (spec §3). Every decision that must not race — start under the limits,
 * claim a job, finish it — is atomic across processes and nodes: a job is never claimed by two
 * workers, and a running job whose lease ran out (its worker died) is claimed again.
 */
export interface RebuildQueue {
  /** The job of a mint, if any. */
  get(mint: string): Promise<RebuildJob | undefined>;
  /** Jobs queued ahead of this one (0 = next). */
  position(job: RebuildJob): Promise<number>;
  /** Jobs waiting and jobs being rebuilt now. */
  queueCounts(): Promise<{ queued: number; running: number }>;
  /** Start a rebuild under the limits (see RebuildJobs.start for the order of the checks). */
  start(mint: string, caller: string, nowMs: number, limits: StartLimits): Promise<StartOutcome>;
  /** Starts by `caller` in the hour before `nowMs`. */
  callerStartsInHour(caller: string, nowMs: number): Promise<{ count: number; oldestMs: number | null }>;
  /** Claim up to `limit` jobs (queued, or running with an expired lease) with a lease of `leaseMs`. */
  claim(nowMs: number, leaseMs: number, limit: number): Promise<RebuildJob[]>;
  /** Record progress and renew the lease of a running job. */
  progress(mint: string, signaturesRead: number, transactionsRead: number, leaseUntilMs: number): Promise<void>;
  /** Give up the lease of a running job (this process stops): it can be claimed at once, by a restarted server or another node. */
  release(mint: string): Promise<void>;
  /** The job finished: its row goes. */
  finish(mint: string): Promise<void>;
  /** The job failed (kept, reported once). */
  fail(mint: string, error: string): Promise<void>;
  /** Remove a failed job once its failure has been reported. */
  clearFailed(mint: string): Promise<void>;
  /** Jobs queued or running, oldest first. */
  pending(): Promise<RebuildJob[]>;
}

/**
 * The private database cannot be reached now (PostgreSQL stopped, restarting, or unreachable).
 * Nothing was read or written. The server answers 503 `unavailable` with Retry-After.
 */
export class PrivateStateUnavailable extends Error {
  constructor(cause: unknown) {
    super(`private database unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'PrivateStateUnavailable';
  }
}
