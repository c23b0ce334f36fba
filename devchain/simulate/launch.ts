/**
 * Simulates one launch from its plan: wallets, funding transfers, the create transaction, bundled
 * buys, snipers, organic flow, creator sells, Mayhem-agent trades, router CPIs, failed attempts,
 * completion, and graduation (migrate / no-op retries / Raydium-era withdraw). In the 2026-10 era also
 * v3 trades keeping fees on the curve, completions with a synthetic pool part, multi_hop_swap curve
 * hops, migrate_v2, a pump-coin quote, sell_v2 pool sales, fee sweeps, creator sells at birth and a
 * bundled buy inside the creation transaction. Produces transaction specs (rendered later, in global
 * block order) and account snapshots. Pure given its seeded stream.
 */
import { AMM_IDL, encodeAccount, type Value } from './borsh-encode.ts';
import { buildCurveSweep, buildMigrateV2, buildPoolSellV2, buildPoolSweep, encodePool2610, multiHopSwapAccounts, multiHopSwapData, type PoolState } from './instructions-2610.ts';
import {
  applyTrade, type CurveState, curveAccountSize, encodeCurveAccount, ERA_2610, feesOf, INITIAL_REAL_TOKENS, isModern, newCurve, POOL_MIGRATION_FEE, quoteBuyQuoteIn,
  quoteBuyTokens, quoteSell, type Quote, rentExempt, TOTAL_SUPPLY,
} from './curve.ts';
import {
  buildCreate, buildCreateAta, buildMigrate, buildPoolSell, buildTrade, buildWithdraw, type Built, isV3, type LaunchCtx, poolAddrs, type PoolReserves, type PostComplete,
  type TradeIxName, type TradeReq,
} from './instructions.ts';
import {
  ata, bumpOf, metadataPda, KEEPER, BUYBACK_FEE_RECIPIENTS, curvePda, DEFAULT_KEY, fromBase58, JITO_TIP_ACCOUNT, JITO_TIP_ACCOUNTS, KeyFactory, MAYHEM_AGENT, MAYHEM_CRANK, MAYHEM_PROGRAM,
  PUMP, PUMP_AMM, PUMP_FEE_RECIPIENTS, ROUTER_PROGRAM, SYSTEM_PROGRAM, TOKEN_2022_PROGRAM, TOKEN_PROGRAM, USDC_MINT, WSOL_MINT,
} from './keys.ts';
import type { Rng } from './prng.ts';
import { completes, type LaunchPlan } from './scenarios.ts';
import {
  type AccountMeta, computeBudgetIxs, computeBudgetLogs, concat, type EmittedEvent, Invocation, systemTransferData, type TokenChange, type TopIx,
  type TxError, type TxSpec, u64,
} from './transactions.ts';

/** A version of an account at the end of a slot. */
export interface AccountSnapshot {
  address: string;
  slot: number;
  data: Uint8Array;
  lamports: bigint;
  owner: string;
}

/** The simulated launch. */
export interface LaunchResult {
  plan: LaunchPlan;
  ctx: LaunchCtx;
  creationSlot: number;
  specs: TxSpec[];
  accounts: AccountSnapshot[];
}

/** Timeline shared by all launches. */
export interface Timeline {
  genesisTime: number;
  firstSlot: number;
}

/** blockTime of a slot: floor(genesisTime + (slot − firstSlot) × 0.4). */
export function blockTimeOf(t: Timeline, slot: number): number {
  return t.genesisTime + Math.floor(((slot - t.firstSlot) * 2) / 5);
}

interface Wallet {
  address: string;
  budget: bigint;
  tokens: bigint;
  hasAta: boolean;
}

const SOL = 1_000_000_000n;
const ceilDiv = (a: bigint, b: bigint): bigint => (a + b - 1n) / b;
const USDC_UNIT = 1_000_000n;
const WORDS = ['moon', 'pepe', 'cat', 'doge', 'frog', 'based', 'giga', 'chad', 'wif', 'hat', 'bonk', 'sol', 'pump', 'meme', 'ape', 'rocket', 'king', 'baby', 'elon', 'trump', 'ai', 'agent', 'coin', 'inu'];

/** Assembles one transaction's top-level instructions, logs and effects. */
class TxBuilder {
  readonly tops: TopIx[] = [];
  readonly logs: string[] = [];
  readonly events: EmittedEvent[] = [];
  readonly lamports: [string, bigint][] = [];
  readonly tokens: TokenChange[] = [];
  err: TxError | null = null;
  remaining: number;
  private readonly limit: number;

  constructor(
    private readonly rng: Rng,
    computeBudget: boolean,
  ) {
    this.limit = computeBudget ? rng.pick([200_000, 300_000, 400_000]) : 200_000;
    this.remaining = this.limit;
    if (computeBudget) {
      this.tops.push(...computeBudgetIxs(this.limit, BigInt(rng.int(1000, 2_000_000))));
      this.logs.push(...computeBudgetLogs(2));
      this.remaining -= 300;
    }
  }
  inv(): Invocation {
    return new Invocation(this.rng, this.remaining);
  }
  add(programId: string, b: Built, inv: Invocation, accounts: AccountMeta[] = b.accounts, data: Uint8Array = b.data): void {
    this.tops.push({ programId, accounts, data, inner: inv.inner });
    this.logs.push(...inv.logs);
    this.events.push(...b.events);
    this.lamports.push(...b.lamports);
    this.tokens.push(...b.tokens);
    this.remaining = inv.remaining;
  }
  transfer(from: string, to: string, lamports: bigint): void {
    this.tops.push({ programId: SYSTEM_PROGRAM, accounts: [{ address: from, signer: true, writable: true }, { address: to, writable: true }], data: systemTransferData(lamports), inner: [] });
    this.logs.push(`Program ${SYSTEM_PROGRAM} invoke [1]`, `Program ${SYSTEM_PROGRAM} success`);
    this.lamports.push([from, -lamports], [to, lamports]);
    this.remaining -= 150;
  }
  fail(code: number): void {
    this.err = { InstructionError: [this.tops.length - 1, { Custom: code }] };
  }
  finish(keys: KeyFactory, slot: number, feePayer: string, tag: TxSpec['tag'], mint: string, extra: Partial<TxSpec> = {}): TxSpec {
    return {
      signature: keys.signature(), slot, feePayer, recentBlockhash: keys.blockhash(), instructions: this.tops, logs: this.logs,
      err: this.err, lamports: this.lamports, tokens: this.tokens, computeUnits: this.limit - this.remaining,
      events: this.err ? [] : this.events, mint, tag, ...extra,
    };
  }
}

/** What a launch may borrow from earlier launches. */
export interface LaunchEnv {
  /** 2026-10: the pump coin a pump-coin-quoted launch is quoted in (an earlier simulated SOL coin, depth 0) */
  quoteCoin?: { mint: string; curve: string };
}

/**
 * The starting virtual quote reserves of a pump-coin-quoted curve, in the quote coin's raw units
 * (⚠ a stand-in: about 30 SOL priced on a fresh quote curve; the program derives it from Q's live
 * reserves, docs/instructions/CREATE_WITH_PUMP_COIN_QUOTE.md).
 */
export const PUMP_QUOTE_INITIAL_VQ = 1_073_000_000_000_000n;

/** Simulate one launch created at `creationSlot`. `walletInit` receives the initial lamports of every wallet made here. */
export function simulateLaunch(plan: LaunchPlan, creationSlot: number, rng: Rng, timeline: Timeline, walletInit: Map<string, bigint>, env: LaunchEnv = {}): LaunchResult {
  const keys = new KeyFactory(rng);
  const era = plan.era;
  const usdc = plan.usdc;
  const pumpQuote = plan.pumpQuote && env.quoteCoin ? env.quoteCoin : undefined;
  const solQuote = !usdc && !pumpQuote;
  const mint = era === 2024 && rng.chance(0.3) ? keys.address() : keys.pumpMint();
  const tokenProgram = isModern(era) ? TOKEN_2022_PROGRAM : TOKEN_PROGRAM;
  const curveAddr = curvePda(mint);
  const w1 = rng.pick(WORDS);
  const w2 = rng.pick(WORDS);
  const name = `${w1[0].toUpperCase()}${w1.slice(1)} ${w2[0].toUpperCase()}${w2.slice(1)}`;
  const wallets = new Map<string, Wallet>();
  const newWallet = (budgetSol: number, funded = false): Wallet => {
    const w: Wallet = { address: keys.address(), budget: BigInt(Math.round(budgetSol * 1e9)), tokens: 0n, hasAta: false };
    wallets.set(w.address, w);
    walletInit.set(w.address, funded ? 0n : w.budget + SOL / 2n + BigInt(rng.int(0, 1e8)));
    return w;
  };
  const creatorWallet = newWallet(plan.creatorTakes ? 130 : plan.primary === 'creator_majority' ? 80 : rng.int(2, 30));
  const ctx: LaunchCtx = {
    era, mint, curve: curveAddr, abc: ata(curveAddr, mint, tokenProgram), tokenProgram, quoteMint: usdc ? USDC_MINT : pumpQuote ? pumpQuote.mint : DEFAULT_KEY, usdc,
    mayhem: plan.mayhem, creator: creatorWallet.address, name, symbol: (w1 + w2).slice(0, 6).toUpperCase(),
    uri: isModern(era) ? `https://ipfs.io/ipfs/${keys.address()}` : `https://cf-ipfs.com/ipfs/Qm${keys.address()}`,
    ...(pumpQuote ? { pumpQuote } : {}),
  };
  const curve: CurveState = newCurve(usdc);
  if (era === ERA_2610) {
    if (pumpQuote) curve.vQ = PUMP_QUOTE_INITIAL_VQ;
    Object.assign(curve, { protocolFees: 0n, creatorFeeKept: 0n, postBaseOut: 0n, postQuoteIn: 0n, depth: pumpQuote ? 1 : 0, initialVQ: curve.vQ });
  }
  const quoteUnit = usdc ? USDC_UNIT : pumpQuote ? PUMP_QUOTE_INITIAL_VQ / 30n : SOL;
  let migrated = false;
  for (const a of [mint, curveAddr, ctx.abc]) walletInit.set(a, 0n);
  if (!isModern(era)) walletInit.set(metadataPda(mint), 0n);
  const meta = { era, creator: ctx.creator, mayhem: plan.mayhem, quoteMint: ctx.quoteMint, creatorFeeBps: feesOf(era).creatorFeeBps };
  const specs: TxSpec[] = [];
  const accounts: AccountSnapshot[] = [];
  const bt = (slot: number) => blockTimeOf(timeline, slot);
  const snapshotCurve = (slot: number) => {
    const data = encodeCurveAccount(curve, meta);
    const last = accounts.filter((a) => a.address === curveAddr).at(-1);
    const kept = solQuote && era === ERA_2610 ? (curve.protocolFees ?? 0n) + (curve.creatorFeeKept ?? 0n) + (migrated ? 0n : (curve.postQuoteIn ?? 0n)) : 0n;
    const lamports = rentExempt(curveAccountSize(era)) + (usdc || pumpQuote ? 0n : curve.rQ) + kept;
    if (last && last.slot === slot) {
      last.data = data;
      last.lamports = lamports;
    } else if (!last || Buffer.compare(Buffer.from(last.data), Buffer.from(data)) !== 0) accounts.push({ address: curveAddr, slot, data, lamports, owner: PUMP });
  };
  const feeRecipient = () => (era === 2024 ? 'CebN5WGQ4jvEPvsVU4EoHEpgzq1VV7AbicfhtW4xC9iM' : rng.pick(PUMP_FEE_RECIPIENTS));

  // ---- one trade in a tx ------------------------------------------------------------------------------------------
  interface TradeOpts {
    spend?: bigint;
    tokens?: bigint;
    failCode?: number;
    router?: boolean;
    mayhemAgent?: boolean;
    /** 2026-10: route the buy through PumpSwap multi_hop_swap */
    multiHop?: boolean;
    /** 2026-10: a completing buy: with a synthetic pool part (buy_v3) or an old-style `buy` that empties the curve */
    completing?: 'pool_part' | 'legacy';
  }
  const trade = (tx: TxBuilder, w: Wallet, isBuy: boolean, slot: number, o: TradeOpts): Quote | null => {
    const unit = quoteUnit;
    let ix: TradeIxName = era === ERA_2610
      ? tradeIx2610(isBuy, o)
      : usdc ? (isBuy ? 'buy_v2' : 'sell_v2') : isBuy ? (era === 2026 && o.tokens === undefined && rng.chance(0.5) ? 'buy_exact_sol_in' : 'buy') : 'sell';
    let q: Quote;
    let requested = 0n;
    if (o.failCode === 6005) {
      // an attempt on a completed curve: priced off the stale virtual reserves, rejected by the program
      const spend = o.spend ?? unit / 2n;
      requested = (curve.vT * spend) / (curve.vQ + spend);
      q = { tokens: requested, quote: spend, fee: 0n, creatorFee: 0n, completes: false };
    } else if (isBuy) {
      if (o.tokens !== undefined) {
        requested = o.tokens;
        q = quoteBuyTokens(curve, o.tokens, era);
      } else {
        let spend = o.spend ?? unit / 2n;
        if (solQuote && !o.mayhemAgent) {
          const cap = w.budget - SOL / 20n;
          if (spend > cap) spend = cap;
        }
        if (spend < unit / 1000n) return null;
        if (ix === 'buy_exact_sol_in' || ix === 'buy_exact_quote_in_v3') {
          q = quoteBuyQuoteIn(curve, spend, era);
          requested = spend;
        } else {
          const { feeBps, creatorFeeBps } = feesOf(era);
          const net = (spend * 10_000n) / (10_000n + feeBps + creatorFeeBps);
          requested = (curve.vT * net) / (curve.vQ + net);
          q = quoteBuyTokens(curve, requested, era);
        }
      }
      if (q.tokens <= 0n) return null;
    } else {
      const amount = o.tokens ?? w.tokens;
      if (amount <= 0n || amount > w.tokens) return null;
      q = quoteSell(curve, amount, era);
      requested = amount;
      if (q.quote <= q.fee + q.creatorFee) return null;
      if (era !== ERA_2610) ix = usdc ? 'sell_v2' : 'sell';
    }
    // 2026-10: the pool part of a completing v3 buy, priced fee-free on the future pool's reserves
    let postComplete: PostComplete | undefined;
    if (isBuy && !o.failCode && ix === 'buy_v3' && o.completing === 'pool_part' && q.completes) {
      const rQ = curve.rQ + q.quote;
      const before = { base: TOTAL_SUPPLY - INITIAL_REAL_TOKENS, quote: rQ - POOL_MIGRATION_FEE };
      const baseOut = (o.tokens ?? 0n) - q.tokens;
      if (baseOut > 0n && baseOut < before.base / 2n) {
        const quoteIn = ceilDiv(before.quote * baseOut, before.base - baseOut);
        const { feeBps, creatorFeeBps } = feesOf(era);
        postComplete = {
          baseOut, quoteIn, fee: ceilDiv(quoteIn * feeBps, 10_000n), creatorFee: ceilDiv(quoteIn * creatorFeeBps, 10_000n), before,
          after: { base: before.base - baseOut, quote: before.quote + quoteIn },
        };
      }
    }
    const pcTotal = postComplete ? postComplete.quoteIn + postComplete.fee + postComplete.creatorFee : 0n;
    const total = q.quote + q.fee + q.creatorFee + pcTotal;
    const fail = o.failCode;
    let args: Record<string, Value>;
    if (ix === 'buy_exact_sol_in') args = { spendable_sol_in: requested, min_tokens_out: fail ? q.tokens + q.tokens / 10n : (q.tokens * 95n) / 100n, track_volume: [true] };
    else if (ix === 'buy_exact_quote_in_v3') args = { spendable_quote_in: requested, min_tokens_out: fail ? q.tokens + q.tokens / 10n : (q.tokens * 95n) / 100n, partial_fill: [false] };
    else if (ix === 'buy_v3') args = { amount: requested, max_sol_cost: fail ? total - total / 20n : total + total / 10n, partial_fill: [false] };
    else if (isBuy) args = { amount: requested, max_sol_cost: fail ? total - total / 20n : total + total / 10n, track_volume: [true] };
    else args = { amount: requested, min_sol_output: fail ? q.quote + q.quote / 10n : ((q.quote - q.fee - q.creatorFee) * 9n) / 10n };
    const after = { ...curve };
    if (!fail) applyTrade(after, q, isBuy);
    const keeps = era === ERA_2610 && (isV3(ix) || !!o.multiHop);
    if (keeps && !fail) {
      after.protocolFees = (after.protocolFees ?? 0n) + q.fee + (postComplete?.fee ?? 0n);
      after.creatorFeeKept = (after.creatorFeeKept ?? 0n) + q.creatorFee + (postComplete?.creatorFee ?? 0n);
      if (postComplete) {
        after.postBaseOut = postComplete.baseOut;
        after.postQuoteIn = postComplete.quoteIn;
      }
    }
    const user = o.mayhemAgent ? MAYHEM_AGENT : w.address;
    const req: TradeReq = {
      ix, user, isBuy, q, args, feeRecipient: keeps ? DEFAULT_KEY : feeRecipient(), buyback: rng.pick(BUYBACK_FEE_RECIPIENTS), timestamp: bt(slot), after,
      failCode: fail, newAta: isBuy && !w.hasAta,
      ...(era === ERA_2610 ? { creatorFeeUnclaimed: after.creatorFeeKept ?? 0n, postComplete, multiHop: !!o.multiHop } : {}),
    };
    if (isBuy && !w.hasAta && !o.mayhemAgent) {
      walletInit.set(ata(w.address, ctx.mint, tokenProgram), 0n);
      const inv = tx.inv();
      tx.add('ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL', buildCreateAta(w.address, w.address, ctx.mint, tokenProgram, inv), inv);
    }
    const inv = tx.inv();
    if (o.router || o.mayhemAgent) {
      const program = o.mayhemAgent ? MAYHEM_PROGRAM : ROUTER_PROGRAM;
      const payer = o.mayhemAgent ? MAYHEM_CRANK : w.address;
      let built: Built | undefined;
      inv.invoke(program, 1, () => {
        inv.log(o.mayhemAgent ? 'Instruction: AgentTrade' : 'Instruction: Swap');
        built = buildTrade(ctx, req, inv, 2);
      }, 15000 + rng.int(0, 10000), fail ? { fail } : {});
      const b = built!;
      const metas: AccountMeta[] = [
        { address: payer, signer: true, writable: true },
        ...b.accounts.map((m) => (m.address === MAYHEM_AGENT ? { address: m.address, writable: true } : m)),
        { address: PUMP },
      ];
      const data = concat(rng.bytes(8), u64(requested));
      tx.add(program, b, inv, metas, data);
    } else if (o.multiHop) {
      // PumpSwap multi_hop_swap (top level) → pump multi_hop_curve_swap (CPI, depth 2): one curve hop SOL → coin
      let built: Built | undefined;
      inv.invoke(PUMP_AMM, 1, () => {
        inv.log('Instruction: MultiHopSwap');
        built = buildTrade(ctx, req, inv, 2);
      }, 20000 + rng.int(0, 10000), fail ? { fail } : {});
      const b = built!;
      tx.add(PUMP_AMM, b, inv, multiHopSwapAccounts(ctx, w.address, req.buyback), multiHopSwapData(total, (q.tokens * 95n) / 100n));
    } else {
      const b = buildTrade(ctx, req, inv, 1);
      tx.add(PUMP, b, inv);
    }
    if (fail) {
      tx.fail(fail);
      return null;
    }
    curve.vT = after.vT;
    curve.vQ = after.vQ;
    curve.rT = after.rT;
    curve.rQ = after.rQ;
    curve.complete = after.complete;
    if (era === ERA_2610) {
      curve.protocolFees = after.protocolFees;
      curve.creatorFeeKept = after.creatorFeeKept;
      curve.postBaseOut = after.postBaseOut;
      curve.postQuoteIn = after.postQuoteIn;
    }
    if (!o.mayhemAgent) {
      w.hasAta = true;
      w.tokens += isBuy ? q.tokens + (postComplete?.baseOut ?? 0n) : -q.tokens;
      if (solQuote) w.budget += isBuy ? -(total + 2_100_000n) : q.quote - q.fee - q.creatorFee;
    }
    return q;
  };
  /** 2026-10 instruction choice: v3 mostly, old-style buy/sell sometimes (they still pay fees out per trade); only v3 for a pump-coin quote. */
  function tradeIx2610(isBuy: boolean, o: TradeOpts): TradeIxName {
    if (o.completing === 'legacy') return 'buy';
    if (o.completing === 'pool_part' || o.multiHop) return 'buy_v3';
    const legacy = !ctx.pumpQuote && rng.chance(0.2);
    if (!isBuy) return legacy ? 'sell' : 'sell_v3';
    if (legacy) return 'buy';
    return o.tokens === undefined && rng.chance(0.55) ? 'buy_exact_quote_in_v3' : 'buy_v3';
  }

  // ---- funding transfers before the launch -------------------------------------------------------------------------
  const bundlers: Wallet[] = [];
  for (let i = 0; i < plan.bundled; i++) bundlers.push(newWallet(plan.primary === 'taken_in_creation_slot' && i === plan.bundled - 1 ? 130 : rng.int(3, 25)));
  const snipers: Wallet[] = [];
  for (let i = 0; i < plan.snipers; i++) snipers.push(newWallet(rng.int(2, 20)));
  const early = [creatorWallet, ...bundlers, ...snipers];
  const fund = (funder: Wallet, targets: Wallet[]) => {
    let total = 0n;
    for (const t of targets) {
      walletInit.set(t.address, 0n);
      const amount = t.budget + SOL / 2n;
      total += amount;
      const slot = creationSlot - rng.int(30, 3000);
      const tx = new TxBuilder(rng, false);
      tx.transfer(funder.address, t.address, amount);
      specs.push(tx.finish(keys, slot, funder.address, 'funding', mint, { funding: { from: funder.address, to: t.address, lamports: amount } }));
    }
    walletInit.set(funder.address, total + SOL);
  };
  if (plan.sharedFunder) {
    const pool = early.filter((w) => w !== creatorWallet || rng.chance(0.6));
    const targets = pool.length >= 2 ? pool : early;
    fund(newWallet(0, true), targets.slice(0, Math.max(2, targets.length)));
  } else if (plan.distinctFunders) {
    for (const w of early) fund(newWallet(0, true), [w]);
  }
  specs.sort((a, b) => a.slot - b.slot);

  // ---- the create transaction ---------------------------------------------------------------------------------------
  let completion: { slot: number; wallet: Wallet } | null = null;
  {
    const tx = new TxBuilder(rng, true);
    const inv = tx.inv();
    tx.add(PUMP, buildCreate(ctx, bt(creationSlot), { ...curve }, inv), inv);
    if (plan.creatorBuy) {
      const unit = quoteUnit;
      if (plan.creatorTakes) {
        // 2026-10: the creator buys the whole curve and a synthetic pool part in its own creation transaction
        const q = trade(tx, creatorWallet, true, creationSlot, { tokens: curve.rT + BigInt(rng.int(5, 50)) * 1_000_000_000_000n, completing: 'pool_part' });
        if (q?.completes) completion = { slot: creationSlot, wallet: creatorWallet };
      } else if (plan.primary === 'creator_majority') trade(tx, creatorWallet, true, creationSlot, { tokens: BigInt(rng.int(505, 720)) * 1_000_000_000_000n });
      else trade(tx, creatorWallet, true, creationSlot, { spend: (unit * BigInt(Math.round(Math.min(8, rng.logNormal(0.8, 0.9)) * 1000))) / 1000n });
    }
    let jitoTip = false;
    if (plan.bundleInCreate && bundlers.length > 0) {
      // 2026-10: an outside wallet buys inside the creation transaction itself (it co-signs); the creator tips Jito
      trade(tx, bundlers[0]!, true, creationSlot, { spend: (quoteUnit * BigInt(rng.int(300, 4000))) / 1000n });
      if (plan.jito) {
        tx.transfer(ctx.creator, rng.pick(JITO_TIP_ACCOUNTS), BigInt(rng.int(10_000, 5_000_000)));
        jitoTip = true;
      }
    }
    specs.push(tx.finish(keys, creationSlot, ctx.creator, 'create', mint, jitoTip ? { jitoTip } : {}));
    snapshotCurve(creationSlot);
  }

  // ---- scheduled trades -------------------------------------------------------------------------------------------
  interface Intent {
    slot: number;
    run: (slot: number) => void;
    afterComplete?: boolean;
  }
  const intents: Intent[] = [];
  const unit = quoteUnit;
  const sizeOf = (median: number, sigma: number, max: number) => (unit * BigInt(Math.round(Math.min(max, Math.max(0.005, rng.logNormal(median, sigma))) * 1000))) / 1000n;
  const tradeTx = (w: Wallet, isBuy: boolean, slot: number, o: TradeOpts & { jito?: boolean; mustSucceed?: boolean } = {}) => {
    const tx = new TxBuilder(rng, rng.chance(0.9));
    const failCode = o.failCode ?? (o.mustSucceed ? undefined : rng.chance(plan.failShare) ? (isBuy ? 6002 : 6003) : undefined);
    const router = o.router ?? rng.chance(plan.routerShare);
    const multiHop = era === ERA_2610 && isBuy && solQuote && !router && o.failCode === undefined && rng.chance(plan.multiHopShare);
    const q = trade(tx, w, isBuy, slot, { ...o, failCode, router, multiHop });
    if (!q && !tx.err) return;
    if (o.jito && !tx.err) tx.transfer(o.mayhemAgent ? MAYHEM_CRANK : w.address, era === ERA_2610 ? rng.pick(JITO_TIP_ACCOUNTS) : JITO_TIP_ACCOUNT, BigInt(rng.int(10_000, 5_000_000)));
    specs.push(tx.finish(keys, slot, o.mayhemAgent ? MAYHEM_CRANK : w.address, 'trade', mint, { viaRouter: router, jitoTip: !!o.jito }));
    if (q?.completes) completion = { slot, wallet: w };
  };
  const takeTx = (w: Wallet, slot: number, multi: boolean) => {
    const tx = new TxBuilder(rng, true);
    if (multi) trade(tx, w, true, slot, { tokens: curve.rT / 2n });
    const q = era === ERA_2610
      ? plan.poolPart
        // a launch whose buys go through multi_hop_swap is completed by a curve hop too (its TradeEvent is followed by the same two events)
        ? trade(tx, w, true, slot, { tokens: curve.rT + BigInt(rng.int(5, 50)) * 1_000_000_000_000n, completing: 'pool_part', multiHop: plan.multiHopShare > 0 && solQuote })
        : trade(tx, w, true, slot, { tokens: curve.rT + 1_000_000_000_000n, completing: 'legacy' })
      : trade(tx, w, true, slot, { tokens: curve.rT + 1_000_000_000_000n });
    specs.push(tx.finish(keys, slot, w.address, 'trade', mint));
    if (q?.completes) completion = { slot, wallet: w };
  };

  // bundled buys in the creation slot (the last bundler takes the curve in taken_in_creation_slot)
  bundlers.forEach((w, i) => {
    const take = plan.primary === 'taken_in_creation_slot' && i === bundlers.length - 1;
    if (plan.bundleInCreate && i === 0 && !take) return; // bought inside the creation transaction
    intents.push({
      slot: creationSlot,
      run: (s) => (take ? takeTx(w, s, plan.multiBuyCompletion) : tradeTx(w, true, s, { spend: sizeOf(1, 0.8, 10), jito: plan.jito && (i === 0 || rng.chance(0.6)), failCode: i === 0 ? undefined : (undefined as number | undefined) })),
    });
  });
  for (const w of snipers) intents.push({ slot: creationSlot + rng.int(1, 70), run: (s) => tradeTx(w, true, s, { spend: sizeOf(0.8, 0.8, 8) }) });

  // organic flow
  const traders: Wallet[] = [...bundlers, ...snipers];
  const organicTrade = (s: number, buyBias: number, median: number) => {
    const holders = traders.filter((w) => w.tokens > 0n);
    if (holders.length > 0 && !rng.chance(buyBias)) {
      const w = rng.pick(holders);
      tradeTx(w, false, s, { tokens: rng.chance(0.5) ? w.tokens : (w.tokens * BigInt(rng.int(20, 90))) / 100n });
    } else {
      const w = traders.length > 0 && rng.chance(0.3) ? rng.pick(traders) : newWallet(rng.int(2, 40));
      if (!traders.includes(w)) traders.push(w);
      tradeTx(w, true, s, { spend: sizeOf(median, 1, 15) });
    }
  };
  const later = (minSec: number, medianSec: number, maxSec: number) =>
    creationSlot + Math.round(Math.min(maxSec, Math.max(minSec, minSec + rng.logNormal(medianSec, 1.6))) * 2.5);
  let count = 0;
  switch (plan.primary) {
    case 'dead':
      count = rng.int(1, 10);
      break;
    case 'organic':
    case 'creator_majority':
      count = Math.min(400, Math.max(3, Math.round(rng.logNormal(28, 1.1))));
      break;
    case 'taken_later':
      count = rng.int(5, 40);
      break;
    default:
      count = 0;
  }
  for (let i = 0; i < count; i++) intents.push({ slot: later(31, 1800, 5 * 86400), run: (s) => organicTrade(s, i === 0 ? 1 : 0.65, 0.4) });
  if (plan.primary === 'organic_completion') {
    // a steady stream of buys until the curve completes
    let t = 35;
    for (let i = 0; i < 600; i++) {
      t += rng.exp(90);
      const last = i === 599;
      intents.push({ slot: creationSlot + Math.round(t * 2.5), run: (s) => (last ? takeTx(newWallet(130), s, false) : organicTrade(s, 0.85, 1.3)) });
    }
  }
  if (plan.primary === 'taken_later') {
    const whale = newWallet(130);
    intents.push({ slot: creationSlot + Math.round(rng.int(1800, 48 * 3600) * 2.5), run: (s) => takeTx(whale, s, plan.multiBuyCompletion) });
  }
  if (plan.creatorSells) {
    const sellSlot = completes(plan.primary) ? creationSlot + rng.int(80, 200) : later(40, 3600, 3 * 86400);
    intents.push({ slot: sellSlot, run: (s) => tradeTx(creatorWallet, false, s, { tokens: (creatorWallet.tokens * BigInt(rng.int(30, 100))) / 100n, failCode: undefined }) });
  }
  if (plan.creatorSellsAtBirth) {
    // 2026-10 scenario: the creator sells part of its creation buy within the first 30 s (creator_sold_at_birth)
    intents.push({ slot: creationSlot + rng.int(1, 60), run: (s) => tradeTx(creatorWallet, false, s, { tokens: (creatorWallet.tokens * BigInt(rng.int(30, 100))) / 100n, mustSucceed: true }) });
  }
  if (plan.mayhem) {
    const agent: Wallet = { address: MAYHEM_AGENT, budget: 10_000n * SOL, tokens: 0n, hasAta: true };
    const n = rng.int(2, 6);
    for (let i = 0; i < n; i++) {
      intents.push({
        slot: creationSlot + (i === 0 ? rng.int(0, 3) === 0 ? 0 : rng.int(1, 60) : Math.round(rng.int(60, 86400) * 2.5)),
        run: (s) => {
          const sell = agent.tokens > 0n && rng.chance(0.4);
          const tx = new TxBuilder(rng, true);
          const q = trade(tx, agent, !sell, s, sell ? { tokens: agent.tokens / 2n, mayhemAgent: true } : { spend: sizeOf(0.8, 0.5, 3), mayhemAgent: true });
          if (q) {
            agent.tokens += sell ? -q.tokens : q.tokens;
            specs.push(tx.finish(keys, s, MAYHEM_CRANK, 'trade', mint));
          }
        },
      });
    }
  }
  // attempts after completion that fail with BondingCurveComplete (6005)
  if (completes(plan.primary) && rng.chance(0.6)) {
    for (let i = 0; i < rng.int(1, 2); i++) intents.push({ slot: 0, afterComplete: true, run: (s) => tradeTx(newWallet(5), true, s, { spend: sizeOf(0.5, 0.5, 2), failCode: 6005 }) });
  }

  intents.sort((a, b) => a.slot - b.slot);
  let lastSlot = creationSlot;
  for (const it of intents) {
    if (it.afterComplete) continue;
    if (completion) break;
    if (curve.complete) break;
    it.run(it.slot);
    snapshotCurve(it.slot);
    lastSlot = it.slot;
  }
  if (curve.complete && !completion) throw new Error('curve completed without a completion record');
  const done = completion as { slot: number; wallet: Wallet } | null;

  // ---- after completion: failed attempts, graduation ---------------------------------------------------------------
  if (done) {
    let s = done.slot;
    for (const it of intents.filter((x) => x.afterComplete)) {
      s += rng.int(1, 5);
      it.run(s);
    }
    if (plan.graduation === 'migrate') {
      const ms = done.slot + rng.int(2, 40);
      const p0 = poolAddrs(ctx);
      const tx = new TxBuilder(rng, true);
      const inv = tx.inv();
      const built = era === ERA_2610 ? buildMigrateV2(ctx, curve, bt(ms), inv, false) : buildMigrate(ctx, curve, bt(ms), inv, false);
      tx.add(PUMP, built, inv);
      specs.push(tx.finish(keys, ms, KEEPER, 'migrate', mint));
      for (const a of [p0.pool, p0.lpMint, p0.baseVault, p0.quoteVault]) walletInit.set(a, 0n);
      const p = poolAddrs(ctx);
      const lastQuote = curve.rQ;
      curve.vT = 0n;
      curve.vQ = 0n;
      curve.rT = 0n;
      curve.rQ = 0n;
      migrated = true;
      snapshotCurve(ms);
      const pool: PoolState = { base: built.baseAmount, quote: built.quoteAmount, vqr: 0n, protocolFees: 0n, creatorFees: 0n, lpSupply: built.lpSupply };
      if (era === ERA_2610) accounts.push({ address: p.pool, slot: ms, owner: PUMP_AMM, lamports: rentExempt(301), data: encodePool2610(ctx, pool) });
      else accounts.push({
        address: p.pool, slot: ms, owner: PUMP_AMM, lamports: rentExempt(300),
        data: encodeAccount(AMM_IDL, 'Pool', {
          pool_bump: bumpOf(p.pool), index: 0, creator: p.poolAuthority, base_mint: ctx.mint, quote_mint: WSOL_MINT, lp_mint: p.lpMint,
          pool_base_token_account: p.baseVault, pool_quote_token_account: p.quoteVault, lp_supply: built.lpSupply, coin_creator: ctx.creator,
          is_mayhem_mode: ctx.mayhem, is_cashback_coin: false, virtual_quote_reserves: 0n, creator_fee_bps: 0n, can_edit_creator_fee: false, is_holder_reward: false,
        }, 16, 300),
      });
      accounts.push({ address: p.baseVault, slot: ms, owner: tokenProgram, lamports: rentExempt(tokenProgram === TOKEN_2022_PROGRAM ? 170 : 165), data: tokenAccountData(ctx.mint, p.pool, built.baseAmount, null, tokenProgram === TOKEN_2022_PROGRAM) });
      accounts.push({ address: p.quoteVault, slot: ms, owner: TOKEN_PROGRAM, lamports: rentExempt(165) + built.quoteAmount, data: tokenAccountData(WSOL_MINT, p.pool, built.quoteAmount, rentExempt(165), false) });
      void lastQuote;
      let rs = ms;
      for (let i = 0; i < plan.noopRetries; i++) {
        rs += rng.int(1, 50);
        const rtx = new TxBuilder(rng, true);
        const rinv = rtx.inv();
        rtx.add(PUMP, era === ERA_2610 ? buildMigrateV2(ctx, curve, bt(rs), rinv, true) : buildMigrate(ctx, curve, bt(rs), rinv, true), rinv);
        const spec = rtx.finish(keys, rs, KEEPER, 'noop_migrate', mint);
        specs.push(spec);
      }
      if (era === ERA_2610) sellAfterwards2610(done.wallet, ms, pool);
      else if (!usdc) sellAfterwards(done.wallet, ms, { base: built.baseAmount, quote: built.quoteAmount });
    } else if (plan.graduation === 'withdraw') {
      const ws = done.slot + rng.int(20, 400);
      const tx = new TxBuilder(rng, true);
      const inv = tx.inv();
      tx.add(PUMP, buildWithdraw(ctx, curve, inv), inv);
      specs.push(tx.finish(keys, ws, KEEPER, 'withdraw', mint, { withdrawMint: ctx.mint }));
      curve.vT = 0n;
      curve.vQ = 0n;
      curve.rT = 0n;
      curve.rQ = 0n;
      snapshotCurve(ws);
    }
  }
  void lastSlot;
  if (plan.curveSweep && ((curve.protocolFees ?? 0n) > 0n || (curve.creatorFeeKept ?? 0n) > 0n)) {
    // 2026-10: someone sweeps the fees the curve kept (creator fee first, as the docs require before any claim)
    const ss = Math.max(...specs.filter((x) => x.tag !== 'pool_sell' && x.tag !== 'pool_sweep').map((x) => x.slot)) + rng.int(50, 20_000);
    const payer = newWallet(1);
    const tx = new TxBuilder(rng, true);
    for (const bucket of [1, 0] as const) {
      const inv = tx.inv();
      const b = buildCurveSweep(ctx, curve, payer.address, bucket, rng.pick(PUMP_FEE_RECIPIENTS), bt(ss), inv);
      if (b) tx.add(PUMP, b, inv);
    }
    specs.push(tx.finish(keys, ss, payer.address, 'sweep', mint));
    snapshotCurve(ss);
  }
  fundEveryWallet(rng.fork('own-funding'), specs, wallets, walletInit, mint);
  return { plan, ctx, creationSlot, specs, accounts };

  /**
   * 2026-10: what the wallet that took the curve does in the pool after migrate_v2 at `ms` (as
   * {@link sellAfterwards}, with PumpSwap sell_v2, which keeps the protocol and creator fees in the
   * quote vault and drives virtual_quote_reserves negative), then maybe a sweep of those fees. The pool
   * account and both vaults are snapshotted after every change.
   */
  function sellAfterwards2610(w: Wallet, ms: number, pool: PoolState): void {
    const arng = rng.fork('afterwards');
    const akeys = new KeyFactory(arng);
    const roll = arng.int(0, 9);
    const amounts: bigint[] = [];
    if (roll < 4) {
      if (arng.chance(0.5)) amounts.push((w.tokens * BigInt(arng.int(30, 70))) / 100n);
      amounts.push(w.tokens - amounts.reduce((a, b) => a + b, 0n));
    } else amounts.push((w.tokens * BigInt(arng.int(20, 80))) / 100n);
    const p = poolAddrs(ctx);
    const t22 = tokenProgram === TOKEN_2022_PROGRAM;
    const snap = (slot: number) => {
      accounts.push({ address: p.pool, slot, owner: PUMP_AMM, lamports: rentExempt(301), data: encodePool2610(ctx, pool) });
      accounts.push({ address: p.baseVault, slot, owner: tokenProgram, lamports: rentExempt(t22 ? 170 : 165), data: tokenAccountData(ctx.mint, p.pool, pool.base, null, t22) });
      accounts.push({ address: p.quoteVault, slot, owner: TOKEN_PROGRAM, lamports: rentExempt(165) + pool.quote, data: tokenAccountData(WSOL_MINT, p.pool, pool.quote, rentExempt(165), false) });
    };
    let s = ms;
    for (const amount of amounts) {
      if (amount <= 0n) continue;
      s += arng.int(3, 20_000);
      const tx = new TxBuilder(arng, true);
      const inv = tx.inv();
      tx.add(PUMP_AMM, buildPoolSellV2(ctx, pool, w.address, amount, bt(s), arng.pick(BUYBACK_FEE_RECIPIENTS), inv), inv);
      specs.push(tx.finish(akeys, s, w.address, 'pool_sell', mint));
      w.tokens -= amount;
      snap(s);
    }
    if (plan.poolSweep && pool.protocolFees + pool.creatorFees > 0n) {
      s += arng.int(100, 20_000);
      const payer = akeys.address();
      walletInit.set(payer, SOL);
      const tx = new TxBuilder(arng, true);
      for (const bucket of [1, 0] as const) {
        const inv = tx.inv();
        const b = buildPoolSweep(ctx, pool, payer, bucket, arng.pick(PUMP_FEE_RECIPIENTS), bt(s), inv);
        if (b) tx.add(PUMP_AMM, b, inv);
      }
      specs.push(tx.finish(akeys, s, payer, 'pool_sweep', mint));
      snap(s);
    }
  }

  /**
   * What the wallet that took the curve does in the PumpSwap pool after the migration at `ms`: sells
   * everything (in one or two transactions), sells part, or holds. Drawn from a forked stream, so the
   * rest of the launch is the same as without it; the vaults' snapshots follow each sale.
   */
  function sellAfterwards(w: Wallet, ms: number, reserves: PoolReserves): void {
    const arng = rng.fork('afterwards');
    const akeys = new KeyFactory(arng);
    const roll = arng.int(0, 9);
    const amounts: bigint[] = [];
    if (roll < 4) {
      if (arng.chance(0.5)) amounts.push((w.tokens * BigInt(arng.int(30, 70))) / 100n);
      amounts.push(w.tokens - amounts.reduce((a, b) => a + b, 0n));
    } else if (roll < 7) amounts.push((w.tokens * BigInt(arng.int(20, 80))) / 100n);
    const p = poolAddrs(ctx);
    let s = ms;
    for (const amount of amounts) {
      if (amount <= 0n) continue;
      s += arng.int(3, 20_000);
      const tx = new TxBuilder(arng, true);
      const inv = tx.inv();
      tx.add(PUMP_AMM, buildPoolSell(ctx, reserves, w.address, amount, bt(s), arng.pick(PUMP_FEE_RECIPIENTS), inv), inv);
      specs.push(tx.finish(akeys, s, w.address, 'pool_sell', mint));
      w.tokens -= amount;
      accounts.push({ address: p.baseVault, slot: s, owner: tokenProgram, lamports: rentExempt(tokenProgram === TOKEN_2022_PROGRAM ? 170 : 165), data: tokenAccountData(ctx.mint, p.pool, reserves.base, null, tokenProgram === TOKEN_2022_PROGRAM) });
      accounts.push({ address: p.quoteVault, slot: s, owner: TOKEN_PROGRAM, lamports: rentExempt(165) + reserves.quote, data: tokenAccountData(WSOL_MINT, p.pool, reserves.quote, rentExempt(165), false) });
    }
  }
}

/** SPL Token account data (165 B), or Token-2022 with the ImmutableOwner extension (170 B). */
export function tokenAccountData(mint: string, owner: string, amount: bigint, nativeRent: bigint | null, token2022: boolean): Uint8Array {
  const out = new Uint8Array(token2022 ? 170 : 165);
  out.set(fromBase58(mint), 0);
  out.set(fromBase58(owner), 32);
  out.set(u64(amount), 64);
  out[108] = 1; // state: initialized
  if (nativeRent !== null) {
    out[109] = 1;
    out.set(u64(nativeRent), 113);
  }
  if (token2022) {
    out[165] = 2; // account type: Account
    out[166] = 7; // ImmutableOwner extension, length 0
  }
  return out;
}

/**
 * Every wallet of the launch that trades or pays, and that no funding transfer of the plan funded,
 * gets its own first funding: a System transfer of its starting lamports from a funder of its own (a
 * fresh address, never in a cohort), some slots before its first transaction. On chain no wallet
 * holds SOL it was not sent, and the archive's funder lookup reads that transfer: since markers-v9 a
 * cohort wallet whose history holds no inbound System transfer is of unknown funding (the cohort
 * check then is not established), so a simulated wallet with lamports from nowhere would make every
 * launch UNKNOWN. One funder each: no two wallets share a funder unless the plan says so
 * (`sharedFunder`). Drawn from `rng` alone (a fork), so the launch's other draws stay as they were.
 */
function fundEveryWallet(rng: Rng, specs: TxSpec[], wallets: Map<string, Wallet>, walletInit: Map<string, bigint>, mint: string): void {
  const keys = new KeyFactory(rng);
  const first = new Map<string, number>();
  const seen = (address: string, slot: number) => {
    if (wallets.has(address) && slot < (first.get(address) ?? Infinity)) first.set(address, slot);
  };
  for (const s of specs) {
    if (s.tag === 'funding') continue;
    seen(s.feePayer, s.slot);
    for (const [address] of s.lamports) seen(address, s.slot);
  }
  for (const [address, slot] of first) {
    const lamports = walletInit.get(address) ?? 0n;
    if (lamports === 0n) continue; // funded by the plan (or holding nothing to send)
    const funder = keys.address();
    walletInit.set(funder, lamports + SOL);
    walletInit.set(address, 0n);
    const tx = new TxBuilder(rng, false);
    tx.transfer(funder, address, lamports);
    specs.push(tx.finish(keys, slot - rng.int(5, 600), funder, 'funding', mint, { funding: { from: funder, to: address, lamports } }));
  }
}
