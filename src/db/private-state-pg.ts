import pg from 'pg';
import type { AccountRow, AccountSummary, AdmitGrant, ApiKeyRow, CheckoutRow } from './private-store.ts';
import { HOUR_MS, startRefusal, utcDayStartMs, type RebuildJob, type StartOutcome } from './rebuild-jobs.ts';
import { PrivateStateUnavailable, type KeyAdmission, type PrivateState, type RebuildQueue } from './private-state.ts';
import { migratePostgres } from './pg-schema.ts';
import { PgAdmitBatch } from './pg-admit-batch.ts';

/** What runs a query: the pool (autocommit) or the client of an open transaction. */
type Queryable = Pick<pg.Pool, 'query'> | pg.PoolClient;

/** Advisory lock key of `transaction` (the writers' lock, like SQLite's BEGIN IMMEDIATE). */
const WRITE_LOCK = 7_041_826_002;
/** Advisory lock key of a rebuild start (its limits are counted and the job inserted under it). */
const REBUILD_START_LOCK = 7_041_826_003;

const KEY_COLS = 'id, label, prefix, hash, created_at_ms AS "createdAtMs", revoked_at_ms AS "revokedAtMs", account_id AS "accountId", feed_granted_at_ms AS "feedGrantedAtMs"';
const ACCOUNT_COLS =
  'id, stripe_customer AS "stripeCustomer", stripe_subscription AS "stripeSubscription", created_at_ms AS "createdAtMs", ended_at_ms AS "endedAtMs", end_reason AS "endReason"';
const JOB_COLS = `mint, state, queued_at_ms AS "queuedAtMs", started_at_ms AS "startedAtMs", lease_until_ms AS "leaseUntilMs", attempts,
  signatures_read AS "signaturesRead", transactions_read AS "transactionsRead", error`;

/** BIGINT (ms, counts) as a JS number: every value here is far below 2^53. */
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === pg.types.builtins.INT8 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as 'text')) as pg.CustomTypesConfig['getTypeParser'],
};

/** SQLSTATE classes and socket errors that mean "the database is not reachable now". */
function isUnavailable(e: unknown): boolean {
  const code = (e as { code?: unknown })?.code;
  if (typeof code === 'string') {
    if (/^(08|57P0)/.test(code)) return true; // connection exception; admin/crash shutdown, cannot connect now
    if (['ECONNREFUSED', 'ENOENT', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN'].includes(code)) return true;
  }
  const msg = e instanceof Error ? e.message : '';
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connection is closed|Query read timeout/i.test(msg);
}

function classify(e: unknown): unknown {
  return isUnavailable(e) ? new PrivateStateUnavailable(e) : e;
}

/** Options of the PostgreSQL state. */
export interface PgStateOptions {
  /** `postgres://user@host:port/db` (a unix socket directory as `?host=/dir`). */
  url: string;
  /** Pool size per process (default 10). */
  max?: number;
  /** Give up connecting after this long (ms, default 2000): then the request answers 503. */
  connectTimeoutMs?: number;
  /**
   * Give up waiting for a query's answer after this long (ms, default 10,000; node-postgres
   * `query_timeout`): a database that accepts connections but does not answer (stopped, swapping,
   * a network that drops packets) makes the request answer 503 `unavailable`, where it waited
   * forever (a cluster review). Migrations wait as long as they need.
   */
  queryTimeoutMs?: number;
  /** Called with errors of idle pooled connections (the server restarted); they are dropped. */
  onIdleError?: (e: Error) => void;
}

/**
 * The PostgreSQL implementation of {@link PrivateState} (cluster mode): one pool per process; the
 * schema is migrated on first use (src/db/pg-schema.ts). Quota counts are one atomic UPSERT;
 * rebuild jobs are claimed with `FOR UPDATE SKIP LOCKED`. An unreachable database rejects with
 * PrivateStateUnavailable; the pool reconnects by itself when it returns.
 */
export class PgPrivateState implements PrivateState {
  readonly kind = 'postgres' as const;
  readonly rebuilds: RebuildQueue;
  /** Key checks and quota counts of keyed requests, one statement per batch (root state only). */
  private readonly admitBatch: PgAdmitBatch | null;
  private migrated = false;
  private migrating: Promise<void> | null = null;

  /** Open a pool over `url` (no connection is made until the first call). */
  static open(opts: PgStateOptions): PgPrivateState {
    const pool = new pg.Pool({
      connectionString: opts.url,
      max: opts.max ?? 10,
      connectionTimeoutMillis: opts.connectTimeoutMs ?? 2000,
      query_timeout: opts.queryTimeoutMs ?? 10_000,
      types,
    });
    pool.on('error', (e) => opts.onIdleError?.(e));
    return new PgPrivateState(pool, pool, null);
  }

  private constructor(
    private readonly pool: pg.Pool,
    private readonly db: Queryable,
    /** the root state, when this one is bound to a transaction's client */
    private readonly root: PgPrivateState | null,
  ) {
    this.rebuilds = new PgRebuildQueue((sql, params) => this.q(sql, params), (fn) => this.withClient(fn));
    this.admitBatch = root ? null : new PgAdmitBatch((sql, params) => this.q(sql, params));
  }

  /** Migrate once per process (retried after a failure, e.g. the database was down). */
  private ready(): Promise<void> {
    const root = this.root ?? this;
    if (root.migrated) return Promise.resolve();
    root.migrating ??= migratePostgres(root.pool).then(
      () => {
        root.migrated = true;
      },
      (e) => {
        root.migrating = null;
        throw classify(e);
      },
    );
    return root.migrating;
  }

  private async q<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<pg.QueryResult<R>> {
    if (!(this.root ?? this).migrated) await this.ready();
    try {
      return await this.db.query<R>(sql, params);
    } catch (e) {
      throw classify(e);
    }
  }

  /** Run `fn` on one client in a transaction (BEGIN … COMMIT, ROLLBACK on a rejection). */
  private async withClient<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    if (this.root) return fn(this.db as pg.PoolClient); // already in a transaction
    await this.ready();
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (e) {
      throw classify(e);
    }
    let broken = false;
    try {
      await client.query('BEGIN');
      const out = await fn(client);
      await client.query('COMMIT');
      return out;
    } catch (e) {
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      if (isUnavailable(e)) broken = true;
      throw classify(e);
    } finally {
      client.release(broken);
    }
  }

  async transaction<T>(fn: (tx: PrivateState) => Promise<T>): Promise<T> {
    if (this.root) return fn(this);
    return this.withClient(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1)', [WRITE_LOCK]);
      return fn(new PgPrivateState(this.pool, client, this));
    });
  }

  async insertKey(label: string, prefix: string, hash: string, nowMs: number, accountId: number | null = null): Promise<number> {
    const r = await this.q<{ id: number }>('INSERT INTO api_key (label, prefix, hash, created_at_ms, account_id) VALUES ($1, $2, $3, $4, $5) RETURNING id', [
      label,
      prefix,
      hash,
      nowMs,
      accountId,
    ]);
    return r.rows[0]!.id;
  }

  async keyByHash(hash: string): Promise<ApiKeyRow | undefined> {
    return (await this.q<ApiKeyRow>(`SELECT ${KEY_COLS} FROM api_key WHERE hash = $1`, [hash])).rows[0];
  }

  async keyById(id: number): Promise<ApiKeyRow | undefined> {
    return (await this.q<ApiKeyRow>(`SELECT ${KEY_COLS} FROM api_key WHERE id = $1`, [id])).rows[0];
  }

  async listKeys(): Promise<ApiKeyRow[]> {
    return (await this.q<ApiKeyRow>(`SELECT ${KEY_COLS} FROM api_key ORDER BY id`)).rows;
  }

  async revokeKey(id: number, nowMs: number): Promise<boolean> {
    return (await this.q('UPDATE api_key SET revoked_at_ms = $1 WHERE id = $2 AND revoked_at_ms IS NULL', [nowMs, id])).rowCount === 1;
  }

  async setFeed(id: number, grantedAtMs: number | null): Promise<boolean> {
    // granting keeps the first grant time (COALESCE); withdrawing sets NULL
    const sql =
      grantedAtMs === null
        ? 'UPDATE api_key SET feed_granted_at_ms = NULL WHERE id = $1'
        : 'UPDATE api_key SET feed_granted_at_ms = COALESCE(feed_granted_at_ms, $2) WHERE id = $1';
    return (await this.q(sql, grantedAtMs === null ? [id] : [id, grantedAtMs])).rowCount === 1;
  }

  async admitRequest(keyId: number, day: string, quota: number): Promise<number | null> {
    // One statement decides and counts. Concurrent ones on the same row serialise on its row lock
    // and each re-checks `requests < quota` on the newest version (READ COMMITTED re-evaluation of
    // ON CONFLICT DO UPDATE), so exactly `quota` are admitted across all nodes.
    const r = await this.q<{ requests: number }>(
      `INSERT INTO key_usage AS u (key_id, day, requests) VALUES ($1, $2, 1)
       ON CONFLICT (key_id, day) DO UPDATE SET requests = u.requests + 1 WHERE u.requests < $3
       RETURNING requests`,
      [keyId, day, quota],
    );
    return r.rows[0]?.requests ?? null;
  }

  /**
   * Batched with the other asks of the turn (src/db/pg-admit-batch.ts). Inside a transaction it is
   * a statement of that transaction (one ask, so the batch's answer is the request's own).
   */
  admitByHash(hash: string, day: string, quota: number): Promise<KeyAdmission> {
    if (this.admitBatch) return this.admitBatch.admit(hash, day, quota);
    return new PgAdmitBatch((sql, params) => this.q(sql, params)).admit(hash, day, quota);
  }

  async admitRequests(keyId: number, day: string, quota: number, n: number): Promise<AdmitGrant> {
    // One transaction: the upsert that changes nothing takes the row's lock and reads its newest
    // count (READ COMMITTED re-reads a row it waited for), then the count moves by what is admitted.
    return this.withClient(async (client) => {
      const locked = await client.query<{ requests: number }>(
        `INSERT INTO key_usage AS u (key_id, day, requests) VALUES ($1, $2, 0)
         ON CONFLICT (key_id, day) DO UPDATE SET requests = u.requests RETURNING requests`,
        [keyId, day],
      );
      const before = locked.rows[0]!.requests;
      const admitted = Math.max(0, Math.min(n, quota - before));
      if (admitted > 0) await client.query('UPDATE key_usage SET requests = requests + $3 WHERE key_id = $1 AND day = $2', [keyId, day, admitted]);
      return { before, admitted };
    });
  }

  async usage(keyId: number, day: string): Promise<number> {
    return (await this.q<{ requests: number }>('SELECT requests FROM key_usage WHERE key_id = $1 AND day = $2', [keyId, day])).rows[0]?.requests ?? 0;
  }

  async setUsage(keyId: number, day: string, requests: number): Promise<void> {
    await this.q('INSERT INTO key_usage (key_id, day, requests) VALUES ($1, $2, $3) ON CONFLICT (key_id, day) DO UPDATE SET requests = excluded.requests', [
      keyId,
      day,
      requests,
    ]);
  }

  async ensureAccount(stripeSubscription: string, stripeCustomer: string | null, nowMs: number): Promise<{ account: AccountRow; created: boolean }> {
    const ins = await this.q('INSERT INTO account (stripe_customer, stripe_subscription, created_at_ms) VALUES ($1, $2, $3) ON CONFLICT (stripe_subscription) DO NOTHING', [
      stripeCustomer,
      stripeSubscription,
      nowMs,
    ]);
    return { account: (await this.accountBySubscription(stripeSubscription))!, created: ins.rowCount === 1 };
  }

  async accountBySubscription(stripeSubscription: string): Promise<AccountRow | undefined> {
    return (await this.q<AccountRow>(`SELECT ${ACCOUNT_COLS} FROM account WHERE stripe_subscription = $1`, [stripeSubscription])).rows[0];
  }

  async accountById(id: number): Promise<AccountRow | undefined> {
    return (await this.q<AccountRow>(`SELECT ${ACCOUNT_COLS} FROM account WHERE id = $1`, [id])).rows[0];
  }

  async endAccount(id: number, reason: string, nowMs: number): Promise<number> {
    await this.q('UPDATE account SET ended_at_ms = $1, end_reason = $2 WHERE id = $3 AND ended_at_ms IS NULL', [nowMs, reason, id]);
    return (await this.q('UPDATE api_key SET revoked_at_ms = $1 WHERE account_id = $2 AND revoked_at_ms IS NULL', [nowMs, id])).rowCount ?? 0;
  }

  async listAccounts(): Promise<AccountSummary[]> {
    return (
      await this.q<AccountSummary>(
        `SELECT a.id, a.stripe_customer AS "stripeCustomer", a.stripe_subscription AS "stripeSubscription",
                a.created_at_ms AS "createdAtMs", a.ended_at_ms AS "endedAtMs", a.end_reason AS "endReason",
                (SELECT count(*) FROM api_key k WHERE k.account_id = a.id) AS keys,
                (SELECT count(*) FROM api_key k WHERE k.account_id = a.id AND k.revoked_at_ms IS NULL) AS "activeKeys"
         FROM account a ORDER BY a.id`,
      )
    ).rows;
  }

  async insertCheckout(sessionRef: string, accountId: number, keyId: number, sealed: Buffer, nowMs: number): Promise<void> {
    await this.q('INSERT INTO checkout (session_ref, account_id, key_id, sealed, created_at_ms) VALUES ($1, $2, $3, $4, $5)', [sessionRef, accountId, keyId, sealed, nowMs]);
  }

  async checkout(sessionRef: string): Promise<CheckoutRow | undefined> {
    return (
      await this.q<CheckoutRow>(
        'SELECT session_ref AS "sessionRef", account_id AS "accountId", key_id AS "keyId", sealed, created_at_ms AS "createdAtMs", shown_at_ms AS "shownAtMs" FROM checkout WHERE session_ref = $1',
        [sessionRef],
      )
    ).rows[0];
  }

  async markCheckoutShown(sessionRef: string, nowMs: number): Promise<boolean> {
    return (await this.q('UPDATE checkout SET sealed = NULL, shown_at_ms = $1 WHERE session_ref = $2 AND shown_at_ms IS NULL', [nowMs, sessionRef])).rowCount === 1;
  }

  async recordEvent(eventId: string, type: string, nowMs: number): Promise<boolean> {
    return (await this.q('INSERT INTO payment_event (event_id, type, received_at_ms) VALUES ($1, $2, $3) ON CONFLICT (event_id) DO NOTHING', [eventId, type, nowMs])).rowCount === 1;
  }

  async close(): Promise<void> {
    if (!this.root) await this.pool.end();
  }
}

type Q = <R extends pg.QueryResultRow>(sql: string, params?: unknown[]) => Promise<pg.QueryResult<R>>;

/** The rebuild queue in PostgreSQL. */
class PgRebuildQueue implements RebuildQueue {
  constructor(
    private readonly q: Q,
    private readonly inTransaction: <T>(fn: (client: pg.PoolClient) => Promise<T>) => Promise<T>,
  ) {}

  async get(mint: string): Promise<RebuildJob | undefined> {
    return (await this.q<RebuildJob>(`SELECT ${JOB_COLS} FROM rebuild_job WHERE mint = $1`, [mint])).rows[0];
  }

  async position(job: RebuildJob): Promise<number> {
    const r = await this.q<{ n: number }>("SELECT count(*) AS n FROM rebuild_job WHERE state = 'queued' AND (queued_at_ms < $1 OR (queued_at_ms = $1 AND mint < $2))", [
      job.queuedAtMs,
      job.mint,
    ]);
    return r.rows[0]!.n;
  }

  async queueCounts(): Promise<{ queued: number; running: number }> {
    const out = { queued: 0, running: 0 };
    const r = await this.q<{ state: 'queued' | 'running'; n: number }>("SELECT state, count(*) AS n FROM rebuild_job WHERE state IN ('queued', 'running') GROUP BY state");
    for (const row of r.rows) out[row.state] = row.n;
    return out;
  }

  /**
   * One transaction under an advisory lock: the limits are counted and the job inserted with no
   * other start of any node in between (exact under concurrency, like SQLite's BEGIN IMMEDIATE).
   */
  start(mint: string, caller: string, nowMs: number, limits: Parameters<RebuildQueue['start']>[3]): Promise<StartOutcome> {
    return this.inTransaction(async (c) => {
      await c.query('SELECT pg_advisory_xact_lock($1)', [REBUILD_START_LOCK]);
      const existing = (await c.query<RebuildJob>(`SELECT ${JOB_COLS} FROM rebuild_job WHERE mint = $1`, [mint])).rows[0];
      if (existing && existing.state !== 'failed') return { started: true, job: existing, joined: true };
      const mine = (await c.query<{ n: number; oldest: number | null }>('SELECT count(*) AS n, min(at_ms) AS oldest FROM rebuild_start WHERE caller = $1 AND at_ms > $2', [
        caller,
        nowMs - HOUR_MS,
      ])).rows[0]!;
      const day = (await c.query<{ n: number }>('SELECT count(*) AS n FROM rebuild_start WHERE at_ms >= $1', [utcDayStartMs(nowMs)])).rows[0]!.n;
      const active = (await c.query<{ n: number }>("SELECT count(*) AS n FROM rebuild_job WHERE state IN ('queued', 'running')")).rows[0]!.n;
      const refusal = startRefusal(mine, day, active, nowMs, limits);
      if (refusal) return refusal;
      if (existing) await c.query('DELETE FROM rebuild_job WHERE mint = $1', [mint]);
      const job = (await c.query<RebuildJob>(`INSERT INTO rebuild_job (mint, state, queued_at_ms) VALUES ($1, 'queued', $2) RETURNING ${JOB_COLS}`, [mint, nowMs])).rows[0]!;
      await c.query('INSERT INTO rebuild_start (mint, caller, at_ms) VALUES ($1, $2, $3)', [mint, caller, nowMs]);
      return { started: true, job, joined: false };
    });
  }

  async callerStartsInHour(caller: string, nowMs: number): Promise<{ count: number; oldestMs: number | null }> {
    const r = (await this.q<{ n: number; oldest: number | null }>('SELECT count(*) AS n, min(at_ms) AS oldest FROM rebuild_start WHERE caller = $1 AND at_ms > $2', [
      caller,
      nowMs - HOUR_MS,
    ])).rows[0]!;
    return { count: r.n, oldestMs: r.oldest };
  }

  /**
   * One statement: lock up to `limit` claimable rows, skipping rows another worker holds locked
   * (`FOR UPDATE SKIP LOCKED`), and mark them running with a new lease. A row another worker has
   * just claimed is either locked (skipped) or already running with a live lease (not claimable).
   */
  async claim(nowMs: number, leaseMs: number, limit: number): Promise<RebuildJob[]> {
    const r = await this.q<RebuildJob>(
      `WITH c AS (
         SELECT mint FROM rebuild_job
         WHERE state = 'queued' OR (state = 'running' AND lease_until_ms < $1)
         ORDER BY queued_at_ms, mint LIMIT $3
         FOR UPDATE SKIP LOCKED)
       UPDATE rebuild_job j SET state = 'running', started_at_ms = $1, lease_until_ms = $2, attempts = j.attempts + 1, signatures_read = 0, transactions_read = 0
       FROM c WHERE j.mint = c.mint
       RETURNING ${JOB_COLS.replace(/(^|,\s*)(\w+)/g, '$1j.$2')}`,
      [nowMs, nowMs + leaseMs, limit],
    );
    return r.rows.sort((a, b) => a.queuedAtMs - b.queuedAtMs || (a.mint < b.mint ? -1 : 1));
  }

  async progress(mint: string, signaturesRead: number, transactionsRead: number, leaseUntilMs: number): Promise<void> {
    await this.q("UPDATE rebuild_job SET signatures_read = $1, transactions_read = $2, lease_until_ms = $3 WHERE mint = $4 AND state = 'running'", [
      signaturesRead,
      transactionsRead,
      leaseUntilMs,
      mint,
    ]);
  }

  async release(mint: string): Promise<void> {
    await this.q("UPDATE rebuild_job SET lease_until_ms = 0 WHERE mint = $1 AND state = 'running'", [mint]);
  }

  async finish(mint: string): Promise<void> {
    await this.q('DELETE FROM rebuild_job WHERE mint = $1', [mint]);
  }

  async fail(mint: string, error: string): Promise<void> {
    await this.q("UPDATE rebuild_job SET state = 'failed', lease_until_ms = NULL, error = $1 WHERE mint = $2", [error.slice(0, 500), mint]);
  }

  async clearFailed(mint: string): Promise<void> {
    await this.q("DELETE FROM rebuild_job WHERE mint = $1 AND state = 'failed'", [mint]);
  }

  async pending(): Promise<RebuildJob[]> {
    return (await this.q<RebuildJob>(`SELECT ${JOB_COLS} FROM rebuild_job WHERE state IN ('queued', 'running') ORDER BY queued_at_ms, mint`)).rows;
  }
}
