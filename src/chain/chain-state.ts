import { address } from '@solana/kit';
import type { ChainState } from '../core/record/build-launch.ts';
import type { PoolNow } from '../core/types.ts';
import { instant } from '../core/canonical.ts';
import { PUMP_AMM_PROGRAM_ID, knownQuoteDecimals } from '../core/programs.ts';
import { decodeBondingCurve, decodeMintDecimals, decodePool, decodeTokenAccount } from '../core/decode/index.ts';
import { absentCurveRead, curveReadOf } from '../core/record/curve-history.ts';
import { bondingCurveAddress, canonicalPoolAddress } from './pda.ts';
import type { ArchiveRpc } from './rpc.ts';
import { inScheduledRequests, type TransactionReader } from './transaction-reader.ts';

/** Decimals of every pump.fun mint (reference.md §1: 1,000,000,000 tokens of 6 decimals). */
const BASE_DECIMALS = 6;
type AccountValue = { data: [string, string] } | null;

/** getMultipleAccounts takes at most this many addresses per call (Agave's limit). */
export const MULTIPLE_ACCOUNTS_MAX = 100;

/**
 * Accounts as read, in the order asked: data, `null` (no such account) or an `Error`; `slots`, when
 * the reader knows them, the context slot of the call that read each one (null for an error).
 */
export type AccountValues = (Uint8Array | null | Error)[] & { slots?: (number | null)[] };

/**
 * How chain-state reads get accounts: for each address, in order, its data (`encoding: base64`,
 * commitment confirmed), `null` when the account does not exist, or an `Error` when it could not be
 * read, with the context slots ({@link AccountValues}). Implemented over the collector's batched
 * reader ({@link batchedAccounts}) or kit ({@link kitAccounts}).
 */
export type AccountsReader = (addresses: readonly string[]) => Promise<AccountValues>;

const ACCOUNT_CONFIG = { encoding: 'base64', commitment: 'confirmed' } as const;

/** One getMultipleAccounts answer → data per address (an answer of the wrong shape is an Error for each), with its context slot. */
function accountsOf(answer: unknown, count: number): AccountValues {
  const value = (answer as { value?: unknown } | null)?.value;
  if (answer instanceof Error || !Array.isArray(value) || value.length !== count) {
    const err = answer instanceof Error ? answer : new Error('getMultipleAccounts answered no list of the asked length');
    return Object.assign(Array.from({ length: count }, () => err), { slots: Array.from({ length: count }, () => null) });
  }
  const slot = Number((answer as { context?: { slot?: unknown } }).context?.slot);
  const at = Number.isSafeInteger(slot) ? slot : null;
  return Object.assign((value as AccountValue[]).map((v) => (v ? Buffer.from(v.data[0], 'base64') : null)), { slots: Array.from({ length: count }, () => at) });
}

/** Concatenate per-call values, keeping their slots. */
function joined(parts: AccountValues[]): AccountValues {
  return Object.assign(parts.flat(), { slots: parts.flatMap((p) => p.slots ?? Array.from({ length: p.length }, () => null)) });
}

const chunked = <T>(items: readonly T[], size: number): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
};

/**
 * An {@link AccountsReader} over the collector's batched reader: getMultipleAccounts calls of at
 * most {@link MULTIPLE_ACCOUNTS_MAX} addresses, sent as the funder lookups' calls are
 * ({@link inScheduledRequests}: requests of the reader's batch size, one call per request when
 * `rateLimited`, each through `schedule`, the collector's RPC queue).
 */
export function batchedAccounts(reader: TransactionReader, opts: { rateLimited: boolean; schedule: <T>(fn: () => Promise<T>) => Promise<T>; signal?: AbortSignal }): AccountsReader {
  return async (addresses) => {
    const calls = chunked(addresses, MULTIPLE_ACCOUNTS_MAX);
    const answers = await inScheduledRequests(reader, calls, (c) => reader.call('getMultipleAccounts', c.map((a) => [a, ACCOUNT_CONFIG]), opts.signal), opts);
    return joined(answers.map((answer, k) => accountsOf(answer, calls[k]!.length)));
  };
}

/** An {@link AccountsReader} over kit: one getMultipleAccounts call per {@link MULTIPLE_ACCOUNTS_MAX} addresses, each through `schedule` when given. */
export function kitAccounts(rpc: ArchiveRpc, opts: { schedule?: <T>(fn: () => Promise<T>) => Promise<T>; signal?: AbortSignal } = {}): AccountsReader {
  const run = opts.schedule ?? (<T>(fn: () => Promise<T>) => fn());
  return async (addresses) => {
    const parts = await Promise.all(chunked(addresses, MULTIPLE_ACCOUNTS_MAX).map(async (c) => {
      try {
        return accountsOf(await run(() => rpc.getMultipleAccounts(c.map((a) => address(a)), ACCOUNT_CONFIG).send({ abortSignal: opts.signal })), c.length);
      } catch (err) {
        if (opts.signal?.aborted) throw err;
        return accountsOf(err instanceof Error ? err : new Error(String(err)), c.length);
      }
    }));
    return joined(parts);
  };
}

/** A launch whose chain state to read: its mint and quote mint (the pool's quote; the default key means SOL). */
export interface ChainStateAsk {
  mint: string;
  quoteMint: string;
  /**
   * false: read only the bonding curve for the history completeness check (a launch not completed):
   * the state then holds `curve` and nothing else, so the record does not change with the read.
   * Default true: curve (complete flag and history check) and the canonical pool.
   */
  pool?: boolean;
}

/**
 * Read what the chain says about launches now (methodology "graduation", reference.md §2): each
 * bonding curve's `complete` flag, and the canonical PumpSwap pool (pool account and both vaults).
 * PumpSwap quote reserves = quote vault amount + the pool's signed `virtual_quote_reserves` (i128).
 * `price` = quote per token in whole units (quote decimals 9 for SOL, 6 otherwise; tokens 6).
 * The curve read also gives `curve` (its reserves at the read's context slot, for the history
 * completeness check, `listedAllHeld` false until the caller confirms it).
 * Never throws but when the reader's signal aborts: an unreadable curve gives `curveComplete: null`;
 * a pool account that exists but cannot be read or decoded (or whose vaults cannot be) gives
 * `pool: 'unreadable'`; no pool account gives `pool: null`.
 * Reads: every curve and pool in one `accounts` call, then every existing pool's two vaults in one
 * more — two getMultipleAccounts rounds however many launches are asked.
 * @returns mint → state, for every mint asked.
 */
export async function readChainStates(accounts: AccountsReader, asks: readonly ChainStateAsk[], nowMs: number): Promise<Map<string, ChainState>> {
  const out = new Map<string, ChainState>();
  const targets: { mint: string; quoteMint: string; curve: string | null; pool: string | null; full: boolean }[] = [];
  for (const { mint, quoteMint, pool: withPool = true } of asks) {
    const state: ChainState = withPool ? { checkedAtMs: nowMs } : {};
    out.set(mint, state);
    const curve = await bondingCurveAddress(mint).catch(() => null);
    const pool = withPool ? await canonicalPoolAddress(mint, quoteMint).catch(() => null) : null;
    if (withPool && curve === null) state.curveComplete = null;
    if (withPool && pool === null) state.pool = 'unreadable';
    targets.push({ mint, quoteMint, curve, pool, full: withPool });
  }
  const first = targets.flatMap((t) => [t.curve, t.pool].filter((a): a is string => a !== null));
  const got = first.length > 0 ? await accounts(first) : [];
  let k = 0;
  const pools: { mint: string; quoteMint: string; address: string; fields: Record<string, unknown>; baseVault: string; quoteVault: string }[] = [];
  for (const t of targets) {
    const state = out.get(t.mint)!;
    if (t.curve !== null) {
      const slot = got.slots?.[k] ?? null;
      const data = got[k++];
      const decoded = data instanceof Uint8Array ? decodeBondingCurve(data) : null;
      if (t.full) state.curveComplete = decoded && typeof decoded.fields.complete === 'boolean' ? decoded.fields.complete : null;
      // for the history completeness check; whether the held history reaches the read's slot is the caller's to say
      if (decoded && (decoded.status === 'complete' || decoded.status === 'short') && slot !== null) state.curve = { read: curveReadOf(decoded.fields, slot), listedAllHeld: false };
      else if (data === null && slot !== null) state.curve = { read: absentCurveRead(slot), listedAllHeld: false };
    }
    if (t.pool === null) continue;
    const data = got[k++];
    if (data === null) {
      state.pool = null;
      continue;
    }
    const f = data instanceof Uint8Array ? decodePool(data)?.fields : undefined;
    if (!f || typeof f.pool_base_token_account !== 'string' || typeof f.pool_quote_token_account !== 'string') {
      state.pool = 'unreadable';
      continue;
    }
    pools.push({ mint: t.mint, quoteMint: t.quoteMint, address: t.pool, fields: f, baseVault: f.pool_base_token_account, quoteVault: f.pool_quote_token_account });
  }
  // the vaults of every pool, then the mint of each quote whose decimals are not known without a
  // read (programs.ts knownQuoteDecimals: WSOL, USDC), so the pool's price is never scaled by a guess
  const quoteOf = (p: (typeof pools)[number]) => (typeof p.fields.quote_mint === 'string' ? p.fields.quote_mint : p.quoteMint);
  const unknownQuotes = [...new Set(pools.map(quoteOf).filter((q) => knownQuoteDecimals(q) === null))];
  const read = pools.length > 0 ? await accounts([...pools.flatMap((p) => [p.baseVault, p.quoteVault]), ...unknownQuotes]) : [];
  const decimalsOf = (q: string): number | null => {
    const known = knownQuoteDecimals(q);
    if (known !== null) return known;
    const data = read[2 * pools.length + unknownQuotes.indexOf(q)];
    return data instanceof Uint8Array ? decodeMintDecimals(data) : null;
  };
  pools.forEach((p, i) => {
    out.get(p.mint)!.pool = poolNow(p.mint, p.address, p.fields, read[2 * i]!, read[2 * i + 1]!, p.quoteMint, decimalsOf(quoteOf(p)), nowMs);
  });
  return out;
}

/** The pool now from its decoded account and its vaults' data; 'unreadable' when a vault is missing or not a token account. */
function poolNow(
  mint: string,
  poolAddress: string,
  f: Record<string, unknown>,
  baseData: Uint8Array | null | Error,
  quoteData: Uint8Array | null | Error,
  quoteMint: string,
  quoteDecimals: number | null,
  nowMs: number,
): PoolNow | 'unreadable' {
  const baseVault = baseData instanceof Uint8Array ? decodeTokenAccount(baseData) : null;
  const quoteVault = quoteData instanceof Uint8Array ? decodeTokenAccount(quoteData) : null;
  if (!baseVault || !quoteVault) return 'unreadable';
  try {
    const base = BigInt(baseVault.amount);
    const virtualQuote = typeof f.virtual_quote_reserves === 'string' ? BigInt(f.virtual_quote_reserves) : 0n;
    const quote = BigInt(quoteVault.amount) + virtualQuote;
    const poolQuoteMint = typeof f.quote_mint === 'string' ? f.quote_mint : quoteMint;
    // null when the quote mint's decimals could not be read: unknown, never a price scaled by a guess
    const price = base > 0n && quoteDecimals !== null ? Number(quote) / 10 ** quoteDecimals / (Number(base) / 10 ** BASE_DECIMALS) : null;
    return {
      address: poolAddress,
      program: PUMP_AMM_PROGRAM_ID,
      baseMint: typeof f.base_mint === 'string' ? f.base_mint : mint,
      quoteMint: poolQuoteMint,
      quoteDecimals,
      baseReserves: base.toString(),
      quoteReserves: quote.toString(),
      price,
      lpSupply: typeof f.lp_supply === 'string' ? f.lp_supply : '0',
      asOf: instant(nowMs),
    };
  } catch {
    return 'unreadable';
  }
}

/**
 * One launch's chain state ({@link readChainStates}) read through kit: two getMultipleAccounts
 * calls (curve and pool, then the pool's vaults). Never throws but on abort.
 */
export async function readChainState(rpc: ArchiveRpc, mint: string, quoteMint: string, nowMs: number, signal?: AbortSignal): Promise<ChainState> {
  return (await readChainStates(kitAccounts(rpc, { signal }), [{ mint, quoteMint }], nowMs)).get(mint)!;
}
