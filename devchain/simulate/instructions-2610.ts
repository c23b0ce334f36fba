/**
 * Instructions of the program redeployed on 2026-10-08 that have no older counterpart here, encoded
 * with the 2026-10 IDLs (shared/chain/idl/2026-10/FACTS.md): pump `migrate_v2` (CPI PumpSwap
 * create_pool), PumpSwap `multi_hop_swap` (its top-level accounts; the pump curve hop is built by
 * buildTrade), PumpSwap `sell_v2` (fees kept in the quote vault, virtual_quote_reserves going
 * negative), and the four fee sweeps. Pure.
 */
import { AMM_IDL_2610, encodeAccount, encodeInstruction, PUMP_IDL_2610, type Value } from './borsh-encode.ts';
import { type CurveState, POOL_MIGRATION_FEE, rentExempt, TOTAL_SUPPLY, INITIAL_REAL_TOKENS } from './curve.ts';
import { ammEvent, type Built, isqrt, ixQuoteMint, type LaunchCtx, poolAddrs, pumpEvent, quoteTokenProgram } from './instructions.ts';
import {
  AMM_EVENT_AUTHORITY, AMM_GLOBAL_CONFIG, ATA_PROGRAM, ata, boostVaultAuthorityPda, bumpOf, creatorVaultPda, DEFAULT_KEY, EVENT_AUTHORITY, FEE_CONFIG, GLOBAL,
  KEEPER, pda, PUMP, PUMP_AMM, RENT_SYSVAR, SYSTEM_PROGRAM, TOKEN_2022_PROGRAM, TOKEN_PROGRAM, WSOL_MINT,
} from './keys.ts';
import { type AccountMeta, concat, cpiToken, cpiTokenTransfer, type EmittedEvent, Invocation, u64 } from './transactions.ts';

const W = (address: string): AccountMeta => ({ address, writable: true });
const R = (address: string): AccountMeta => ({ address });
const WS = (address: string): AccountMeta => ({ address, writable: true, signer: true });

/** PumpSwap's fee_config PDA (Fees program ["fee_config", pAMM]; reference.md §1.1). */
export const AMM_FEE_CONFIG = '5PHirr8joyTMp9JMm6nW7hNDVyEYdkzDqazxPD7RaTjx';

/**
 * A migrated pool as the 2026-10 simulator tracks it: `quote` is the quote vault's amount (lamports
 * of WSOL beyond rent), `vqr` the signed Pool.virtual_quote_reserves; the pool's quote reserves are
 * quote + vqr (docs/NEGATIVE_VIRTUAL_QUOTE_RESERVES.md).
 */
export interface PoolState {
  base: bigint;
  quote: bigint;
  vqr: bigint;
  protocolFees: bigint;
  creatorFees: bigint;
  lpSupply: bigint;
}

/** The Pool account (2026-10 layout, 18 fields = 287 B, allocated 301 B like FIX/15). */
export function encodePool2610(ctx: LaunchCtx, p: PoolState): Uint8Array {
  const a = poolAddrs(ctx);
  return encodeAccount(AMM_IDL_2610, 'Pool', {
    pool_bump: bumpOf(a.pool), index: 0, creator: a.poolAuthority, base_mint: ctx.mint, quote_mint: WSOL_MINT, lp_mint: a.lpMint,
    pool_base_token_account: a.baseVault, pool_quote_token_account: a.quoteVault, lp_supply: p.lpSupply, coin_creator: ctx.creator,
    is_mayhem_mode: ctx.mayhem, is_cashback_coin: false, virtual_quote_reserves: p.vqr, creator_fee_bps: 0n, can_edit_creator_fee: false,
    is_holder_reward: false, protocol_fees: p.protocolFees, creator_fees: p.creatorFees,
  }, 18, 301);
}

/**
 * `migrate_v2` by the keeper (27 IDL accounts + 2 boost): the pool opens with exactly the reserves
 * the completing buy left (base = the tokens kept for the pool minus the synthetic part's base_out;
 * quote = real quote − pool_migration_fee + the synthetic part's quote_in), CPI create_pool
 * (CreatePoolEvent), then CompletePumpAmmMigrationEvent. Fees kept on the curve stay there.
 * `noop`: a retry on a migrated curve (log line only).
 */
export function buildMigrateV2(ctx: LaunchCtx, curve: CurveState, timestamp: number, inv: Invocation, noop: boolean): Built & { baseAmount: bigint; quoteAmount: bigint; lpSupply: bigint } {
  const p = poolAddrs(ctx);
  const tp = ctx.tokenProgram;
  const paMint = ata(p.poolAuthority, ctx.mint, tp);
  const paWsol = ata(p.poolAuthority, WSOL_MINT, TOKEN_PROGRAM);
  const userPool = ata(p.poolAuthority, p.lpMint, TOKEN_2022_PROGRAM);
  const accounts: AccountMeta[] = [
    R(GLOBAL), W(KEEPER), R(ctx.mint), R(WSOL_MINT), W(ctx.curve), W(ctx.abc), W(ata(ctx.curve, WSOL_MINT, TOKEN_PROGRAM)), WS(KEEPER), R(SYSTEM_PROGRAM),
    R(PUMP_AMM), W(p.pool), W(p.poolAuthority), W(paMint), W(paWsol), R(AMM_GLOBAL_CONFIG), W(p.lpMint), W(userPool), W(p.baseVault), W(p.quoteVault),
    R(tp), R(TOKEN_PROGRAM), R(TOKEN_2022_PROGRAM), R(ATA_PROGRAM), R(AMM_EVENT_AUTHORITY), R(RENT_SYSVAR), R(EVENT_AUTHORITY), R(PUMP),
    R(boostVaultAuthorityPda(p.pool)), W(ata(boostVaultAuthorityPda(p.pool), WSOL_MINT, TOKEN_PROGRAM)),
  ];
  const data = encodeInstruction(PUMP_IDL_2610, 'migrate_v2', {});
  const events: EmittedEvent[] = [];
  const baseAmount = TOTAL_SUPPLY - (INITIAL_REAL_TOKENS - curve.rT) - (curve.postBaseOut ?? 0n);
  const quoteAmount = curve.rQ - POOL_MIGRATION_FEE + (curve.postQuoteIn ?? 0n);
  const initialLiquidity = isqrt(baseAmount * quoteAmount);
  const lpOut = initialLiquidity - 100n;
  if (noop) {
    inv.invoke(PUMP, 1, () => {
      inv.log('Instruction: MigrateV2');
      inv.log('Bonding curve already migrated');
    }, 9000 + inv.rng.int(0, 2000));
    return { accounts, data, inner: inv.inner, logs: inv.logs, events, lamports: [], tokens: [], units: 0, baseAmount, quoteAmount, lpSupply: initialLiquidity };
  }
  const baseVaultSize = tp === TOKEN_2022_PROGRAM ? 170 : 165;
  const newRent = rentExempt(301) + rentExempt(82) + rentExempt(baseVaultSize) + rentExempt(165) + rentExempt(170);
  inv.invoke(PUMP, 1, () => {
    inv.log('Instruction: MigrateV2');
    cpiTokenTransfer(inv, tp, ctx.abc, ctx.mint, paMint, ctx.curve, baseAmount, 2);
    cpiToken(inv, TOKEN_PROGRAM, [paWsol], Uint8Array.of(17), 'SyncNative', 2, 3045);
    const cpArgs = { index: 0, base_amount_in: baseAmount, quote_amount_in: quoteAmount, coin_creator: ctx.creator, is_mayhem_mode: ctx.mayhem };
    const cpAccounts = [p.pool, AMM_GLOBAL_CONFIG, p.poolAuthority, ctx.mint, WSOL_MINT, p.lpMint, paMint, paWsol, userPool, p.baseVault, p.quoteVault,
      SYSTEM_PROGRAM, TOKEN_2022_PROGRAM, tp, TOKEN_PROGRAM, ATA_PROGRAM, AMM_EVENT_AUTHORITY, PUMP_AMM];
    inv.cpi(PUMP_AMM, cpAccounts, encodeInstruction(AMM_IDL_2610, 'create_pool', cpArgs, 5), 2);
    inv.invoke(PUMP_AMM, 2, () => {
      inv.log('Instruction: CreatePool');
      cpiTokenTransfer(inv, tp, paMint, ctx.mint, p.baseVault, p.poolAuthority, baseAmount, 3);
      cpiTokenTransfer(inv, TOKEN_PROGRAM, paWsol, WSOL_MINT, p.quoteVault, p.poolAuthority, quoteAmount, 3);
      cpiToken(inv, TOKEN_2022_PROGRAM, [p.lpMint, userPool, p.pool], concat(Uint8Array.of(7), u64(lpOut)), 'MintTo', 3, 4500);
      ammEvent(inv, ctx.era, 'CreatePoolEvent', {
        timestamp: BigInt(timestamp), index: 0, creator: p.poolAuthority, base_mint: ctx.mint, quote_mint: WSOL_MINT, base_mint_decimals: 6,
        quote_mint_decimals: 9, base_amount_in: baseAmount, quote_amount_in: quoteAmount, pool_base_amount: baseAmount, pool_quote_amount: quoteAmount,
        minimum_liquidity: 100n, initial_liquidity: initialLiquidity, lp_token_amount_out: lpOut, pool_bump: bumpOf(p.pool), pool: p.pool, lp_mint: p.lpMint,
        user_base_token_account: paMint, user_quote_token_account: paWsol, coin_creator: ctx.creator, is_mayhem_mode: ctx.mayhem, creator_fee_bps: 0n,
        can_edit_creator_fee: false, is_holder_reward: false,
      }, 3, events);
    }, 60000);
    pumpEvent(inv, ctx, 'CompletePumpAmmMigrationEvent', {
      user: KEEPER, mint: ctx.mint, mint_amount: baseAmount, sol_amount: quoteAmount, pool_migration_fee: POOL_MIGRATION_FEE, bonding_curve: ctx.curve,
      timestamp: BigInt(timestamp), pool: p.pool, quote_mint: ctx.quoteMint,
    }, 1, events);
  }, 95000);
  const moved = curve.rQ + (curve.postQuoteIn ?? 0n);
  return {
    accounts, data, inner: inv.inner, logs: inv.logs, events,
    lamports: [
      [ctx.curve, -moved], [KEEPER, POOL_MIGRATION_FEE - newRent], [p.pool, rentExempt(301)], [p.lpMint, rentExempt(82)],
      [p.baseVault, rentExempt(baseVaultSize)], [p.quoteVault, rentExempt(165) + quoteAmount], [userPool, rentExempt(170)],
    ],
    tokens: [
      { account: ctx.abc, mint: ctx.mint, owner: ctx.curve, programId: tp, delta: -baseAmount },
      { account: p.baseVault, mint: ctx.mint, owner: p.pool, programId: tp, delta: baseAmount },
    ],
    units: 0, baseAmount, quoteAmount, lpSupply: initialLiquidity,
  };
}

/** The top-level accounts of PumpSwap `multi_hop_swap` (16 IDL accounts) + the curve hop's accounts, for a SOL → coin route with one curve hop. */
export function multiHopSwapAccounts(ctx: LaunchCtx, user: string, buyback: string): AccountMeta[] {
  return [
    WS(user), W(ata(user, WSOL_MINT, TOKEN_PROGRAM)), W(ata(user, ctx.mint, ctx.tokenProgram)), R(AMM_GLOBAL_CONFIG), R(AMM_FEE_CONFIG),
    W(pda(PUMP_AMM, ['user_volume_accumulator', '@' + user])), W(buyback), R(TOKEN_PROGRAM), R(TOKEN_2022_PROGRAM), R(SYSTEM_PROGRAM),
    R(AMM_EVENT_AUTHORITY), R(PUMP_AMM), R(PUMP), R(GLOBAL), R(FEE_CONFIG), R(EVENT_AUTHORITY),
    R(ctx.mint), W(ctx.curve), W(ctx.abc), W(ata(ctx.curve, WSOL_MINT, TOKEN_PROGRAM)),
  ];
}

/** multi_hop_swap instruction data. */
export const multiHopSwapData = (amountIn: bigint, minOut: bigint): Uint8Array => encodeInstruction(AMM_IDL_2610, 'multi_hop_swap', { amount_in: amountIn, min_amount_out: minOut });

const AMM_LP_FEE_BPS = 20n;
const AMM_PROTOCOL_FEE_BPS = 5n;
const AMM_CREATOR_FEE_BPS = 5n;

/**
 * PumpSwap `sell_v2` (17 IDL accounts) into the migrated pool, top level: priced on the pool's
 * quote reserves (vault + vqr); the LP fee stays in the reserves; the protocol and creator fees
 * stay in the quote vault and are subtracted from virtual_quote_reserves (so vqr goes negative);
 * SellEvent with protocol_fee_recipient(_token_account) = the zero key. Updates `pool`.
 */
export function buildPoolSellV2(ctx: LaunchCtx, pool: PoolState, user: string, baseIn: bigint, timestamp: number, buyback: string, inv: Invocation): Built {
  const p = poolAddrs(ctx);
  const userBase = ata(user, ctx.mint, ctx.tokenProgram);
  const userQuote = ata(user, WSOL_MINT, TOKEN_PROGRAM);
  const accounts: AccountMeta[] = [
    W(p.pool), WS(user), R(AMM_GLOBAL_CONFIG), R(ctx.mint), R(WSOL_MINT), W(userBase), W(userQuote), W(p.baseVault), W(p.quoteVault), R(ctx.tokenProgram),
    R(TOKEN_PROGRAM), R(SYSTEM_PROGRAM), W(pda(PUMP_AMM, ['user_volume_accumulator', '@' + user])), R(AMM_FEE_CONFIG), W(buyback), R(AMM_EVENT_AUTHORITY), R(PUMP_AMM),
  ];
  const reserves = pool.quote + pool.vqr;
  const quoteOut = (reserves * baseIn) / (pool.base + baseIn);
  const lpFee = (quoteOut * AMM_LP_FEE_BPS + 9_999n) / 10_000n;
  const protocolFee = (quoteOut * AMM_PROTOCOL_FEE_BPS + 9_999n) / 10_000n;
  const creatorFee = (quoteOut * AMM_CREATOR_FEE_BPS + 9_999n) / 10_000n;
  const userOut = quoteOut - lpFee - protocolFee - creatorFee;
  const minOut = (userOut * 95n) / 100n;
  const data = encodeInstruction(AMM_IDL_2610, 'sell_v2', { base_amount_in: baseIn, min_quote_amount_out: minOut });
  const events: EmittedEvent[] = [];
  const baseBefore = pool.base;
  pool.base += baseIn;
  pool.quote -= userOut;
  pool.vqr -= protocolFee + creatorFee;
  pool.protocolFees += protocolFee;
  pool.creatorFees += creatorFee;
  inv.invoke(PUMP_AMM, 1, () => {
    inv.log('Instruction: SellV2');
    cpiTokenTransfer(inv, ctx.tokenProgram, userBase, ctx.mint, p.baseVault, user, baseIn, 2);
    cpiTokenTransfer(inv, TOKEN_PROGRAM, p.quoteVault, WSOL_MINT, userQuote, p.pool, userOut, 2);
    const fields: Record<string, Value> = {
      timestamp: BigInt(timestamp), base_amount_in: baseIn, min_quote_amount_out: minOut, user_base_token_reserves: baseIn, user_quote_token_reserves: 0n,
      pool_base_token_reserves: baseBefore, pool_quote_token_reserves: reserves, quote_amount_out: quoteOut, lp_fee_basis_points: AMM_LP_FEE_BPS,
      lp_fee: lpFee, protocol_fee_basis_points: AMM_PROTOCOL_FEE_BPS, protocol_fee: protocolFee, quote_amount_out_without_lp_fee: quoteOut - lpFee,
      user_quote_amount_out: userOut, pool: p.pool, user, user_base_token_account: userBase, user_quote_token_account: userQuote,
      protocol_fee_recipient: DEFAULT_KEY, protocol_fee_recipient_token_account: DEFAULT_KEY, coin_creator: ctx.creator,
      coin_creator_fee_basis_points: AMM_CREATOR_FEE_BPS, coin_creator_fee: creatorFee, cashback_fee_basis_points: 0n, cashback: 0n,
      buyback_fee_basis_points: 0n, buyback_fee: 0n, virtual_quote_reserves: pool.vqr, can_boost: false, base_supply: TOTAL_SUPPLY, holder_rewards_bps: 0n,
      holder_rewards: 0n, creator_fee_unclaimed: pool.creatorFees,
    };
    ammEvent(inv, ctx.era, 'SellEvent', fields, 1, events);
  }, 45000 + inv.rng.int(0, 20000));
  return {
    accounts, data, inner: inv.inner, logs: inv.logs, events,
    lamports: [[p.quoteVault, -userOut], [user, userOut]],
    tokens: [
      { account: userBase, mint: ctx.mint, owner: user, programId: ctx.tokenProgram, delta: -baseIn },
      { account: p.baseVault, mint: ctx.mint, owner: p.pool, programId: ctx.tokenProgram, delta: baseIn },
    ],
    units: 0,
  };
}

/**
 * PumpSwap `sweep_protocol_fee` (bucket 0) / `sweep_creator_fee` (bucket 1), 12 IDL accounts: the
 * waiting fees leave the quote vault for their fixed destination and are added back to
 * virtual_quote_reserves; SweepPoolFeeEvent. Updates `pool`. Null when nothing waits (a no-op).
 */
export function buildPoolSweep(ctx: LaunchCtx, pool: PoolState, payer: string, bucket: 0 | 1, protocolRecipient: string, timestamp: number, inv: Invocation): Built | null {
  const amount = bucket === 0 ? pool.protocolFees : pool.creatorFees;
  if (amount <= 0n) return null;
  const p = poolAddrs(ctx);
  const recipient = bucket === 0 ? protocolRecipient : pda(PUMP_AMM, ['creator_vault', '@' + ctx.creator]);
  const recipientAta = ata(recipient, WSOL_MINT, TOKEN_PROGRAM);
  const accounts: AccountMeta[] = [WS(payer), R(AMM_GLOBAL_CONFIG), W(p.pool), R(WSOL_MINT), R(TOKEN_PROGRAM), W(p.quoteVault), R(recipient), W(recipientAta),
    R(SYSTEM_PROGRAM), R(ATA_PROGRAM), R(AMM_EVENT_AUTHORITY), R(PUMP_AMM)];
  const name = bucket === 0 ? 'sweep_protocol_fee' : 'sweep_creator_fee';
  const data = encodeInstruction(AMM_IDL_2610, name, {});
  const events: EmittedEvent[] = [];
  if (bucket === 0) pool.protocolFees = 0n;
  else pool.creatorFees = 0n;
  pool.quote -= amount;
  pool.vqr += amount;
  inv.invoke(PUMP_AMM, 1, () => {
    inv.log(`Instruction: ${bucket === 0 ? 'SweepProtocolFee' : 'SweepCreatorFee'}`);
    cpiTokenTransfer(inv, TOKEN_PROGRAM, p.quoteVault, WSOL_MINT, recipientAta, p.pool, amount, 2);
    ammEvent(inv, ctx.era, 'SweepPoolFeeEvent', {
      timestamp: BigInt(timestamp), pool: p.pool, base_mint: ctx.mint, quote_mint: WSOL_MINT, recipient, payer, amount, bucket,
    }, 1, events);
  }, 14000 + inv.rng.int(0, 4000));
  return { accounts, data, inner: inv.inner, logs: inv.logs, events, lamports: [[p.quoteVault, -amount], [recipientAta, amount]], tokens: [], units: 0 };
}

/**
 * Pump `sweep_protocol_fee` (bucket 0) / `sweep_creator_fee` (bucket 1), 13 IDL accounts: the fees a
 * curve kept (v3 and multi-hop trades) go to a fee recipient / the creator vault
 * ["creator-vault", creator]; SweepBondingCurveFeeEvent. Works after migration too. Updates
 * `curve`. Null when nothing waits.
 */
export function buildCurveSweep(ctx: LaunchCtx, curve: CurveState, payer: string, bucket: 0 | 1, protocolRecipient: string, timestamp: number, inv: Invocation): Built | null {
  const amount = bucket === 0 ? (curve.protocolFees ?? 0n) : (curve.creatorFeeKept ?? 0n);
  if (amount <= 0n) return null;
  const qm = ixQuoteMint(ctx);
  const qtp = quoteTokenProgram(ctx);
  const recipient = bucket === 0 ? protocolRecipient : creatorVaultPda(ctx.creator);
  const accounts: AccountMeta[] = [WS(payer), R(GLOBAL), R(ctx.mint), R(qm), R(qtp), R(ATA_PROGRAM), R(SYSTEM_PROGRAM), W(ctx.curve), W(ata(ctx.curve, qm, qtp)),
    W(recipient), W(ata(recipient, qm, qtp)), R(EVENT_AUTHORITY), R(PUMP)];
  const name = bucket === 0 ? 'sweep_protocol_fee' : 'sweep_creator_fee';
  const data = encodeInstruction(PUMP_IDL_2610, name, {});
  const events: EmittedEvent[] = [];
  if (bucket === 0) curve.protocolFees = 0n;
  else curve.creatorFeeKept = 0n;
  const sol = ctx.quoteMint === DEFAULT_KEY;
  inv.invoke(PUMP, 1, () => {
    inv.log(`Instruction: ${bucket === 0 ? 'SweepProtocolFee' : 'SweepCreatorFee'}`);
    if (!sol) cpiTokenTransfer(inv, qtp, ata(ctx.curve, qm, qtp), qm, ata(recipient, qm, qtp), ctx.curve, amount, 2);
    pumpEvent(inv, ctx, 'SweepBondingCurveFeeEvent', {
      timestamp: BigInt(timestamp), mint: ctx.mint, bonding_curve: ctx.curve, quote_mint: ctx.quoteMint, recipient, amount, bucket,
    }, 1, events);
  }, 12000 + inv.rng.int(0, 4000));
  return { accounts, data, inner: inv.inner, logs: inv.logs, events, lamports: sol ? [[ctx.curve, -amount], [recipient, amount]] : [], tokens: [], units: 0 };
}

