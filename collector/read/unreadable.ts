/**
 * Transactions the collector cannot read (issue 20): which failures are final at once, and how far
 * a catch-up batch may go past failed reads. Pure (no I/O); read/fetch-many.ts and catch-up.ts do the reading and the
 * writing (public.db tables unreadable_tx and unreadable_tx_mint).
 *
 * A transaction whose read fails for a reason that persists — a version the decoder does not read
 * (the RPC's -32015), an answer the decoder cannot take — is recorded as unreadable at once; any
 * other failure (a JSON-RPC error, a request that failed after the transport's retries, no answer)
 * stops the catch-up before it as always, and the next catch-up asks again, until
 * UNREADABLE_AFTER_FAILURES catch-ups in a row failed on the same transaction: then it is recorded
 * as unreadable too. The cursor moves past unreadable transactions; the collector reads them again
 * every UNREADABLE_RETRY_MS.
 */
import type { UnreadableReason } from '../../src/db/public-store.ts';

/** Why one read failed, and whether that is final at once (true) or counted across catch-ups. */
export interface ReadFailure {
  reason: UnreadableReason;
  /** the RPC's error code and message, or the failure's class; never a URL */
  detail: string;
  atOnce: boolean;
  /** the account keys an answer showed though it could not be read whole (an incomplete answer): what names the launches it may belong to */
  accounts?: readonly string[];
}

/** Unreadable transactions retried per collector pass (the least recently tried first). */
export const UNREADABLE_RETRY_BATCH = 100;

/** Meta key of the catch-up's latest stop: `{"signature": …, "failures": n}` (the count of catch-ups in a row that failed on it). */
export const READ_FAILURE_META = 'read_failure';

/** Text kept from an error: at most 300 characters, any URL (which may hold a provider's key) replaced. */
function scrub(text: string): string {
  return text.replace(/[a-z][a-z0-9+.-]*:\/\/\S+/gi, '<url>').slice(0, 300);
}

/**
 * The failure of a call the RPC answered with an error (the reader's `Error`: "JSON-RPC error
 * CODE: message", or its "persisted" error after retrying rate limits and node errors).
 * -32015 (transaction version not supported by the requesting client) is final at once.
 */
export function callFailure(err: Error): ReadFailure {
  const code = /^JSON-RPC error (-?\d+)/.exec(err.message)?.[1];
  if (code === '-32015') return { reason: 'unsupported_version', detail: scrub(err.message), atOnce: true };
  return { reason: 'rpc_error', detail: scrub(err.message), atOnce: false };
}

/** The failure of an HTTP request that failed after the transport's retries (timeouts, 5xx, 429, dropped connections). */
export function requestFailure(err: unknown): ReadFailure {
  return { reason: 'request_failed', detail: scrub(err instanceof Error ? `${err.name}: ${err.message}` : String(err)), atOnce: false };
}

/**
 * An answer that cannot show what its transaction did (src/core/decode `incompleteAnswer`: no meta, or
 * neither logs nor inner instructions), with the account keys it does show (its message's; the launches
 * they name are those it may belong to). A provider's gap, likely to pass: counted across catch-ups
 * like a failed request, then recorded unreadable (reason `malformed`).
 */
export class IncompleteAnswerError extends Error {
  constructor(why: string, readonly accounts: readonly string[]) {
    super(why);
    this.name = 'IncompleteAnswerError';
  }
}

/** The failure of an {@link IncompleteAnswerError}: not final at once; its account keys kept for the launches it may belong to. */
export function incompleteFailure(err: IncompleteAnswerError): ReadFailure {
  return { reason: 'malformed', detail: scrub(`incomplete answer: ${err.message}`), atOnce: false, accounts: err.accounts };
}

/** An answer the decoder could not take (not a transaction): final at once. */
export function malformedFailure(err: unknown): ReadFailure {
  return { reason: 'malformed', detail: scrub(err instanceof Error ? err.message : String(err)), atOnce: true };
}

/** No transaction in the answer (null: not available at this commitment) after the collector's attempts. */
export const NOT_FOUND: ReadFailure = { reason: 'not_found', detail: 'getTransaction answered null', atOnce: false };

/** A failed read placed in a batch: its index, why, and the failed reads it now counts. */
export interface PlacedFailure {
  index: number;
  failure: ReadFailure;
  failures: number;
}

/**
 * How far a catch-up batch (its signatures in order, the decoded transactions with null where the
 * read failed, and the failure of each) may be committed: the first `upTo` entries, of which
 * `unreadable` are recorded as unreadable instead of read; `stop` is the failed read the batch
 * stops before (null: the whole batch), whose count is kept for the next catch-up. `prior` is the
 * previous catch-up's stop: a failure of that same signature adds to its count. A failure without
 * a recorded reason counts as {@link NOT_FOUND}.
 */
export function planBatch(
  signatures: readonly string[],
  decoded: readonly unknown[],
  failures: ReadonlyMap<number, ReadFailure>,
  prior: { signature: string; failures: number } | undefined,
  afterFailures: number,
): { upTo: number; unreadable: PlacedFailure[]; stop: PlacedFailure | null } {
  const unreadable: PlacedFailure[] = [];
  for (let i = 0; i < signatures.length; i++) {
    if (decoded[i] !== null && decoded[i] !== undefined) continue;
    const failure = failures.get(i) ?? NOT_FOUND;
    const count = (prior?.signature === signatures[i] ? prior.failures : 0) + 1;
    const placed = { index: i, failure, failures: count };
    if (failure.atOnce || count >= afterFailures) unreadable.push(placed);
    else return { upTo: i, unreadable, stop: placed };
  }
  return { upTo: signatures.length, unreadable, stop: null };
}

/** The catch-up's latest stop from its meta text, or undefined. */
export function parseReadFailure(text: string | undefined): { signature: string; failures: number } | undefined {
  if (!text) return undefined;
  try {
    const v = JSON.parse(text) as { signature?: unknown; failures?: unknown };
    return typeof v.signature === 'string' && typeof v.failures === 'number' ? { signature: v.signature, failures: v.failures } : undefined;
  } catch {
    return undefined;
  }
}
