/**
 * The collector's transaction reads: `getTransaction` (encoding `json`, maxSupportedTransactionVersion
 * MAX_SUPPORTED_TRANSACTION_VERSION, commitment `confirmed`) for many signatures at once, as JSON-RPC 2.0 batches — one HTTP request
 * carrying up to `batchSize` calls — through the archive's node:http transport and its retrying
 * transport. Answers are plain JSON (no bigints), integers beyond 2^53 as exact decimal strings:
 * getTransaction answers parsed by {@link parseTransactionAnswers}, others by {@link parseRpcJson}.
 * Other methods go the same way through `call` (the funder lookups' getSignaturesForAddress pages,
 * the chain-state account reads).
 *
 * Mainnet's RPC (Agave) accepts batches in request bodies up to 50 KiB (≈250 of these calls). HTTP 413
 * (body too large) halves the batch size; a provider that refuses batches (an answer that is not an
 * array, or another HTTP 4xx but 429) makes the reader fall back to one call per request. Either
 * lasts for the reader's life and is reported once through `onFallback`.
 */
import { createNodeHttpTransport } from './http-transport.ts';
import type { RpcTransport } from '@solana/kit';
import { isSolanaError, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR } from '@solana/kit';
import { createRetryingTransport, parseRpcJson, parseTransactionAnswers, type RpcClientOptions } from './rpc.ts';
import { MAX_SUPPORTED_TRANSACTION_VERSION } from '../core/decode/wire.ts';

/** JSON-RPC error codes of one call in a batch that are worth asking again (as the transport's). */
const RETRYABLE_CALL_CODES = new Set([429, -32005, -32603, -32014, -32019]);

/** One signature's answer: the transaction as plain JSON, `null` (not available at this commitment), or the call's error. */
export type TransactionAnswer = Record<string, unknown> | null | Error;

/** One call's answer: its `result` as plain JSON, or the call's error. */
export type CallAnswer = unknown;

export interface TransactionReader {
  /** Calls per HTTP request now (1 after a fallback). */
  readonly batchSize: number;
  /**
   * The transactions of `signatures`, in the same order. A call failing with a retryable JSON-RPC
   * error is asked again (up to `attempts`); any other call error is returned as an `Error` in its
   * place. Throws when the HTTP request itself fails after the transport's retries.
   */
  getTransactions(signatures: string[], signal?: AbortSignal): Promise<TransactionAnswer[]>;
  /**
   * Any JSON-RPC method, one call per entry of `paramsList`, batched and retried as getTransactions:
   * each answer is the call's `result` (plain JSON) or an `Error`, in order.
   */
  call(method: string, paramsList: unknown[][], signal?: AbortSignal): Promise<CallAnswer[]>;
}

interface RpcReply {
  id?: unknown;
  result?: unknown;
  error?: { code?: number; message?: string };
}

/** One JSON-RPC call: a method and its params. */
interface Call {
  method: string;
  params: unknown[];
}

/**
 * How the archive reads every transaction (getTransaction config): json encoding, every version the
 * decoder reads (legacy, v0, v1: a lower maxSupportedTransactionVersion makes the RPC answer -32015
 * for a newer transaction), commitment confirmed.
 */
export const TRANSACTION_CONFIG = { encoding: 'json', maxSupportedTransactionVersion: MAX_SUPPORTED_TRANSACTION_VERSION, commitment: 'confirmed' } as const;

const callOf = (id: number, c: Call) => ({ jsonrpc: '2.0', id, method: c.method, params: c.params });

/** Whether a request (one call or a batch) holds getTransaction calls only. */
const onlyTransactions = (payload: unknown): boolean =>
  Array.isArray(payload)
    ? payload.length > 0 && payload.every((c) => (c as { method?: unknown }).method === 'getTransaction')
    : (payload as { method?: unknown } | null)?.method === 'getTransaction';

const answerOf = (reply: RpcReply | undefined): CallAnswer | 'retry' => {
  // a batch answer that left this call out: asked again like a rate-limited call (it failed a whole
  // catch-up: a robustness review's provider dropping one reply in three read 793 of 5,355 transactions in three runs)
  if (!reply) return 'retry';
  if (reply.error) {
    if (reply.error.code !== undefined && RETRYABLE_CALL_CODES.has(reply.error.code)) return 'retry';
    return new Error(`JSON-RPC error ${reply.error.code}: ${reply.error.message}`);
  }
  return reply.result ?? null;
};

/**
 * Send `items` through `reader` in requests of its batch size — one item per request when
 * `rateLimited` (RPC_MAX_RPS set: the queue's rate slots then count calls, which providers bill) —
 * each request run through `schedule` (the collector's queue: concurrency and rate limit), all at
 * once. `send` makes one request of a chunk (e.g. `reader.call(method, …)`). Answers come back in
 * the order of `items`; a request that fails after the transport's retries answers an `Error` for
 * each of its items. Throws only when `signal` aborts.
 */
export async function inScheduledRequests<I, A>(
  reader: Pick<TransactionReader, 'batchSize'>,
  items: readonly I[],
  send: (chunk: I[]) => Promise<A[]>,
  opts: { rateLimited?: boolean; schedule?: <T>(fn: () => Promise<T>) => Promise<T>; signal?: AbortSignal } = {},
): Promise<(A | Error)[]> {
  const run = opts.schedule ?? (<T>(fn: () => Promise<T>) => fn());
  const size = opts.rateLimited ? 1 : reader.batchSize;
  const chunks: I[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  const answers = await Promise.all(chunks.map((c) => run(() => send(c)).catch((err: unknown): Error[] => {
    if (opts.signal?.aborted) throw err;
    return c.map(() => (err instanceof Error ? err : new Error(String(err))));
  })));
  return answers.flat();
}

/** A batched transaction reader for `opts.url` (`batchSize` 1: no batching). */
export function createTransactionReader(opts: RpcClientOptions & { batchSize: number; onFallback?: (reason: string) => void }): TransactionReader {
  const transport: RpcTransport = createRetryingTransport(opts, createNodeHttpTransport({
    url: opts.url,
    fromJson: (text, payload) => (onlyTransactions(payload) ? parseTransactionAnswers(text) : parseRpcJson(text)),
  }));
  const attempts = opts.attempts ?? 6;
  const base = opts.baseDelayMs ?? 250;
  let batchSize = Math.max(1, Math.floor(opts.batchSize));

  const fallBack = (reason: string, to: number) => {
    if (to >= batchSize) return;
    batchSize = to;
    opts.onFallback?.(`${reason}; now ${to} call${to === 1 ? '' : 's'} per request`);
  };

  /** One HTTP request: a batch array, or a single call when not batching. */
  async function send(calls: Call[], signal?: AbortSignal): Promise<(CallAnswer | 'retry')[]> {
    if (batchSize === 1 || calls.length === 1) {
      const out: (CallAnswer | 'retry')[] = [];
      for (const c of calls) out.push(answerOf(await transport<RpcReply>({ payload: callOf(0, c), signal })));
      return out;
    }
    if (calls.length > batchSize) {
      // the batch size fell while this request waited: send it in pieces of the new size
      const out: (CallAnswer | 'retry')[] = [];
      for (let i = 0; i < calls.length; i += batchSize) out.push(...(await send(calls.slice(i, i + batchSize), signal)));
      return out;
    }
    let replies: unknown;
    try {
      replies = await transport<unknown>({ payload: calls.map((c, i) => callOf(i, c)), signal });
    } catch (err) {
      const status = isSolanaError(err, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR) ? err.context.statusCode : 0;
      if (status === 413) {
        fallBack(`a batch of ${calls.length} calls was too large (HTTP 413)`, Math.max(1, Math.floor(calls.length / 2)));
        return send(calls, signal);
      }
      if (status >= 400 && status < 500 && status !== 429) {
        fallBack(`the RPC refused a batch with HTTP ${status}`, 1);
        return send(calls, signal);
      }
      throw err;
    }
    if (!Array.isArray(replies)) {
      fallBack(`the RPC answered a batch with ${JSON.stringify(replies).slice(0, 200)}`, 1);
      return send(calls, signal);
    }
    const byId = new Map<unknown, RpcReply>();
    for (const r of replies as RpcReply[]) if (r && typeof r === 'object') byId.set(r.id, r);
    return calls.map((_, i) => answerOf(byId.get(i)));
  }

  /** Every call answered: retryable call errors asked again (backoff), up to `attempts`. */
  async function callAll(calls: Call[], signal?: AbortSignal): Promise<CallAnswer[]> {
    const out = new Array<CallAnswer>(calls.length);
    let pending = calls.map((_, i) => i);
    for (let attempt = 1; pending.length > 0; attempt++) {
      const answers = await send(pending.map((i) => calls[i]!), signal);
      const again: number[] = [];
      answers.forEach((a, k) => {
        const i = pending[k]!;
        if (a !== 'retry') out[i] = a;
        else if (attempt >= attempts) out[i] = new Error('JSON-RPC rate limit or node error persisted');
        else again.push(i);
      });
      pending = again;
      if (pending.length > 0) await new Promise((r) => setTimeout(r, Math.round(base * 2 ** (attempt - 1) * (0.5 + Math.random()))));
    }
    return out;
  }

  return {
    get batchSize() {
      return batchSize;
    },
    async getTransactions(signatures, signal) {
      const answers = (await callAll(signatures.map((s) => ({ method: 'getTransaction', params: [s, TRANSACTION_CONFIG] })), signal)) as TransactionAnswer[];
      // each answer is checked to be the transaction asked for: a provider (or proxy) that mixes up a
      // batch's replies would otherwise give one wallet's or launch's facts to another (a review found
      // funders lost that way); a mismatch is a failed read of that call
      return answers.map((a, i) => {
        const got = answeredSignature(a);
        return got !== null && got !== signatures[i] ? new Error(`the answer is for another transaction (${got.slice(0, 12)}…, asked ${signatures[i]!.slice(0, 12)}…)`) : a;
      });
    },
    call(method, paramsList, signal) {
      return callAll(paramsList.map((params) => ({ method, params })), signal);
    },
  };
}

/** The signature a getTransaction answer (json encoding) is of — its first signature — or null when it shows none (null, an error, another shape: judged by its readers). Pure. */
export function answeredSignature(answer: TransactionAnswer): string | null {
  if (answer === null || answer instanceof Error || typeof answer !== 'object') return null;
  const tx = (answer as { transaction?: unknown }).transaction;
  const sigs = tx && typeof tx === 'object' && !Array.isArray(tx) ? (tx as { signatures?: unknown }).signatures : undefined;
  return Array.isArray(sigs) && typeof sigs[0] === 'string' ? sigs[0] : null;
}
