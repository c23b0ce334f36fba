import type { Migration } from './open.ts';

/**
 * Schema of the private database (`private.db`): service data that is never published.
 * API keys are stored only as HMAC-SHA-256(server secret, key) in hex; `prefix` is the first
 * characters of the key, kept for display (`lpa keys list`) and not enough to use it.
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
];
