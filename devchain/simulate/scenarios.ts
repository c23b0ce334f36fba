/**
 * Launch kinds, their proportions, and the seeded plan of every launch (era, quote, life course,
 * features). With N ≥ 50 every kind is forced to appear at least once (except the version-1 kind
 * when the chain renders none, and the buyout_sold_* kinds, which are never forced). Pure.
 */
import type { Rng } from './prng.ts';
import { type Era, ERA_2610 } from './curve.ts';

/** Mutually exclusive life courses of a curve. */
export const PRIMARY_KINDS = [
  'dead', 'no_outside_buyer', 'organic', 'creator_majority', 'taken_in_creation_slot', 'taken_later', 'organic_completion',
] as const;
export type PrimaryKind = (typeof PRIMARY_KINDS)[number];

/** Proportions of the life courses (like mainnet: most curves die). */
export const PRIMARY_WEIGHTS: Record<PrimaryKind, number> = {
  dead: 0.4, no_outside_buyer: 0.2, organic: 0.27, creator_majority: 0.03, taken_in_creation_slot: 0.02, taken_later: 0.03, organic_completion: 0.05,
};

/** Every kind tag a launch can carry (its `kind` string joins the tags that actually happened). */
export const ALL_KINDS = [
  ...PRIMARY_KINDS, 'era2024', 'era2025', 'era2026', 'usdc', 'mayhem', 'creator_buy', 'no_creator_buy', 'bundled', 'jito_tip', 'snipers', 'creator_sold',
  'shared_funder', 'distinct_funders', 'router', 'failed_tx', 'migrated', 'noop_migrate_retry', 'withdraw_graduation', 'completed_not_migrated',
  'multi_buy_completion', 'buyout_sold_all', 'buyout_sold_part',
  // the era after the 2026-10-08 redeploy (shared/chain/idl/2026-10/FACTS.md)
  'era2026_10', 'v3_trade', 'buyout_with_pool_part', 'buyout_without_pool_part', 'multi_hop', 'migrate_v2', 'pump_quote', 'curve_fee_sweep',
  'pool_fee_sweep', 'negative_virtual_quote', 'creator_sold_at_birth', 'bundled_in_create_tx', 'creator_took_curve_at_birth', 'multi_hop_completion', 'v1_tx',
] as const;

/** Kinds that only appear when the chain renders version-1 transactions (generateChain `v1Share` > 0). */
export const V1_KINDS: readonly string[] = ['v1_tx'];

/** Default share of the 2026-10 era among the launches (the newest fifth). */
export const DEFAULT_ERA_2610_SHARE = 0.2;

/** The plan of one launch. */
export interface LaunchPlan {
  index: number;
  era: Era;
  usdc: boolean;
  mayhem: boolean;
  primary: PrimaryKind;
  creatorBuy: boolean;
  bundled: number;
  jito: boolean;
  snipers: number;
  creatorSells: boolean;
  sharedFunder: boolean;
  distinctFunders: boolean;
  routerShare: number;
  failShare: number;
  /** completed curves: migrate (2025+), withdraw (2024), or none (completed, not migrated) */
  graduation: 'migrate' | 'withdraw' | 'none';
  noopRetries: number;
  multiBuyCompletion: boolean;
  /** 2026-10: the completing buy is a v3 buy with a synthetic pool part (else an old-style `buy` that empties the curve) */
  poolPart: boolean;
  /** 2026-10: share of buys routed through PumpSwap multi_hop_swap (a curve hop) */
  multiHopShare: number;
  /** 2026-10: quoted in an earlier simulated pump coin (create_v2 quote_mint = its mint, depth 1) */
  pumpQuote: boolean;
  /** 2026-10: someone sweeps the fees the curve kept; the pool's kept fees */
  curveSweep: boolean;
  poolSweep: boolean;
  /** 2026-10: the creator sells within the first 30 s */
  creatorSellsAtBirth: boolean;
  /** 2026-10: the first bundled wallet buys inside the creation transaction itself */
  bundleInCreate: boolean;
  /** 2026-10: the creator's own creation-transaction buy takes the whole curve and a synthetic pool part (primary taken_in_creation_slot) */
  creatorTakes: boolean;
}

const COMPLETING: ReadonlySet<PrimaryKind> = new Set(['taken_in_creation_slot', 'taken_later', 'organic_completion']);

/** Whether a life course completes the curve. */
export const completes = (k: PrimaryKind): boolean => COMPLETING.has(k);

function eraOf(index: number, n: number, share2610: number): Era {
  const f = (index + 0.5) / n;
  return f < 0.15 ? 2024 : f < 0.4 ? 2025 : f < 1 - share2610 ? 2026 : ERA_2610;
}

/** Fill in the features of a plan consistently with its primary kind and era. */
function shape(p: LaunchPlan, rng: Rng): void {
  const special = p.usdc || p.mayhem || p.pumpQuote;
  if (special && completes(p.primary)) p.primary = 'organic';
  const noOutside = p.primary === 'no_outside_buyer';
  if (noOutside) {
    p.bundled = 0;
    p.snipers = 0;
    p.jito = false;
  }
  if (p.primary === 'creator_majority') p.creatorBuy = true;
  if (p.era !== ERA_2610 || p.primary !== 'taken_in_creation_slot') p.creatorTakes = false;
  if (p.creatorTakes) {
    p.creatorBuy = true;
    p.poolPart = true;
    p.bundled = 0;
    p.multiBuyCompletion = false;
  }
  if (p.primary === 'taken_in_creation_slot' && p.bundled === 0 && !p.creatorTakes) p.bundled = 1;
  if (p.sharedFunder && p.bundled + p.snipers === 0 && !noOutside) p.snipers = 2;
  if (p.sharedFunder && noOutside) p.sharedFunder = false;
  if (p.bundled === 0) p.jito = false;
  p.graduation = !completes(p.primary) ? 'none' : p.era === 2024 ? 'withdraw' : p.graduation === 'none' ? 'none' : 'migrate';
  if (p.graduation !== 'migrate') p.noopRetries = 0;
  if (!completes(p.primary)) p.multiBuyCompletion = false;
  if (p.era !== ERA_2610) {
    p.poolPart = false;
    p.multiHopShare = 0;
    p.pumpQuote = false;
    p.curveSweep = false;
    p.poolSweep = false;
    p.creatorSellsAtBirth = false;
    p.bundleInCreate = false;
  }
  if (p.creatorSellsAtBirth) p.creatorBuy = true;
  if (p.bundled === 0) p.bundleInCreate = false;
  void rng;
}

/**
 * Seeded plans of N launches in chronological order (15% 2024, 25% 2025, then 2026 and the
 * 2026-10 era sharing the rest: `share2610` of all launches are 2026-10, default 20%). With
 * share2610 = 0 the plans are exactly those of the three-era simulator.
 */
export function planLaunches(n: number, rng: Rng, share2610 = DEFAULT_ERA_2610_SHARE): LaunchPlan[] {
  const plans: LaunchPlan[] = [];
  for (let i = 0; i < n; i++) {
    const era = eraOf(i, n, share2610);
    const usdc = era === 2026 && rng.chance(0.04);
    const mayhem = era === 2026 && !usdc && rng.chance(0.04);
    const primary = PRIMARY_KINDS[rng.weighted(PRIMARY_KINDS.map((k) => PRIMARY_WEIGHTS[k]))];
    const bundledRoll = rng.chance(0.15);
    const p: LaunchPlan = {
      index: i, era, usdc, mayhem, primary,
      creatorBuy: rng.chance(0.85),
      bundled: bundledRoll ? rng.int(1, 4) : 0,
      jito: rng.chance(0.5),
      snipers: rng.chance(0.3) ? rng.int(1, 5) : 0,
      creatorSells: rng.chance(0.3),
      sharedFunder: rng.chance(0.05),
      distinctFunders: rng.chance(0.05),
      routerShare: rng.chance(0.5) ? 0.2 : 0,
      failShare: 0.05,
      graduation: rng.chance(0.9) ? 'migrate' : 'none',
      noopRetries: rng.chance(0.3) ? rng.int(1, 3) : 0,
      multiBuyCompletion: rng.chance(0.3),
      poolPart: false, multiHopShare: 0, pumpQuote: false, curveSweep: false, poolSweep: false, creatorSellsAtBirth: false, bundleInCreate: false,
      creatorTakes: false,
    };
    if (era === ERA_2610) {
      // drawn only for the new era, after the older draws, so the older eras' plans keep their streams
      p.poolPart = rng.chance(0.75);
      p.multiHopShare = rng.chance(0.5) ? 0.3 : 0;
      p.pumpQuote = rng.chance(0.06);
      p.curveSweep = rng.chance(0.5);
      p.poolSweep = rng.chance(0.5);
      p.creatorSellsAtBirth = rng.chance(0.12);
      p.bundleInCreate = rng.chance(0.35);
      p.creatorTakes = rng.chance(0.3);
    }
    shape(p, rng);
    plans.push(p);
  }
  if (n >= 50) force(plans, rng);
  return plans;
}

/** Templates that guarantee coverage: [name, era constraint, mutate]. */
const TEMPLATES: [string, Era | null, (p: LaunchPlan) => void][] = [
  ['withdraw_graduation', 2024, (p) => { p.primary = 'organic_completion'; }],
  ['noop_migrate_retry', 2025, (p) => { p.primary = 'taken_later'; p.graduation = 'migrate'; p.noopRetries = 2; p.multiBuyCompletion = true; }],
  ['taken_in_creation_slot', 2026, (p) => { p.primary = 'taken_in_creation_slot'; p.graduation = 'migrate'; p.bundled = 2; p.jito = true; }],
  ['completed_not_migrated', 2026, (p) => { p.primary = 'organic_completion'; p.graduation = 'none'; }],
  ['organic_completion', 2026, (p) => { p.primary = 'organic_completion'; p.graduation = 'migrate'; p.routerShare = 0.2; }],
  ['taken_later', 2026, (p) => { p.primary = 'taken_later'; p.graduation = 'migrate'; }],
  ['creator_majority', null, (p) => { p.primary = 'creator_majority'; p.creatorSells = true; }],
  ['no_outside_buyer', null, (p) => { p.primary = 'no_outside_buyer'; }],
  ['usdc', 2026, (p) => { p.usdc = true; p.mayhem = false; p.primary = 'organic'; p.routerShare = 0.3; p.snipers = 2; }],
  ['mayhem', 2026, (p) => { p.mayhem = true; p.usdc = false; p.primary = 'no_outside_buyer'; }],
  ['shared_funder', null, (p) => { p.sharedFunder = true; p.primary = 'organic'; p.bundled = 2; p.jito = true; }],
  ['distinct_funders', null, (p) => { p.distinctFunders = true; p.primary = 'organic'; p.snipers = 3; }],
  ['snipers', null, (p) => { p.primary = 'organic'; p.snipers = 3; p.creatorSells = true; p.failShare = 0.2; }],
  ['multi_buy_completion', 2026, (p) => { p.primary = 'taken_later'; p.graduation = 'migrate'; p.multiBuyCompletion = true; }],
  ['router', null, (p) => { p.primary = 'organic'; p.routerShare = 0.5; p.failShare = 0.15; }],
  ['dead', null, (p) => { p.primary = 'dead'; }],
  ['organic', null, (p) => { p.primary = 'organic'; p.creatorBuy = false; }],
  // the 2026-10 era (after the older templates, so a chain without the era draws as before)
  ['multi_hop_completion', ERA_2610, (p) => { p.primary = 'taken_later'; p.graduation = 'migrate'; p.poolPart = true; p.multiHopShare = 0.3; p.creatorTakes = false; }],
  ['buyout_with_pool_part', ERA_2610, (p) => { p.primary = 'taken_later'; p.graduation = 'migrate'; p.poolPart = true; p.poolSweep = true; p.multiHopShare = 0.3; }],
  ['buyout_without_pool_part', ERA_2610, (p) => { p.primary = 'organic_completion'; p.graduation = 'migrate'; p.poolPart = false; p.curveSweep = true; }],
  ['taken_in_creation_slot_2610', ERA_2610, (p) => { p.primary = 'taken_in_creation_slot'; p.graduation = 'migrate'; p.poolPart = true; p.bundled = 2; p.jito = true; p.bundleInCreate = true; p.poolSweep = false; }],
  ['pump_quote', ERA_2610, (p) => { p.pumpQuote = true; p.primary = 'organic'; p.curveSweep = true; }],
  ['creator_sold_at_birth', ERA_2610, (p) => { p.creatorSellsAtBirth = true; p.primary = 'organic'; p.multiHopShare = 0.3; }],
  ['multi_hop', ERA_2610, (p) => { p.primary = 'organic'; p.multiHopShare = 0.5; p.curveSweep = true; }],
  ['creator_took_curve_at_birth', ERA_2610, (p) => { p.primary = 'taken_in_creation_slot'; p.graduation = 'migrate'; p.creatorTakes = true; p.poolSweep = true; }],
];

function force(plans: LaunchPlan[], rng: Rng): void {
  const used = new Set<number>();
  for (const [name, era, mutate] of TEMPLATES) {
    if (plans.some((p) => matches(p, name))) continue;
    // never take the only launch that covers another kind
    const sole = new Set<number>();
    for (const [other] of TEMPLATES) {
      const m = plans.filter((p) => matches(p, other));
      if (m.length === 1) sole.add(m[0].index);
    }
    const candidates = plans.filter(
      (p) =>
        !used.has(p.index) && !sole.has(p.index) && (era === null || p.era === era) && !p.usdc && !p.mayhem && !p.pumpQuote &&
        // the 2026-10 era is a fifth of the launches with many kinds to show: its templates may also take a no-outside-buyer launch
        (p.primary === 'dead' || p.primary === 'organic' || (era === ERA_2610 && p.primary === 'no_outside_buyer')),
    );
    if (candidates.length === 0) continue;
    const p = rng.pick(candidates);
    used.add(p.index);
    mutate(p);
    shape(p, rng);
  }
}

function matches(p: LaunchPlan, name: string): boolean {
  switch (name) {
    case 'usdc': return p.usdc;
    case 'mayhem': return p.mayhem;
    case 'shared_funder': return p.sharedFunder;
    case 'distinct_funders': return p.distinctFunders;
    case 'snipers': return p.snipers > 0 && p.creatorSells;
    case 'withdraw_graduation': return p.graduation === 'withdraw';
    case 'completed_not_migrated': return completes(p.primary) && p.graduation === 'none';
    case 'noop_migrate_retry': return p.noopRetries > 0;
    case 'multi_buy_completion': return p.multiBuyCompletion && (p.primary === 'taken_later' || p.primary === 'taken_in_creation_slot');
    case 'buyout_with_pool_part': return p.era === ERA_2610 && completes(p.primary) && p.poolPart && p.graduation === 'migrate' && p.primary !== 'taken_in_creation_slot';
    case 'buyout_without_pool_part': return p.era === ERA_2610 && completes(p.primary) && !p.poolPart && p.graduation === 'migrate';
    case 'taken_in_creation_slot_2610': return p.era === ERA_2610 && p.primary === 'taken_in_creation_slot' && p.bundleInCreate;
    case 'pump_quote': return p.pumpQuote;
    case 'creator_sold_at_birth': return p.creatorSellsAtBirth && p.primary === 'organic';
    case 'multi_hop': return p.multiHopShare > 0 && p.primary === 'organic';
    // (an organic_completion curve is usually completed by the stream of buys before its final take)
    case 'multi_hop_completion': return p.era === ERA_2610 && (p.primary === 'taken_later' || p.primary === 'taken_in_creation_slot') && p.poolPart && p.multiHopShare > 0 && !p.creatorTakes && !p.pumpQuote;
    case 'creator_took_curve_at_birth': return p.creatorTakes && p.primary === 'taken_in_creation_slot';
    case 'router': return p.routerShare > 0 && (p.primary === 'organic' || completes(p.primary));
    default: return p.primary === name;
  }
}
