import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';

/**
 * The archive's configuration: one table, parsed once at process start from the environment
 * and passed down (no module reads `process.env` at import time). Every setting is listed in
 * README.md "Configuration" and `.env.example`; a test checks that.
 */
const schema = z.object({
  // http(s) and ws(s) only: `localhost:8899` (no scheme) and `ftp://…` parsed as URLs and failed later, a WebSocket URL given as http:// reconnected forever
  SOLANA_RPC_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL, such as https://api.mainnet-beta.solana.com' }).default('https://api.mainnet-beta.solana.com'),
  SOLANA_WS_URL: z.url({ protocol: /^wss?$/, error: 'must be a ws:// or wss:// URL (unset: SOLANA_RPC_URL with http(s) turned into ws(s))' }).optional(),
  DATA_DIR: z.string().min(1).default('data'),
  PORT: z.coerce.number().int().min(0).max(65535).default(4321),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_BASE_URL: z.url().optional(),
  KEY_SECRET: z.string().min(32).optional(),
  LICENSE_TEXT: z
    .string()
    .default('Licensed for use in your own product; no bulk redistribution.'),
  LICENSE_URL: z.url().default('https://example.invalid/license'),
  CONTACT_EMAIL: z.string().default('archive@example.invalid'),
  EXPLORER_TX_URL: z.url().default('https://solscan.io/tx/'),
  COLLECT_START: z.enum(['latest', 'earliest']).default('latest'),
  COLLECT_BATCH: z.coerce.number().int().min(1).max(5000).default(500),
  RPC_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(8),
  RPC_MAX_RPS: z.coerce.number().min(0).default(0),
  RPC_BATCH_SIZE: z.coerce.number().int().min(1).max(1000).default(100),
  /**
   * MB of heap the collector's decoded transactions may take across batches (src/ingest/tx-cache.ts;
   * estimated as 1.3 × their JSON: about 5 KB a transaction decoded whole, less for a trade taken from
   * its logs). 1,024 holds the curves active at once at mainnet's rate (docs/operations.md "Sizing");
   * 0 = none: every batch re-reads a touched launch's history from SQLite.
   */
  TX_CACHE_MB: z.coerce.number().int().min(0).default(1024),
  /**
   * Seconds a launch's transactions stay in the collector's cache after its last use (src/ingest/tx-cache.ts):
   * a curve not touched for this long is dropped and read from SQLite again if it trades later, so the
   * cache holds the curves active now, not every curve seen (TX_CACHE_MB stays the ceiling). 0 = kept
   * until the TX_CACHE_MB bound drops them.
   */
  TX_CACHE_IDLE_S: z.coerce.number().int().min(0).default(60),
  POLL_INTERVAL_MS: z.coerce.number().int().min(100).default(2000),
  /**
   * How far the collector's V8 heap may grow past what was live after a full garbage collection
   * before the next one, in % (V8's `--heap-growing-percent`, set when the collector starts:
   * src/heap-limits.ts). 0 = V8's own choice, up to 300 % on a machine with 2 GB or more
   * for the heap: at mainnet's rate the collector's RSS then swung between 0.4 and 1 GB around a live
   * heap of 0.15–0.3 GB (docs/operations.md "Sizing").
   */
  HEAP_GROWTH_PERCENT: z.coerce.number().int().min(0).max(300).default(50),
  /**
   * MB the server's V8 young generation (both semi-spaces) may take (src/heap-limits.ts
   * limitYoungGeneration, set when the server starts serving). 0 = V8's own choice (up to 128 MB with a 4 GB heap limit): under
   * the stream bench (200 feed clients, 1,000 records/s) it grew 32 → 128 MB around an old generation of
   * 20–28 MB (docs/operations.md "Sizing").
   */
  YOUNG_GENERATION_MB: z.coerce.number().int().min(0).max(1024).default(32),
  /** Signature pages (1,000 each) read per wallet when looking up its first funder; a longer history leaves it unknown. */
  FUNDER_PAGE_CAP: z.coerce.number().int().min(1).default(3),
  /** Oldest transactions of a wallet read when looking for its first inbound SOL transfer; beyond it unknown. */
  FUNDER_TX_CAP: z.coerce.number().int().min(1).default(25),
  /** RPC calls per UTC day spent on funder lookups (0 = no lookups: every cohort stays unknown). */
  FUNDER_DAILY_RPC_BUDGET: z.coerce.number().int().min(0).default(100_000),
  /** How often (ms) the collector's funder sweep asks again for records whose cohort is unknown (100 records per sweep). */
  FUNDER_SWEEP_MS: z.coerce.number().int().min(0).default(600_000),
  /** How often (ms) the collector re-reads what buyout wallets did afterwards (their token account's new transactions); up to 200 buyouts per sweep, least recently checked first. */
  AFTERWARDS_SWEEP_MS: z.coerce.number().int().min(0).default(600_000),
  /** How often (ms) the collector reads the pools of graduated launches again ("the pool now"); up to 100 records per refresh, in mint order. */
  POOL_REFRESH_MS: z.coerce.number().int().min(0).default(600_000),
  /** How often (ms) the collector rewrites the bulk downloads (/data/record.db, /data/documents.ndjson.gz). */
  DOWNLOADS_INTERVAL_MS: z.coerce.number().int().min(0).default(3_600_000),
  /**
   * How often (ms) the collector publishes a generation of the public database (a consistent,
   * immutable snapshot with a manifest: src/generations.ts) into `DATA_DIR/generations`, keeping the
   * newest three. Unset: none is published (single-machine mode: the server reads public.db live).
   */
  GENERATION_INTERVAL_MS: z.coerce.number().int().min(1000).optional(),
  /**
   * An API node with this set serves the public database from the newest verified generation in
   * this folder (a copy of the collector's `DATA_DIR/generations`: rsync or object storage), read-only,
   * swapping to each newer one; unset: it reads `DATA_DIR/public.db` live (single-machine mode).
   */
  API_GENERATIONS_DIR: z.string().min(1).optional(),
  /**
   * Catch-ups in a row that may fail to read the same transaction (timeouts, 5xx, 429 beyond the
   * retries, an RPC error, no answer) before it is recorded as unreadable and the cursor moves past
   * it; an unsupported version or a malformed answer is recorded at once.
   */
  UNREADABLE_AFTER_FAILURES: z.coerce.number().int().min(1).default(3),
  /** How long (ms) after its last try the collector reads an unreadable transaction again (up to 100 per pass, oldest try first). */
  UNREADABLE_RETRY_MS: z.coerce.number().int().min(0).default(600_000),
  /** A pause between collector runs longer than this (ms) is a coverage gap (downtime); cron every minute stays under it. */
  COVERAGE_GAP_MS: z.coerce.number().int().min(1000).default(120_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Log lines: `pretty` (human lines, pino-pretty), `json` (one JSON object a line), `auto` (pretty when stdout is a terminal, else JSON). */
  LOG_FORMAT: z.enum(['auto', 'pretty', 'json']).default('auto'),
  /** `true` only for `npm run demo`: every token page carries a demo banner and `/api/v1/status` says `"demo": true`. */
  DEMO: z.stringbool().default(false),
  /** Rebuilds started per UTC day, service-wide (spec §8 "rebuild daily ceiling"); beyond it 503 `rebuild_budget_exhausted`. */
  REBUILD_DAILY_CEILING: z.coerce.number().int().min(0).default(500),
  /** Rebuilds queued or running at most; beyond it 503 `busy`. */
  REBUILD_MAX_QUEUE: z.coerce.number().int().min(1).default(50),
  /** Rebuilds run at once by the server's worker. */
  REBUILD_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
  /** RPC requests per second one rebuild may send (0 = no limit). */
  REBUILD_RPC_MAX_RPS: z.coerce.number().min(0).default(20),
  /** A running rebuild's lease (ms), renewed as it reads; a job whose lease ran out (its server stopped) is resumed. */
  REBUILD_LEASE_MS: z.coerce.number().int().min(1000).default(30_000),
  /** The most transactions one rebuild reads: a curve with a longer history is not rebuilt (404 rebuild_failed) — each decoded transaction is held in memory until the record is built. */
  REBUILD_MAX_TRANSACTIONS: z.coerce.number().int().min(10).max(1_000_000).default(25_000),
  /** Comma-separated addresses of reverse proxies whose `X-Forwarded-For` is trusted to name the caller (rebuild limits). Empty: none. */
  TRUSTED_PROXIES: z.string().default(''),
  /** Searches (`GET /search`) per caller address per minute (the caller as for rebuild limits: TRUSTED_PROXIES); beyond it 429 with Retry-After. 0 = no limit (benchmarks). */
  SEARCH_PER_MINUTE: z.coerce.number().int().min(0).default(60),
  /** How long (ms) a search answer is kept in the server's memory and may be kept by a cache (`Cache-Control: max-age`, whole seconds). */
  SEARCH_CACHE_MS: z.coerce.number().int().min(0).default(5_000),
  /** MB of `GET /api/v1/launches` pages the server keeps in memory while the public database is unchanged (any commit forgets them; src/server/list-page-memo.ts). 0 = none. */
  LIST_CACHE_MB: z.coerce.number().int().min(0).max(65_536).default(128),
  /** How often at most (ms) the collector rewrites the home page, the list pages and /status.html (collector/publish/lists.ts). */
  LISTS_INTERVAL_MS: z.coerce.number().int().min(0).default(5_000),
  /** How often (ms) the creation feed (`GET /api/v1/stream`) sends its `: heartbeat` comment on every open stream (issue 25: 15 s). */
  STREAM_HEARTBEAT_MS: z.coerce.number().int().min(100).default(15_000),
  /** How often (ms) the server's one feed poller reads public.db for records written since it last looked (the feed's delay from commit is up to this, plus delivery). */
  STREAM_POLL_MS: z.coerce.number().int().min(10).max(10_000).default(150),
  /** KB of events the server holds for one feed connection whose client reads slower than records arrive; past it the connection is closed (the client resumes with Last-Event-ID). Lagging connections share the same event chunks, so this bounds each, not their sum. */
  STREAM_BUFFER_KB: z.coerce.number().int().min(16).default(4096),
  /** How often (ms) the server checks again the key of every open feed stream: a stream whose key was revoked (or rotated away), or lost the feed entitlement, ends at the next check. One key read per key holding a stream, not per event. */
  STREAM_KEY_CHECK_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
  /** Keyed requests per key per UTC day (spec §8: 10,000). */
  DAILY_QUOTA: z.coerce.number().int().min(1).default(10_000),
  /**
   * Cluster mode: the private state (keys, accounts, payment events, quota counts, rebuild jobs) in
   * PostgreSQL at this URL (`postgres://user:password@host:5432/db`; a unix socket directory as
   * `?host=/run/postgresql`), shared by every API node. Unset: `DATA_DIR/private.db` (SQLite).
   */
  PRIVATE_DB_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  /** Seconds a keyed request answered 503 `unavailable` (PostgreSQL unreachable) tells the client to wait (Retry-After). */
  UNAVAILABLE_RETRY_S: z.coerce.number().int().min(1).default(5),
  /** Count keyed requests against the daily quota (spec §8). `off` is for `npm run bench` only: nothing is counted or refused, and the server logs a warning at start. */
  QUOTA_COUNTING: z.enum(['on', 'off']).default('on'),
  /** Stripe secret API key (`sk_live_…`/`sk_test_…`). With STRIPE_WEBHOOK_SECRET and STRIPE_PRICE_ID it turns the paid plan on; set all three or none. */
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  /** Signing secret of the Stripe webhook endpoint `{PUBLIC_BASE_URL}/billing/webhook` (`whsec_…`). */
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  /** Stripe price id (`price_…`) of the plan's recurring subscription price. */
  STRIPE_PRICE_ID: z.string().min(1).optional(),
  /** Price in words on the pricing page (e.g. "USD 49 per month"); unset: "shown at checkout". */
  PLAN_PRICE_TEXT: z.string().min(1).optional(),
  /** Host of the Stripe API (the `stripe` package's `host`); tests point it at a loopback stand-in. Default api.stripe.com. */
  STRIPE_API_HOST: z.string().min(1).optional(),
  /** Port of the Stripe API (`port`). Default 443. */
  STRIPE_API_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** Protocol of the Stripe API (`protocol`): `https` or `http` (loopback stand-ins only). Default https. */
  STRIPE_API_PROTOCOL: z.enum(['http', 'https']).optional(),
});

/** The paid plan's Stripe settings; present only when all three secrets are set. */
export interface BillingConfig {
  secretKey: string;
  webhookSecret: string;
  priceId: string;
  /** Overrides of the Stripe API address (tests); undefined = Stripe's own. */
  api: { host?: string; port?: number; protocol?: 'http' | 'https' };
}

export type RawConfig = z.infer<typeof schema>;

/** Parsed configuration with derived values. */
export interface Config extends RawConfig {
  /** WebSocket URL: SOLANA_WS_URL, or SOLANA_RPC_URL with http(s) → ws(s). */
  wsUrl: string;
  /** Absolute DATA_DIR. */
  dataDir: string;
  publicDbPath: string;
  privateDbPath: string;
  siteDir: string;
  /** Absolute folder the collector publishes generations into: `DATA_DIR/generations`. */
  generationsDir: string;
  /** Absolute API_GENERATIONS_DIR, or null: the server reads `DATA_DIR/public.db` live. */
  apiGenerationsDir: string | null;
  /** Base URL used in `source` links: PUBLIC_BASE_URL or http://HOST:PORT. */
  baseUrl: string;
  /** Stripe settings of the paid plan, or null when subscriptions are not configured. */
  billing: BillingConfig | null;
}

/** Every setting name, for docs and the docs test. */
export const CONFIG_KEYS = Object.keys(schema.shape) as (keyof RawConfig)[];

/**
 * Settings an earlier version read and this one does not, with what replaced them: a deployment
 * that still sets one is stopped with the replacement named, rather than silently given a default.
 */
export const RENAMED_SETTINGS: Record<string, string> = {
  TX_CACHE_TRANSACTIONS: 'set TX_CACHE_MB (the transaction cache is bounded by memory: about 5 KB of heap per transaction decoded whole; default 1024)',
};

/** Settings whose values are never echoed in an error (keys, secrets, URLs that may carry a provider key). */
const SECRET_KEYS = new Set(['KEY_SECRET', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'SOLANA_RPC_URL', 'SOLANA_WS_URL', 'PRIVATE_DB_URL', 'PG_URL']);

/**
 * Parse the environment once. Errors: throws `ConfigError` naming every bad setting, and every
 * setting of {@link RENAMED_SETTINGS} still set.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // every problem at once: a renamed setting and a bad value are reported together
  const renamed = Object.entries(RENAMED_SETTINGS)
    .filter(([old]) => env[old] !== undefined && env[old] !== '')
    .map(([old, why]) => `${old}: no longer read; ${why}`);
  const picked: Record<string, string> = {};
  for (const key of CONFIG_KEYS) {
    const v = env[key];
    if (v !== undefined && v !== '') picked[key] = v;
  }
  const parsed = schema.safeParse(picked);
  // the value given is named beside the problem (an operator read "expected number, received NaN" for COLLECT_BATCH=abc)
  const given = (key: string) => (picked[key] === undefined ? '' : ` (it is "${picked[key]!.length > 60 ? `${picked[key]!.slice(0, 60)}…` : picked[key]}")`);
  const bad = parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}${SECRET_KEYS.has(String(i.path[0])) ? '' : given(String(i.path[0]))}`);
  if (renamed.length > 0 || !parsed.success) throw new ConfigError(`invalid configuration:\n  ${[...renamed, ...bad].join('\n  ')}`);
  const c = parsed.data;
  const stripe = { STRIPE_SECRET_KEY: c.STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET: c.STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_ID: c.STRIPE_PRICE_ID };
  const missing = Object.entries(stripe).filter(([, v]) => v === undefined).map(([k]) => k);
  if (missing.length > 0 && missing.length < 3) {
    throw new ConfigError(`invalid configuration:\n  ${missing.join(', ')}: required when any of STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_ID is set`);
  }
  if (c.PRIVATE_DB_URL && !c.KEY_SECRET) {
    throw new ConfigError(
      'invalid configuration:\n  KEY_SECRET: required with PRIVATE_DB_URL (cluster mode): every API node must hash keys with the same secret, so it cannot be the per-DATA_DIR key-secret file',
    );
  }
  const dataDir = resolve(c.DATA_DIR);
  // a file where the data folder should be: said at once, not as each store's mkdir failing (EEXIST) on every request
  const found = statSync(dataDir, { throwIfNoEntry: false });
  if (found && !found.isDirectory()) throw new ConfigError(`invalid configuration:\n  DATA_DIR: ${dataDir} exists and is not a folder (a file?): give a folder, or a path where one can be made`);
  const wsUrl = c.SOLANA_WS_URL ?? c.SOLANA_RPC_URL.replace(/^http/, 'ws');
  return {
    ...c,
    wsUrl,
    dataDir,
    publicDbPath: resolve(dataDir, 'public.db'),
    privateDbPath: resolve(dataDir, 'private.db'),
    siteDir: resolve(dataDir, 'site'),
    generationsDir: resolve(dataDir, 'generations'),
    apiGenerationsDir: c.API_GENERATIONS_DIR === undefined ? null : resolve(c.API_GENERATIONS_DIR),
    baseUrl: (c.PUBLIC_BASE_URL ?? `http://${c.HOST === '0.0.0.0' ? '127.0.0.1' : c.HOST}:${c.PORT}`).replace(/\/$/, ''),
    billing:
      missing.length === 0
        ? {
            secretKey: c.STRIPE_SECRET_KEY!,
            webhookSecret: c.STRIPE_WEBHOOK_SECRET!,
            priceId: c.STRIPE_PRICE_ID!,
            api: { host: c.STRIPE_API_HOST, port: c.STRIPE_API_PORT, protocol: c.STRIPE_API_PROTOCOL },
          }
        : null,
  };
}

/**
 * The settings of `config` as environment variables (every setting that has a value; DATA_DIR
 * absolute), so a child process — the server started by `lpa start` or `lpa demo` — parses the
 * same configuration as its parent, overrides included.
 */
export function configEnv(config: Config): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of CONFIG_KEYS) {
    const v = config[key];
    if (v !== undefined && v !== null) env[key] = String(v);
  }
  env.DATA_DIR = config.dataDir;
  return env;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}
