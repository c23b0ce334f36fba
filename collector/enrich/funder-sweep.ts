import type PQueue from 'p-queue';
import type { TransactionReader } from '../../src/chain/transaction-reader.ts';
import { ensureFunders } from '../../src/ingest/funding.ts';
import { recordLaunch } from '../../src/ingest/record-launch.ts';
import { funderDeps, type CollectDeps, type CollectorMemory } from '../context.ts';
import { launchStates } from './launch-states.ts';
import { METHOD_VERSION } from '../../src/core/record/classify.ts';

/** Records the funder sweep takes up per run. */
export const SWEEP_RECORDS = 100;

/**
 * The funder sweep (methodology "Shared funder"): a cohort left unknown when its launch was
 * recorded (budget spent, RPC failure) is otherwise never asked again — the cohort's transactions
 * are all in the launch's first 30 s. At most every FUNDER_SWEEP_MS (kept in meta across cron runs),
 * it takes the next SWEEP_RECORDS records with `cohort_unknown` (mint order, wrapping around), looks
 * up the funders still unknown — except wallets stopped by a cap not raised since — and rebuilds
 * those records. Returns how many records changed.
 */
export async function sweepUnknownCohorts(deps: CollectDeps, queue: PQueue, reader: TransactionReader, memory: CollectorMemory, signal?: AbortSignal): Promise<number> {
  const { store, config, log } = deps;
  const now = deps.now ?? Date.now;
  if (now() - Number(store.getMeta('funder_sweep_at_ms') ?? 0) < config.FUNDER_SWEEP_MS) return 0;
  store.setMeta('funder_sweep_at_ms', String(now()));
  const after = store.getMeta('funder_sweep_after') ?? '';
  let mints = store.cohortUnknownMints(after, SWEEP_RECORDS);
  if (mints.length === 0 && after !== '') mints = store.cohortUnknownMints('', SWEEP_RECORDS);
  if (mints.length === 0) return 0;
  const funders = await ensureFunders(
    funderDeps(deps, queue, reader, memory, signal),
    new Map(mints.map((m) => [m, memory.txs.transactionsFor(store, m)])),
  );
  const states = await launchStates(deps, queue, reader, memory, new Map(mints.map((m) => [m, []])), signal);
  const changed = store.transaction(() => {
    let n = 0;
    for (const mint of mints) {
      // origin and observedAtLaunch stay as first recorded (recordLaunch keeps them for a record with its creation)
      if (recordLaunch(store, mint, { origin: 'observed', observedAtLaunch: false, nowMs: now(), state: states.get(mint), cache: memory.txs }).changed) n++;
    }
    store.setMeta('funder_sweep_after', mints[mints.length - 1]!);
    return n;
  });
  // what is left, so an operator can tell an upgrade's re-recording from a few cohorts waiting (an operator's review found no count, no end)
  const left = store.sweepQueue(METHOD_VERSION);
  const everyMin = Math.max(1, Math.round(config.FUNDER_SWEEP_MS / 60_000));
  const hours = Math.ceil(left.records / SWEEP_RECORDS) * (config.FUNDER_SWEEP_MS / 3_600_000);
  log.info(
    { records: mints.length, walletsLooked: funders.looked, stillUnknown: funders.unknown, recordsChanged: changed, left: left.records, leftUnderOlderMethod: left.olderMethod },
    left.olderMethod > 0
      ? `funder sweep: ${left.records} records left, ${left.olderMethod} of them made under a method older than ${METHOD_VERSION} (queued by an upgrade's migration; served as made until then): about ${hours < 1 ? `${Math.max(1, Math.round(hours * 60))} min` : `${Math.round(hours)} h`} at ${SWEEP_RECORDS} every ${everyMin} min (FUNDER_SWEEP_MS)`
      : left.records > 0
        ? `funder sweep: ${left.records} records left whose funding cohort is not read yet`
        : 'funder sweep: no record left',
  );
  return changed;
}
