/**
 * The pool refresh (issue 3 "the pool now"; docs/methodology.md "Settled"): after graduation no
 * pump transaction touches a launch again, so its record's `pool` (reserves, price, LP supply)
 * would stay as read at migration. At most every POOL_REFRESH_MS (kept in meta across cron runs),
 * the collector reads the canonical pool again for the next POOL_REFRESH_RECORDS graduated records
 * (mint order from a cursor, wrapping around: an archive with fewer reads them all each time) and rebuilds those whose pool changed: a new document, sha256 and
 * `pool.asOf`. A pool read that fails keeps the held record (it is not turned into UNKNOWN by a
 * refresh; the next one asks again).
 */
import type { Config } from '../../src/config.ts';
import type { CollectorJobDeps } from './job-deps.ts';
import type { LaunchDocument, PoolNow } from '../../src/core/types.ts';
import { kitAccounts, readChainStates } from '../../src/chain/chain-state.ts';
import type { ChainState } from '../../src/core/record/build-launch.ts';
import { recordLaunch } from '../../src/ingest/record-launch.ts';
import type { TransactionCache } from '../../src/ingest/tx-cache.ts';

/** Graduated records whose pool one refresh reads. */
export const POOL_REFRESH_RECORDS = 100;

export interface PoolRefreshDeps extends CollectorJobDeps {
  config: Pick<Config, 'POOL_REFRESH_MS'>;
  cache?: TransactionCache;
}

/** The pool's facts that can change, without `asOf`. */
const poolKey = (p: PoolNow | null | undefined): string =>
  p ? JSON.stringify([p.address, p.baseReserves, p.quoteReserves, p.lpSupply, p.price, p.quoteDecimals ?? null]) : 'none';

/**
 * Run the refresh when due. Returns how many records changed, or null when it was not due.
 * Each changed record is committed with its pool read (one SQLite transaction for the run).
 */
export async function refreshPools(deps: PoolRefreshDeps): Promise<number | null> {
  const { store, config, now } = deps;
  if (now() - Number(store.getMeta('pool_refresh_at_ms') ?? 0) < config.POOL_REFRESH_MS) return null;
  store.setMeta('pool_refresh_at_ms', String(now()));
  const after = store.getMeta('pool_refresh_after') ?? '';
  // the next POOL_REFRESH_RECORDS after the cursor, continuing from the first mint when the end is reached
  const mints = store.graduatedMints(after, POOL_REFRESH_RECORDS);
  if (mints.length < POOL_REFRESH_RECORDS && after !== '') mints.push(...store.graduatedMints('', POOL_REFRESH_RECORDS - mints.length).filter((m) => m <= after));
  if (mints.length === 0) return 0;
  const held = mints.flatMap((mint) => {
    const row = store.getLaunch(mint);
    const doc = row ? (JSON.parse(row.document) as LaunchDocument) : null;
    return doc?.launch ? [{ mint, doc, quoteMint: doc.launch.quoteMint }] : [];
  });
  // every pool in two getMultipleAccounts rounds (curves and pools, then vaults)
  const states = await readChainStates(kitAccounts(deps.rpc, { schedule: deps.schedule, signal: deps.signal }), held, now());
  const reads = held.map(({ mint, doc }) => {
    const state = states.get(mint)!;
    // only a pool read now, and different from the held one, makes a new document
    if (state.pool === undefined || state.pool === 'unreadable' || poolKey(state.pool) === poolKey(doc.pool)) return null;
    return { mint, state, origin: doc.origin, observedAtLaunch: doc.observedAtLaunch };
  });
  const changed = store.transaction(() => {
    let n = 0;
    for (const r of reads) {
      if (!r) continue;
      const state: ChainState = r.state;
      if (recordLaunch(store, r.mint, { origin: r.origin, observedAtLaunch: r.observedAtLaunch, nowMs: now(), state, cache: deps.cache }).changed) n++;
    }
    store.setMeta('pool_refresh_after', mints[mints.length - 1]!);
    return n;
  });
  deps.log.info({ records: mints.length, changed }, 'pool refresh');
  return changed;
}
