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
  {
    version: 2,
    name: 'wallet funders, wallet roles, coverage gaps',
    sql: `
      -- First funding source of a wallet (its oldest inbound SOL transfer), looked up once: the
      -- oldest transfer never changes. state 'none': the wallet's complete history has no inbound
      -- SOL transfer. Wallets whose lookup could not be completed have no row (unknown).
      CREATE TABLE wallet_funder (
        wallet TEXT PRIMARY KEY,
        state TEXT NOT NULL CHECK (state IN ('found','none')),
        funder TEXT,
        signature TEXT,
        slot INTEGER,
        checked_at_ms INTEGER NOT NULL
      );

      -- Every role a wallet played in a launch held (creator, bundled, early, buyout), rewritten with
      -- the launch's record: the wallet endpoint (spec §2.4) reads it by wallet.
      CREATE TABLE wallet_role (
        wallet TEXT NOT NULL,
        mint TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('creator','bundled','early','buyout')),
        signature TEXT NOT NULL,
        slot INTEGER NOT NULL,
        detail TEXT NOT NULL,
        PRIMARY KEY (wallet, mint, role)
      );
      CREATE INDEX wallet_role_mint ON wallet_role (mint);

      -- Intervals the collector was not watching (a run started more than the allowed gap after the
      -- previous run's last heartbeat), written once when the next run starts. downtimeMinutes sums them.
      -- Slots: from_slot = the chain tip at the previous run's last heartbeat, to_slot = the tip when
      -- the next run started; a creation in (from_slot, to_slot] was not watched (origin scanned).
      CREATE TABLE coverage_gap (
        from_ms INTEGER NOT NULL,
        to_ms INTEGER NOT NULL,
        from_slot INTEGER,
        to_slot INTEGER,
        PRIMARY KEY (from_ms)
      );

      -- The chain tip when a run started and at its latest heartbeat.
      ALTER TABLE collector_run ADD COLUMN start_slot INTEGER;
      ALTER TABLE collector_run ADD COLUMN tip_slot INTEGER;
    `,
  },
  {
    version: 3,
    name: 'funder lookups that could not finish; records whose cohort is unknown',
    sql: `
      -- The latest funder lookup of a wallet that could not finish (it has no wallet_funder row):
      -- 'page_cap' / 'tx_cap' (FUNDER_PAGE_CAP / FUNDER_TX_CAP, recorded with the caps in force:
      -- not asked again until a cap is raised), 'budget' (FUNDER_DAILY_RPC_BUDGET spent: asked
      -- again by the next sweep), 'rpc' (an RPC failure or a transaction not yet available: likewise).
      CREATE TABLE wallet_funder_attempt (
        wallet TEXT PRIMARY KEY,
        reason TEXT NOT NULL CHECK (reason IN ('page_cap','tx_cap','budget','rpc')),
        page_cap INTEGER NOT NULL,
        tx_cap INTEGER NOT NULL,
        attempted_at_ms INTEGER NOT NULL
      );

      -- 1 when the record holds its creation and complete history but its funding cohort could not
      -- be checked (funder.sharedCohort null): the collector's funder sweep asks again.
      ALTER TABLE launch ADD COLUMN cohort_unknown INTEGER NOT NULL DEFAULT 0;
      UPDATE launch SET cohort_unknown = 1
        WHERE json_extract(document, '$.launch') IS NOT NULL
          AND json_extract(document, '$.history.complete') = 1
          AND json_type(document, '$.funder.sharedCohort') = 'null';
      CREATE INDEX launch_cohort_unknown ON launch (mint) WHERE cohort_unknown = 1;
    `,
  },
  {
    version: 4,
    name: 'what buyout wallets did afterwards',
    sql: `
      -- Per buyout (the wallet whose buy completed the curve): the followed state of the token
      -- account that received the completing buy's tokens (src/core/afterwards.ts AfterwardsState,
      -- JSON), or NULL with a reason when it cannot be followed ('no_token_account'). checked_at_ms:
      -- when its history was last read to the end (0: a read stopped early; it is read again first).
      CREATE TABLE buyout_afterwards (
        mint TEXT NOT NULL,
        wallet TEXT NOT NULL,
        state TEXT,
        reason TEXT,
        checked_at_ms INTEGER NOT NULL,
        PRIMARY KEY (mint, wallet)
      );
      CREATE INDEX buyout_afterwards_wallet ON buyout_afterwards (wallet);
      CREATE INDEX wallet_role_buyout ON wallet_role (mint) WHERE role = 'buyout';
    `,
  },
  {
    version: 5,
    name: 'graduated launches, for the pool refresh',
    sql: `
      -- Records graduated to a PumpSwap pool (not the Raydium-era withdraw): the pool refresh reads
      -- their pool again, in mint order.
      CREATE INDEX launch_pool_refresh ON launch (mint)
        WHERE json_extract(document, '$.launch.graduated') = 1
          AND json_extract(document, '$.launch.graduationConfirmedBy') IS NOT 'withdraw';
    `,
  },
  {
    version: 6,
    name: 'launch_tx without its slot index',
    sql: `
      -- A launch's transactions are read by mint through the primary key (mint, signature) and
      -- sorted by slot in memory (its rows only: hundreds, a few thousand on a long curve), while
      -- the second index cost every insert of the collector (about 2 of its 17-20 µs per
      -- transaction on the bench chain) and its pages in the WAL.
      DROP INDEX IF EXISTS launch_tx_slot;
    `,
  },
  {
    version: 7,
    name: 'transactions the collector could not read',
    sql: `
      -- A transaction of the pump program's history the collector could not read for a reason that
      -- persisted: reason 'unsupported_version' (the RPC answered -32015) or 'malformed' (an answer
      -- the decoder could not take) at once; 'rpc_error' (a JSON-RPC error answer), 'request_failed'
      -- (timeouts, 5xx, 429, dropped connections past the retries) or 'not_found' (no answer yet)
      -- after UNREADABLE_AFTER_FAILURES catch-ups in a row. The catch-up moved past it; the collector
      -- reads it again UNREADABLE_RETRY_MS after its last try and deletes the row once it is read.
      -- detail: the RPC's error code and message, or the failure's class (never a URL).
      CREATE TABLE unreadable_tx (
        signature TEXT PRIMARY KEY,
        slot INTEGER NOT NULL,
        reason TEXT NOT NULL CHECK (reason IN ('unsupported_version','malformed','rpc_error','request_failed','not_found')),
        detail TEXT NOT NULL,
        failures INTEGER NOT NULL,
        first_failed_at_ms INTEGER NOT NULL,
        last_tried_at_ms INTEGER NOT NULL
      );
      CREATE INDEX unreadable_tx_tried ON unreadable_tx (last_tried_at_ms);

      -- The launches an unreadable transaction may belong to, when known: the mints of the live
      -- watch's logs notification for it. Deleted with its unreadable_tx row.
      CREATE TABLE unreadable_tx_mint (
        mint TEXT NOT NULL,
        signature TEXT NOT NULL,
        PRIMARY KEY (mint, signature)
      );
      CREATE INDEX unreadable_tx_mint_signature ON unreadable_tx_mint (signature);
    `,
  },
  {
    version: 8,
    name: 'unrecognised program data seen (the drift guard)',
    sql: `
      -- Each instruction or event discriminator of the pump, PumpSwap or fees program the decoder
      -- could not read, as seen in a successful transaction (methodology "The drift guard"):
      -- the first transaction that held it, when it was first and last seen, how many times.
      CREATE TABLE unrecognised_seen (
        program TEXT NOT NULL,
        kind TEXT NOT NULL,
        discriminator TEXT NOT NULL,
        first_signature TEXT NOT NULL,
        first_seen_ms INTEGER NOT NULL,
        last_seen_ms INTEGER NOT NULL,
        count INTEGER NOT NULL,
        PRIMARY KEY (program, kind, discriminator)
      );
    `,
  },
  {
    version: 9,
    name: 'names and symbols for search (FTS5), list columns and indexes',
    sql: `
      -- The columns the public lists and search read without parsing the document (set by putLaunch
      -- from the document; filled here for the rows held). name and symbol are the creator's own
      -- text, raw as in the document (pages pass it through displayText).
      ALTER TABLE launch ADD COLUMN name TEXT;
      ALTER TABLE launch ADD COLUMN symbol TEXT;
      ALTER TABLE launch ADD COLUMN finding_label TEXT;
      ALTER TABLE launch ADD COLUMN finding_why TEXT;
      ALTER TABLE launch ADD COLUMN graduated_at_ms INTEGER;
      UPDATE launch SET name = json_extract(document, '$.name'), symbol = json_extract(document, '$.symbol'),
        finding_label = json_extract(document, '$.finding.label'), finding_why = json_extract(document, '$.finding.why'),
        graduated_at_ms = json_extract(document, '$.launch.graduatedAt.ms');

      -- Lists (src/db/lists.ts): latest launches by creation slot; graduated by graduation time;
      -- FINDINGS by creation time. Exact symbol matches come first in search (src/db/search.ts).
      CREATE INDEX launch_latest ON launch (creation_slot) WHERE creation_slot IS NOT NULL;
      CREATE INDEX launch_graduated ON launch (graduated_at_ms) WHERE graduated_at_ms IS NOT NULL;
      CREATE INDEX launch_findings ON launch (created_at_ms) WHERE finding_class = 'FINDINGS';
      CREATE INDEX launch_symbol ON launch (symbol COLLATE NOCASE);

      -- Name and symbol search: an FTS5 index over the launch table's columns (external content,
      -- rowid = launch.rowid), kept in step by triggers. Prefix indexes of 1-3 characters answer
      -- short prefixes without scanning the term list. An upsert that leaves name and symbol as
      -- they were (every trade rewrites a record) does not touch the index. launch has no INTEGER
      -- PRIMARY KEY, so a VACUUM may renumber its rowids: after one, run
      -- INSERT INTO launch_fts (launch_fts) VALUES ('rebuild').
      CREATE VIRTUAL TABLE launch_fts USING fts5(name, symbol, content = 'launch', content_rowid = 'rowid',
        tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2 3');
      CREATE TRIGGER launch_fts_insert AFTER INSERT ON launch BEGIN
        INSERT INTO launch_fts (rowid, name, symbol) VALUES (new.rowid, new.name, new.symbol);
      END;
      CREATE TRIGGER launch_fts_delete AFTER DELETE ON launch BEGIN
        INSERT INTO launch_fts (launch_fts, rowid, name, symbol) VALUES ('delete', old.rowid, old.name, old.symbol);
      END;
      CREATE TRIGGER launch_fts_update AFTER UPDATE OF name, symbol ON launch
        WHEN old.name IS NOT new.name OR old.symbol IS NOT new.symbol BEGIN
        INSERT INTO launch_fts (launch_fts, rowid, name, symbol) VALUES ('delete', old.rowid, old.name, old.symbol);
        INSERT INTO launch_fts (rowid, name, symbol) VALUES (new.rowid, new.name, new.symbol);
      END;
      INSERT INTO launch_fts (launch_fts) VALUES ('rebuild');
    `,
  },
  {
    version: 10,
    name: 'a change sequence per record write, for listing and syncing (GET /api/v1/launches)',
    sql: `
      -- change_seq: a number that grows with every write that changes a record (a new row, or a
      -- new document: its sha256 differs), unique across the table. A mirror syncing in change_seq
      -- order sees every record, and a record changed after it was listed comes again later. Set by
      -- the triggers below, so every writer (collector, rebuild worker, lpa rebuild) keeps it
      -- without knowing it. Rows already held are numbered by rowid (unique, in insertion order).
      ALTER TABLE launch ADD COLUMN change_seq INTEGER NOT NULL DEFAULT 0;
      UPDATE launch SET change_seq = rowid;
      CREATE TABLE launch_change_counter (id INTEGER PRIMARY KEY CHECK (id = 1), seq INTEGER NOT NULL);
      INSERT INTO launch_change_counter (id, seq) VALUES (1, (SELECT COALESCE(MAX(rowid), 0) FROM launch));
      CREATE TRIGGER launch_change_on_insert AFTER INSERT ON launch BEGIN
        UPDATE launch_change_counter SET seq = seq + 1 WHERE id = 1;
        UPDATE launch SET change_seq = (SELECT seq FROM launch_change_counter WHERE id = 1) WHERE mint = NEW.mint;
      END;
      CREATE TRIGGER launch_change_on_update AFTER UPDATE OF sha256 ON launch WHEN OLD.sha256 IS NOT NEW.sha256 BEGIN
        UPDATE launch_change_counter SET seq = seq + 1 WHERE id = 1;
        UPDATE launch SET change_seq = (SELECT seq FROM launch_change_counter WHERE id = 1) WHERE mint = NEW.mint;
      END;
      CREATE UNIQUE INDEX launch_change ON launch (change_seq);
      -- Browsing, newest launch first: by creation slot, then mint.
      CREATE INDEX launch_created ON launch (creation_slot, mint);
    `,
  },
  {
    version: 11,
    name: 'creator pages to (re)write',
    sql: `
      -- Wallets whose creator page w/{wallet}.html must be (re)written: marked with the launch whose
      -- record names them (wallet_role is keyed by wallet and mint: the wallets of the roles before
      -- and after the change). seq grows with every mark, so a page written from an older read keeps
      -- its mark (cleared only when seq is unchanged). Every wallet already held is marked once.
      CREATE TABLE pending_wallet_page (wallet TEXT PRIMARY KEY, seq INTEGER NOT NULL);
      INSERT INTO pending_wallet_page (wallet, seq) SELECT DISTINCT wallet, 0 FROM wallet_role;
    `,
  },
  {
    version: 12,
    name: 'graduated launches for the pool refresh as a column',
    sql: `
      -- pool_refresh: 1 for a record graduated to a PumpSwap pool (not the Raydium-era withdraw),
      -- whose pool the refresh reads again, in mint order; set by putLaunch from the document. It
      -- replaces migration 5's partial index over json_extract(document, ...), which made every
      -- upsert of a record parse its document (about 163 µs an upsert with it, 106 µs without).
      ALTER TABLE launch ADD COLUMN pool_refresh INTEGER NOT NULL DEFAULT 0;
      UPDATE launch SET pool_refresh = 1
        WHERE json_extract(document, '$.launch.graduated') = 1
          AND json_extract(document, '$.launch.graduationConfirmedBy') IS NOT 'withdraw';
      DROP INDEX IF EXISTS launch_pool_refresh;
      CREATE INDEX launch_pool_refresh ON launch (mint) WHERE pool_refresh = 1;
    `,
  },
  {
    version: 13,
    name: 'the change sequence of a record\'s first write, for the creation feed (GET /api/v1/stream)',
    sql: `
      -- first_change_seq: the change_seq the record got when its row was inserted (its first write).
      -- The feed reports a record as changed when its change_seq is past it (a later version). Rows
      -- already held get their current change_seq (reported as first writes if a feed client resumes
      -- from before them). The insert trigger of migration 10 is replaced to set both.
      ALTER TABLE launch ADD COLUMN first_change_seq INTEGER NOT NULL DEFAULT 0;
      UPDATE launch SET first_change_seq = change_seq;
      DROP TRIGGER launch_change_on_insert;
      CREATE TRIGGER launch_change_on_insert AFTER INSERT ON launch BEGIN
        UPDATE launch_change_counter SET seq = seq + 1 WHERE id = 1;
        UPDATE launch SET change_seq = (SELECT seq FROM launch_change_counter WHERE id = 1),
                          first_change_seq = (SELECT seq FROM launch_change_counter WHERE id = 1) WHERE mint = NEW.mint;
      END;
    `,
  },
  {
    version: 14,
    name: 'one creation-slot index for the lists; creation slot with change sequence for syncs from a slot',
    sql: `
      -- launch_latest (creation_slot, partial) is covered by launch_created (creation_slot, mint) of
      -- migration 10: every query that used it (the public lists, src/db/lists.ts) reads the same
      -- range from launch_created. Dropped: one index less to write per record.
      DROP INDEX IF EXISTS launch_latest;
      -- A sync from a slot (GET /api/v1/launches?since=<slot>: creation_slot >= ? in change_seq
      -- order) skips the blocks of change sequences that hold no record created at or after the
      -- slot (src/db/launch-list.ts): their largest creation slot is read from this index alone,
      -- once per connection. Without it, the first page of a sync from a recent slot read every
      -- older change first (1.5-6 s on an archive of 1,000,000 records).
      CREATE INDEX launch_slot_change ON launch (creation_slot, change_seq);
    `,
  },
  {
    // 16, not 15: 15 is left to the ingest triggers' migration (a branch of its own); the two do not
    // depend on each other in either order (this one keeps the table's name and columns, so triggers
    // of any version that write launch_fts keep working).
    version: 16,
    name: 'search: prefix indexes of 1-8 characters',
    sql: `
      -- A prefix query longer than every prefix index ("pepe"* with prefix = '1 2 3') merges the
      -- whole doclist of every term that starts with it (pepe, pepecoin, pepefrog, …) before the
      -- first row comes out, however small the LIMIT: ~3-4 ms of CPU per 4-8 character prefix on an
      -- archive of 1,000,000 records, ~0.2 ms with an index of that length, which streams newest
      -- first. Whole words are such prefixes: the search box searches every word as one. Longer
      -- prefixes match few terms. Costs: the index grows from ~38 to ~67 MB per million records,
      -- and its rebuild from ~5 to ~12 s of CPU (measured: bench/home-search.ts's archive).
      -- Same table name, columns, tokenizer and external content: the triggers of migration 9 (or
      -- their successors) keep it in step.
      DROP TABLE launch_fts;
      CREATE VIRTUAL TABLE launch_fts USING fts5(name, symbol, content = 'launch', content_rowid = 'rowid',
        tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2 3 4 5 6 7 8');
      INSERT INTO launch_fts (launch_fts) VALUES ('rebuild');
    `,
  },
  {
    version: 17,
    name: 'record counts by origin, class and observed-at-launch, kept by triggers',
    sql: `
      -- GET /api/v1/status (no key) and the status page counted the records on every request: a
      -- GROUP BY over index launch_class (~130 ms) and a scan of the whole table for the launches
      -- observed at creation (~750 ms on an archive of 1,000,000 records), the server's event loop
      -- blocked meanwhile. The counts are kept here instead, by the launch table's triggers, in the
      -- transaction of each write: the status reads a few rows. A (origin, class, observed) whose
      -- records all moved elsewhere keeps a row with n = 0.
      CREATE TABLE launch_count (
        origin TEXT NOT NULL,
        finding_class TEXT NOT NULL,
        observed_at_launch INTEGER NOT NULL,
        n INTEGER NOT NULL,
        PRIMARY KEY (origin, finding_class, observed_at_launch)
      ) WITHOUT ROWID;
      INSERT INTO launch_count (origin, finding_class, observed_at_launch, n)
        SELECT origin, finding_class, observed_at_launch, count(*) FROM launch GROUP BY origin, finding_class, observed_at_launch;
      CREATE TRIGGER launch_count_insert AFTER INSERT ON launch BEGIN
        INSERT INTO launch_count (origin, finding_class, observed_at_launch, n) VALUES (NEW.origin, NEW.finding_class, NEW.observed_at_launch, 1)
          ON CONFLICT (origin, finding_class, observed_at_launch) DO UPDATE SET n = n + 1;
      END;
      CREATE TRIGGER launch_count_delete AFTER DELETE ON launch BEGIN
        UPDATE launch_count SET n = n - 1 WHERE origin = OLD.origin AND finding_class = OLD.finding_class AND observed_at_launch = OLD.observed_at_launch;
      END;
      CREATE TRIGGER launch_count_update AFTER UPDATE OF origin, finding_class, observed_at_launch ON launch
        WHEN OLD.origin IS NOT NEW.origin OR OLD.finding_class IS NOT NEW.finding_class OR OLD.observed_at_launch IS NOT NEW.observed_at_launch BEGIN
        UPDATE launch_count SET n = n - 1 WHERE origin = OLD.origin AND finding_class = OLD.finding_class AND observed_at_launch = OLD.observed_at_launch;
        INSERT INTO launch_count (origin, finding_class, observed_at_launch, n) VALUES (NEW.origin, NEW.finding_class, NEW.observed_at_launch, 1)
          ON CONFLICT (origin, finding_class, observed_at_launch) DO UPDATE SET n = n + 1;
      END;
    `,
  },
  {
    version: 18,
    name: 'wallet roles by wallet, role and slot',
    sql: `
      -- A wallet's page showed every role it played, read by the primary key (wallet, mint, role) and
      -- sorted: a sniper that bought in the first 30 s of 200,000 launches made a 129 MB page, written
      -- again (1.6 s of reading, 3.2 s of rendering, the collector's commits waiting) whenever one of
      -- those launches changed. The page now shows the newest of each role (a range of this index per
      -- role, newest first) and how many there are: kept in wallet_role_count by the triggers below,
      -- in the transaction of each write (counting 200,000 entries of the index took ~50 ms, on each
      -- rewrite of such a page). Role rows are inserted and deleted, never moved to another wallet
      -- or role (putWalletRoles upserts on the key), so the two triggers keep the counts exact.
      CREATE INDEX wallet_role_newest ON wallet_role (wallet, role, slot);
      CREATE TABLE wallet_role_count (
        wallet TEXT NOT NULL,
        role TEXT NOT NULL,
        n INTEGER NOT NULL,
        PRIMARY KEY (wallet, role)
      ) WITHOUT ROWID;
      INSERT INTO wallet_role_count (wallet, role, n) SELECT wallet, role, count(*) FROM wallet_role GROUP BY wallet, role;
      CREATE TRIGGER wallet_role_count_insert AFTER INSERT ON wallet_role BEGIN
        INSERT INTO wallet_role_count (wallet, role, n) VALUES (NEW.wallet, NEW.role, 1)
          ON CONFLICT (wallet, role) DO UPDATE SET n = n + 1;
      END;
      CREATE TRIGGER wallet_role_count_delete AFTER DELETE ON wallet_role BEGIN
        UPDATE wallet_role_count SET n = n - 1 WHERE wallet = OLD.wallet AND role = OLD.role;
      END;
    `,
  },
  {
    version: 19,
    name: 'list filters read through their own indexes',
    sql: `
      -- GET /api/v1/launches with a filter read the unfiltered order's index and tested each row:
      -- a class few records have, or none, read the whole archive for one page (class=UNKNOWN over
      -- 1,000,000 records: ~1.1 s newest first, ~0.8 s in change order, the server's event loop held
      -- meanwhile); graduated=true parsed every document it passed (about 1 in 100 launches
      -- graduates). Each filter now has an index in each order, so a page is one index range
      -- (src/db/launch-list.ts filterIndex); the change-order ones hold the creation slot, which a
      -- sync from a slot tests. A creator's launches were sorted whole for each page. graduated is
      -- a column of its own (1: the document's launch.graduated is true), so no index reads the
      -- document, which putLaunch rewrites in place on every trade (PublicStore KEYED_COLUMNS).
      -- Filling it fires no trigger (they watch sha256, name, symbol, origin, class, observed).
      ALTER TABLE launch ADD COLUMN graduated INTEGER NOT NULL DEFAULT 0;
      UPDATE launch SET graduated = 1 WHERE json_extract(document, '$.launch.graduated') = 1;
      DROP INDEX launch_creator;
      CREATE INDEX launch_creator_created ON launch (creator, creation_slot, mint);
      CREATE INDEX launch_creator_change ON launch (creator, change_seq, creation_slot);
      CREATE INDEX launch_class_created ON launch (finding_class, creation_slot, mint);
      CREATE INDEX launch_class_change ON launch (finding_class, change_seq, creation_slot);
      CREATE INDEX launch_graduated_created ON launch (creation_slot, mint) WHERE graduated = 1;
      CREATE INDEX launch_graduated_change ON launch (change_seq, creation_slot) WHERE graduated = 1;
    `,
  },
  {
    version: 20,
    name: 'pages to write again after the page template changed',
    sql: `
      -- A page on disk was written when its record last changed, by the template of that day: a
      -- settled record's page never changed again, so a new template (a fix, a redesign) never
      -- reached it. When the collector starts with another SITE_TEMPLATE_VERSION
      -- (src/render/site-template.ts) than the one the pages were written by, it lists every
      -- record's page and every creator page here, and writes them again with the time its page
      -- passes have left after the pages of records that changed (src/ingest/page-backlog.ts).
      CREATE TABLE page_backlog (kind TEXT NOT NULL CHECK (kind IN ('token', 'wallet')), key TEXT NOT NULL, UNIQUE (kind, key));
    `,
  },
  {
    version: 21,
    name: 'the newest creation time from an index',
    sql: `
      -- The lists' window starts from the newest creation time held (src/db/lists.ts
      -- newestCreationMs, read by every publish pass and by the server's home page before the
      -- collector wrote it): without an index, max(created_at_ms) read every record (~660 ms over
      -- 1,000,000 records); with it, one index entry.
      CREATE INDEX launch_created_ms ON launch (created_at_ms) WHERE creation_slot IS NOT NULL;
    `,
  },
  {
    version: 22,
    name: 'the creator role of every launch whose creation is held',
    sql: `
      -- Until now a launch whose history is incomplete wrote no wallet role at all, so the creator
      -- of a record the archive holds was "never seen" by the wallet endpoint and its page said no
      -- launch held names it as creator. The creator is a fact of the creation transaction: its
      -- role is written whatever the rest of the history (src/ingest/record-launch.ts rolesToList).
      -- Here the records written before get theirs (the row putWalletRoles writes: detail '{}'),
      -- and their creators' pages are marked to be written again. The launches without one are read
      -- through the mint index and wallet_role's mint index; only those rows are read in full.
      CREATE TEMP TABLE creator_role_missing AS
        SELECT l.mint FROM launch l INDEXED BY sqlite_autoindex_launch_1
        WHERE NOT EXISTS (SELECT 1 FROM wallet_role r WHERE r.mint = l.mint AND r.role = 'creator');
      INSERT INTO wallet_role (wallet, mint, role, signature, slot, detail)
        SELECT l.creator, l.mint, 'creator', l.creation_signature, l.creation_slot, '{}'
        FROM creator_role_missing m JOIN launch l ON l.mint = m.mint
        WHERE l.creator IS NOT NULL AND l.creation_signature IS NOT NULL AND l.creation_slot IS NOT NULL;
      INSERT INTO pending_wallet_page (wallet, seq)
        SELECT DISTINCT l.creator, 0 FROM creator_role_missing m JOIN launch l ON l.mint = m.mint
        WHERE l.creator IS NOT NULL AND l.creation_signature IS NOT NULL AND l.creation_slot IS NOT NULL
        ON CONFLICT (wallet) DO UPDATE SET seq = seq + 1;
      DROP TABLE creator_role_missing;
    `,
  },
  {
    version: 23,
    name: "graduated=false: only launches known not to have graduated",
    sql: `
      -- The list's graduated=false read every record whose document says launch.graduated false,
      -- which over an incomplete history is only the held history's answer (a missing trade may have
      -- completed the curve), and included records without a creation: unknown listed as "did not
      -- graduate", where the token page says "unknown". graduated is now 2 for those
      -- (src/core/record/known-graduation.ts graduation, PublicStore.putLaunch), in neither filter;
      -- 0 stays for a curve known not to have completed (complete history, or the curve account read
      -- says so, markers-v2 on) or completed and known not to have migrated (complete history, or the
      -- pool read and not found, markers-v7 on). Fires no trigger (they do not watch graduated).
      UPDATE launch SET graduated = 2
      WHERE graduated = 0 AND (
        creation_slot IS NULL OR (
          json_extract(document, '$.history.complete') IS NOT 1 AND NOT (
            CASE WHEN json_extract(document, '$.launch.completed') IS 1
              THEN json_extract(document, '$.launch.graduationCheck.poolFound') IS 0 AND method_version GLOB 'markers-v[0-9]*'
                AND substr(method_version, 10) NOT GLOB '*[^0-9]*' AND CAST(substr(method_version, 10) AS INTEGER) >= 7
              ELSE json_extract(document, '$.launch.graduationCheck.curveComplete') IS 0 AND method_version GLOB 'markers-v[0-9]*'
                AND substr(method_version, 10) NOT GLOB '*[^0-9]*' AND CAST(substr(method_version, 10) AS INTEGER) >= 2
            END)));
    `,
  },
  {
    version: 24,
    name: 'wallets seen trading a curve held (wallet record inArchive)',
    sql: `
      -- Spec §2.4: inArchive is false only for a wallet never seen. A wallet that bought or sold a
      -- curve the archive holds, without a role (creator, bundled or first-30-s buyer, buyout), was
      -- answered as never seen (inArchive false, every list null: "unknown") though the archive holds
      -- the launch's history with its trades. The users of the curve's successful trades
      -- (pump TradeEvent of the launch's mint) are kept here as launch_tx rows are added
      -- (PublicStore.addTransaction); this fills it from the rows kept so far.
      CREATE TABLE wallet_seen (wallet TEXT PRIMARY KEY) WITHOUT ROWID;
      INSERT OR IGNORE INTO wallet_seen (wallet)
        SELECT json_extract(e.value, '$.fields.user') FROM launch_tx t, json_each(t.decoded, '$.events') e
        WHERE t.failed = 0 AND json_extract(e.value, '$.program') = 'pump' AND json_extract(e.value, '$.name') = 'TradeEvent'
          AND json_extract(e.value, '$.fields.mint') = t.mint AND json_extract(e.value, '$.fields.user') IS NOT NULL;
    `,
  },
  {
    version: 25,
    name: "a launch's other addresses: its bonding curve and its pool (search)",
    sql: `
      -- A reader who pastes a DEX pair link or an explorer's account page holds the launch's pool or
      -- bonding curve address, not its mint, and the search answered "no record" (UNKNOWN) for a launch
      -- the archive holds (a phone review). Kept by PublicStore.putLaunch from each record written;
      -- filled here from the records held.
      CREATE TABLE launch_address (address TEXT PRIMARY KEY, mint TEXT NOT NULL, kind TEXT NOT NULL CHECK (kind IN ('bonding_curve', 'pool'))) WITHOUT ROWID;
      INSERT OR REPLACE INTO launch_address (address, mint, kind) SELECT bonding_curve, mint, 'bonding_curve' FROM launch WHERE bonding_curve IS NOT NULL;
      INSERT OR REPLACE INTO launch_address (address, mint, kind)
        SELECT json_extract(document, '$.pool.address'), mint, 'pool' FROM launch WHERE graduated = 1 AND json_extract(document, '$.pool.address') IS NOT NULL;
    `,
  },
  {
    version: 26,
    name: 'unreadable transactions: named by a notification, or not',
    sql: `
      -- An unreadable transaction no logs notification named counts against the launches around it
      -- when it is passed (PublicStore.launchesAround); a launch that graduates later, and had it in
      -- its life, must count it too when its record is built (src/ingest/record-launch.ts): these
      -- are the ones not named (0). Rows before this: not known, so not named (the side of unknown).
      ALTER TABLE unreadable_tx ADD COLUMN named INTEGER NOT NULL DEFAULT 0;
      CREATE INDEX unreadable_tx_unnamed ON unreadable_tx (slot) WHERE named = 0;
    `,
  },
  {
    version: 27,
    name: 'markers-v9: records whose cohort holds a wallet of no recorded funding are checked again',
    sql: `
      -- markers-v9 (docs/methodology.md): a cohort wallet whose complete history holds no inbound
      -- SOL transfer (wallet_funder state 'none') no longer counts as checked. A record made before
      -- with such a wallet and no shared funder said "no shared funder" (sharedCohort []): the
      -- collector's funder sweep records it again (cohort_unknown), under markers-v9.
      UPDATE launch SET cohort_unknown = 1
        WHERE cohort_unknown = 0
          AND json_extract(document, '$.launch') IS NOT NULL
          AND json_extract(document, '$.history.complete') = 1
          AND json_type(document, '$.funder.sharedCohort') = 'array'
          AND json_array_length(document, '$.funder.sharedCohort') = 0
          AND (creator IN (SELECT wallet FROM wallet_funder WHERE state = 'none')
            OR mint IN (SELECT r.mint FROM wallet_funder f JOIN wallet_role r ON r.wallet = f.wallet
                        WHERE f.state = 'none' AND r.role IN ('creator', 'bundled', 'early')));
      -- and those wallets are looked up again: markers-v9 also reads the lamports a wallet was created
      -- with (CreateAccount) as its funding, which the lookup that found none did not
      DELETE FROM wallet_funder WHERE state = 'none';
    `,
  },
  {
    version: 28,
    name: 'markers-v10: records whose history holds a multi-hop route or a pool part are recorded again',
    sql: `
      -- markers-v10 (docs/methodology.md "Multi-hop routes: the middle coin is no wallet's"): a curve
      -- hop of a multi-hop route through a coin is no wallet's trade of it, a route's delivery to
      -- another wallet's account is that wallet's, and a synthetic completion's pool part is the last
      -- buy's whatever user it names. A record made before from a transaction holding a route or a
      -- pool part may have said more (a bundled buyer, the creator's share, a sale at birth) or less
      -- (no outside buyer) than that: the collector's funder sweep records it again (cohort_unknown),
      -- under markers-v10. Both came with the pump redeploy of 2026-10-08 (slot ~454,460,000): only
      -- transactions from slot 454,000,000 on are read. One pass over launch_tx (~600 MB/s held in memory).
      UPDATE launch SET cohort_unknown = 1
        WHERE cohort_unknown = 0
          AND json_extract(document, '$.launch') IS NOT NULL
          AND mint IN (SELECT mint FROM launch_tx WHERE slot >= 454000000 AND failed = 0
                       AND (instr(decoded, '"multi_hop_swap"') > 0 OR instr(decoded, '"PostCompleteBuyEvent"') > 0));
    `,
  },
  {
    version: 29,
    name: 'markers-v11: records whose history holds a multi-hop route, or whose first slots hold a pump buy called by another program, are recorded again',
    sql: `
      -- markers-v11 (docs/methodology.md "Routes, bundlers and logs"): a wallet's several routes under one
      -- instruction are read with their direction, and a curve's buyout by the kind of its completing buy;
      -- a pump buy called by another program (a bundler) whose receiving account a wallet kept is that
      -- wallet's; a wallet paying for another's buy in the first slots joins the funding cohort. A record
      -- made under markers-v10 from such a history may say less than that (a sale at birth, bundled or
      -- early buyers, a shared funder): the collector's funder sweep (cohort_unknown) records it again.
      -- Marked: a route in the history since the redeploy (slot 454,000,000, as migration 28: records made
      -- under markers-v10 after it ran were not marked), and a buy called by a program in the creation slot
      -- or the 100 slots after it (the first 30 s), each record's rows found by the primary key's mint and
      -- only those slots' text read. Over-marks: a router's buy into its own account changes nothing.
      UPDATE launch SET cohort_unknown = 1
        WHERE cohort_unknown = 0
          AND json_extract(document, '$.launch') IS NOT NULL
          AND (mint IN (SELECT mint FROM launch_tx WHERE slot >= 454000000 AND failed = 0 AND instr(decoded, '"multi_hop_swap"') > 0)
            OR EXISTS (SELECT 1 FROM launch_tx lt WHERE lt.mint = launch.mint AND lt.slot BETWEEN launch.creation_slot AND launch.creation_slot + 100
              AND lt.failed = 0 AND (
                 instr(lt.decoded, '"program":"pump","name":"buy","inner":true') > 0 OR
                 instr(lt.decoded, '"program":"pump","name":"buy_v2","inner":true') > 0 OR
                 instr(lt.decoded, '"program":"pump","name":"buy_v3","inner":true') > 0 OR
                 instr(lt.decoded, '"program":"pump","name":"buy_exact_sol_in","inner":true') > 0 OR
                 instr(lt.decoded, '"program":"pump","name":"buy_exact_quote_in_v2","inner":true') > 0 OR
                 instr(lt.decoded, '"program":"pump","name":"buy_exact_quote_in_v3","inner":true') > 0)));
    `,
  },
  {
    version: 30,
    name: 'markers-v12: records whose first slots or completing transaction hold a pump trade called by another program or a multi-hop route, or a transaction without a blockTime, are recorded again',
    sql: `
      -- markers-v12 (docs/methodology.md "Routers' own addresses, vaults and the events' clock"): a trade whose
      -- user is a program's address (a router's authority) is the wallet's whose holdings it moved; a route's or a
      -- top-level buy's delivery to a program's account is its payer's; a transaction's time is its events' clock when
      -- the answer has no blockTime. A program-derived address signs no top-level instruction, so such a trader is in a
      -- trade another program called (or a route's hop). Marked for the collector's funder sweep, which records them
      -- again: such a trade in the creation slot or the 100 slots after it (each record's rows found by the primary
      -- key's mint, only those slots' text read) or in its completing transaction (the buyout's signature, one row by
      -- the primary key); a transaction without a blockTime in those slots; a record without a creation time, or
      -- graduated without a graduation time (its graduating transaction may have had none). Over-marks (a router
      -- trading with the wallet's own address changes nothing; a graduation confirmed by account reads has no time).
      UPDATE launch SET cohort_unknown = 1
        WHERE cohort_unknown = 0
          AND json_extract(document, '$.launch') IS NOT NULL
          AND (created_at_ms IS NULL OR created_at_ms = 0
            OR (graduated = 1 AND graduated_at_ms IS NULL)
            OR EXISTS (SELECT 1 FROM launch_tx lt WHERE lt.mint = launch.mint AND lt.slot BETWEEN launch.creation_slot AND launch.creation_slot + 100
              AND lt.failed = 0 AND (lt.block_time IS NULL OR
                 instr(lt.decoded, '"multi_hop_swap"') > 0 OR
                 instr(lt.decoded, '"program":"pump","name":"buy","inner":true') > 0 OR
                 instr(lt.decoded, '"program":"pump","name":"sell","inner":true') > 0 OR
                 instr(lt.decoded, '"program":"pump","name":"buy_v2","inner":true') > 0 OR
                 instr(lt.decoded, '"program":"pump","name":"sell_v2","inner":true') > 0 OR
                 instr(lt.decoded, '"program":"pump","name":"buy_v3","inner":true') > 0 OR
                 instr(lt.decoded, '"program":"pump","name":"sell_v3","inner":true') > 0 OR
                 instr(lt.decoded, '"program":"pump","name":"buy_exact_sol_in","inner":true') > 0 OR
                 instr(lt.decoded, '"program":"pump","name":"buy_exact_quote_in_v2","inner":true') > 0 OR
                 instr(lt.decoded, '"program":"pump","name":"buy_exact_quote_in_v3","inner":true') > 0))
            OR EXISTS (SELECT 1 FROM launch_tx ct WHERE ct.mint = launch.mint AND ct.signature = json_extract(launch.document, '$.curveBuyout.signature')
              AND ct.failed = 0 AND (
                 instr(ct.decoded, '"multi_hop_swap"') > 0 OR
                 instr(ct.decoded, '"program":"pump","name":"buy","inner":true') > 0 OR
                 instr(ct.decoded, '"program":"pump","name":"sell","inner":true') > 0 OR
                 instr(ct.decoded, '"program":"pump","name":"buy_v2","inner":true') > 0 OR
                 instr(ct.decoded, '"program":"pump","name":"sell_v2","inner":true') > 0 OR
                 instr(ct.decoded, '"program":"pump","name":"buy_v3","inner":true') > 0 OR
                 instr(ct.decoded, '"program":"pump","name":"sell_v3","inner":true') > 0 OR
                 instr(ct.decoded, '"program":"pump","name":"buy_exact_sol_in","inner":true') > 0 OR
                 instr(ct.decoded, '"program":"pump","name":"buy_exact_quote_in_v2","inner":true') > 0 OR
                 instr(ct.decoded, '"program":"pump","name":"buy_exact_quote_in_v3","inner":true') > 0)));
    `,
  },
];
