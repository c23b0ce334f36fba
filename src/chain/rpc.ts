import { setTimeout as wait } from 'node:timers/promises';
import { createSolanaRpcFromTransport, isSolanaError, SolanaError, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR } from '@solana/kit';
import type { RpcTransport } from '@solana/kit';
import { createNodeHttpTransport } from './http-transport.ts';

/** Options of the archive's RPC client. */
export interface RpcClientOptions {
  url: string;
  /** attempts per call including the first (default 6) */
  attempts?: number;
  /** first backoff delay in ms, doubled each retry with jitter (default 250) */
  baseDelayMs?: number;
  /** per-attempt timeout in ms (default 30,000) */
  timeoutMs?: number;
  /** called on each retry, for logging */
  onRetry?: (info: { method: string; attempt: number; reason: string; delayMs: number }) => void;
}

/** JSON-RPC error codes worth retrying: rate limits, node behind, internal errors, long-term storage hiccups. */
const RETRYABLE_RPC_CODES = new Set([429, -32005, -32603, -32014, -32019]);


function retryReason(err: unknown): string | null {
  if (isSolanaError(err, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR)) {
    const status = err.context.statusCode;
    return status === 429 || status >= 500 ? `HTTP ${status}` : null;
  }
  if (err instanceof SyntaxError) return 'truncated or malformed JSON answer';
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) return 'timeout';
  if (err instanceof TypeError) return `network: ${err.message}`; // fetch failed, connection reset
  const code = (err as { code?: unknown } | null)?.code;
  if (err instanceof Error && typeof code === 'string' && /^E[A-Z]+$/.test(code)) return `network: ${code}`; // node:http: ECONNRESET, ECONNREFUSED, …
  return null;
}

/**
 * A JSON-RPC error answer with a code @solana/kit has no message for (a provider's own, such as
 * -32052 or -32000 "bad api key"): kit's SolanaError for it throws `TypeError: Cannot read
 * properties of undefined (reading 'length')` while building its message, and the provider's words
 * were lost ("cannot reach … (Cannot read properties of undefined …)"). The transport throws this
 * instead, with the provider's code and message. Not retried.
 */
export class ProviderRpcError extends Error {
  constructor(
    readonly code: number,
    readonly serverMessage: string,
  ) {
    super(`the provider answered JSON-RPC error ${code}: ${serverMessage}`);
    this.name = 'ProviderRpcError';
  }
}

const kitCodes = new Map<number, boolean>();
/** Whether @solana/kit can make its error of JSON-RPC error `code` (tried once per code: an unknown code throws while its message is built). */
function kitDescribes(code: number): boolean {
  let known = kitCodes.get(code);
  if (known === undefined) {
    try {
      new SolanaError(code as never, {} as never);
      known = true;
    } catch {
      known = false;
    }
    kitCodes.set(code, known);
  }
  return known;
}

/** Longest wait a provider's `Retry-After` can impose on one retry (ms). */
const RETRY_AFTER_CAP_MS = 60_000;

/**
 * The wait an HTTP 429/503 answer asks for in `Retry-After` (seconds, or an HTTP date), capped at
 * RETRY_AFTER_CAP_MS; null when there is none or it cannot be read.
 */
export function retryAfterMs(err: unknown, nowMs = Date.now()): number | null {
  if (!isSolanaError(err, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR)) return null;
  const raw = err.context.headers?.get?.('retry-after');
  if (!raw) return null;
  const ms = /^\s*\d+\s*$/.test(raw) ? Number(raw) * 1000 : Date.parse(raw) - nowMs;
  return Number.isFinite(ms) && ms > 0 ? Math.min(ms, RETRY_AFTER_CAP_MS) : null;
}

/**
 * A transport for @solana/kit that retries rate limits (HTTP 429 and JSON-RPC 429), 5xx,
 * timeouts, network failures and truncated answers with exponential backoff and jitter — waiting at
 * least what an HTTP answer's `Retry-After` asks (capped at 60 s).
 * Permanent errors (4xx other than 429, invalid params) are thrown at once. `inner` is the HTTP
 * transport (src/chain/http-transport.ts with the archive's JSON parser).
 */
export function createRetryingTransport(opts: RpcClientOptions, inner: RpcTransport): RpcTransport {
  const attempts = opts.attempts ?? 6;
  const base = opts.baseDelayMs ?? 250;
  const timeoutMs = opts.timeoutMs ?? 30_000;
  return (async <T>(config: { payload: unknown; signal?: AbortSignal }) => {
    const method = (config.payload as { method?: string })?.method ?? 'batch';
    for (let attempt = 1; ; attempt++) {
      const signal = config.signal ? AbortSignal.any([config.signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs);
      let reason: string | null;
      let lastError: unknown = null;
      try {
        const res = (await inner<T>({ payload: config.payload, signal })) as unknown;
        const error = (res as { error?: { code?: unknown; message?: unknown } } | null)?.error;
        const code = typeof error?.code === 'number' ? error.code : undefined;
        const retryable = code !== undefined && RETRYABLE_RPC_CODES.has(code);
        // an answer kit would fail to describe goes out as the provider's own words, once it is not retried again
        if (code !== undefined && (!retryable || attempt >= attempts) && !kitDescribes(code)) throw new ProviderRpcError(code, typeof error?.message === 'string' ? error.message : '(no message)');
        if (!retryable) return res as never;
        reason = `JSON-RPC error ${code}`;
        if (attempt >= attempts) return res as never;
      } catch (err) {
        if (config.signal?.aborted) throw err;
        lastError = err;
        reason = retryReason(err);
        if (reason === null || attempt >= attempts) throw err;
      }
      const backoffMs = Math.round(base * 2 ** (attempt - 1) * (0.5 + Math.random()));
      const delayMs = Math.max(backoffMs, retryAfterMs(lastError) ?? 0);
      opts.onRetry?.({ method, attempt, reason, delayMs });
      // the wait ends early when the caller aborts (a stop under 429s must not sit out a 60 s
      // Retry-After): it rejects with the signal's reason, as an aborted request does
      await wait(delayMs, undefined, { signal: config.signal }).catch((err: unknown) => {
        throw config.signal?.reason ?? err;
      });
    }
  }) as RpcTransport;
}

/**
 * The Solana RPC client every chain read of the archive goes through: @solana/kit's RPC API over
 * the archive's node:http transport (src/chain/http-transport.ts), with the retrying transport, and answers parsed by {@link parseRpcJson} with
 * unsafe integers as bigint — what kit's own parser gives after its bigint upcast, without its
 * character-by-character rewrite of the text (the largest CPU cost of the collector's reads).
 */
export function createArchiveRpc(opts: RpcClientOptions) {
  return createSolanaRpcFromTransport(createRetryingTransport(opts, createNodeHttpTransport({ url: opts.url, fromJson: (text) => parseRpcJson(text, 'bigint') })));
}

export type ArchiveRpc = ReturnType<typeof createArchiveRpc>;

/**
 * Kit returns every JSON number as bigint. Convert an RPC result back to plain JSON values:
 * safe integers become numbers, larger ones decimal strings (no precision is lost).
 */
export function toPlainJson(value: unknown): unknown {
  if (typeof value === 'bigint') {
    return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(value) : value.toString();
  }
  if (Array.isArray(value)) return value.map(toPlainJson);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = toPlainJson(v);
    return out;
  }
  return value;
}

/**
 * The integers of a `getTransaction` result (encoding `json`) that can exceed 2^53: lamport amounts
 * (`meta.fee`, `meta.preBalances`, `meta.postBalances`, `meta.rewards[].lamports` / `.postBalance`),
 * and the other integers of the result's schema (`slot`, `blockTime`, `meta.computeUnitsConsumed`,
 * `meta.costUnits`, `meta.rewards[].commission`). Every other number of the result is an index or
 * count below 256 (instruction, account and balance indexes, header counts, `stackHeight`,
 * `decimals`) or a float (`uiTokenAmount.uiAmount`). Whether all of these are safe integers
 * (or absent): `JSON.parse` then read them exactly.
 */
function transactionIntegersSafe(result: unknown): boolean {
  if (result === null || typeof result !== 'object') return true;
  const r = result as Record<string, unknown>;
  const ok = (v: unknown) => typeof v !== 'number' || Number.isSafeInteger(v);
  if (!ok(r.slot) || !ok(r.blockTime)) return false;
  const meta = r.meta as Record<string, unknown> | null | undefined;
  if (meta === null || typeof meta !== 'object') return true;
  if (!ok(meta.fee) || !ok(meta.computeUnitsConsumed) || !ok(meta.costUnits)) return false;
  for (const list of [meta.preBalances, meta.postBalances]) if (Array.isArray(list)) for (const v of list) if (!ok(v)) return false;
  if (Array.isArray(meta.rewards)) {
    for (const w of meta.rewards as Record<string, unknown>[]) if (w !== null && typeof w === 'object' && (!ok(w.lamports) || !ok(w.postBalance) || !ok(w.commission))) return false;
  }
  return true;
}

/**
 * Parse the answer to `getTransaction` calls (encoding `json`; one reply or a batch of replies) as
 * {@link parseRpcJson} does — safe integers as numbers, larger integers as exact decimal strings —
 * at the cost of a plain `JSON.parse`: the answer is parsed, then only the integers a transaction
 * result can hold beyond 2^53 (lamport amounts, see transactionIntegersSafe) are looked at; when
 * one is unsafe the text is parsed again by parseRpcJson. This skips parseRpcJson's scan of the
 * whole text for long digit runs: on batches of 100 of the bench chain's answers that scan took
 * 8–12 µs per transaction against 27 µs for `JSON.parse` itself. Error replies are returned as
 * parsed. Throws `SyntaxError` on truncated or malformed text.
 */
export function parseTransactionAnswers(text: string): unknown {
  const parsed: unknown = JSON.parse(text);
  const replies = Array.isArray(parsed) ? parsed : [parsed];
  for (const reply of replies) {
    if (reply !== null && typeof reply === 'object' && !transactionIntegersSafe((reply as { result?: unknown }).result)) return parseRpcJson(text);
  }
  return parsed;
}

/** A number token of 16 or more digits: the only kind that can exceed Number.MAX_SAFE_INTEGER. */
const LONG_NUMBER = /[[:,]\s*-?\d{16}/;

/**
 * Parse a JSON-RPC answer into the plain JSON {@link toPlainJson} gives — safe integers as numbers,
 * larger integers as their exact decimal string — without kit's bigint parser (several times
 * slower: it rewrites every integer of the text). Plain `JSON.parse` when no number token could be
 * unsafe; otherwise a reviver that reads the exact source text of each unsafe integer (its
 * decimal string, or a bigint with `unsafe: 'bigint'`, for kit's RPC API).
 * Throws `SyntaxError` on truncated or malformed text (the retrying transport retries it).
 */
export function parseRpcJson(text: string, unsafe: 'string' | 'bigint' = 'string'): unknown {
  if (!LONG_NUMBER.test(text)) return JSON.parse(text);
  return JSON.parse(text, (_key, value: unknown, context?: { source?: string }) => {
    if (typeof value !== 'number' || !Number.isInteger(value) || Number.isSafeInteger(value) || context?.source === undefined) return value;
    return unsafe === 'bigint' ? BigInt(context.source) : context.source;
  });
}
