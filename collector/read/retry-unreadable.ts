import type PQueue from 'p-queue';
import type { DecodedTransaction } from '../../src/core/types.ts';
import { decodeTransaction } from '../../src/core/decode/index.ts';
import type { TransactionReader } from '../../src/chain/transaction-reader.ts';
import { ensureFunders } from '../../src/ingest/funding.ts';
import { funderDeps, type CollectDeps, type CollectorMemory } from '../context.ts';
import { groupByMint, recordHeldLaunch, recordTransactions } from '../record/record-batch.ts';
import { launchStates } from '../enrich/launch-states.ts';
import { fetchMany } from './fetch-many.ts';
import { throwIfIncomplete } from './read-batch.ts';
import { NOT_FOUND, UNREADABLE_RETRY_BATCH, type ReadFailure } from './unreadable.ts';

/**
 * Read again the unreadable transactions last tried UNREADABLE_RETRY_MS ago or more (up to
 * UNREADABLE_RETRY_BATCH, least recently tried first; collector/read/unreadable.ts). One read now is
 * kept under its launches, whose records are rebuilt, and leaves the list; one still not read
 * counts one more failure and waits again. Returns how many records changed (null: none was due).
 */
export async function retryUnreadable(deps: CollectDeps, queue: PQueue, reader: TransactionReader, memory: CollectorMemory, signal?: AbortSignal): Promise<number | null> {
  const { store, config, log } = deps;
  const now = deps.now ?? Date.now;
  const due = store.unreadableDue(now() - config.UNREADABLE_RETRY_MS, UNREADABLE_RETRY_BATCH);
  if (due.length === 0) return null;
  const failures = new Map<number, ReadFailure>();
  // (an answer still incomplete stays unreadable: throwIfIncomplete, as the catch-up reads)
  const decoded = await fetchMany(reader, queue, config.RPC_MAX_RPS > 0, due.map((d) => d.signature), log, signal, (a) => (throwIfIncomplete(a), decodeTransaction(a)), failures);
  const read = decoded.filter((d): d is DecodedTransaction => d !== null);
  const byMint = groupByMint(read);
  const states = await launchStates(deps, queue, reader, memory, byMint, signal);
  if (read.length > 0) await ensureFunders(funderDeps(deps, queue, reader, memory, signal), byMint);
  const changed = store.transaction(() => {
    // read now: no longer unreadable, before its launches are recorded again (their records ask the list)
    due.forEach((d, i) => {
      if (decoded[i]) store.clearUnreadable(d.signature);
    });
    let n = recordTransactions(store, memory, read, states, now(), log);
    due.forEach((d, i) => {
      if (decoded[i]) {
        // the launches it was thought to belong to but does not name: their records no longer wait on it
        for (const mint of d.mints) {
          if (byMint.has(mint)) continue;
          if (recordHeldLaunch(store, memory, mint, now(), states.get(mint))) n++;
        }
      }
      else {
        const f = failures.get(i) ?? NOT_FOUND;
        store.putUnreadable({ signature: d.signature, slot: d.slot, reason: f.reason, detail: f.detail, failures: 1, mints: [] }, now());
      }
    });
    return n;
  });
  log.info({ retried: due.length, read: read.length, stillUnreadable: due.length - read.length, recordsChanged: changed }, 'unreadable transactions read again');
  return changed;
}
