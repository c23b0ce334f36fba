import { address } from '@solana/kit';
import type { ChainState } from '../core/record/build-launch.ts';
import type { PoolNow } from '../core/types.ts';
import { instant } from '../core/canonical.ts';
import { PUMP_AMM_PROGRAM_ID } from '../core/programs.ts';
import { decodeBondingCurve, decodePool, decodeTokenAccount } from '../core/decode/index.ts';
import { bondingCurveAddress, canonicalPoolAddress } from './pda.ts';
import type { ArchiveRpc } from './rpc.ts';

/** Decimals of every pump.fun mint (reference.md §1: 1,000,000,000 tokens of 6 decimals). */
const BASE_DECIMALS = 6;
const WSOL_MINT = 'So11111111111111111111111111111111111111112';
const SOL_DECIMALS = 9;
/** USDC and other quote mints used by the launchpad have 6 decimals. */
const OTHER_QUOTE_DECIMALS = 6;

type AccountValue = { data: [string, string] } | null;

async function accountData(rpc: ArchiveRpc, addr: string, signal?: AbortSignal): Promise<Uint8Array | null> {
  const res = (await rpc.getAccountInfo(address(addr), { encoding: 'base64', commitment: 'confirmed' }).send({ abortSignal: signal })) as unknown as { value: AccountValue };
  return res.value ? Buffer.from(res.value.data[0], 'base64') : null;
}

/**
 * Read what the chain says about a launch now (methodology "graduation", reference.md §2): the
 * bonding curve's `complete` flag, and the canonical PumpSwap pool (pool account and both vaults).
 * PumpSwap quote reserves = quote vault amount + the pool's signed `virtual_quote_reserves` (i128).
 * `price` = quote per token in whole units (quote decimals 9 for SOL, 6 otherwise; tokens 6).
 * Never throws: an unreadable curve gives `curveComplete: null`; a pool account that exists but
 * cannot be read or decoded gives `pool: 'unreadable'`; no pool account gives `pool: null`.
 * RPC calls: 2 (curve, pool) + 1 (both vaults) when the pool exists.
 */
export async function readChainState(rpc: ArchiveRpc, mint: string, quoteMint: string, nowMs: number, signal?: AbortSignal): Promise<ChainState> {
  const state: ChainState = { checkedAtMs: nowMs };
  try {
    const curve = await accountData(rpc, await bondingCurveAddress(mint), signal);
    const decoded = curve ? decodeBondingCurve(curve) : null;
    state.curveComplete = decoded && typeof decoded.fields.complete === 'boolean' ? decoded.fields.complete : null;
  } catch {
    state.curveComplete = null;
  }
  let poolAddress: string;
  try {
    poolAddress = await canonicalPoolAddress(mint, quoteMint);
  } catch {
    state.pool = 'unreadable';
    return state;
  }
  try {
    const data = await accountData(rpc, poolAddress, signal);
    if (!data) {
      state.pool = null;
      return state;
    }
    const pool = decodePool(data);
    const f = pool?.fields;
    if (!f || typeof f.pool_base_token_account !== 'string' || typeof f.pool_quote_token_account !== 'string') {
      state.pool = 'unreadable';
      return state;
    }
    const vaults = (await rpc
      .getMultipleAccounts([address(f.pool_base_token_account), address(f.pool_quote_token_account)], { encoding: 'base64', commitment: 'confirmed' })
      .send({ abortSignal: signal })) as unknown as { value: AccountValue[] };
    const [baseVault, quoteVault] = vaults.value.map((v) => (v ? decodeTokenAccount(Buffer.from(v.data[0], 'base64')) : null));
    if (!baseVault || !quoteVault) {
      state.pool = 'unreadable';
      return state;
    }
    const base = BigInt(baseVault.amount);
    const virtualQuote = typeof f.virtual_quote_reserves === 'string' ? BigInt(f.virtual_quote_reserves) : 0n;
    const quote = BigInt(quoteVault.amount) + virtualQuote;
    const poolQuoteMint = typeof f.quote_mint === 'string' ? f.quote_mint : quoteMint;
    const quoteDecimals = poolQuoteMint === WSOL_MINT ? SOL_DECIMALS : OTHER_QUOTE_DECIMALS;
    const price = base > 0n ? Number(quote) / 10 ** quoteDecimals / (Number(base) / 10 ** BASE_DECIMALS) : null;
    const now: PoolNow = {
      address: poolAddress,
      program: PUMP_AMM_PROGRAM_ID,
      baseMint: typeof f.base_mint === 'string' ? f.base_mint : mint,
      quoteMint: poolQuoteMint,
      baseReserves: base.toString(),
      quoteReserves: quote.toString(),
      price,
      lpSupply: typeof f.lp_supply === 'string' ? f.lp_supply : '0',
      asOf: instant(nowMs),
    };
    state.pool = now;
  } catch {
    state.pool = 'unreadable';
  }
  return state;
}
