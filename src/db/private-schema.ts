import type { Migration } from './open.ts';

/**
 * Schema of the private database (`private.db`): service data that is never published.
 * API keys are stored only as HMAC-SHA-256(server secret, key) in hex; `prefix` is the first
 * characters of the key, kept for display (`lpa keys list`) and not enough to use it.
 * Migration 2 adds the paid plan: accounts (one per subscription), checkouts (the key sealed until
 * it is shown once) and the payment events already applied.
 */
export const PRIVATE_MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'api keys (hashes only) and daily usage',
    sql: `
      CREATE TABLE api_key (
        id INTEGER PRIMARY KEY,
        label TEXT NOT NULL,
        prefix TEXT NOT NULL,
        hash TEXT NOT NULL UNIQUE,
        created_at_ms INTEGER NOT NULL,
        revoked_at_ms INTEGER
      );

      -- Requests per key per UTC day (day = 'YYYY-MM-DD'), for the daily quota (spec §8).
      CREATE TABLE key_usage (
        key_id INTEGER NOT NULL REFERENCES api_key (id),
        day TEXT NOT NULL,
        requests INTEGER NOT NULL,
        PRIMARY KEY (key_id, day)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 2,
    name: 'subscriber accounts, checkout sessions (sealed keys until first display), processed payment events',
    sql: `
      -- One account per paid subscription (Stripe ids only: no name, address or card data).
      CREATE TABLE account (
        id INTEGER PRIMARY KEY,
        stripe_customer TEXT,
        stripe_subscription TEXT NOT NULL UNIQUE,
        created_at_ms INTEGER NOT NULL,
        -- Set when the subscription ended or became unpaid; every key of the account is then revoked.
        ended_at_ms INTEGER,
        end_reason TEXT
      );

      -- The account a key belongs to; NULL for keys an operator created with "lpa keys create".
      ALTER TABLE api_key ADD COLUMN account_id INTEGER REFERENCES account (id);
      CREATE INDEX api_key_account ON api_key (account_id);

      -- A completed checkout and the key it created. session_ref = HMAC(server secret, session id),
      -- so the table does not name Stripe's session. sealed = AES-256-GCM of the key under a key derived
      -- from the server secret AND the session id (never stored); NULL once shown (shown_at_ms set).
      CREATE TABLE checkout (
        session_ref TEXT PRIMARY KEY,
        account_id INTEGER NOT NULL REFERENCES account (id),
        key_id INTEGER NOT NULL REFERENCES api_key (id),
        sealed BLOB,
        created_at_ms INTEGER NOT NULL,
        shown_at_ms INTEGER
      );

      -- Payment-processor events already applied (webhook idempotency on the event id).
      CREATE TABLE payment_event (
        event_id TEXT PRIMARY KEY,
        type TEXT NOT NULL,
        received_at_ms INTEGER NOT NULL
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 3,
    name: 'rebuild jobs',
    sql: `
      -- On-demand rebuilds (spec §3): one row per mint asked for and not held. A job is claimed with a
      -- lease (lease_until_ms), renewed while it runs; a job whose lease ran out (its server stopped)
      -- is claimed again, so a restart resumes it. Finished jobs are deleted: the record is then held.
      CREATE TABLE rebuild_job (
        mint TEXT PRIMARY KEY,
        state TEXT NOT NULL CHECK (state IN ('queued', 'running', 'failed')),
        queued_at_ms INTEGER NOT NULL,
        started_at_ms INTEGER,
        lease_until_ms INTEGER,
        attempts INTEGER NOT NULL DEFAULT 0,
        signatures_read INTEGER NOT NULL DEFAULT 0,
        transactions_read INTEGER NOT NULL DEFAULT 0,
        error TEXT
      ) WITHOUT ROWID;
      CREATE INDEX rebuild_job_queue ON rebuild_job (state, queued_at_ms);

      -- Every rebuild start: the per-caller hourly limit and the service-wide daily ceiling count these.
      -- caller is the originating address (IP), never a key.
      CREATE TABLE rebuild_start (
        id INTEGER PRIMARY KEY,
        mint TEXT NOT NULL,
        caller TEXT NOT NULL,
        at_ms INTEGER NOT NULL
      );
      CREATE INDEX rebuild_start_caller ON rebuild_start (caller, at_ms);
      CREATE INDEX rebuild_start_at ON rebuild_start (at_ms);
    `,
  },
  {
    version: 4,
    name: 'the creation feed entitlement of a key',
    sql: `
      -- When the key was granted the creation feed (GET /api/v1/stream, a separate agreement:
      -- "lpa keys grant --feed"); NULL: not entitled ("lpa keys revoke --feed" sets it back).
      ALTER TABLE api_key ADD COLUMN feed_granted_at_ms INTEGER;
    `,
  },
];
