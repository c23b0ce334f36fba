import type { PublicStore } from '../../src/db/public-store.ts';
import type { ArchiveRpc } from '../../src/chain/rpc.ts';
import type { Logger } from '../../src/log.ts';

/**
 * What the collector's periodic jobs (funder lookups, the afterwards sweep, the pool refresh) run
 * with: the public store, the RPC client, the logger, the clock, the collector's RPC queue
 * (`schedule`: concurrency and rate limit) and its stop signal.
 */
export interface CollectorJobDeps {
  store: PublicStore;
  rpc: ArchiveRpc;
  log: Logger;
  now: () => number;
  /** runs each RPC call (the collector's p-queue) */
  schedule: <T>(fn: () => Promise<T>) => Promise<T>;
  signal?: AbortSignal;
}
