import type Stripe from 'stripe';
import { loadConfig, type Config } from '../config.ts';
import { PublicStore } from '../db/public-store.ts';
import { logMigrations } from '../db/open.ts';
import { openPrivateState } from '../db/open-private-state.ts';
import type { PrivateState } from '../db/private-state.ts';
import { createCurveStatus, type CurveStatusFn } from '../chain/curve-status.ts';
import { createLogger, type Logger } from '../log.ts';
import { BillingService } from './billing.ts';
import { KeyService, keySecretConflict, loadKeySecret } from '../access/keys.ts';
import { createStripe } from './stripe.ts';
import { RebuildService } from './rebuilds.ts';
import { GenerationReader } from '../db/generation-reader.ts';
import { watchGenerations } from './watch-generations.ts';
import { limitYoungGeneration } from '../heap-limits.ts';

/** Everything a handler needs; tests build their own with temporary databases and fakes. */
export interface Deps {
  config: Config;
  /**
   * The public database a handler reads: `DATA_DIR/public.db` live, or, on a node serving
   * generations, the generation leased for this request (src/server/generation-lease.ts, read-only).
   */
  publicStore: PublicStore;
  /**
   * On a node serving generations (API_GENERATIONS_DIR): the newest verified generation and its
   * leases; null/absent: the node reads `DATA_DIR/public.db` live.
   */
  generations?: GenerationReader | null;
  /**
   * Set for a request answered from a generation: the node's own writable `DATA_DIR/public.db`,
   * where its on-demand rebuilds write; a record the generation does not hold is looked up here.
   */
  rebuiltStore?: PublicStore;
  /**
   * Keys, quota counts, accounts, payment events and the rebuild queue: SQLite private.db, or
   * PostgreSQL when PRIVATE_DB_URL is set (cluster mode). Async; see src/db/private-state.ts.
   */
  privateState: PrivateState;
  keys: KeyService;
  /** Subscriber accounts, checkouts and payment events (src/server/billing.ts). */
  billing: BillingService;
  /** Stripe API client; null when subscriptions are not configured (config.billing null). */
  stripe: Stripe | null;
  /** Chain check for mints the archive does not hold (src/chain/curve-status.ts). */
  curveStatus: CurveStatusFn;
  /** Clock, epoch ms. Every time-dependent rule (quota day, reset, webhook tolerance) reads it. */
  now: () => number;
  log: Logger;
  /** Requests per key per UTC day (a positive whole number); default DAILY_QUOTA (spec §8). */
  dailyQuota?: number;
  /**
   * Count keyed requests against the daily quota (default true). `false` is for benchmarks only:
   * it compares the keyed endpoint with and without the counting write; nothing is refused then.
   */
  countUsage?: boolean;
  /** On-demand rebuilds (src/server/rebuilds.ts): queue and worker. The server process starts its worker. */
  rebuilds: RebuildService;
}

/**
 * Build the deps of a server process from a config: opens the public database and the private
 * state the config selects (SQLite private.db, or PostgreSQL with PRIVATE_DB_URL; a pool that
 * connects on first use).
 */
export function createDeps(config: Config, overrides: Partial<Deps> = {}): Deps {
  const now = overrides.now ?? Date.now;
  const log = overrides.log ?? createLogger(config.LOG_LEVEL, 'server', { format: config.LOG_FORMAT });
  const privateState =
    overrides.privateState ??
    overrides.keys?.state ??
    openPrivateState(config, { onIdleError: (e) => log.warn({ err: e.message }, 'private database connection lost; reconnecting on the next request') });
  const secret = overrides.keys && overrides.billing ? '' : loadKeySecret(config);
  const conflict = keySecretConflict(config);
  if (conflict) log.warn(conflict);
  const keys = overrides.keys ?? new KeyService(privateState, secret, now);
  const billing = overrides.billing ?? new BillingService(privateState, keys, secret, now);
  const openedAt = Date.now();
  const publicStore = overrides.publicStore ?? new PublicStore(config.publicDbPath);
  logMigrations(log, publicStore.db, openedAt);
  return {
    config,
    publicStore,
    keys,
    billing,
    stripe: overrides.stripe !== undefined ? overrides.stripe : config.billing ? createStripe(config.billing) : null,
    curveStatus: overrides.curveStatus ?? createCurveStatus(config.SOLANA_RPC_URL),
    now,
    log,
    dailyQuota: overrides.dailyQuota ?? config.DAILY_QUOTA,
    countUsage: overrides.countUsage ?? (config.QUOTA_COUNTING === 'off' ? false : undefined),
    privateState,
    rebuilds: overrides.rebuilds ?? new RebuildService({ config, publicStore, log, now }, privateState.rebuilds),
    generations: overrides.generations !== undefined ? overrides.generations : config.apiGenerationsDir ? new GenerationReader(config.apiGenerationsDir) : null,
  };
}

let deps: Deps | undefined;
let config: Config | undefined;

/**
 * The process's configuration, parsed from the environment once (loadConfig) and kept: the host
 * reads HOST and PORT from it before it listens, {@link getDeps} everything else after.
 * Errors: ConfigError (src/config.ts) naming every bad setting; nothing is kept then.
 */
export function processConfig(): Config {
  return (config ??= loadConfig());
}

/**
 * The process's deps, created on first use: the config is read once per process (loadConfig),
 * both databases opened once, the young generation bounded (YOUNG_GENERATION_MB). Route files call this; handlers receive it.
 */
export function getDeps(): Deps {
  if (!deps) {
    deps = createDeps(processConfig());
    limitYoungGeneration(deps.config.YOUNG_GENERATION_MB);
    if (deps.countUsage === false) deps.log.warn('QUOTA_COUNTING=off: keyed requests are neither counted nor refused (benchmarks only)');
    deps.rebuilds.startWorker();
    if (deps.generations && deps.config.apiGenerationsDir) watchGenerations(deps.generations, deps.config.apiGenerationsDir, deps.log);
  }
  return deps;
}

/** The process's deps if {@link getDeps} has made them, else undefined (nothing is opened). */
export function currentDeps(): Deps | undefined {
  return deps;
}
