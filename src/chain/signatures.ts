/**
 * The signature history of one address (`getSignaturesForAddress`, commitment `confirmed`), paged
 * newest first, 1,000 per call (mainnet's maximum), with `before` until the beginning or `until`.
 * The histories the archive reads one address at a time go through here: the pump program's (the
 * collector's cursor), a bonding curve's (rebuilds), a buyout's token account (afterwards). Funder
 * lookups page many wallets together in rounds (src/ingest/funding.ts) with the same page size.
 */
import { address, signature as toSignature } from '@solana/kit';
import type { ArchiveRpc } from './rpc.ts';
import type { TransactionReader } from './transaction-reader.ts';

/** getSignaturesForAddress page size (mainnet maximum). */
export const SIGNATURE_PAGE = 1000;

/** One entry of a signature history. */
export interface SignatureInfo {
  signature: string;
  slot: number;
  /** the transaction's error, null when it succeeded */
  err: unknown;
  /** unix seconds, as the listing gives it (null when it gives none): what a transaction answered without one is dated by */
  blockTime?: number | null;
}

export interface PageSignaturesOptions {
  /** only signatures newer than this one (exclusive); null/absent: back to the beginning */
  until?: string | null;
  /** pages read at most; a history needing more stops with `stopped: 'page_cap'` */
  maxPages?: number;
  /** asked before each page (a budget); false stops with `stopped: 'budget'` */
  takePage?: () => boolean;
  /** stop after the first page reaching a slot below this one (the older signatures are not wanted; some may be returned) */
  stopBelowSlot?: number;
  /** runs each call (the caller's p-queue: concurrency and rate limit) */
  schedule?: <T>(fn: () => Promise<T>) => Promise<T>;
  /** after each page, with the number of signatures read so far */
  onPage?: (count: number) => void;
  /**
   * read the pages through this batched reader (plain JSON answers, the collector's) instead of
   * kit's client, whose bigint parse and upcast of each page cost about twice the CPU per signature
   */
  reader?: Pick<TransactionReader, 'call'>;
  signal?: AbortSignal;
}

/**
 * One getSignaturesForAddress answer as {@link SignatureInfo}s (slot as a number, `err` null when it
 * succeeded), from plain JSON or kit's bigints; an `Error` in its place stays that error, and an
 * answer that is not a list becomes one.
 */
export function signaturePage(answer: unknown): SignatureInfo[] | Error {
  if (answer instanceof Error) return answer;
  if (!Array.isArray(answer)) return new Error('getSignaturesForAddress answered no list');
  return (answer as { signature: string; slot: bigint | number; err?: unknown; blockTime?: bigint | number | null }[]).map((s) => ({
    signature: s.signature,
    slot: Number(s.slot),
    err: s.err ?? null,
    blockTime: s.blockTime === null || s.blockTime === undefined ? null : Number(s.blockTime),
  }));
}

/**
 * The signatures of `addr`, newest first. `stopped` is null when the history was read to its end
 * (or to `until`), else why it stopped early (what was read so far is returned).
 * The end is an empty page, never a short one: a page of fewer than {@link SIGNATURE_PAGE} is read
 * past (one more call) — providers cap `limit` below 1,000, and a node returns a short page at the
 * edge of its local ledger (solana-labs/solana#22115); a short page taken as the end lost every older
 * launch of the catch-up for good, with no gap recorded (a robustness review). That confirming page
 * may go one past `maxPages`.
 * Errors: an RPC call that fails after the transport's retries throws.
 */
export async function pageSignatures(rpc: ArchiveRpc, addr: string, opts: PageSignaturesOptions = {}): Promise<{ signatures: SignatureInfo[]; stopped: 'page_cap' | 'budget' | null }> {
  const run = opts.schedule ?? (<T>(fn: () => Promise<T>) => fn());
  const signatures: SignatureInfo[] = [];
  let before: string | undefined;
  let short = false; // the last page was short: the next one only confirms the end
  for (let page = 0; ; page++) {
    if (opts.maxPages !== undefined && page >= opts.maxPages && !(short && page === opts.maxPages)) return { signatures, stopped: 'page_cap' };
    if (opts.takePage && !opts.takePage()) return { signatures, stopped: 'budget' };
    const config = {
      limit: SIGNATURE_PAGE,
      commitment: 'confirmed' as const,
      ...(opts.until ? { until: toSignature(opts.until) } : {}),
      ...(before ? { before: toSignature(before) } : {}),
    };
    const reader = opts.reader;
    const got = signaturePage(
      reader
        ? (await run(() => reader.call('getSignaturesForAddress', [[address(addr), config]], opts.signal)))[0]
        : await run(() => rpc.getSignaturesForAddress(address(addr), config).send({ abortSignal: opts.signal })),
    );
    if (got instanceof Error) throw got;
    signatures.push(...got);
    opts.onPage?.(signatures.length);
    if (got.length === 0) return { signatures, stopped: null };
    if (opts.stopBelowSlot !== undefined && got[got.length - 1]!.slot < opts.stopBelowSlot) return { signatures, stopped: null };
    short = got.length < SIGNATURE_PAGE;
    before = got[got.length - 1]!.signature;
  }
}
