/**
 * Pump and PumpSwap instructions as the simulator emits them, per era (reference.md §1.4): account
 * lists in IDL order (plus the era's remaining accounts), borsh args, the CPIs and log lines the
 * program produces, the events it emits (log + self-CPI), and the lamport/token effects. Pure.
 */
import { AMM_IDL, encodeEvent, encodeInstruction, PUMP_IDL, type Value } from './borsh-encode.ts';
import { type CurveState, type Era, ERA_2610, type Quote, feesOf, idlsOf, isModern, POOL_MIGRATION_FEE, rentExempt, TOTAL_SUPPLY } from './curve.ts';
import {
  AMM_EVENT_AUTHORITY, AMM_GLOBAL_CONFIG, ATA_PROGRAM, ata, boostVaultAuthorityPda, creatorVaultPda, curveV2Pda, DEFAULT_KEY, EVENT_AUTHORITY,
  FEE_CONFIG, fromBase58, GLOBAL, GLOBAL_VOLUME_ACCUMULATOR, KEEPER, LAST_WITHDRAW, lpMintPda, MAYHEM_PROGRAM, metadataPda, MINT_AUTHORITY,
  MPL_TOKEN_METADATA, pda, poolAuthorityPda, poolPda, PUMP, PUMP_AMM, PUMP_FEES, RENT_SYSVAR, sharingConfigPda, SYSTEM_PROGRAM,
  TOKEN_2022_PROGRAM, TOKEN_PROGRAM, USDC_MINT, userVolumePda, WSOL_MINT,
} from './keys.ts';
import {
  type AccountMeta, concat, cpiSystemTransfer, cpiToken, cpiTokenTransfer, type EmittedEvent, emitEvent, type InnerIx, Invocation,
  systemCreateAccountData, type TokenChange, u64,
} from './transactions.ts';

/** Static facts of one launch used by every instruction. */
export interface LaunchCtx {
  era: Era;
  mint: string;
  curve: string;
  /** associated_bonding_curve: ATA(curve, mint, tokenProgram) */
  abc: string;
  tokenProgram: string;
  /** DEFAULT_KEY for SOL coins, else the quote mint (USDC) */
  quoteMint: string;
  usdc: boolean;
  /** 2026-10: quoted in another simulated pump coin (quoteMint = that coin's mint, Token-2022) */
  pumpQuote?: { mint: string; curve: string };
  mayhem: boolean;
  creator: string;
  name: string;
  symbol: string;
  uri: string;
}

/** Result of building one pump instruction invocation. */
export interface Built {
  accounts: AccountMeta[];
  data: Uint8Array;
  inner: InnerIx[];
  logs: string[];
  events: EmittedEvent[];
  lamports: [string, bigint][];
  tokens: TokenChange[];
  units: number;
}

const W = (address: string): AccountMeta => ({ address, writable: true });
const R = (address: string): AccountMeta => ({ address });
const WS = (address: string): AccountMeta => ({ address, writable: true, signer: true });

const LOG_NAMES: Record<string, string> = {
  buy: 'Buy', buy_exact_sol_in: 'BuyExactSolIn', sell: 'Sell', buy_v2: 'BuyV2', sell_v2: 'SellV2', create: 'Create', create_v2: 'CreateV2',
  migrate: 'Migrate', withdraw: 'Withdraw', buy_v3: 'BuyV3', buy_exact_quote_in_v3: 'BuyExactQuoteInV3', sell_v3: 'SellV3',
  multi_hop_curve_swap: 'MultiHopCurveSwap', migrate_v2: 'MigrateV2',
};
const ERRORS: Record<number, [string, string]> = {
  6002: ['TooMuchSolRequired', 'slippage: Too much SOL required to buy the given amount of tokens.'],
  6003: ['TooLittleSolReceived', 'slippage: Too little SOL received to sell the given amount of tokens.'],
  6005: ['BondingCurveComplete', 'The bonding curve has completed and liquidity migrated to raydium.'],
};

/** Event field counts by era (reference.md §1.2/§1.5: layouts only grow by appending). */
export const EVENT_FIELDS: Record<string, Record<Era, number | undefined>> = {
  TradeEvent: { 2024: 10, 2025: 16, 2026: undefined, '2026-10': undefined },
  CreateEvent: { 2024: 6, 2025: 12, 2026: undefined, '2026-10': undefined },
  CompleteEvent: { 2024: 4, 2025: 4, 2026: undefined, '2026-10': undefined },
  CompletePumpAmmMigrationEvent: { 2024: 8, 2025: 8, 2026: undefined, '2026-10': undefined },
  CreatePoolEvent: { 2024: 20, 2025: 20, 2026: undefined, '2026-10': undefined },
};

/** Names of the fields an IDL event encodes (the first `count`, or all). */
function encodedFieldNames(era: Era, program: 'pump' | 'pump_amm', name: string, count: number | undefined): string[] {
  const idl = program === 'pump' ? idlsOf(era).pump : idlsOf(era).amm;
  const fields = (idl.types?.find((t) => t.name === name)?.type.fields ?? []) as { name: string }[];
  return fields.slice(0, count ?? fields.length).map((f) => f.name);
}

/** Emit a pump event with the era's IDL and layout; the emitted record keeps only the fields actually encoded. */
export function pumpEvent(inv: Invocation, ctx: LaunchCtx, name: string, fields: Record<string, Value>, depth: number, out: EmittedEvent[]): void {
  const count = EVENT_FIELDS[name]?.[ctx.era];
  const bytes = encodeEvent(idlsOf(ctx.era).pump, name, fields, count);
  emitEvent(inv, PUMP, EVENT_AUTHORITY, bytes, depth);
  out.push({ program: 'pump', name, fields: encodedOnly(fields, encodedFieldNames(ctx.era, 'pump', name, count)) });
}

/** Emit a PumpSwap event with the era's IDL (all fields). */
export function ammEvent(inv: Invocation, era: Era, name: string, fields: Record<string, Value>, depth: number, out: EmittedEvent[], count?: number): void {
  emitEvent(inv, PUMP_AMM, AMM_EVENT_AUTHORITY, encodeEvent(idlsOf(era).amm, name, fields, count), depth);
  out.push({ program: 'pump_amm', name, fields: era === ERA_2610 ? encodedOnly(fields, encodedFieldNames(era, 'pump_amm', name, count)) : fields });
}

/** The fields of `fields` among `names` (what the bytes carry; a missing one reads as absent, like a decoder's). */
function encodedOnly(fields: Record<string, Value>, names: string[]): Record<string, Value> {
  const keep = new Set(names);
  return Object.fromEntries(Object.entries(fields).filter(([k]) => keep.has(k)));
}

/** The trade instruction names. */
export type TradeIxName = 'buy' | 'buy_exact_sol_in' | 'sell' | 'buy_v2' | 'sell_v2' | 'buy_v3' | 'buy_exact_quote_in_v3' | 'sell_v3';

/** v3 (fee-keeping) trade instructions of the 2026-10 program. */
export const isV3 = (ix: TradeIxName): boolean => ix === 'buy_v3' || ix === 'buy_exact_quote_in_v3' || ix === 'sell_v3';

/** The synthetic pool part of a completing v3 buy (docs/SYNTHETIC_MIGRATION.md). */
export interface PostComplete {
  baseOut: bigint;
  quoteIn: bigint;
  fee: bigint;
  creatorFee: bigint;
  before: { base: bigint; quote: bigint };
  after: { base: bigint; quote: bigint };
}

/** The quote mint an instruction names: WSOL for SOL coins (the curve stores the default key). */
export const ixQuoteMint = (ctx: LaunchCtx): string => (ctx.quoteMint === DEFAULT_KEY ? WSOL_MINT : ctx.quoteMint);
/** The quote mint's token program: Token-2022 for a pump-coin quote, else SPL Token. */
export const quoteTokenProgram = (ctx: LaunchCtx): string => (ctx.pumpQuote ? TOKEN_2022_PROGRAM : TOKEN_PROGRAM);

/** One curve trade to build. */
export interface TradeReq {
  ix: TradeIxName;
  user: string;
  isBuy: boolean;
  q: Quote;
  /** instruction args (IDL names) */
  args: Record<string, Value>;
  feeRecipient: string;
  buyback: string;
  /** blockTime, for the event timestamp */
  timestamp: number;
  /** the curve after this trade (event reserves) */
  after: CurveState;
  /** custom error code when the instruction fails (slippage, complete) */
  failCode?: number;
  /** 2026-10: the creator fee waiting on the curve after this trade (TradeEvent.creator_fee_unclaimed) */
  creatorFeeUnclaimed?: bigint;
  /** 2026-10: the synthetic pool part of a completing v3 buy */
  postComplete?: PostComplete;
  /** 2026-10: a curve hop of a PumpSwap multi_hop_swap (pump multi_hop_curve_swap by CPI; ix_name "multi_hop_swap") */
  multiHop?: boolean;
  /** the user's token account does not exist yet */
  newAta: boolean;
  /** the wallet's token balance before (for pre balances only) */
}

/** Accounts of a trade instruction in IDL order plus the era's remaining accounts. */
export function tradeAccounts(ctx: LaunchCtx, r: TradeReq): AccountMeta[] {
  const userAta = ata(r.user, ctx.mint, ctx.tokenProgram);
  const vault = creatorVaultPda(ctx.creator);
  if (r.multiHop) {
    // pump multi_hop_curve_swap (13 IDL accounts) + the hop's curve accounts as remaining accounts
    const src = ata(r.user, WSOL_MINT, TOKEN_PROGRAM);
    return [R(GLOBAL), R(FEE_CONFIG), R(AMM_GLOBAL_CONFIG), WS(r.user), R(r.user), W(src), W(userAta), W(r.buyback), R(TOKEN_PROGRAM), R(TOKEN_2022_PROGRAM),
      R(SYSTEM_PROGRAM), R(EVENT_AUTHORITY), R(PUMP), R(ctx.mint), W(ctx.curve), W(ctx.abc), W(ata(ctx.curve, WSOL_MINT, TOKEN_PROGRAM))];
  }
  if (isV3(r.ix)) {
    const q = ixQuoteMint(ctx);
    const qtp = quoteTokenProgram(ctx);
    return [R(GLOBAL), R(ctx.mint), R(q), R(ctx.tokenProgram), R(qtp), W(ctx.curve), W(ctx.abc), W(ata(ctx.curve, q, qtp)), WS(r.user), W(userAta),
      W(ata(r.user, q, qtp)), W(userVolumePda(r.user)), R(FEE_CONFIG), W(r.buyback), R(SYSTEM_PROGRAM), R(EVENT_AUTHORITY), R(PUMP)];
  }
  if (r.ix === 'buy_v2' || r.ix === 'sell_v2') {
    const q = USDC_MINT;
    const uva = userVolumePda(r.user);
    const list: AccountMeta[] = [
      R(GLOBAL), R(ctx.mint), R(q), R(ctx.tokenProgram), R(TOKEN_PROGRAM), R(ATA_PROGRAM), W(r.feeRecipient), W(ata(r.feeRecipient, q, TOKEN_PROGRAM)),
      W(r.buyback), W(ata(r.buyback, q, TOKEN_PROGRAM)), W(ctx.curve), W(ctx.abc), W(ata(ctx.curve, q, TOKEN_PROGRAM)), WS(r.user), W(userAta),
      W(ata(r.user, q, TOKEN_PROGRAM)), W(vault), W(ata(vault, q, TOKEN_PROGRAM)), R(sharingConfigPda(ctx.mint)),
    ];
    if (r.ix === 'buy_v2') list.push(W(GLOBAL_VOLUME_ACCUMULATOR));
    list.push(W(uva), W(ata(uva, q, TOKEN_PROGRAM)), R(FEE_CONFIG), R(PUMP_FEES), R(SYSTEM_PROGRAM), R(EVENT_AUTHORITY), R(PUMP));
    return list;
  }
  if (ctx.era === 2024) {
    return r.isBuy
      ? [R(GLOBAL), W(r.feeRecipient), R(ctx.mint), W(ctx.curve), W(ctx.abc), W(userAta), WS(r.user), R(SYSTEM_PROGRAM), R(ctx.tokenProgram), R(RENT_SYSVAR), R(EVENT_AUTHORITY), R(PUMP)]
      : [R(GLOBAL), W(r.feeRecipient), R(ctx.mint), W(ctx.curve), W(ctx.abc), W(userAta), WS(r.user), R(SYSTEM_PROGRAM), R(ATA_PROGRAM), R(ctx.tokenProgram), R(EVENT_AUTHORITY), R(PUMP)];
  }
  const list: AccountMeta[] = r.isBuy
    ? [R(GLOBAL), W(r.feeRecipient), R(ctx.mint), W(ctx.curve), W(ctx.abc), W(userAta), WS(r.user), R(SYSTEM_PROGRAM), R(ctx.tokenProgram), W(vault),
       R(EVENT_AUTHORITY), R(PUMP), W(GLOBAL_VOLUME_ACCUMULATOR), W(userVolumePda(r.user)), R(FEE_CONFIG), R(PUMP_FEES)]
    : [R(GLOBAL), W(r.feeRecipient), R(ctx.mint), W(ctx.curve), W(ctx.abc), W(userAta), WS(r.user), R(SYSTEM_PROGRAM), W(vault), R(ctx.tokenProgram),
       R(EVENT_AUTHORITY), R(PUMP), R(FEE_CONFIG), R(PUMP_FEES)];
  if (isModern(ctx.era)) list.push(R(curveV2Pda(ctx.mint)), W(r.buyback));
  return list;
}

/** Arg count to encode per era (2024/2025 trades have no track_volume). */
function tradeArgCount(ctx: LaunchCtx, ix: TradeIxName): number | undefined {
  if (ix === 'sell' || ix === 'buy_v2' || ix === 'sell_v2' || isV3(ix)) return undefined;
  return isModern(ctx.era) ? 3 : 2;
}

/** The TradeEvent fields of a trade (full layout; the era decides how many are encoded). */
export function tradeEventFields(ctx: LaunchCtx, r: TradeReq): Record<string, Value> {
  const { feeBps, creatorFeeBps } = feesOf(ctx.era);
  const a = r.after;
  return {
    mint: ctx.mint,
    sol_amount: ctx.quoteMint !== DEFAULT_KEY ? 0n : r.q.quote,
    token_amount: r.q.tokens,
    is_buy: r.isBuy,
    user: r.user,
    timestamp: BigInt(r.timestamp),
    virtual_sol_reserves: a.vQ,
    virtual_token_reserves: a.vT,
    real_sol_reserves: a.rQ,
    real_token_reserves: a.rT,
    fee_recipient: r.feeRecipient,
    fee_basis_points: feeBps,
    fee: r.q.fee,
    creator: ctx.creator,
    creator_fee_basis_points: creatorFeeBps,
    creator_fee: r.q.creatorFee,
    track_volume: r.ix !== 'sell' && r.ix !== 'sell_v2' && r.ix !== 'sell_v3',
    total_unclaimed_tokens: 0n,
    total_claimed_tokens: 0n,
    current_sol_volume: 0n,
    last_update_timestamp: BigInt(r.timestamp),
    ix_name: r.multiHop ? 'multi_hop_swap' : r.ix,
    mayhem_mode: ctx.mayhem,
    cashback_fee_basis_points: 0n,
    cashback: 0n,
    buyback_fee_basis_points: 0n,
    buyback_fee: 0n,
    shareholders: [],
    quote_mint: ctx.quoteMint,
    quote_amount: r.q.quote,
    virtual_quote_reserves: a.vQ,
    real_quote_reserves: a.rQ,
    holder_rewards_bps: 0n,
    holder_rewards: 0n,
    creator_fee_unclaimed: r.creatorFeeUnclaimed ?? 0n,
  };
}

function failLog(inv: Invocation, code: number): void {
  const [name, msg] = ERRORS[code] ?? ['Custom', 'custom error'];
  inv.log(`AnchorError thrown in programs/pump/src/lib.rs:${700 + (code % 97)}. Error Code: ${name}. Error Number: ${code}. Error Message: ${msg}.`);
}

/**
 * Build a curve trade invoked at `depth` (1 = top level; 2 = via a router). On `failCode` the
 * logs end in the failure and nothing else happens. `complete` also emits CompleteEvent.
 */
export function buildTrade(ctx: LaunchCtx, r: TradeReq, inv: Invocation, depth: number): Built {
  const accounts = tradeAccounts(ctx, r);
  const data = r.multiHop
    ? encodeInstruction(idlsOf(ctx.era).pump, 'multi_hop_curve_swap', {
        amount_in: r.q.quote + r.q.fee + r.q.creatorFee + (r.postComplete ? r.postComplete.quoteIn + r.postComplete.fee + r.postComplete.creatorFee : 0n),
        hop_fees: Uint8Array.of(3),
      })
    : encodeInstruction(idlsOf(ctx.era).pump, r.ix, r.args, tradeArgCount(ctx, r.ix));
  const logName = r.multiHop ? LOG_NAMES.multi_hop_curve_swap : LOG_NAMES[r.ix];
  const events: EmittedEvent[] = [];
  const lamports: [string, bigint][] = [];
  const tokens: TokenChange[] = [];
  if (depth >= 2) inv.cpi(PUMP, accounts.map((m) => m.address), data, depth);
  const userAta = ata(r.user, ctx.mint, ctx.tokenProgram);
  if (r.failCode !== undefined) {
    inv.invoke(PUMP, depth, () => {
      inv.log(`Instruction: ${logName}`);
      failLog(inv, r.failCode!);
    }, 9000 + inv.rng.int(0, 3000), { fail: r.failCode });
    return { accounts, data, inner: inv.inner, logs: inv.logs, events, lamports, tokens, units: 0 };
  }
  const d = depth + 1;
  const vault = creatorVaultPda(ctx.creator);
  inv.invoke(PUMP, depth, () => {
    inv.log(`Instruction: ${logName}`);
    const q = r.q;
    if (r.multiHop || isV3(r.ix)) {
      keptFeeTrade(ctx, r, inv, d, lamports, tokens, events, depth);
      return;
    }
    if (r.isBuy) {
      cpiTokenTransfer(inv, ctx.tokenProgram, ctx.abc, ctx.mint, userAta, ctx.curve, q.tokens, d);
      if (ctx.usdc) {
        const uq = ata(r.user, USDC_MINT, TOKEN_PROGRAM);
        cpiTokenTransfer(inv, TOKEN_PROGRAM, uq, USDC_MINT, ata(ctx.curve, USDC_MINT, TOKEN_PROGRAM), r.user, q.quote, d);
        cpiTokenTransfer(inv, TOKEN_PROGRAM, uq, USDC_MINT, ata(r.feeRecipient, USDC_MINT, TOKEN_PROGRAM), r.user, q.fee, d);
        if (q.creatorFee > 0n) cpiTokenTransfer(inv, TOKEN_PROGRAM, uq, USDC_MINT, ata(vault, USDC_MINT, TOKEN_PROGRAM), r.user, q.creatorFee, d);
        quoteMoves(tokens, USDC_MINT, TOKEN_PROGRAM, r.user, [uq, r.user, -(q.quote + q.fee + q.creatorFee)], [ata(ctx.curve, USDC_MINT, TOKEN_PROGRAM), ctx.curve, q.quote], [ata(r.feeRecipient, USDC_MINT, TOKEN_PROGRAM), r.feeRecipient, q.fee]);
        if (q.creatorFee > 0n) quoteMoves(tokens, USDC_MINT, TOKEN_PROGRAM, r.user, [ata(vault, USDC_MINT, TOKEN_PROGRAM), vault, q.creatorFee]);
      } else {
        cpiSystemTransfer(inv, r.user, ctx.curve, q.quote, d);
        cpiSystemTransfer(inv, r.user, r.feeRecipient, q.fee, d);
        if (q.creatorFee > 0n) cpiSystemTransfer(inv, r.user, vault, q.creatorFee, d);
        lamports.push([r.user, -(q.quote + q.fee + q.creatorFee)], [ctx.curve, q.quote], [r.feeRecipient, q.fee]);
        if (q.creatorFee > 0n) lamports.push([vault, q.creatorFee]);
      }
      tokens.push({ account: ctx.abc, mint: ctx.mint, owner: ctx.curve, programId: ctx.tokenProgram, delta: -q.tokens });
      tokens.push({ account: userAta, mint: ctx.mint, owner: r.user, programId: ctx.tokenProgram, delta: q.tokens });
    } else {
      cpiTokenTransfer(inv, ctx.tokenProgram, userAta, ctx.mint, ctx.abc, r.user, q.tokens, d);
      if (ctx.usdc) {
        const cq = ata(ctx.curve, USDC_MINT, TOKEN_PROGRAM);
        cpiTokenTransfer(inv, TOKEN_PROGRAM, cq, USDC_MINT, ata(r.user, USDC_MINT, TOKEN_PROGRAM), ctx.curve, q.quote - q.fee - q.creatorFee, d);
        cpiTokenTransfer(inv, TOKEN_PROGRAM, cq, USDC_MINT, ata(r.feeRecipient, USDC_MINT, TOKEN_PROGRAM), ctx.curve, q.fee, d);
        quoteMoves(tokens, USDC_MINT, TOKEN_PROGRAM, r.user, [cq, ctx.curve, -(q.quote - q.creatorFee)], [ata(r.user, USDC_MINT, TOKEN_PROGRAM), r.user, q.quote - q.fee - q.creatorFee], [ata(r.feeRecipient, USDC_MINT, TOKEN_PROGRAM), r.feeRecipient, q.fee]);
      } else {
        lamports.push([r.user, q.quote - q.fee - q.creatorFee], [ctx.curve, -q.quote], [r.feeRecipient, q.fee]);
        if (q.creatorFee > 0n) lamports.push([vault, q.creatorFee]);
      }
      tokens.push({ account: ctx.abc, mint: ctx.mint, owner: ctx.curve, programId: ctx.tokenProgram, delta: q.tokens });
      tokens.push({ account: userAta, mint: ctx.mint, owner: r.user, programId: ctx.tokenProgram, delta: -q.tokens });
    }
    pumpEvent(inv, ctx, 'TradeEvent', tradeEventFields(ctx, r), depth, events);
    if (r.isBuy && r.after.complete && q.completes) {
      pumpEvent(inv, ctx, 'CompleteEvent', { user: r.user, mint: ctx.mint, bonding_curve: ctx.curve, timestamp: BigInt(r.timestamp), quote_mint: ctx.quoteMint }, depth, events);
    }
  }, 24000 + inv.rng.int(0, 20000));
  return { accounts, data, inner: inv.inner, logs: inv.logs, events, lamports, tokens, units: 0 };
}

/** A trader's starting balance of a quote token (bought elsewhere): 1,000,000,000 whole tokens of 6 decimals. */
const TRADER_QUOTE_TOKENS = 10n ** 15n;

/**
 * The token-balance changes of quote moved between token accounts (USDC, a pump coin): each
 * `[account, owner, delta]`. The `trader`'s account starts with {@link TRADER_QUOTE_TOKENS}, a
 * curve's or recipient's at 0, so the balances the transaction reports (`meta.pre/postTokenBalances`,
 * with the quote mint's decimals) are those of real quote-token trades (FIX/28 rRUVF4…).
 */
function quoteMoves(tokens: TokenChange[], mint: string, programId: string, trader: string, ...moves: [string, string, bigint][]): void {
  for (const [account, owner, delta] of moves) tokens.push({ account, mint, owner, programId, delta, preExisting: true, ...(owner === trader ? { initial: TRADER_QUOTE_TOKENS } : {}) });
}

/**
 * The effects and events of a fee-keeping trade (v3, or a multi-hop curve hop; docs/instructions/TRADE_V3.md,
 * SWEEP_FEES.md): the protocol and creator fees stay on the curve (its lamports for SOL coins, its quote
 * ATA otherwise), TradeEvent.fee_recipient is the zero key. A completing buy with a pool part emits
 * TradeEvent (curve part) → CompleteEvent → PostCompleteBuyEvent; the pool part's tokens come out of the
 * curve's token account (the tokens kept for the pool) and its quote + fees go to the curve.
 */
function keptFeeTrade(ctx: LaunchCtx, r: TradeReq, inv: Invocation, d: number, lamports: [string, bigint][], tokens: TokenChange[], events: EmittedEvent[], depth: number): void {
  const q = r.q;
  const userAta = ata(r.user, ctx.mint, ctx.tokenProgram);
  const sol = ctx.quoteMint === DEFAULT_KEY;
  const qm = ixQuoteMint(ctx);
  const qtp = quoteTokenProgram(ctx);
  const curveQuote = ata(ctx.curve, qm, qtp);
  const userQuote = ata(r.user, qm, qtp);
  const pc = r.postComplete;
  if (r.isBuy) {
    cpiTokenTransfer(inv, ctx.tokenProgram, ctx.abc, ctx.mint, userAta, ctx.curve, q.tokens, d);
    const paid = q.quote + q.fee + q.creatorFee;
    if (sol) {
      cpiSystemTransfer(inv, r.user, ctx.curve, paid, d);
      lamports.push([r.user, -paid], [ctx.curve, paid]);
    } else {
      cpiTokenTransfer(inv, qtp, userQuote, qm, curveQuote, r.user, paid, d);
      quoteMoves(tokens, qm, qtp, r.user, [userQuote, r.user, -paid], [curveQuote, ctx.curve, paid]);
    }
    tokens.push({ account: ctx.abc, mint: ctx.mint, owner: ctx.curve, programId: ctx.tokenProgram, delta: -q.tokens });
    tokens.push({ account: userAta, mint: ctx.mint, owner: r.user, programId: ctx.tokenProgram, delta: q.tokens });
  } else {
    cpiTokenTransfer(inv, ctx.tokenProgram, userAta, ctx.mint, ctx.abc, r.user, q.tokens, d);
    const out = q.quote - q.fee - q.creatorFee;
    if (sol) lamports.push([r.user, out], [ctx.curve, -out]);
    else {
      cpiTokenTransfer(inv, qtp, curveQuote, qm, userQuote, ctx.curve, out, d);
      quoteMoves(tokens, qm, qtp, r.user, [curveQuote, ctx.curve, -out], [userQuote, r.user, out]);
    }
    tokens.push({ account: ctx.abc, mint: ctx.mint, owner: ctx.curve, programId: ctx.tokenProgram, delta: q.tokens });
    tokens.push({ account: userAta, mint: ctx.mint, owner: r.user, programId: ctx.tokenProgram, delta: -q.tokens });
  }
  pumpEvent(inv, ctx, 'TradeEvent', tradeEventFields(ctx, r), depth, events);
  if (r.isBuy && r.after.complete && q.completes) {
    pumpEvent(inv, ctx, 'CompleteEvent', { user: r.user, mint: ctx.mint, bonding_curve: ctx.curve, timestamp: BigInt(r.timestamp), quote_mint: ctx.quoteMint }, depth, events);
    if (pc) {
      const { feeBps, creatorFeeBps } = feesOf(ctx.era);
      cpiTokenTransfer(inv, ctx.tokenProgram, ctx.abc, ctx.mint, userAta, ctx.curve, pc.baseOut, d);
      const paid = pc.quoteIn + pc.fee + pc.creatorFee;
      if (sol) {
        cpiSystemTransfer(inv, r.user, ctx.curve, paid, d);
        lamports.push([r.user, -paid], [ctx.curve, paid]);
      } else {
        cpiTokenTransfer(inv, qtp, userQuote, qm, curveQuote, r.user, paid, d);
        quoteMoves(tokens, qm, qtp, r.user, [userQuote, r.user, -paid], [curveQuote, ctx.curve, paid]);
      }
      tokens.push({ account: ctx.abc, mint: ctx.mint, owner: ctx.curve, programId: ctx.tokenProgram, delta: -pc.baseOut });
      tokens.push({ account: userAta, mint: ctx.mint, owner: r.user, programId: ctx.tokenProgram, delta: pc.baseOut });
      pumpEvent(inv, ctx, 'PostCompleteBuyEvent', {
        user: r.user, mint: ctx.mint, bonding_curve: ctx.curve, quote_mint: ctx.quoteMint, timestamp: BigInt(r.timestamp), base_out: pc.baseOut,
        quote_in: pc.quoteIn, fee_basis_points: feeBps, fee: pc.fee, creator_fee_basis_points: creatorFeeBps, creator_fee: pc.creatorFee, buyback_fee: 0n,
        pool_base_reserves_before: pc.before.base, pool_quote_reserves_before: pc.before.quote, pool_base_reserves_after: pc.after.base,
        pool_quote_reserves_after: pc.after.quote,
      }, depth, events);
    }
  }
}

/** ATA program createIdempotent (top level) for the user's token account, with its CPIs. */
export function buildCreateAta(payer: string, owner: string, mint: string, tokenProgram: string, inv: Invocation): Built {
  const account = ata(owner, mint, tokenProgram);
  const accounts: AccountMeta[] = [WS(payer), W(account), R(owner), R(mint), R(SYSTEM_PROGRAM), R(tokenProgram)];
  const size = tokenProgram === TOKEN_2022_PROGRAM ? 170 : 165;
  inv.invoke(ATA_PROGRAM, 1, () => ataCpis(inv, payer, account, mint, tokenProgram, 2, 'CreateIdempotent'), 12000);
  return {
    accounts, data: Uint8Array.of(1), inner: inv.inner, logs: inv.logs, events: [],
    lamports: [[payer, -rentExempt(size)], [account, rentExempt(size)]],
    tokens: [{ account, mint, owner, programId: tokenProgram, delta: 0n }], units: 0,
  };
}

function ataCpis(inv: Invocation, payer: string, account: string, mint: string, tokenProgram: string, d: number, name: string): void {
  const size = tokenProgram === TOKEN_2022_PROGRAM ? 170 : 165;
  inv.log(name);
  cpiToken(inv, tokenProgram, [mint], Uint8Array.of(21), 'GetAccountDataSize', d, 1500);
  inv.cpi(SYSTEM_PROGRAM, [payer, account], systemCreateAccountData(rentExempt(size), size, tokenProgram, fromBase58(tokenProgram)), d);
  inv.logs.push(`Program ${SYSTEM_PROGRAM} invoke [${d}]`, `Program ${SYSTEM_PROGRAM} success`);
  inv.log('Initialize the associated token account');
  cpiToken(inv, tokenProgram, [account], Uint8Array.of(22), 'InitializeImmutableOwner', d, 1405);
  cpiToken(inv, tokenProgram, [account, mint], Uint8Array.of(18), 'InitializeAccount3', d, 4188);
}

/** Mayhem accounts of create_v2 (⚠ seeds are stand-ins under the Mayhem program). */
function mayhemAccounts(mint: string): string[] {
  const solVault = pda(MAYHEM_PROGRAM, ['sol-vault']);
  return [pda(MAYHEM_PROGRAM, ['global-params']), solVault, pda(MAYHEM_PROGRAM, ['mayhem-state', '@' + mint]), ata(solVault, mint, TOKEN_2022_PROGRAM)];
}

/** The creation instruction: legacy `create` (2024: 3 args; 2025: + creator) or `create_v2` (2026, + 3 remaining accounts). */
export function buildCreate(ctx: LaunchCtx, timestamp: number, curveAfterCreate: CurveState, inv: Invocation): Built {
  const user = ctx.creator;
  const events: EmittedEvent[] = [];
  const legacy = !isModern(ctx.era);
  let accounts: AccountMeta[];
  let data: Uint8Array;
  const args = {
    name: ctx.name, symbol: ctx.symbol, uri: ctx.uri, creator: ctx.creator, is_mayhem_mode: ctx.mayhem,
    is_cashback_enabled: [false], creator_fee_bps: [0n], is_holder_reward: [false],
  };
  if (legacy) {
    accounts = [WS(ctx.mint), R(MINT_AUTHORITY), W(ctx.curve), W(ctx.abc), R(GLOBAL), R(MPL_TOKEN_METADATA), W(metadataPda(ctx.mint)), WS(user),
      R(SYSTEM_PROGRAM), R(TOKEN_PROGRAM), R(ATA_PROGRAM), R(RENT_SYSVAR), R(EVENT_AUTHORITY), R(PUMP)];
    data = encodeInstruction(PUMP_IDL, 'create', args, ctx.era === 2024 ? 3 : 4);
  } else {
    const [gp, sv, ms, mtv] = mayhemAccounts(ctx.mint);
    const quote = ctx.usdc ? USDC_MINT : ixQuoteMint(ctx);
    const qtp = quoteTokenProgram(ctx);
    accounts = [WS(ctx.mint), R(MINT_AUTHORITY), W(ctx.curve), W(ctx.abc), R(GLOBAL), WS(user), R(SYSTEM_PROGRAM), R(TOKEN_2022_PROGRAM), R(ATA_PROGRAM),
      W(MAYHEM_PROGRAM), R(gp), W(sv), W(ms), W(mtv), R(EVENT_AUTHORITY), R(PUMP), R(quote), W(ata(ctx.curve, quote, qtp)), R(qtp)];
    // a pump-coin quote also passes the quote coin's bonding curve (its reserves seed the new curve's)
    if (ctx.pumpQuote) accounts.push(R(ctx.pumpQuote.curve));
    data = encodeInstruction(idlsOf(ctx.era).pump, 'create_v2', args, 5);
  }
  const mintSize = legacy ? 82 : 234;
  const curveSize = ctx.era === 2024 ? 49 : ctx.era === 2025 ? 150 : ctx.era === 2026 ? 151 : 166;
  const abcSize = legacy ? 165 : 170;
  const tp = ctx.tokenProgram;
  inv.invoke(PUMP, 1, () => {
    inv.log(`Instruction: ${legacy ? 'Create' : 'CreateV2'}`);
    inv.cpi(SYSTEM_PROGRAM, [user, ctx.mint], systemCreateAccountData(rentExempt(mintSize), mintSize, tp, fromBase58(tp)), 2);
    inv.logs.push(`Program ${SYSTEM_PROGRAM} invoke [2]`, `Program ${SYSTEM_PROGRAM} success`);
    if (!legacy) cpiToken(inv, tp, [ctx.mint], concat(Uint8Array.of(39, 0), fromBase58(MINT_AUTHORITY), fromBase58(ctx.mint)), 'MetadataPointerInstruction::Initialize', 2, 925);
    cpiToken(inv, tp, [ctx.mint], concat(Uint8Array.of(20, 6), fromBase58(MINT_AUTHORITY), Uint8Array.of(0)), 'InitializeMint2', 2, 2780);
    inv.cpi(SYSTEM_PROGRAM, [user, ctx.curve], systemCreateAccountData(rentExempt(curveSize), curveSize, PUMP, fromBase58(PUMP)), 2);
    inv.logs.push(`Program ${SYSTEM_PROGRAM} invoke [2]`, `Program ${SYSTEM_PROGRAM} success`);
    inv.cpi(ATA_PROGRAM, [user, ctx.abc, ctx.curve, ctx.mint, SYSTEM_PROGRAM, tp], new Uint8Array(0), 2);
    inv.invoke(ATA_PROGRAM, 2, () => ataCpis(inv, user, ctx.abc, ctx.mint, tp, 3, 'Create'), 16000);
    if (legacy) {
      const md = metadataPda(ctx.mint);
      inv.cpi(MPL_TOKEN_METADATA, [md, ctx.mint, MINT_AUTHORITY, user, MINT_AUTHORITY, SYSTEM_PROGRAM, RENT_SYSVAR], Uint8Array.of(33), 2);
      inv.invoke(MPL_TOKEN_METADATA, 2, () => inv.log('IX: Create Metadata Accounts v3'), 36258);
    } else {
      cpiToken(inv, tp, [ctx.mint, MINT_AUTHORITY], Uint8Array.of(44), 'TokenMetadataInstruction: Initialize', 2, 3522);
    }
    cpiToken(inv, tp, [ctx.mint, ctx.abc, MINT_AUTHORITY], concat(Uint8Array.of(7), u64(TOTAL_SUPPLY)), 'MintTo', 2, 4492);
    cpiToken(inv, tp, [ctx.mint, MINT_AUTHORITY], Uint8Array.of(6, 0, 0), 'SetAuthority', 2, 2911);
    const c = curveAfterCreate;
    pumpEvent(inv, ctx, 'CreateEvent', {
      name: ctx.name, symbol: ctx.symbol, uri: ctx.uri, mint: ctx.mint, bonding_curve: ctx.curve, user, creator: ctx.creator,
      timestamp: BigInt(timestamp), virtual_token_reserves: c.vT, virtual_sol_reserves: c.vQ, real_token_reserves: c.rT, token_total_supply: c.supply,
      token_program: tp, is_mayhem_mode: ctx.mayhem, is_cashback_enabled: false, quote_mint: ctx.quoteMint, virtual_quote_reserves: c.vQ,
      creator_fee_bps: 0n, is_holder_reward: false, depth: c.depth ?? 0,
    }, 1, events);
  }, 80000 + inv.rng.int(0, 30000));
  return {
    accounts, data, inner: inv.inner, logs: inv.logs, events,
    lamports: [
      [user, -(rentExempt(mintSize) + rentExempt(curveSize) + rentExempt(abcSize) + (legacy ? 15_616_720n : 0n))],
      [ctx.mint, rentExempt(mintSize)], [ctx.curve, rentExempt(curveSize)], [ctx.abc, rentExempt(abcSize)],
      ...(legacy ? ([[metadataPda(ctx.mint), 15_616_720n]] as [string, bigint][]) : []),
    ],
    tokens: [{ account: ctx.abc, mint: ctx.mint, owner: ctx.curve, programId: tp, delta: TOTAL_SUPPLY }],
    units: 0,
  };
}

/** Addresses of a PumpSwap migration (reference.md §1.8, §2.2). */
export interface PoolAddrs {
  pool: string;
  poolAuthority: string;
  lpMint: string;
  baseVault: string;
  quoteVault: string;
  quoteMint: string;
}

/** Pool addresses of a SOL-quoted coin. */
export function poolAddrs(ctx: LaunchCtx): PoolAddrs {
  const pool = poolPda(ctx.mint, ctx.quoteMint);
  return {
    pool, poolAuthority: poolAuthorityPda(ctx.mint), lpMint: lpMintPda(pool), quoteMint: WSOL_MINT,
    baseVault: ata(pool, ctx.mint, ctx.tokenProgram), quoteVault: ata(pool, WSOL_MINT, TOKEN_PROGRAM),
  };
}

/** Integer square root. */
export function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = BigInt(Math.floor(Math.sqrt(Number(n))));
  while (x * x > n) x--;
  while ((x + 1n) * (x + 1n) <= n) x++;
  return x;
}

/**
 * `migrate` by the keeper (25 IDL accounts + 2 boost): CPIs PumpSwap create_pool (CreatePoolEvent)
 * and emits CompletePumpAmmMigrationEvent. `noop` = a retry on a migrated curve: success, the
 * "already migrated" log line, no CPI, no event.
 */
export function buildMigrate(ctx: LaunchCtx, curve: CurveState, timestamp: number, inv: Invocation, noop: boolean): Built & { baseAmount: bigint; quoteAmount: bigint; lpSupply: bigint } {
  const p = poolAddrs(ctx);
  const paMint = ata(p.poolAuthority, ctx.mint, ctx.tokenProgram);
  const paWsol = ata(p.poolAuthority, WSOL_MINT, TOKEN_PROGRAM);
  const userPool = ata(p.poolAuthority, p.lpMint, TOKEN_2022_PROGRAM);
  const accounts: AccountMeta[] = [
    R(GLOBAL), W(KEEPER), R(ctx.mint), W(ctx.curve), W(ctx.abc), WS(KEEPER), R(SYSTEM_PROGRAM), R(ctx.tokenProgram), R(PUMP_AMM), W(p.pool),
    W(p.poolAuthority), W(paMint), W(paWsol), R(AMM_GLOBAL_CONFIG), R(WSOL_MINT), W(p.lpMint), W(userPool), W(p.baseVault), W(p.quoteVault),
    R(TOKEN_2022_PROGRAM), R(ATA_PROGRAM), R(AMM_EVENT_AUTHORITY), R(EVENT_AUTHORITY), R(PUMP), R(RENT_SYSVAR),
    R(boostVaultAuthorityPda(p.pool)), W(ata(boostVaultAuthorityPda(p.pool), WSOL_MINT, TOKEN_PROGRAM)),
  ];
  const data = encodeInstruction(PUMP_IDL, 'migrate', {});
  const events: EmittedEvent[] = [];
  const baseAmount = curve.supply - (INITIAL_SOLD(curve));
  const quoteAmount = curve.rQ - POOL_MIGRATION_FEE;
  const initialLiquidity = isqrt(baseAmount * quoteAmount);
  const lpOut = initialLiquidity - 100n;
  if (noop) {
    inv.invoke(PUMP, 1, () => {
      inv.log('Instruction: Migrate');
      inv.log('Bonding curve already migrated');
    }, 9000 + inv.rng.int(0, 2000));
    return { accounts, data, inner: inv.inner, logs: inv.logs, events, lamports: [], tokens: [], units: 0, baseAmount, quoteAmount, lpSupply: initialLiquidity };
  }
  const tp = ctx.tokenProgram;
  const baseVaultSize = tp === TOKEN_2022_PROGRAM ? 170 : 165;
  const newRent = rentExempt(300) + rentExempt(82) + rentExempt(baseVaultSize) + rentExempt(165) + rentExempt(170);
  inv.invoke(PUMP, 1, () => {
    inv.log('Instruction: Migrate');
    cpiTokenTransfer(inv, tp, ctx.abc, ctx.mint, paMint, ctx.curve, baseAmount, 2);
    cpiToken(inv, TOKEN_PROGRAM, [paWsol], Uint8Array.of(17), 'SyncNative', 2, 3045);
    const cpArgs = { index: 0, base_amount_in: baseAmount, quote_amount_in: quoteAmount, coin_creator: ctx.creator, is_mayhem_mode: ctx.mayhem };
    const cpAccounts = [p.pool, AMM_GLOBAL_CONFIG, p.poolAuthority, ctx.mint, WSOL_MINT, p.lpMint, paMint, paWsol, userPool, p.baseVault, p.quoteVault,
      SYSTEM_PROGRAM, TOKEN_2022_PROGRAM, tp, TOKEN_PROGRAM, ATA_PROGRAM, AMM_EVENT_AUTHORITY, PUMP_AMM];
    inv.cpi(PUMP_AMM, cpAccounts, encodeInstruction(AMM_IDL, 'create_pool', cpArgs, ctx.era === 2025 ? 4 : 5), 2);
    inv.invoke(PUMP_AMM, 2, () => {
      inv.log('Instruction: CreatePool');
      cpiTokenTransfer(inv, tp, paMint, ctx.mint, p.baseVault, p.poolAuthority, baseAmount, 3);
      cpiTokenTransfer(inv, TOKEN_PROGRAM, paWsol, WSOL_MINT, p.quoteVault, p.poolAuthority, quoteAmount, 3);
      cpiToken(inv, TOKEN_2022_PROGRAM, [p.lpMint, userPool, p.pool], concat(Uint8Array.of(7), u64(lpOut)), 'MintTo', 3, 4500);
      const fields: Record<string, Value> = {
        timestamp: BigInt(timestamp), index: 0, creator: p.poolAuthority, base_mint: ctx.mint, quote_mint: WSOL_MINT, base_mint_decimals: 6,
        quote_mint_decimals: 9, base_amount_in: baseAmount, quote_amount_in: quoteAmount, pool_base_amount: baseAmount, pool_quote_amount: quoteAmount,
        minimum_liquidity: 100n, initial_liquidity: initialLiquidity, lp_token_amount_out: lpOut, pool_bump: 255, pool: p.pool, lp_mint: p.lpMint,
        user_base_token_account: paMint, user_quote_token_account: paWsol, coin_creator: ctx.creator, is_mayhem_mode: ctx.mayhem, creator_fee_bps: 0n,
        can_edit_creator_fee: false, is_holder_reward: false,
      };
      const bytes = encodeEvent(AMM_IDL, 'CreatePoolEvent', fields, EVENT_FIELDS.CreatePoolEvent[ctx.era]);
      emitEvent(inv, PUMP_AMM, AMM_EVENT_AUTHORITY, bytes, 3);
      events.push({ program: 'pump_amm', name: 'CreatePoolEvent', fields });
    }, 60000);
    pumpEvent(inv, ctx, 'CompletePumpAmmMigrationEvent', {
      user: KEEPER, mint: ctx.mint, mint_amount: baseAmount, sol_amount: quoteAmount, pool_migration_fee: POOL_MIGRATION_FEE, bonding_curve: ctx.curve,
      timestamp: BigInt(timestamp), pool: p.pool, quote_mint: ctx.quoteMint,
    }, 1, events);
  }, 90000);
  return {
    accounts, data, inner: inv.inner, logs: inv.logs, events,
    lamports: [
      [ctx.curve, -curve.rQ], [KEEPER, POOL_MIGRATION_FEE - newRent], [p.pool, rentExempt(300)], [p.lpMint, rentExempt(82)],
      [p.baseVault, rentExempt(baseVaultSize)], [p.quoteVault, rentExempt(165) + quoteAmount], [userPool, rentExempt(170)],
    ],
    tokens: [
      { account: ctx.abc, mint: ctx.mint, owner: ctx.curve, programId: tp, delta: -baseAmount },
      { account: p.baseVault, mint: ctx.mint, owner: p.pool, programId: tp, delta: baseAmount },
    ],
    units: 0, baseAmount, quoteAmount, lpSupply: initialLiquidity,
  };
}

/** A PumpSwap pool's reserves as the simulator tracks them (raw units: base tokens, quote lamports). */
export interface PoolReserves {
  base: bigint;
  quote: bigint;
}

/** PumpSwap fee rates the simulator charges on a pool sell (basis points). */
const AMM_LP_FEE_BPS = 20n;
const AMM_PROTOCOL_FEE_BPS = 5n;
const AMM_CREATOR_FEE_BPS = 5n;

/**
 * A PumpSwap `sell` (21 IDL accounts) of `baseIn` tokens by `user` into the migrated pool, top level:
 * constant-product quote out, LP fee left in the pool, protocol and coin-creator fees paid out, the
 * SellEvent (log + self-CPI). Updates `reserves`. Only the base mint's token balances are tracked;
 * the quote leaves the WSOL vault as lamports.
 */
export function buildPoolSell(ctx: LaunchCtx, reserves: PoolReserves, user: string, baseIn: bigint, timestamp: number, protocolFeeRecipient: string, inv: Invocation): Built {
  const p = poolAddrs(ctx);
  const userBase = ata(user, ctx.mint, ctx.tokenProgram);
  const userQuote = ata(user, WSOL_MINT, TOKEN_PROGRAM);
  const protocolQuote = ata(protocolFeeRecipient, WSOL_MINT, TOKEN_PROGRAM);
  const creatorVaultAuthority = pda(PUMP_AMM, ['creator_vault', '@' + ctx.creator]);
  const creatorVaultAta = ata(creatorVaultAuthority, WSOL_MINT, TOKEN_PROGRAM);
  const accounts: AccountMeta[] = [
    W(p.pool), WS(user), R(AMM_GLOBAL_CONFIG), R(ctx.mint), R(WSOL_MINT), W(userBase), W(userQuote), W(p.baseVault), W(p.quoteVault), R(protocolFeeRecipient),
    W(protocolQuote), R(ctx.tokenProgram), R(TOKEN_PROGRAM), R(SYSTEM_PROGRAM), R(ATA_PROGRAM), R(AMM_EVENT_AUTHORITY), R(PUMP_AMM), W(creatorVaultAta),
    R(creatorVaultAuthority), R(FEE_CONFIG), R(PUMP_FEES),
  ];
  const quoteOut = (reserves.quote * baseIn) / (reserves.base + baseIn);
  const lpFee = (quoteOut * AMM_LP_FEE_BPS + 9_999n) / 10_000n;
  const protocolFee = (quoteOut * AMM_PROTOCOL_FEE_BPS + 9_999n) / 10_000n;
  const creatorFee = (quoteOut * AMM_CREATOR_FEE_BPS + 9_999n) / 10_000n;
  const userOut = quoteOut - lpFee - protocolFee - creatorFee;
  const minOut = (userOut * 95n) / 100n;
  const data = encodeInstruction(AMM_IDL, 'sell', { base_amount_in: baseIn, min_quote_amount_out: minOut });
  const events: EmittedEvent[] = [];
  const before = { ...reserves };
  inv.invoke(PUMP_AMM, 1, () => {
    inv.log('Instruction: Sell');
    cpiTokenTransfer(inv, ctx.tokenProgram, userBase, ctx.mint, p.baseVault, user, baseIn, 2);
    cpiTokenTransfer(inv, TOKEN_PROGRAM, p.quoteVault, WSOL_MINT, userQuote, p.pool, userOut, 2);
    cpiTokenTransfer(inv, TOKEN_PROGRAM, p.quoteVault, WSOL_MINT, protocolQuote, p.pool, protocolFee, 2);
    cpiTokenTransfer(inv, TOKEN_PROGRAM, p.quoteVault, WSOL_MINT, creatorVaultAta, p.pool, creatorFee, 2);
    const fields: Record<string, Value> = {
      timestamp: BigInt(timestamp), base_amount_in: baseIn, min_quote_amount_out: minOut, user_base_token_reserves: baseIn, user_quote_token_reserves: 0n,
      pool_base_token_reserves: before.base, pool_quote_token_reserves: before.quote, quote_amount_out: quoteOut, lp_fee_basis_points: AMM_LP_FEE_BPS,
      lp_fee: lpFee, protocol_fee_basis_points: AMM_PROTOCOL_FEE_BPS, protocol_fee: protocolFee, quote_amount_out_without_lp_fee: quoteOut - lpFee,
      user_quote_amount_out: userOut, pool: p.pool, user, user_base_token_account: userBase, user_quote_token_account: userQuote,
      protocol_fee_recipient: protocolFeeRecipient, protocol_fee_recipient_token_account: protocolQuote, coin_creator: ctx.creator,
      coin_creator_fee_basis_points: AMM_CREATOR_FEE_BPS, coin_creator_fee: creatorFee, cashback_fee_basis_points: 0n, cashback: 0n,
      buyback_fee_basis_points: 0n, buyback_fee: 0n, virtual_quote_reserves: 0n, can_boost: false, base_supply: TOTAL_SUPPLY, holder_rewards_bps: 0n,
      holder_rewards: 0n,
    };
    emitEvent(inv, PUMP_AMM, AMM_EVENT_AUTHORITY, encodeEvent(AMM_IDL, 'SellEvent', fields), 1);
    events.push({ program: 'pump_amm', name: 'SellEvent', fields });
  }, 40000 + inv.rng.int(0, 20000));
  reserves.base += baseIn;
  reserves.quote -= quoteOut - lpFee;
  return {
    accounts, data, inner: inv.inner, logs: inv.logs, events,
    lamports: [[p.quoteVault, -(quoteOut - lpFee)], [user, userOut], [protocolFeeRecipient, protocolFee], [creatorVaultAuthority, creatorFee]],
    tokens: [
      { account: userBase, mint: ctx.mint, owner: user, programId: ctx.tokenProgram, delta: -baseIn },
      { account: p.baseVault, mint: ctx.mint, owner: p.pool, programId: ctx.tokenProgram, delta: baseIn },
    ],
    units: 0,
  };
}

/** Tokens sold off the curve so far (supply minus what the curve ATA still holds is computed by the caller). */
function INITIAL_SOLD(c: CurveState): bigint {
  // the curve ATA holds supply − (initial real tokens − real tokens left)
  return 793_100_000_000_000n - c.rT;
}

/** Legacy Raydium-era `withdraw` by the keeper (12 accounts, no args, no event). */
export function buildWithdraw(ctx: LaunchCtx, curve: CurveState, inv: Invocation): Built {
  const keeperAta = ata(KEEPER, ctx.mint, ctx.tokenProgram);
  const accounts: AccountMeta[] = [R(GLOBAL), W(LAST_WITHDRAW), R(ctx.mint), W(ctx.curve), W(ctx.abc), W(keeperAta), WS(KEEPER), R(SYSTEM_PROGRAM),
    R(ctx.tokenProgram), R(RENT_SYSVAR), R(EVENT_AUTHORITY), R(PUMP)];
  // legacy `withdraw` is not in the current IDL: its discriminator is sha256("global:withdraw")[:8]
  const disc = Uint8Array.from([0xb7, 0x12, 0x46, 0x9c, 0x94, 0x6d, 0xa1, 0x22]);
  const left = curve.supply - INITIAL_SOLD(curve);
  inv.invoke(PUMP, 1, () => {
    inv.log('Instruction: Withdraw');
    cpiTokenTransfer(inv, ctx.tokenProgram, ctx.abc, ctx.mint, keeperAta, ctx.curve, left, 2);
  }, 30000);
  return {
    accounts, data: disc, inner: inv.inner, logs: inv.logs, events: [],
    lamports: [[ctx.curve, -curve.rQ], [KEEPER, curve.rQ]],
    tokens: [
      { account: ctx.abc, mint: ctx.mint, owner: ctx.curve, programId: ctx.tokenProgram, delta: -left },
      { account: keeperAta, mint: ctx.mint, owner: KEEPER, programId: ctx.tokenProgram, delta: left, preExisting: true },
    ],
    units: 0,
  };
}

export { DEFAULT_KEY };
