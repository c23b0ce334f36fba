import type { Migration } from './open.ts';

/**
 * Schema of the public database (`public.db`): chain-derived facts only, publishable as it is.
 * Amounts are never stored as SQLite numbers where they could exceed 2^53: they live in the
 * JSON documents as decimal strings.
 */
export const PUBLIC_MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'launches, their transactions, cursor, collector runs',
    sql: `
      CREATE TABLE launch (
        mint TEXT PRIMARY KEY,
        bonding_curve TEXT,
        creator TEXT,
        creation_signature TEXT,
        creation_slot INTEGER,
        created_at_ms INTEGER,
        origin TEXT NOT NULL CHECK (origin IN ('observed','scanned','rebuilt')),
        observed_at_launch INTEGER NOT NULL,
        finding_class TEXT NOT NULL CHECK (finding_class IN ('FINDINGS','NOTE','NO_MARKERS','UNKNOWN')),
        clean_at_birth INTEGER,
        settled INTEGER NOT NULL,
        method_version TEXT NOT NULL,
        document TEXT NOT NULL,
        sha256 TEXT NOT NULL,
        updated_at_ms INTEGER NOT NULL
      );
      CREATE INDEX launch_creator ON launch (creator);
      CREATE INDEX launch_class ON launch (origin, finding_class);

      -- Every decoded transaction that touched a launch, kept so a record can be rebuilt from its
      -- history by the same builder at any time. 'decoded' is the DecodedTransaction JSON.
      CREATE TABLE launch_tx (
        mint TEXT NOT NULL,
        signature TEXT NOT NULL,
        slot INTEGER NOT NULL,
        block_time INTEGER,
        failed INTEGER NOT NULL,
        decoded TEXT NOT NULL,
        PRIMARY KEY (mint, signature)
      );
      CREATE INDEX launch_tx_slot ON launch_tx (mint, slot);

      CREATE TABLE cursor (
        name TEXT PRIMARY KEY,
        signature TEXT,
        slot INTEGER,
        updated_at_ms INTEGER NOT NULL
      );

      -- One row per collector process run: coverage and downtime are derived from these.
      CREATE TABLE collector_run (
        id INTEGER PRIMARY KEY,
        started_at_ms INTEGER NOT NULL,
        last_beat_ms INTEGER NOT NULL,
        stopped_at_ms INTEGER
      );

      -- Records whose page/document must be (re)written; cleared after the files are written.
      CREATE TABLE pending_page (mint TEXT PRIMARY KEY);

      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    `,
  },
];
