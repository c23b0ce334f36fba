import type Database from 'better-sqlite3';
import { openDatabase } from './open.ts';
import { PRIVATE_MIGRATIONS } from './private-schema.ts';

/** An API key row. `hash` is HMAC-SHA-256(server secret, key) in hex; the key itself is never stored. */
export interface ApiKeyRow {
  id: number;
  label: string;
  prefix: string;
  hash: string;
  createdAtMs: number;
  revokedAtMs: number | null;
  /** The subscriber account of the key; null for operator-created keys. */
  accountId: number | null;
  /** When the key was granted the creation feed (epoch ms); null: not entitled (private migration 4). */
  feedGrantedAtMs: number | null;
}

/** A subscriber account: one per paid subscription (Stripe ids only). */
export interface AccountRow {
  id: number;
  stripeCustomer: string | null;
  stripeSubscription: string;
  createdAtMs: number;
  endedAtMs: number | null;
  endReason: string | null;
}

/** An account with its key counts (for `lpa accounts list`). */
export interface AccountSummary extends AccountRow {
  keys: number;
  activeKeys: number;
}

/** A completed checkout: the key it created, sealed until shown once. */
export interface CheckoutRow {
  sessionRef: string;
  accountId: number;
  keyId: number;
  sealed: Buffer | null;
  createdAtMs: number;
  shownAtMs: number | null;
}

/**
 * The private database: API keys (hashes only), per-key daily usage, subscriber accounts,
 * checkouts and applied payment events. Never published.
 * Prepared statements are made once; every method is synchronous (better-sqlite3).
 */
/** One ask of {@link PrivateStore.admitBatch}: count `n` requests of a key on a UTC day under `quota`. */
export interface AdmitAsk {
  keyId: number;
  day: string;
  quota: number;
  n: number;
}

/**
 * Key rows changed (insert, revoke, feed, account end) by any PrivateStore of this process: part of
 * every store's {@link PrivateStore.changeMark}, so a key write through one connection is seen at
 * once by a key cache over another (their commits move each other's `data_version` too, but that
 * is read once per event-loop turn).
 */
let keyWritesInProcess = 0;

/** What an {@link AdmitAsk} got: the day's count before it, and how many of its `n` were admitted (a prefix). */
export interface AdmitGrant {
  before: number;
  admitted: number;
}

export class PrivateStore {
  readonly db: Database.Database;
  private readonly s;
  /** `PRAGMA data_version` as read in this event-loop turn (null: not read yet this turn); see {@link changeMark}. */
  private turnDataVersion: number | null = null;

  constructor(path: string) {
    this.db = openDatabase(path, PRIVATE_MIGRATIONS, { private: true });
    const db = this.db;
    // A sealed key, once shown, is overwritten with zeros rather than left in a free page.
    db.pragma('secure_delete = ON');
    const cols = 'id, label, prefix, hash, created_at_ms AS createdAtMs, revoked_at_ms AS revokedAtMs, account_id AS accountId, feed_granted_at_ms AS feedGrantedAtMs';
    const acols =
      'id, stripe_customer AS stripeCustomer, stripe_subscription AS stripeSubscription, created_at_ms AS createdAtMs, ended_at_ms AS endedAtMs, end_reason AS endReason';
    this.s = {
      insertKey: db.prepare('INSERT INTO api_key (label, prefix, hash, created_at_ms, account_id) VALUES (?, ?, ?, ?, ?)'),
      keyByHash: db.prepare(`SELECT ${cols} FROM api_key WHERE hash = ?`),
      keys: db.prepare(`SELECT ${cols} FROM api_key ORDER BY id`),
      revoke: db.prepare('UPDATE api_key SET revoked_at_ms = ? WHERE id = ? AND revoked_at_ms IS NULL'),
      revokeAccountKeys: db.prepare('UPDATE api_key SET revoked_at_ms = ? WHERE account_id = ? AND revoked_at_ms IS NULL'),
      keyById: db.prepare(`SELECT ${cols} FROM api_key WHERE id = ?`),
      setFeed: db.prepare('UPDATE api_key SET feed_granted_at_ms = ? WHERE id = ?'),
      // One statement decides and counts: the row is incremented only while under the quota, so no
      // request over it is admitted and none under it refused, whatever the concurrency (SQLite
      // serialises writers; each statement is atomic). No row returned = refused.
      countUse: db.prepare(
        `INSERT INTO key_usage (key_id, day, requests) VALUES (@keyId, @day, 1)
         ON CONFLICT (key_id, day) DO UPDATE SET requests = requests + 1 WHERE requests < @quota
         RETURNING requests`,
      ),
      usage: db.prepare('SELECT requests FROM key_usage WHERE key_id = ? AND day = ?'),
      addUsage: db.prepare('INSERT INTO key_usage (key_id, day, requests) VALUES (?, ?, ?) ON CONFLICT (key_id, day) DO UPDATE SET requests = requests + excluded.requests'),
      dataVersion: db.prepare('PRAGMA data_version').pluck(),
      setUsage: db.prepare(
        'INSERT INTO key_usage (key_id, day, requests) VALUES (?, ?, ?) ON CONFLICT (key_id, day) DO UPDATE SET requests = excluded.requests',
      ),
      insertAccount: db.prepare(
        'INSERT INTO account (stripe_customer, stripe_subscription, created_at_ms) VALUES (?, ?, ?) ON CONFLICT (stripe_subscription) DO NOTHING',
      ),
      accountBySubscription: db.prepare(`SELECT ${acols} FROM account WHERE stripe_subscription = ?`),
      accountById: db.prepare(`SELECT ${acols} FROM account WHERE id = ?`),
      endAccount: db.prepare('UPDATE account SET ended_at_ms = ?, end_reason = ? WHERE id = ? AND ended_at_ms IS NULL'),
      accounts: db.prepare(
        `SELECT a.id, a.stripe_customer AS stripeCustomer, a.stripe_subscription AS stripeSubscription,
                a.created_at_ms AS createdAtMs, a.ended_at_ms AS endedAtMs, a.end_reason AS endReason,
                (SELECT count(*) FROM api_key k WHERE k.account_id = a.id) AS keys,
                (SELECT count(*) FROM api_key k WHERE k.account_id = a.id AND k.revoked_at_ms IS NULL) AS activeKeys
         FROM account a ORDER BY a.id`,
      ),
      insertCheckout: db.prepare('INSERT INTO checkout (session_ref, account_id, key_id, sealed, created_at_ms) VALUES (?, ?, ?, ?, ?)'),
      checkout: db.prepare(
        'SELECT session_ref AS sessionRef, account_id AS accountId, key_id AS keyId, sealed, created_at_ms AS createdAtMs, shown_at_ms AS shownAtMs FROM checkout WHERE session_ref = ?',
      ),
      markShown: db.prepare('UPDATE checkout SET sealed = NULL, shown_at_ms = ? WHERE session_ref = ? AND shown_at_ms IS NULL'),
      insertEvent: db.prepare('INSERT INTO payment_event (event_id, type, received_at_ms) VALUES (?, ?, ?) ON CONFLICT (event_id) DO NOTHING'),
    };
  }

  /** Store a new key's hash; returns its id. Errors: throws on a duplicate hash (a 2^-256 event). */
  insertKey(label: string, prefix: string, hash: string, nowMs: number, accountId: number | null = null): number {
    keyWritesInProcess++;
    return Number(this.s.insertKey.run(label, prefix, hash, nowMs, accountId).lastInsertRowid);
  }

  keyByHash(hash: string): ApiKeyRow | undefined {
    return this.s.keyByHash.get(hash) as ApiKeyRow | undefined;
  }

  keyById(id: number): ApiKeyRow | undefined {
    return this.s.keyById.get(id) as ApiKeyRow | undefined;
  }

  /** Every key, oldest first. */
  listKeys(): ApiKeyRow[] {
    return this.s.keys.all() as ApiKeyRow[];
  }

  /** Revoke a key; false when no such key or it was already revoked (revocation time never moves). */
  revokeKey(id: number, nowMs: number): boolean {
    keyWritesInProcess++;
    return this.s.revoke.run(nowMs, id).changes === 1;
  }

  /**
   * Grant (`grantedAtMs`, epoch ms) or withdraw (null) the creation feed entitlement of a key.
   * Returns false when no key has that id. Granting an entitled key again keeps its first grant time.
   */
  setFeed(id: number, grantedAtMs: number | null): boolean {
    const row = this.keyById(id);
    if (!row) return false;
    if (grantedAtMs !== null && row.feedGrantedAtMs !== null) return true;
    keyWritesInProcess++;
    this.s.setFeed.run(grantedAtMs, id);
    return true;
  }

  /**
   * Admit and count one request of a key on a UTC day ('YYYY-MM-DD') if the day's count is below
   * `quota`. Returns the day's count including this request, or null when refused (count unchanged).
   */
  admitRequest(keyId: number, day: string, quota: number): number | null {
    // `.all()`, not `.get()`: the statement must step to its end for SQLite's automatic checkpoint
    // to run after the commit (src/db/checkpoint.ts); `.get()` left the WAL growing ~16 KB a request.
    const [row] = this.s.countUse.all({ keyId, day, quota }) as { requests: number }[];
    return row ? row.requests : null;
  }

  /**
   * Admit and count several asks in ONE write transaction (`BEGIN IMMEDIATE`: no other writer of
   * any process interleaves), in order: each gets the day's count before it and admits
   * `min(n, quota − before)` of its `n` (none once the quota is used), so the counts equal those of
   * asking one request at a time. Returns one grant per ask, in the asks' order.
   * Errors: throws (nothing counted) when the transaction fails (SQLITE_BUSY after the busy timeout).
   */
  admitBatch(asks: readonly AdmitAsk[]): AdmitGrant[] {
    return this.db
      .transaction(() => {
        // each key's count of the day is read once and written once, with what the asks added in order
        const counts = new Map<number, Map<string, { read: number; added: number }>>();
        const grants = asks.map(({ keyId, day, quota, n }) => {
          const days = counts.get(keyId) ?? counts.set(keyId, new Map()).get(keyId)!;
          let count = days.get(day);
          if (!count) days.set(day, (count = { read: this.usage(keyId, day), added: 0 }));
          const before = count.read + count.added;
          const admitted = Math.max(0, Math.min(n, quota - before));
          count.added += admitted;
          return { before, admitted };
        });
        for (const [keyId, days] of counts) for (const [day, { added }] of days) if (added > 0) this.s.addUsage.run(keyId, day, added);
        return grants;
      })
      .immediate();
  }

  /**
   * A value that changes whenever the key rows may have changed: after a commit of any other
   * process to private.db (`PRAGMA data_version`, which moves on every commit of another
   * connection) or a key write of any connection of this process (counted here, so seen at once).
   * The pragma is read once per event-loop turn (again after the turn's `setImmediate`), not on
   * every keyed request: another process's commit is seen from the next turn on — a request
   * checked in the turn it committed in was as good as checked just before it. The key service
   * caches key rows under it (src/access/keys.ts).
   */
  changeMark(): string {
    if (this.turnDataVersion === null) {
      this.turnDataVersion = this.s.dataVersion.get() as number;
      setImmediate(() => (this.turnDataVersion = null));
    }
    return `${this.turnDataVersion}/${keyWritesInProcess}`;
  }

  /** Requests counted for a key on a UTC day (0 when none). */
  usage(keyId: number, day: string): number {
    return (this.s.usage.get(keyId, day) as { requests: number } | undefined)?.requests ?? 0;
  }

  /** Set a key's count for a day (rotation carries the count over; tests and benchmarks pre-set it). */
  setUsage(keyId: number, day: string, requests: number): void {
    this.s.setUsage.run(keyId, day, requests);
  }

  /** The account of a subscription, created when new. Returns it and whether it was created now. */
  ensureAccount(stripeSubscription: string, stripeCustomer: string | null, nowMs: number): { account: AccountRow; created: boolean } {
    const created = this.s.insertAccount.run(stripeCustomer, stripeSubscription, nowMs).changes === 1;
    return { account: this.accountBySubscription(stripeSubscription)!, created };
  }

  accountBySubscription(stripeSubscription: string): AccountRow | undefined {
    return this.s.accountBySubscription.get(stripeSubscription) as AccountRow | undefined;
  }

  accountById(id: number): AccountRow | undefined {
    return this.s.accountById.get(id) as AccountRow | undefined;
  }

  /** End an account (first end wins) and revoke all its keys; returns the number of keys revoked. */
  endAccount(id: number, reason: string, nowMs: number): number {
    keyWritesInProcess++;
    this.s.endAccount.run(nowMs, reason, id);
    return this.s.revokeAccountKeys.run(nowMs, id).changes;
  }

  /** Every account with its key counts, oldest first. */
  listAccounts(): AccountSummary[] {
    return this.s.accounts.all() as AccountSummary[];
  }

  insertCheckout(sessionRef: string, accountId: number, keyId: number, sealed: Buffer, nowMs: number): void {
    this.s.insertCheckout.run(sessionRef, accountId, keyId, sealed, nowMs);
  }

  checkout(sessionRef: string): CheckoutRow | undefined {
    return this.s.checkout.get(sessionRef) as CheckoutRow | undefined;
  }

  /** Drop a checkout's sealed key and mark it shown; false when it was already shown. */
  markCheckoutShown(sessionRef: string, nowMs: number): boolean {
    return this.s.markShown.run(nowMs, sessionRef).changes === 1;
  }

  /** Record a payment event id; false when it was recorded before (a replay). */
  recordEvent(eventId: string, type: string, nowMs: number): boolean {
    return this.s.insertEvent.run(eventId, type, nowMs).changes === 1;
  }

  /** Run `fn` in one IMMEDIATE transaction (takes the write lock first: no other writer interleaves). */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  close(): void {
    this.db.close();
  }
}
