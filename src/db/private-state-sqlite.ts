import { PrivateStore, type AdmitAsk, type AdmitGrant } from './private-store.ts';
import { RebuildJobs } from './rebuild-jobs.ts';
import type { PrivateState, RebuildQueue } from './private-state.ts';

/**
 * The SQLite implementation of {@link PrivateState} (the single-machine default): PrivateStore and
 * RebuildJobs over ONE private.db connection. Every method runs its synchronous better-sqlite3
 * statement at once and returns a settled promise, except the quota counts (`admitRequest`,
 * `admitRequests`): those of one event-loop turn are written together in one transaction on the
 * next `setImmediate` and settle after its commit (group commit; see `admit`).
 *
 * Transactions: `transaction(fn)` takes the write lock (`BEGIN IMMEDIATE`) and awaits `fn`. While
 * it is open, calls from outside it wait (a gate) instead of running inside it, so a request's
 * quota count never joins (nor is rolled back with) another request's billing transaction. Use
 * {@link SqlitePrivateState.over} to get THE state of a store (one gate per connection), and keep
 * ONE state per process: a second connection in the same thread that asks for the write lock while
 * the first holds it across an await would wait synchronously (busy_timeout) and fail. Other
 * processes (the operator CLI) are serialised by SQLite's own locking.
 */
export class SqlitePrivateState implements PrivateState {
  readonly kind = 'sqlite' as const;
  readonly rebuilds: RebuildQueue;
  /** Settles when the open transaction ends; null when none is open. */
  private gate: Promise<void> | null = null;
  /** The same operations without the gate: what `fn` of an open transaction is given. */
  private readonly inside: PrivateState;
  private static readonly byStore = new WeakMap<PrivateStore, SqlitePrivateState>();

  /** The state over an open store (the same object for the same store). */
  static over(store: PrivateStore): SqlitePrivateState {
    let s = SqlitePrivateState.byStore.get(store);
    if (!s) SqlitePrivateState.byStore.set(store, (s = new SqlitePrivateState(store)));
    return s;
  }

  /** Open (creating and migrating) private.db at `path`. */
  static open(path: string): SqlitePrivateState {
    return SqlitePrivateState.over(new PrivateStore(path));
  }

  private constructor(readonly store: PrivateStore) {
    const jobs = new RebuildJobs(store.db);
    this.inside = bind(store, jobs, settle, this);
    const { kind: _kind, transaction: _transaction, close: _close, admitRequest: _a, admitRequests: _b, changeMark: _c, rebuilds, ...ops } = bind(store, jobs, (f) => this.run(f), this);
    this.rebuilds = rebuilds;
    Object.assign(this, ops);
  }

  /** Quota asks waiting for this turn's group commit (see {@link admit}). */
  private asks: { ask: AdmitAsk; done: (g: AdmitGrant) => void; fail: (e: unknown) => void }[] = [];

  /**
   * Group commit of quota counts: the asks made during one event-loop turn are decided and written
   * in ONE write transaction (PrivateStore.admitBatch) on the next `setImmediate`, after the open
   * transaction (if any) ends. Each ask settles only after that commit: a request is never answered
   * before its count is on disk (kill -9 loses no count of an answered request; it may leave counted
   * at most the asks of the one turn in flight that were never answered).
   */
  private admit(ask: AdmitAsk): Promise<AdmitGrant> {
    return new Promise((done, fail) => {
      if (this.asks.push({ ask, done, fail }) === 1) setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    while (this.gate) await this.gate;
    const batch = this.asks;
    this.asks = [];
    let grants: AdmitGrant[];
    try {
      grants = this.store.admitBatch(batch.map((b) => b.ask));
    } catch (e) {
      for (const b of batch) b.fail(e);
      return;
    }
    batch.forEach((b, i) => b.done(grants[i]!));
  }

  admitRequest(keyId: number, day: string, quota: number): Promise<number | null> {
    return this.admit({ keyId, day, quota, n: 1 }).then((g) => (g.admitted ? g.before + 1 : null));
  }

  admitRequests(keyId: number, day: string, quota: number, n: number): Promise<AdmitGrant> {
    return this.admit({ keyId, day, quota, n });
  }

  changeMark(): string {
    return this.store.changeMark();
  }

  /** Run a synchronous operation now, or after the open transaction ends. */
  private run<T>(f: () => T): Promise<T> {
    if (this.gate) return this.gate.then(() => this.run(f));
    return settle(f);
  }

  async transaction<T>(fn: (tx: PrivateState) => Promise<T>): Promise<T> {
    while (this.gate) await this.gate;
    let release!: () => void;
    this.gate = new Promise((r) => (release = r));
    const db = this.store.db;
    try {
      db.exec('BEGIN IMMEDIATE');
      try {
        const out = await fn(this.inside);
        db.exec('COMMIT');
        return out;
      } catch (e) {
        if (db.inTransaction) db.exec('ROLLBACK');
        throw e;
      }
    } finally {
      this.gate = null;
      release();
    }
  }

  async close(): Promise<void> {
    this.store.close();
  }

  // Assigned in the constructor (Object.assign) from bind(); declared for the type checker.
  declare insertKey: PrivateState['insertKey'];
  declare keyByHash: PrivateState['keyByHash'];
  declare keyById: PrivateState['keyById'];
  declare listKeys: PrivateState['listKeys'];
  declare revokeKey: PrivateState['revokeKey'];
  declare setFeed: PrivateState['setFeed'];
  declare usage: PrivateState['usage'];
  declare setUsage: PrivateState['setUsage'];
  declare ensureAccount: PrivateState['ensureAccount'];
  declare accountBySubscription: PrivateState['accountBySubscription'];
  declare accountById: PrivateState['accountById'];
  declare endAccount: PrivateState['endAccount'];
  declare listAccounts: PrivateState['listAccounts'];
  declare insertCheckout: PrivateState['insertCheckout'];
  declare checkout: PrivateState['checkout'];
  declare markCheckoutShown: PrivateState['markCheckoutShown'];
  declare recordEvent: PrivateState['recordEvent'];
}

/** A settled promise of `f()`'s value, or of its exception. */
function settle<T>(f: () => T): Promise<T> {
  try {
    return Promise.resolve(f());
  } catch (e) {
    return Promise.reject(e);
  }
}

/** The PrivateState operations over a store and its queue, each run through `via`. */
function bind(store: PrivateStore, jobs: RebuildJobs, via: <T>(f: () => T) => Promise<T>, owner: SqlitePrivateState): PrivateState {
  const self: PrivateState = {
    kind: 'sqlite',
    insertKey: (label, prefix, hash, nowMs, accountId = null) => via(() => store.insertKey(label, prefix, hash, nowMs, accountId)),
    keyByHash: (hash) => via(() => store.keyByHash(hash)),
    keyById: (id) => via(() => store.keyById(id)),
    listKeys: () => via(() => store.listKeys()),
    revokeKey: (id, nowMs) => via(() => store.revokeKey(id, nowMs)),
    setFeed: (id, grantedAtMs) => via(() => store.setFeed(id, grantedAtMs)),
    // inside a transaction (and in its `inside` view) counts are single statements of that transaction
    admitRequest: (keyId, day, quota) => via(() => store.admitRequest(keyId, day, quota)),
    admitRequests: (keyId, day, quota, n) => via(() => store.admitBatch([{ keyId, day, quota, n }])[0]!),
    changeMark: () => store.changeMark(),
    usage: (keyId, day) => via(() => store.usage(keyId, day)),
    setUsage: (keyId, day, requests) => via(() => store.setUsage(keyId, day, requests)),
    ensureAccount: (sub, customer, nowMs) => via(() => store.ensureAccount(sub, customer, nowMs)),
    accountBySubscription: (sub) => via(() => store.accountBySubscription(sub)),
    accountById: (id) => via(() => store.accountById(id)),
    endAccount: (id, reason, nowMs) => via(() => store.endAccount(id, reason, nowMs)),
    listAccounts: () => via(() => store.listAccounts()),
    insertCheckout: (ref, accountId, keyId, sealed, nowMs) => via(() => store.insertCheckout(ref, accountId, keyId, sealed, nowMs)),
    checkout: (ref) => via(() => store.checkout(ref)),
    markCheckoutShown: (ref, nowMs) => via(() => store.markCheckoutShown(ref, nowMs)),
    recordEvent: (id, type, nowMs) => via(() => store.recordEvent(id, type, nowMs)),
    // inside an open transaction a nested one joins it
    transaction: (fn) => fn(self),
    rebuilds: {
      get: (mint) => via(() => jobs.get(mint)),
      position: (job) => via(() => jobs.position(job)),
      queueCounts: () => via(() => jobs.queueCounts()),
      start: (mint, caller, nowMs, limits) => via(() => jobs.start(mint, caller, nowMs, limits)),
      callerStartsInHour: (caller, nowMs) => via(() => jobs.callerStartsInHour(caller, nowMs)),
      claim: (nowMs, leaseMs, limit) => via(() => jobs.claim(nowMs, leaseMs, limit)),
      progress: (mint, s, t, lease) => via(() => jobs.progress(mint, s, t, lease)),
      release: (mint) => via(() => jobs.release(mint)),
      finish: (mint) => via(() => jobs.finish(mint)),
      fail: (mint, error) => via(() => jobs.fail(mint, error)),
      clearFailed: (mint) => via(() => jobs.clearFailed(mint)),
      pending: () => via(() => jobs.pending()),
    },
    close: () => owner.close(),
  };
  return self;
}
