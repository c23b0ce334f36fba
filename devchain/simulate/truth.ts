/**
 * truth.json: every record field the archive should derive from the simulated chain (methodology
 * "markers-v2"), computed from what was actually emitted — successful transactions only, events as
 * encoded (a field an older layout does not carry reads as absent) — never from the plan. Pure.
 */
import { DEFAULT_KEY, JITO_TIP_ACCOUNTS, PROTOCOL_WALLETS, PUMP, SYSTEM_PROGRAM } from './keys.ts';
import type { LaunchResult } from './launch.ts';
import { poolAddrs } from './instructions.ts';
import { eraTag, ERA_2610, rentExempt } from './curve.ts';
import { completes } from './scenarios.ts';
import type { TxSpec } from './transactions.ts';

/** One part of a curve buyout (raw units, decimal strings). */
export interface BuyoutPart {
  tokens: string;
  quoteSpent: string;
  /** fee + creator_fee (buyback_fee is a part of fee); null when its events do not report the fee (the 2024 layout, markers-v8) */
  fees: string | null;
}

/** One outside wallet that bought in the creation slot. */
export interface BundleEntry {
  wallet: string;
  /** its creation-slot buy signatures, sorted */
  signatures: string[];
  /** raw tokens (a synthetic pool part included) */
  tokens: string;
  /** raw quote units */
  quoteSpent: string;
  /** one of those buys is in the creation transaction itself */
  withCreation: boolean;
  /** lamports sent to Jito tip accounts in its distinct creation-slot buy transactions */
  jitoTipLamports: string;
}

/** One flag of a record. */
export interface TruthFlag {
  code: string;
  class: 'FINDINGS' | 'NOTE';
  evidence: string[];
}

/** The expected record of one mint. */
export interface TruthRecord {
  creator: string;
  createdAtMs: number;
  creationSignature: string;
  creationSlot: number;
  quoteMint: string;
  /** 9 for SOL, 6 for USDC; a pump-coin quote (6 decimals) only once a successful trade moved it (its token balances report them), else null */
  quoteDecimals: number | null;
  tokenProgram: string;
  creatorTokensRaw: string;
  creatorSupplyPct: number;
  creatorSold: boolean;
  curveBuyers: number;
  buyersFirst30s: number;
  bundledBuyers: number;
  completed: boolean;
  completedAtMs: number | null;
  graduated: boolean;
  graduationConfirmedBy: 'migration_event' | 'withdraw' | null;
  graduatedAtMs: number | null;
  secondsToGraduate: number | null;
  graduationSignature: string | null;
  curveBuyout: null | {
    wallet: string;
    signature: string;
    slot: number;
    sameBatchAsLaunch: boolean;
    hoursAfterLaunch: number | null;
    /** curve part + pool part */
    quoteSpent: string;
    tokens: string;
    /** null when the events do not report the fee (the 2024 TradeEvent layout: markers-v8) */
    fees: string | null;
    /** the wallet's TradeEvent(s) in the completing transaction */
    curvePart: BuyoutPart;
    /** the PostCompleteBuyEvent (synthetic migration), or null */
    poolPart: null | (BuyoutPart & { poolReservesBefore: { base: string; quote: string }; poolReservesAfter: { base: string; quote: string } });
  };
  /**
   * What the buyout wallet did afterwards with the tokens of its completing buy's token account, as
   * of the chain's end: sales after the completing transaction (PumpSwap SellEvent → `pool`, pump
   * sell → `curve`), the account's final balance. Null when nobody took the curve.
   */
  buyoutAfterwards: null | {
    sold: 'all' | 'part' | 'none';
    soldTokens: string;
    venues: ('curve' | 'pool')[];
    signatures: string[];
    firstSoldAtMs: number | null;
    lastSoldAtMs: number | null;
    balanceTokens: string;
  };
  /**
   * The PumpSwap pool's reserves at the chain's end (raw units: base tokens; quote lamports = the
   * WSOL vault's amount, virtual_quote_reserves being 0 here), from the migration's and every pool
   * sale's effects on the two vaults. Null when the launch did not migrate to PumpSwap.
   */
  poolReserves: { base: string; quote: string } | null;
  /** one entry per outside wallet that bought in the creation slot (the wallets counted in bundledBuyers), sorted by wallet */
  bundle: BundleEntry[];
  flags: TruthFlag[];
  findingClass: 'FINDINGS' | 'NOTE' | 'NO_MARKERS';
  cleanAtBirth: boolean;
  funderSharedCohort: { funder: string; wallets: string[]; signatures: string[] }[];
  kind: string;
}

/** truth.json. */
export interface Truth {
  methodVersion: 'markers-v2';
  records: Record<string, TruthRecord>;
}

const sortUnique = (xs: Iterable<string>): string[] => [...new Set(xs)].sort();

interface TradeFact {
  signature: string;
  slot: number;
  blockTime: number;
  user: string;
  isBuy: boolean;
  /** including a following PostCompleteBuyEvent's base_out / quote_in */
  tokens: bigint;
  quote: bigint;
  viaRouter: boolean;
  /** the TradeEvent alone */
  curveTokens: bigint;
  curveQuote: bigint;
  curveFees: bigint | null;
  post: Record<string, unknown> | null;
}

const big = (v: unknown): bigint => (typeof v === 'bigint' ? v : typeof v === 'number' ? BigInt(v) : 0n);
/**
 * fee + creator_fee of an event: buyback_fee is a part of fee (markers-v5); null when the event has no
 * `fee` field (the 2024 layout: the fee paid is not reported, markers-v8); an absent creator_fee is 0.
 */
const feesOf = (f: Record<string, unknown>): bigint | null => (f.fee === undefined ? null : big(f.fee) + big(f.creator_fee));
const JITO = new Set<string>(JITO_TIP_ACCOUNTS);
const MIGRATE_V2_DISC = 'bbcb121fceedfe29';
const V3_IX = new Set(['buy_v3', 'buy_exact_quote_in_v3', 'sell_v3']);

/**
 * The record of one launch. `blockTime` maps a slot to its blockTime.
 * Errors: throws if the launch has no successful creation transaction (a simulator bug).
 */
export function truthOf(launch: LaunchResult, blockTime: (slot: number) => number, isV1: (spec: TxSpec) => boolean = () => false): TruthRecord {
  const { ctx, plan } = launch;
  const mint = ctx.mint;
  const ok = launch.specs.filter((s) => s.err === null);
  const creation = ok.find((s) => s.events.some((e) => e.name === 'CreateEvent' && e.fields.mint === mint));
  if (!creation) throw new Error(`no creation tx for ${mint}`);
  const create = creation.events.find((e) => e.name === 'CreateEvent')!.fields;
  const creator = String(create.creator ?? create.user);
  const cTime = blockTime(creation.slot);
  const sol = ctx.quoteMint === DEFAULT_KEY;

  const trades: TradeFact[] = [];
  for (const s of ok) {
    let last: TradeFact | null = null;
    for (const e of s.events) {
      if (e.name === 'PostCompleteBuyEvent' && e.fields.mint === mint) {
        // a TradeEvent followed by a PostCompleteBuyEvent of the same user and mint is one buy of tokens + base_out for quote + quote_in
        if (last && last.isBuy && last.user === String(e.fields.user) && !last.post) {
          last.post = e.fields;
          last.tokens += big(e.fields.base_out);
          last.quote += big(e.fields.quote_in);
        }
        continue;
      }
      if (e.name !== 'TradeEvent' || e.fields.mint !== mint) continue;
      const f = e.fields;
      const tokens = big(f.token_amount);
      const quote = big(sol ? f.sol_amount : f.quote_amount);
      last = {
        signature: s.signature, slot: s.slot, blockTime: blockTime(s.slot), user: String(f.user), isBuy: f.is_buy === true,
        tokens, quote, viaRouter: !!s.viaRouter, curveTokens: tokens, curveQuote: quote, curveFees: feesOf(f), post: null,
      };
      trades.push(last);
    }
  }
  const isOutside = (w: string) => w !== creator && !PROTOCOL_WALLETS.has(w);
  const creatorSlotTrades = trades.filter((t) => t.user === creator && t.slot === creation.slot);
  const creatorNet = creatorSlotTrades.reduce((s, t) => s + (t.isBuy ? t.tokens : -t.tokens), 0n);
  const supply = 1_000_000_000_000_000n;
  const creatorSupplyPct = (Number(creatorNet) / Number(supply)) * 100;
  const creatorSells = trades.filter((t) => t.user === creator && !t.isBuy);
  const outsideBuys = trades.filter((t) => t.isBuy && isOutside(t.user));
  const bundled = outsideBuys.filter((t) => t.slot === creation.slot);
  const first30 = outsideBuys.filter((t) => t.blockTime - cTime <= 30);
  const curveBuyers = new Set(outsideBuys.map((t) => t.user)).size;
  const bundledBuyers = new Set(bundled.map((t) => t.user)).size;
  const buyersFirst30s = new Set(first30.map((t) => t.user)).size;

  // completion
  const completeTx = ok.find((s) => s.events.some((e) => e.name === 'CompleteEvent' && e.fields.mint === mint));
  let curveBuyout: TruthRecord['curveBuyout'] = null;
  if (completeTx) {
    const user = String(completeTx.events.find((e) => e.name === 'CompleteEvent')!.fields.user);
    const buys = trades.filter((t) => t.signature === completeTx.signature && t.user === user && t.isBuy);
    const same = completeTx.slot === creation.slot;
    const sum = (f: (t: TradeFact) => bigint) => buys.reduce((s, t) => s + f(t), 0n);
    const curveFees = buys.some((t) => t.curveFees === null) ? null : buys.reduce((s, t) => s + t.curveFees!, 0n);
    const post = buys.find((t) => t.post)?.post ?? null;
    const postFees = post ? feesOf(post) : 0n;
    const known = (v: bigint | null) => (v === null ? null : v.toString());
    curveBuyout = {
      wallet: user, signature: completeTx.signature, slot: completeTx.slot, sameBatchAsLaunch: same,
      hoursAfterLaunch: same ? null : (blockTime(completeTx.slot) - cTime) / 3600,
      quoteSpent: sum((t) => t.quote).toString(), tokens: sum((t) => t.tokens).toString(), fees: curveFees === null || postFees === null ? null : (curveFees + postFees).toString(),
      curvePart: { tokens: sum((t) => t.curveTokens).toString(), quoteSpent: sum((t) => t.curveQuote).toString(), fees: known(curveFees) },
      poolPart: post && {
        tokens: big(post.base_out).toString(), quoteSpent: big(post.quote_in).toString(), fees: known(postFees),
        poolReservesBefore: { base: big(post.pool_base_reserves_before).toString(), quote: big(post.pool_quote_reserves_before).toString() },
        poolReservesAfter: { base: big(post.pool_base_reserves_after).toString(), quote: big(post.pool_quote_reserves_after).toString() },
      },
    };
  }

  // what the buyout wallet did afterwards: its sales after the completing transaction, its balance at the end
  let buyoutAfterwards: TruthRecord['buyoutAfterwards'] = null;
  if (completeTx && curveBuyout) {
    const wallet = curveBuyout.wallet;
    const account = completeTx.tokens.find((t) => t.owner === wallet && t.mint === mint)?.account;
    const after = ok.filter((s) => s.slot > completeTx.slot || (s.slot === completeTx.slot && launch.specs.indexOf(s) > launch.specs.indexOf(completeTx)));
    const sales: { signature: string; slot: number; venue: 'curve' | 'pool'; tokens: bigint }[] = [];
    for (const s of after) {
      for (const e of s.events) {
        if (e.name === 'SellEvent' && e.fields.user_base_token_account === account) sales.push({ signature: s.signature, slot: s.slot, venue: 'pool', tokens: e.fields.base_amount_in as bigint });
        if (e.name === 'TradeEvent' && e.fields.mint === mint && e.fields.user === wallet && e.fields.is_buy === false) sales.push({ signature: s.signature, slot: s.slot, venue: 'curve', tokens: e.fields.token_amount as bigint });
      }
    }
    sales.sort((a, b) => a.slot - b.slot);
    const balance = ok.flatMap((s) => s.tokens).filter((t) => t.account === account).reduce((sum, t) => sum + t.delta, 0n);
    buyoutAfterwards = {
      sold: sales.length === 0 ? 'none' : balance === 0n ? 'all' : 'part',
      soldTokens: sales.reduce((sum, x) => sum + x.tokens, 0n).toString(),
      venues: [...new Set(sales.map((x) => x.venue))].sort(),
      signatures: sales.map((x) => x.signature),
      firstSoldAtMs: sales.length ? blockTime(sales[0]!.slot) * 1000 : null,
      lastSoldAtMs: sales.length ? blockTime(sales.at(-1)!.slot) * 1000 : null,
      balanceTokens: balance.toString(),
    };
  }

  // graduation
  const gradTx = ok.find(
    (s) =>
      s.events.some((e) => (e.name === 'CompletePumpAmmMigrationEvent' && e.fields.mint === mint) || (e.name === 'CreatePoolEvent' && e.fields.base_mint === mint)) ||
      (s.tag === 'withdraw' && s.withdrawMint === mint),
  );
  const confirmedBy = gradTx ? (gradTx.tag === 'withdraw' ? 'withdraw' : 'migration_event') : null;

  // the pool now: the vaults' balances after the migration and every pool sale
  // (2026-10: quote reserves = the vault's amount + the signed virtual_quote_reserves, which v2 sells
  // lower by the fees they keep in the vault and sweeps raise again; docs/NEGATIVE_VIRTUAL_QUOTE_RESERVES.md)
  let poolReserves: TruthRecord['poolReserves'] = null;
  let vqr = 0n;
  if (confirmedBy === 'migration_event') {
    const p = poolAddrs(ctx);
    const base = ok.flatMap((s) => s.tokens).filter((t) => t.account === p.baseVault).reduce((sum, t) => sum + t.delta, 0n);
    const vault = ok.flatMap((s) => s.lamports).filter(([a]) => a === p.quoteVault).reduce((sum, [, d]) => sum + d, 0n) - rentExempt(165);
    for (const s of ok) {
      for (const e of s.events) {
        if (e.name === 'SellEvent' && e.fields.pool === p.pool && e.fields.protocol_fee_recipient === DEFAULT_KEY) vqr -= big(e.fields.protocol_fee) + big(e.fields.coin_creator_fee);
        if (e.name === 'SweepPoolFeeEvent' && e.fields.pool === p.pool) vqr += big(e.fields.amount);
      }
    }
    poolReserves = { base: base.toString(), quote: (vault + vqr).toString() };
  }

  // the bundle: every outside wallet that bought in the creation slot
  const tipsOf = (signature: string) =>
    ok.find((s) => s.signature === signature)!.lamports.filter(([a, d]) => JITO.has(a) && d > 0n).reduce((sum, [, d]) => sum + d, 0n);
  const bundle: BundleEntry[] = [...new Set(bundled.map((t) => t.user))].sort().map((wallet) => {
    const mine = bundled.filter((t) => t.user === wallet);
    const signatures = sortUnique(mine.map((t) => t.signature));
    return {
      wallet, signatures, tokens: mine.reduce((s, t) => s + t.tokens, 0n).toString(), quoteSpent: mine.reduce((s, t) => s + t.quote, 0n).toString(),
      withCreation: signatures.includes(creation.signature), jitoTipLamports: signatures.reduce((s, sig) => s + tipsOf(sig), 0n).toString(),
    };
  });
  // the creator's sells in the creation slot or the first 30 s
  const birthSells = creatorSells.filter((t) => t.slot === creation.slot || t.blockTime - cTime <= 30);

  // funder cohort: creator + outside wallets that bought in the creation slot or the first 30 s
  const cohort = new Set<string>([creator, ...bundled.map((t) => t.user), ...first30.map((t) => t.user)]);
  const byFunder = new Map<string, { wallets: Set<string>; sigs: string[] }>();
  const firstInbound = new Map<string, TxSpec>();
  for (const s of [...ok].sort((a, b) => a.slot - b.slot)) {
    if (s.tag !== 'funding' || !s.funding || !cohort.has(s.funding.to)) continue;
    if (!firstInbound.has(s.funding.to)) firstInbound.set(s.funding.to, s);
  }
  // every cohort wallet has a first funding (launch.ts fundEveryWallet): one without would make the record's cohort unknown (markers-v9)
  for (const w of cohort) if (!firstInbound.has(w)) throw new Error(`simulator: cohort wallet ${w} has no funding transfer (devchain/simulate/launch.ts fundEveryWallet)`);
  for (const [wallet, s] of firstInbound) {
    const g = byFunder.get(s.funding!.from) ?? { wallets: new Set<string>(), sigs: [] };
    g.wallets.add(wallet);
    if (cohort.has(s.funding!.from)) g.wallets.add(s.funding!.from); // markers-v9: a cohort wallet that funded another is in its group
    g.sigs.push(s.signature);
    byFunder.set(s.funding!.from, g);
  }
  const funderSharedCohort = [...byFunder.entries()]
    .filter(([, g]) => g.wallets.size >= 2)
    .map(([funder, g]) => ({ funder, wallets: sortUnique(g.wallets), signatures: sortUnique(g.sigs) }))
    .sort((a, b) => (a.funder < b.funder ? -1 : 1));

  const flags: TruthFlag[] = [];
  if (creatorSupplyPct > 50) flags.push({ code: 'creator_kept_majority', class: 'FINDINGS', evidence: sortUnique(creatorSlotTrades.map((t) => t.signature)) });
  if (curveBuyers === 0) flags.push({ code: 'no_outside_curve_buyer', class: 'FINDINGS', evidence: [creation.signature] });
  if (bundledBuyers > 0) flags.push({ code: 'bundled_buyers', class: 'FINDINGS', evidence: sortUnique(bundled.map((t) => t.signature)) });
  if (completeTx && completeTx.slot === creation.slot) flags.push({ code: 'curve_taken_in_creation_slot', class: 'FINDINGS', evidence: [completeTx.signature] });
  if (funderSharedCohort.length > 0) flags.push({ code: 'shared_funder', class: 'FINDINGS', evidence: sortUnique(funderSharedCohort.flatMap((c) => c.signatures)) });
  if (creatorSells.length > 0) flags.push({ code: 'creator_sold', class: 'NOTE', evidence: sortUnique(creatorSells.map((t) => t.signature)) });
  if (birthSells.length > 0) flags.push({ code: 'creator_sold_at_birth', class: 'FINDINGS', evidence: sortUnique(birthSells.map((t) => t.signature)) });
  flags.sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  const findings = flags.some((f) => f.class === 'FINDINGS');
  const findingClass = findings ? 'FINDINGS' : flags.length > 0 ? 'NOTE' : 'NO_MARKERS';

  // realized kind tags
  const tags: string[] = [eraTag(plan.era)];
  if (plan.usdc) tags.push('usdc');
  if (plan.mayhem) tags.push('mayhem');
  const primary = completes(plan.primary) && !completeTx ? 'organic' : plan.primary;
  tags.push(primary);
  tags.push(creation.events.some((e) => e.name === 'TradeEvent' && e.fields.user === creator) ? 'creator_buy' : 'no_creator_buy');
  if (bundledBuyers > 0) tags.push('bundled');
  if (ok.some((s) => s.jitoTip)) tags.push('jito_tip');
  if (buyersFirst30s > bundledBuyers) tags.push('snipers');
  if (creatorSells.length > 0) tags.push('creator_sold');
  if (funderSharedCohort.length > 0) tags.push('shared_funder');
  if (plan.distinctFunders && funderSharedCohort.length === 0 && launch.specs.some((s) => s.tag === 'funding')) tags.push('distinct_funders');
  if (trades.some((t) => t.viaRouter)) tags.push('router');
  if (launch.specs.some((s) => s.err !== null)) tags.push('failed_tx');
  if (confirmedBy === 'migration_event') tags.push('migrated');
  if (ok.some((s) => s.tag === 'noop_migrate')) tags.push('noop_migrate_retry');
  if (confirmedBy === 'withdraw') tags.push('withdraw_graduation');
  if (completeTx && !gradTx) tags.push('completed_not_migrated');
  if (curveBuyout && trades.filter((t) => t.signature === curveBuyout!.signature && t.user === curveBuyout!.wallet && t.isBuy).length > 1) tags.push('multi_buy_completion');
  if (buyoutAfterwards && buyoutAfterwards.sold !== 'none') tags.push(`buyout_sold_${buyoutAfterwards.sold}`);
  // the 2026-10 era's features, as emitted
  const events = ok.flatMap((s) => s.events);
  const ixNames = new Set(events.filter((e) => e.name === 'TradeEvent' && e.fields.mint === mint).map((e) => String(e.fields.ix_name)));
  if ([...ixNames].some((n) => V3_IX.has(n))) tags.push('v3_trade');
  if (curveBuyout?.poolPart) tags.push('buyout_with_pool_part');
  else if (curveBuyout && plan.era === ERA_2610) tags.push('buyout_without_pool_part');
  if (ixNames.has('multi_hop_swap')) tags.push('multi_hop');
  if (gradTx?.instructions.some((ix) => ix.programId === PUMP && Buffer.from(ix.data.subarray(0, 8)).toString('hex') === MIGRATE_V2_DISC)) tags.push('migrate_v2');
  if (Number(create.depth ?? 0) >= 1) tags.push('pump_quote');
  if (events.some((e) => e.name === 'SweepBondingCurveFeeEvent' && e.fields.mint === mint)) tags.push('curve_fee_sweep');
  if (events.some((e) => e.name === 'SweepPoolFeeEvent' && e.fields.base_mint === mint)) tags.push('pool_fee_sweep');
  if (vqr < 0n) tags.push('negative_virtual_quote');
  if (birthSells.length > 0) tags.push('creator_sold_at_birth');
  if (bundle.some((b) => b.withCreation)) tags.push('bundled_in_create_tx');
  if (curveBuyout?.wallet === creator && curveBuyout.sameBatchAsLaunch) tags.push('creator_took_curve_at_birth');
  if (completeTx?.events.some((e) => e.name === 'TradeEvent' && e.fields.mint === mint && e.fields.ix_name === 'multi_hop_swap' && e.fields.user === curveBuyout?.wallet)) tags.push('multi_hop_completion');
  if (launch.specs.some(isV1)) tags.push('v1_tx');
  void SYSTEM_PROGRAM;

  return {
    creator,
    createdAtMs: cTime * 1000,
    creationSignature: creation.signature,
    creationSlot: creation.slot,
    quoteMint: ctx.quoteMint,
    quoteDecimals: sol ? 9 : ctx.usdc ? 6 : trades.length > 0 ? 6 : null,
    tokenProgram: ctx.tokenProgram,
    creatorTokensRaw: creatorNet.toString(),
    creatorSupplyPct,
    creatorSold: creatorSells.length > 0,
    curveBuyers,
    buyersFirst30s,
    bundledBuyers,
    completed: !!completeTx,
    completedAtMs: completeTx ? blockTime(completeTx.slot) * 1000 : null,
    graduated: !!gradTx,
    graduationConfirmedBy: confirmedBy,
    graduatedAtMs: gradTx ? blockTime(gradTx.slot) * 1000 : null,
    secondsToGraduate: gradTx ? blockTime(gradTx.slot) - cTime : null,
    graduationSignature: gradTx ? gradTx.signature : null,
    curveBuyout,
    buyoutAfterwards,
    poolReserves,
    bundle,
    flags,
    findingClass,
    cleanAtBirth: !findings,
    funderSharedCohort,
    kind: tags.join('+'),
  };
}
