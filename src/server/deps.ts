import { loadConfig, type Config } from '../config.ts';
import { PublicStore } from '../db/public-store.ts';
import { PrivateStore } from '../db/private-store.ts';
import { createCurveStatus, type CurveStatusFn } from '../chain/curve-status.ts';
import { createLogger, type Logger } from '../log.ts';
import { KeyService, loadKeySecret } from './keys.ts';

/** Everything a handler needs; tests build their own with temporary databases and fakes. */
export interface Deps {
  config: Config;
  publicStore: PublicStore;
  keys: KeyService;
  /** Chain check for mints the archive does not hold (src/chain/curve-status.ts). */
  curveStatus: CurveStatusFn;
  /** Clock, epoch ms. */
  now: () => number;
  log: Logger;
  /** Requests per key per UTC day; default DAILY_QUOTA (spec §8). */
  dailyQuota?: number;
}

/** Build the deps of a server process from a config (opens both databases). */
export function createDeps(config: Config, overrides: Partial<Deps> = {}): Deps {
  const now = overrides.now ?? Date.now;
  return {
    config,
    publicStore: overrides.publicStore ?? new PublicStore(config.publicDbPath),
    keys: overrides.keys ?? new KeyService(new PrivateStore(config.privateDbPath), loadKeySecret(config), now),
    curveStatus: overrides.curveStatus ?? createCurveStatus(config.SOLANA_RPC_URL),
    now,
    log: overrides.log ?? createLogger(config.LOG_LEVEL, 'server'),
    dailyQuota: overrides.dailyQuota,
  };
}

let deps: Deps | undefined;

/**
 * The process's deps, created on first use: the config is read once per process (loadConfig),
 * both databases opened once. Route files call this; handlers receive it.
 */
export function getDeps(): Deps {
  deps ??= createDeps(loadConfig());
  return deps;
}
