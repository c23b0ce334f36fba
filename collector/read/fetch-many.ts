import type PQueue from 'p-queue';
import type { Logger } from '../../src/log.ts';
import type { DecodedTransaction } from '../../src/core/types.ts';
import { decodeTransaction } from '../../src/core/decode/index.ts';
import type { TransactionReader } from '../../src/chain/transaction-reader.ts';
import { callFailure, incompleteFailure, IncompleteAnswerError, malformedFailure, NOT_FOUND, requestFailure, type ReadFailure } from './unreadable.ts';

/**
 * Fetch and decode many transactions through the batched reader, in chunks of its batch size
 * scheduled on `queue` (concurrency = RPC_CONCURRENCY HTTP requests). With RPC_MAX_RPS set, a chunk of
 * n calls takes n of the queue's interval slots, so the limit counts calls, not HTTP requests
 * (providers bill each call of a batch). Returns one entry per signature, in order: the decoded
 * transaction, or `null` when it could not be read (an RPC error — logged — an answer that is not a
 * transaction, or still `null` after 5 attempts 200 ms·2^k apart).
 */
export async function fetchDecodedMany(reader: TransactionReader, queue: PQueue, rateLimited: boolean, signatures: string[], log: Logger, signal?: AbortSignal): Promise<(DecodedTransaction | null)[]> {
  return fetchMany(reader, queue, rateLimited, signatures, log, signal, (a) => decodeTransaction(a));
}

/**
 * {@link fetchDecodedMany} with each answer (plain JSON) turned into what `use` makes of it, as it
 * arrives (`use` throwing: the answer is malformed). `failures` (when given) gets why each `null`
 * entry could not be read, by index (collector/read/unreadable.ts).
 */
export async function fetchMany<T>(reader: TransactionReader, queue: PQueue, rateLimited: boolean, signatures: string[], log: Logger, signal: AbortSignal | undefined, use: (answer: Record<string, unknown>, i: number) => T, failures?: Map<number, ReadFailure>): Promise<(T | null)[]> {
  const out = new Array<T | null>(signatures.length).fill(null);
  const chunks: number[][] = [];
  const size = reader.batchSize;
  for (let i = 0; i < signatures.length; i += size) chunks.push(Array.from({ length: Math.min(size, signatures.length - i) }, (_, k) => i + k));
  await Promise.all(chunks.map(async (chunk) => {
    let pending = chunk;
    const incomplete = new Map<number, ReadFailure>();
    for (let attempt = 0; attempt < 5 && pending.length > 0; attempt++) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, 200 * 2 ** (attempt - 1)));
      const ask = pending;
      // the rate slots of the chunk's other calls; like the call, dropped from the queue by a stop (a rejection nobody needs)
      if (rateLimited) for (let k = 1; k < ask.length; k++) queue.add(() => undefined, { signal }).catch(() => undefined);
      let answers;
      try {
        // { signal }: a stop takes the calls still waiting for their turn out of the queue at once (at RPC_MAX_RPS=5 a
        // batch's 500 waited ~100 s for their paced turns, each then failing at once: SIGTERM took a minute and a half)
        answers = await queue.add(() => reader.getTransactions(ask.map((i) => signatures[i]!), signal), { signal });
      } catch (err) {
        // a stop (SIGTERM, the end of a run) aborts the reads in flight: not the RPC's failure, and not logged as one
        if (!signal?.aborted) log.warn({ signatures: ask.length, first: signatures[ask[0]!], err: String(err) }, 'transactions could not be read');
        for (const i of ask) failures?.set(i, requestFailure(err));
        return;
      }
      pending = [];
      answers.forEach((a, k) => {
        const i = ask[k]!;
        if (a === null) pending.push(i);
        else if (a instanceof Error) {
          log.warn({ signature: signatures[i], err: a.message }, 'transaction could not be read');
          failures?.set(i, callFailure(a));
        } else {
          try {
            out[i] = use(a, i);
          } catch (err) {
            if (err instanceof IncompleteAnswerError) {
              // asked again with the answers not found (a provider's gap may pass), and a failed read if it stays
              pending.push(i);
              incomplete.set(i, incompleteFailure(err));
            } else {
              log.warn({ signature: signatures[i], err: String(err) }, 'transaction answer could not be decoded');
              failures?.set(i, malformedFailure(err));
            }
          }
        }
      });
      // an RPC error is final for this catch-up: its batch stops before the first transaction not read
      // (unless collector/read/unreadable.ts passes it) and the next run asks again
      if (answers.some((a) => a instanceof Error)) break;
    }
    for (const i of pending) {
      const f = incomplete.get(i);
      if (f) log.warn({ signature: signatures[i], why: f.detail }, 'transaction answer incomplete: counted as a failed read');
      failures?.set(i, f ?? NOT_FOUND);
    }
  }));
  return out;
}
