/**
 * Bonding-curve math (reference.md §1.9): constant product on virtual reserves, fee charged on the
 * quote side, a buy capped to what is left, completion when real_token_reserves reaches 0. Plus the
 * BondingCurve account encoding per era (49 / 150 / 151 bytes). Pure.
 */
import { AMM_IDL, AMM_IDL_2610, encodeAccount, type Idl, PUMP_IDL, PUMP_IDL_2610 } from './borsh-encode.ts';
import { DEFAULT_KEY } from './keys.ts';

/** The eras the simulator imitates; '2026-10' is the program redeployed on 2026-10-08 (v3 trades, synthetic migration, sweeps). */
export type Era = 2024 | 2025 | 2026 | '2026-10';
/** The era after the 2026-10-08 redeploy. */
export const ERA_2610 = '2026-10' as const;

/** create_v2 / Token-2022 eras (2026 and 2026-10). */
export const isModern = (era: Era): boolean => era === 2026 || era === ERA_2610;

/** The IDLs an era's bytes are encoded with: the 2026-10 IDLs after the redeploy, the 2026-09 SDK IDLs before. */
export function idlsOf(era: Era): { pump: Idl; amm: Idl } {
  return era === ERA_2610 ? { pump: PUMP_IDL_2610, amm: AMM_IDL_2610 } : { pump: PUMP_IDL, amm: AMM_IDL };
}

/** The kind tag of an era (`era2024` … `era2026_10`). */
export const eraTag = (era: Era): string => (era === ERA_2610 ? 'era2026_10' : `era${era}`);

export const INITIAL_VIRTUAL_TOKENS = 1_073_000_000_000_000n;
export const INITIAL_VIRTUAL_SOL = 30_000_000_000n;
/** Initial virtual quote for USDC-quoted coins (6 decimals; ⚠ a plausible stand-in for Global.initial_virtual_quote_reserves). */
export const INITIAL_VIRTUAL_USDC = 4_500_000_000n;
export const INITIAL_REAL_TOKENS = 793_100_000_000_000n;
export const TOTAL_SUPPLY = 1_000_000_000_000_000n;
export const POOL_MIGRATION_FEE = 15_000_001n;

/** Protocol and creator fee basis points by era. */
export function feesOf(era: Era): { feeBps: bigint; creatorFeeBps: bigint } {
  if (era === 2024) return { feeBps: 100n, creatorFeeBps: 0n };
  if (era === 2025) return { feeBps: 95n, creatorFeeBps: 5n };
  return { feeBps: 95n, creatorFeeBps: 30n };
}

/** Mutable curve state. `vQ`/`rQ` are lamports for SOL coins, else raw quote units. */
export interface CurveState {
  vT: bigint;
  vQ: bigint;
  rT: bigint;
  rQ: bigint;
  supply: bigint;
  complete: boolean;
  /** 2026-10: protocol fees kept on the curve by v3 / multi-hop trades, waiting for sweep_protocol_fee */
  protocolFees?: bigint;
  /** 2026-10: creator fees kept on the curve, waiting for sweep_creator_fee (BondingCurve.creator_fee) */
  creatorFeeKept?: bigint;
  /** 2026-10: the synthetic pool part of the completing buy (BondingCurve.post_complete_base_out / _quote_in) */
  postBaseOut?: bigint;
  postQuoteIn?: bigint;
  /** 2026-10: curve depth (1 for a pump-coin-quoted coin) and its starting virtual quote reserves */
  depth?: number;
  initialVQ?: bigint;
}

/** A fresh curve. */
export function newCurve(usdc: boolean): CurveState {
  return { vT: INITIAL_VIRTUAL_TOKENS, vQ: usdc ? INITIAL_VIRTUAL_USDC : INITIAL_VIRTUAL_SOL, rT: INITIAL_REAL_TOKENS, rQ: 0n, supply: TOTAL_SUPPLY, complete: false };
}

/** Result of a priced trade (not yet applied). */
export interface Quote {
  tokens: bigint;
  /** quote into (buy) or out of (sell) the curve, before fees: TradeEvent.sol_amount / quote_amount */
  quote: bigint;
  fee: bigint;
  creatorFee: bigint;
  /** true when this buy takes the last token */
  completes: boolean;
}

const ceilDiv = (a: bigint, b: bigint): bigint => (a + b - 1n) / b;

/** Price a buy of `tokens` (capped to real_token_reserves). SDK2 getBuySolAmountFromTokenAmount rounding. */
export function quoteBuyTokens(c: CurveState, tokens: bigint, era: Era): Quote {
  const t = tokens < c.rT ? tokens : c.rT;
  const quote = (c.vQ * t) / (c.vT - t) + 1n;
  const { feeBps, creatorFeeBps } = feesOf(era);
  return { tokens: t, quote, fee: ceilDiv(quote * feeBps, 10_000n), creatorFee: ceilDiv(quote * creatorFeeBps, 10_000n), completes: t === c.rT && t > 0n };
}

/** Price a buy spending `spendable` including fees (buy_exact_sol_in); capped like {@link quoteBuyTokens}. */
export function quoteBuyQuoteIn(c: CurveState, spendable: bigint, era: Era): Quote {
  const { feeBps, creatorFeeBps } = feesOf(era);
  const net = (spendable * 10_000n) / (10_000n + feeBps + creatorFeeBps);
  const tokens = (c.vT * net) / (c.vQ + net);
  if (tokens >= c.rT) return quoteBuyTokens(c, c.rT, era);
  return { tokens, quote: net, fee: ceilDiv(net * feeBps, 10_000n), creatorFee: ceilDiv(net * creatorFeeBps, 10_000n), completes: false };
}

/** Price a sell of `tokens`. */
export function quoteSell(c: CurveState, tokens: bigint, era: Era): Quote {
  const quote = (c.vQ * tokens) / (c.vT + tokens);
  const { feeBps, creatorFeeBps } = feesOf(era);
  return { tokens, quote, fee: ceilDiv(quote * feeBps, 10_000n), creatorFee: ceilDiv(quote * creatorFeeBps, 10_000n), completes: false };
}

/** Apply a priced trade to the curve. Errors: throws if reserves would go negative. */
export function applyTrade(c: CurveState, q: Quote, isBuy: boolean): void {
  if (isBuy) {
    if (q.tokens > c.rT) throw new Error('buy exceeds real token reserves');
    c.vT -= q.tokens;
    c.rT -= q.tokens;
    c.vQ += q.quote;
    c.rQ += q.quote;
    if (c.rT === 0n) c.complete = true;
  } else {
    if (q.quote > c.rQ) throw new Error('sell exceeds real quote reserves');
    c.vT += q.tokens;
    c.rT += q.tokens;
    c.vQ -= q.quote;
    c.rQ -= q.quote;
  }
}

/** Static fields of a curve account besides the reserves. */
export interface CurveMeta {
  era: Era;
  creator: string;
  mayhem: boolean;
  quoteMint: string;
  creatorFeeBps: bigint;
}

/** Account size by era (reference.md §1.7). */
export function curveAccountSize(era: Era): number {
  return era === 2024 ? 49 : era === 2025 ? 150 : era === 2026 ? 151 : 166;
}

/** BondingCurve account data for the era: 49 B (2024), 150 B with creator (2025), 151 B SDK2 layout (2026), 166 B 2026-10 layout. */
export function encodeCurveAccount(c: CurveState, m: CurveMeta): Uint8Array {
  const fields = {
    virtual_token_reserves: c.vT,
    virtual_quote_reserves: c.vQ,
    real_token_reserves: c.rT,
    real_quote_reserves: c.rQ,
    token_total_supply: c.supply,
    complete: c.complete,
    creator: m.creator,
    is_mayhem_mode: m.mayhem,
    is_cashback_coin: false,
    quote_mint: m.quoteMint || DEFAULT_KEY,
    creator_fee_bps: m.creatorFeeBps,
    can_edit_creator_fee: false,
    is_holder_reward: false,
    creator_fee: c.creatorFeeKept ?? 0n,
    protocol_fees: c.protocolFees ?? 0n,
    depth: c.depth ?? 0,
    initial_virtual_quote_reserves: c.initialVQ ?? 0n,
    post_complete_base_out: c.postBaseOut ?? 0n,
    post_complete_quote_in: c.postQuoteIn ?? 0n,
  };
  const count = m.era === 2024 ? 6 : m.era === 2025 ? 7 : m.era === 2026 ? 13 : 19;
  return encodeAccount(idlsOf(m.era).pump, 'BondingCurve', fields, count, curveAccountSize(m.era));
}

/** Rent-exempt minimum for an account of `space` bytes. */
export function rentExempt(space: number): bigint {
  return BigInt(128 + space) * 6960n;
}
