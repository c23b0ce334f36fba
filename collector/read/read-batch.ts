import type PQueue from 'p-queue';
import type { DecodedTransaction } from '../../src/core/types.ts';
import { decodeTransaction, incompleteAnswer } from '../../src/core/decode/index.ts';
import { creationsIn, fetchedCurveTrade, laterTradeForm, takeFromLogs, type PlainCurveTrade } from '../../src/core/record/from-logs.ts';
import type { TransactionReader } from '../../src/chain/transaction-reader.ts';
import type { SignatureInfo } from '../../src/chain/signatures.ts';
import { creationAt, type CollectDeps, type CollectorMemory } from '../context.ts';
import { fetchMany } from './fetch-many.ts';
import { IncompleteAnswerError, type ReadFailure } from './unreadable.ts';

/**
 * The decoded transactions of one batch, in order: a creation read as soon as it was heard
 * (`memory.prefetched`, record/record-heard-creation.ts) is taken as read; a notification heard for a signature is taken
 * from its logs when `takeFromLogs` allows (a later curve trade), every other transaction is
 * fetched (`null` where it could not be read) and kept in the form `keptFromLogs` gives: its logs
 * form when it is a later curve trade, else decoded whole. `fromLogs` counts the notifications taken;
 * `failures` says why each `null` entry could not be read, by its index in the batch.
 */
export async function readBatch(deps: CollectDeps, queue: PQueue, reader: TransactionReader, memory: CollectorMemory, batch: SignatureInfo[], signal?: AbortSignal): Promise<{ decoded: (DecodedTransaction | null)[]; fromLogs: number; failures: Map<number, ReadFailure> }> {
  const decoded = new Array<DecodedTransaction | null>(batch.length).fill(null);
  const fetch: number[] = [];
  let prefetched = 0;
  const creationOf = (mint: string) => creationAt(deps.store, memory, mint);
  batch.forEach((s, i) => {
    const pre = memory.prefetched.get(s.signature);
    if (pre && pre.slot === s.slot) {
      memory.prefetched.delete(s.signature);
      decoded[i] = pre;
      prefetched++;
      memory.trace.count('prefetched');
      return;
    }
    const heard = memory.heard.get(s.signature);
    const taken = heard ? takeFromLogs(heard, s, creationOf) : null;
    if (taken) decoded[i] = taken;
    else {
      fetch.push(i);
      // why it is fetched (debug "pass timings" counts): a failed transaction, one not heard (its
      // notification lost or dropped from memory), or one heard whose logs are not enough
      memory.trace.count(s.err !== null && s.err !== undefined ? 'fetchFailed' : heard ? 'fetchHeardNotEnough' : 'fetchNotHeard');
    }
  });
  // A fetched later curve trade is kept in its logs form too (keptFromLogs). As answers arrive, one
  // whose launch's creation is already known is decided then, without decoding it whole; the others
  // wait for the batch order below, where the creations of this batch are known before its later trades.
  const fetchFailures = new Map<number, ReadFailure>();
  // a batch paced by RPC_MAX_RPS can take minutes: a line every BATCH_PROGRESS_MS says how far it is (an operator saw 100 s of silence)
  let answered = 0;
  const startedMs = performance.now();
  const progress = fetch.length === 0 ? undefined : setInterval(() => {
    deps.log.info({ read: answered, of: fetch.length, seconds: Math.round((performance.now() - startedMs) / 1000) }, `reading a batch: ${answered} of ${fetch.length} transactions read`);
  }, BATCH_PROGRESS_MS);
  progress?.unref();
  const fetched = fetch.length === 0 ? [] : await fetchMany<FetchedForBatch>(reader, queue, deps.config.RPC_MAX_RPS > 0, fetch.map((i) => batch[i]!.signature), deps.log, signal, (a, k) => {
    answered++;
    const listed = batch[fetch[k]!]!;
    // an answer that cannot show what the transaction did is a failed read, never a transaction that did nothing
    throwIfIncomplete(a);
    const f = fetchedCurveTrade(a, listed);
    if (!f) {
      const whole = datedByListing(decodeTransaction(a), listed);
      // a creation is known from here on, so the later trades arriving after it are decided at once
      for (const [mint, at] of creationsIn(whole)) memory.creations.set(mint, at);
      return { whole };
    }
    const kept = laterTradeForm(f, creationOf);
    return kept ? { kept } : { ...f, answer: a };
  }, fetchFailures).finally(() => clearInterval(progress));
  // (a creation is never a plain curve trade: every one was decoded whole above and is known already)
  fetch.forEach((i, k) => {
    const f = fetched[k];
    if (!f) return;
    let d: DecodedTransaction;
    if ('whole' in f) d = f.whole;
    else if ('kept' in f) d = f.kept;
    else d = laterTradeForm(f, creationOf) ?? decodeTransaction(f.answer);
    decoded[i] = datedByListing(d, batch[i]!);
  });
  // why each fetched transaction not read failed, by its index in the batch
  const failures = new Map([...fetchFailures].map(([k, f]) => [fetch[k]!, f]));
  return { decoded, fromLogs: batch.length - fetch.length - prefetched, failures };
}

/** How often a batch still being read says how far it is (ms). */
export const BATCH_PROGRESS_MS = 15_000;

/**
 * A fetched answer of a batch: decoded whole, kept in its logs form, or — a plain curve trade whose
 * launch's creation was not known when it arrived — its logs form and the answer, decided in batch order.
 */
type FetchedForBatch =
  | { whole: DecodedTransaction }
  | { kept: DecodedTransaction }
  | { logs: DecodedTransaction; trade: PlainCurveTrade; answer: Record<string, unknown> };

/**
 * Throws an {@link IncompleteAnswerError} (with the account keys the message shows) when `answer`
 * cannot show what its transaction did (src/core/decode `incompleteAnswer`); the readers of
 * transactions call it before decoding (fetch-many.ts then asks again and counts a failed read).
 */
export function throwIfIncomplete(answer: unknown): void {
  const why = incompleteAnswer(answer);
  if (why === null) return;
  let accounts: string[] = [];
  try {
    accounts = decodeTransaction(answer).accountKeys;
  } catch {
    // no message either: no launch is named
  }
  throw new IncompleteAnswerError(why, accounts);
}

/**
 * `tx` with the listing's block time when its answer gave none (a provider answered a creation without
 * it, and the launch's createdAt stayed null for good: a robustness review); else `tx` itself. Pure.
 */
export function datedByListing(tx: DecodedTransaction, listed: Pick<SignatureInfo, 'blockTime'>): DecodedTransaction {
  return tx.blockTime === null && typeof listed.blockTime === 'number' ? { ...tx, blockTime: listed.blockTime } : tx;
}
