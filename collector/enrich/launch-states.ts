import type PQueue from 'p-queue';
import type { DecodedTransaction } from '../../src/core/types.ts';
import type { ChainState } from '../../src/core/record/build-launch.ts';
import { batchedAccounts, readChainStates, type ChainStateAsk } from '../../src/chain/chain-state.ts';
import { bondingCurveAddress } from '../../src/chain/pda.ts';
import { signaturePage } from '../../src/chain/signatures.ts';
import type { TransactionReader } from '../../src/chain/transaction-reader.ts';
import { completionOf } from '../../src/ingest/rebuild-launch.ts';
import { creationAt, MEMORY_MINTS, type CollectDeps, type CollectorMemory } from '../context.ts';
import { CONFIRM_PAGE, confirmCurveHistories } from './history-check.ts';

/** The history completeness check runs at most this often in the long-running form (collector/enrich/history-check.ts). */
export const HISTORY_CHECK_MS = 10_000;
/** Launches one check reads at most (20 getMultipleAccounts calls); the rest wait for the next check. */
export const HISTORY_CHECK_MAX = 2_000;

/**
 * The chain state of a batch's launches: every completed launch's curve and canonical pool (and its
 * vaults), and — with `historyCheck`, the last batch of a catch-up — every other launch with a held
 * creation its curve alone, for the history completeness check (collector/enrich/history-check.ts), whose
 * disagreements are then confirmed against the curve's signature list. Two getMultipleAccounts
 * rounds however many launches, plus at most MAX_CONFIRMATIONS getSignaturesForAddress calls. A
 * disagreement left unresolved (not quiet yet, over that cap, not confirmed) is put back on
 * `memory.historyPending`, so a later check reads it again. `readThrough`: the slot through which the
 * catch-up has read the program's signature list (history-check.ts listedAllHeld); absent: none.
 */
export async function launchStates(deps: CollectDeps, queue: PQueue, reader: TransactionReader, memory: CollectorMemory, byMint: Map<string, DecodedTransaction[]>, signal?: AbortSignal, historyCheck = true, readThrough?: number): Promise<Map<string, ChainState>> {
  // Bounded for a collector that runs for months: forgetting only costs one held-document read.
  if (memory.completed.size > MEMORY_MINTS) memory.completed.clear();
  if (memory.notCompleted.size > MEMORY_MINTS) memory.notCompleted.clear();
  const asks: ChainStateAsk[] = [];
  for (const [mint, mintTxs] of byMint) {
    const inBatch = completionOf(mint, mintTxs);
    // An earlier completion is in the held record (remembered from this run, or read once from the store).
    let earlier = memory.completed.get(mint);
    if (earlier === undefined && !inBatch.completed && !memory.notCompleted.has(mint)) {
      const held = deps.store.getLaunch(mint);
      const heldDoc = held ? (JSON.parse(held.document) as { launch?: { completed?: boolean; quoteMint?: string } | null }) : null;
      if (heldDoc?.launch?.completed) memory.completed.set(mint, (earlier = heldDoc.launch.quoteMint ?? null));
      else memory.notCompleted.add(mint); // not completed before this run: only a batch's CompleteEvent changes that
    }
    const completed = earlier !== undefined || inBatch.completed;
    // a launch without its creation has no history to check
    if (!completed && (!historyCheck || (!creationIn(mint, mintTxs) && !creationAt(deps.store, memory, mint)))) continue;
    asks.push({ mint, quoteMint: earlier ?? inBatch.quoteMint, pool: completed });
  }
  if (asks.length === 0) return new Map();
  // every launch of the batch in two getMultipleAccounts rounds (curves and pools, then vaults)
  const schedule = <T>(fn: () => Promise<T>) => queue.add(fn, { signal }) as Promise<T>;
  const accounts = batchedAccounts(reader, { rateLimited: deps.config.RPC_MAX_RPS > 0, schedule, signal });
  const states = await readChainStates(accounts, asks, (deps.now ?? Date.now)());
  const heldOf = (mint: string) => [...memory.txs.transactionsFor(deps.store, mint), ...(byMint.get(mint) ?? [])];
  const listCurve = async (curve: string) =>
    signaturePage((await schedule(() => reader.call('getSignaturesForAddress', [[curve, { limit: CONFIRM_PAGE, commitment: 'confirmed' }]], signal)))[0]);
  const checked = historyCheck ? await confirmCurveHistories(states, heldOf, listCurve, bondingCurveAddress, readThrough) : { asked: 0, incomplete: 0, incompleteMints: [], unresolved: [] };
  if (checked.incomplete > 0) {
    // the mints, so an operator can look (at most LOGGED_MINTS in the line)
    const mints = checked.incompleteMints.slice(0, LOGGED_MINTS);
    deps.log.warn({ launches: checked.incomplete, mints, ...(checked.incomplete > mints.length ? { more: checked.incomplete - mints.length } : {}) }, 'curve accounts disagree with the held history: records marked history_incomplete');
  }
  // a disagreement not resolved now stays pending: the next check (at most every HISTORY_CHECK_MS) asks again
  for (const mint of checked.unresolved) memory.historyPending.add(mint);
  return states;
}

/** The most mints a log line names. */
const LOGGED_MINTS = 10;

/** Whether `txs` hold the successful creation of `mint`. */
function creationIn(mint: string, txs: DecodedTransaction[]): boolean {
  return txs.some((t) => t.err === null && t.events.some((e) => e.name === 'CreateEvent' && e.fields.mint === mint));
}
