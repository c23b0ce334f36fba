/**
 * The whole simulated chain in memory: plans → launches → transactions rendered in block order,
 * account versions, chain.json and truth.json contents. Deterministic for a seed. Pure (no fs).
 */
import { Rng } from './prng.ts';
import { completes, DEFAULT_ERA_2610_SHARE, planLaunches } from './scenarios.ts';
import { type AccountSnapshot, blockTimeOf, type LaunchEnv, type LaunchResult, simulateLaunch, type Timeline } from './launch.ts';
import { Ledger, renderTransaction, type TxSpec } from './transactions.ts';
import { type Truth, truthOf } from './truth.ts';
import { ALL_KINDS } from './scenarios.ts';
import { type Era, ERA_2610, isModern } from './curve.ts';
import { COMPUTE_BUDGET, RENT_SYSVAR, SYSTEM_PROGRAM } from './keys.ts';

/** Options of {@link generateChain}. */
export interface SimulateOptions {
  launches: number;
  seed: number;
  /** unix seconds of the timeline origin (default 2024-07-25T00:00:00Z); era windows shift with it */
  startTime?: number;
  /**
   * Share of the launches in the 2026-10 era (after the 2026-10-08 redeploy), taken from the 2026
   * era's share; default {@link DEFAULT_ERA_2610_SHARE} (0.2). With 0 the chain is byte-identical to
   * the three-era simulator's for the same seed.
   */
  era2610Share?: number;
  /**
   * Share of the 2026-10 era's transactions (those with compute-budget settings) rendered as
   * version-1 transactions (SIMD-0385: `transactionConfig`, no compute-budget instructions, no
   * lookup tables); default {@link DEFAULT_V1_SHARE}. Chosen by each signature's hash, so the share
   * changes nothing else in the chain or the truth.
   */
  v1Share?: number;
}

/** The 2026-10 era's share of version-1 transactions (SIMD-0385) that the simulator imitates. */
export const ERA_2610_V1_SHARE = 0.3;
/** Default `v1Share`: the era's share (the replay RPC serves version-1 transactions as mainnet does). */
export const DEFAULT_V1_SHARE: number = ERA_2610_V1_SHARE;

/** chain.json. */
export interface ChainInfo {
  generator: 'lpa simulate';
  seed: number;
  launches: number;
  firstSlot: number;
  lastSlot: number;
  genesisTime: number;
}

/** Everything write-chain.ts writes. */
export interface SimulatedChain {
  /** transactions.ndjson lines (no trailing newline) in block order */
  transactions: string[];
  /** accounts.ndjson lines in slot order */
  accounts: string[];
  chain: ChainInfo;
  truth: Truth;
  summary: { launches: number; transactions: number; failed: number; accountVersions: number; kinds: Record<string, number> };
}

const DEFAULT_GENESIS = 1721865600; // 2024-07-25T00:00:00Z
/** Slot at DEFAULT_GENESIS, extrapolated from a real 2024-08-20 slot (284682639 @ 1724128600) at 0.4 s/slot. */
const DEFAULT_GENESIS_SLOT = 279_025_139;
/** Era windows (unix seconds) for creation times. */
const ERA_WINDOWS: Record<Era, [number, number]> = {
  2024: [1722470400, 1738368000], // 2024-08-01 → 2025-02-01 (Raydium era)
  2025: [1756684800, 1762387200], // 2025-09-01 → 2025-11-06 (PumpSwap, creator fees, before create_v2)
  2026: [1768435200, 1788220800], // 2026-01-15 → 2026-09-01 (create_v2, 2 remaining accounts)
  '2026-10': [1791417600, 1795132800], // 2026-10-08 → 2026-11-21 (the redeploy: v3 trades, synthetic migration, sweeps)
};

function fnv(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

const NATIVE_PROGRAMS = new Set([SYSTEM_PROGRAM, COMPUTE_BUDGET]);

/** Generate the chain. Errors: throws on launches < 1. */
export function generateChain(opts: SimulateOptions): SimulatedChain {
  if (!Number.isInteger(opts.launches) || opts.launches < 1) throw new Error('launches must be a positive integer');
  const shift = opts.startTime !== undefined ? opts.startTime - DEFAULT_GENESIS : 0;
  const genesis0 = DEFAULT_GENESIS + shift;
  const root = new Rng(opts.seed);
  const plans = planLaunches(opts.launches, root.fork('plans'), opts.era2610Share ?? DEFAULT_ERA_2610_SHARE);
  const v1Share = opts.v1Share ?? DEFAULT_V1_SHARE;
  const timeline0: Timeline = { genesisTime: genesis0, firstSlot: DEFAULT_GENESIS_SLOT };
  // Creation times: sorted uniform draws inside each era's window.
  const timeRng = root.fork('times');
  const times = new Map<Era, number[]>();
  for (const era of [2024, 2025, 2026, ERA_2610] as const) {
    const n = plans.filter((p) => p.era === era).length;
    const [a, b] = ERA_WINDOWS[era];
    times.set(era, Array.from({ length: n }, () => a + shift + timeRng.float() * (b - a)).sort((x, y) => x - y));
  }
  const walletInit = new Map<string, bigint>();
  const launches: LaunchResult[] = [];
  const eraPos: Record<Era, number> = { 2024: 0, 2025: 0, 2026: 0, '2026-10': 0 };
  for (const plan of plans) {
    const t = times.get(plan.era)![eraPos[plan.era]++];
    const slot = timeline0.firstSlot + Math.round((t - genesis0) / 0.4);
    const env: LaunchEnv = {};
    if (plan.pumpQuote) {
      // the quote coin: the newest earlier SOL coin on Token-2022 that never completes (so never complete-but-unmigrated)
      const q = [...launches].reverse().find((l) => isModern(l.plan.era) && !l.ctx.usdc && !l.ctx.pumpQuote && !l.plan.mayhem && !completes(l.plan.primary));
      if (q) env.quoteCoin = { mint: q.ctx.mint, curve: q.ctx.curve };
    }
    launches.push(simulateLaunch(plan, slot, root.fork(`launch-${plan.index}`), timeline0, walletInit, env));
  }
  const v1Eligible = new Set<TxSpec>();
  for (const l of launches) {
    if (l.plan.era !== ERA_2610) continue;
    for (const spec of l.specs) if (spec.instructions[0]?.programId === COMPUTE_BUDGET && spec.instructions[1]?.programId === COMPUTE_BUDGET) v1Eligible.add(spec);
  }
  const asV1 = (spec: TxSpec) => v1Eligible.has(spec) && fnv(spec.signature) / 2 ** 32 < v1Share;

  // Block order: slot, then launch, then the launch's own order.
  const all: { spec: TxSpec; launch: number; seq: number }[] = [];
  launches.forEach((l, li) => l.specs.forEach((spec, seq) => all.push({ spec, launch: li, seq })));
  all.sort((a, b) => a.spec.slot - b.spec.slot || a.launch - b.launch || a.seq - b.seq);
  const minSlot = all[0].spec.slot;
  const k = Math.floor((minSlot - timeline0.firstSlot) / 5);
  const timeline: Timeline = { firstSlot: timeline0.firstSlot + 5 * k, genesisTime: genesis0 + 2 * k };
  const bt = (slot: number) => blockTimeOf(timeline, slot);

  const ledger = new Ledger(walletInit, (a) => {
    if (NATIVE_PROGRAMS.has(a)) return 1n;
    if (a === RENT_SYSVAR) return 1_009_200n;
    return 1_141_440n + BigInt(fnv(a)) * 1000n;
  });
  const transactions = all.map(({ spec }) => JSON.stringify(renderTransaction(spec, bt(spec.slot), ledger, asV1(spec))));

  const snaps: (AccountSnapshot & { launch: number; seq: number })[] = [];
  launches.forEach((l, li) => l.accounts.forEach((a, seq) => snaps.push({ ...a, launch: li, seq })));
  snaps.sort((a, b) => a.slot - b.slot || a.launch - b.launch || a.seq - b.seq);
  const accounts = snaps.map((a) =>
    JSON.stringify({
      address: a.address,
      slot: a.slot,
      account: { data: [Buffer.from(a.data).toString('base64'), 'base64'], lamports: Number(a.lamports), owner: a.owner, executable: false, rentEpoch: 0, space: a.data.length },
    }),
  );

  const truth: Truth = { methodVersion: 'markers-v2', records: {} };
  const kinds: Record<string, number> = Object.fromEntries(ALL_KINDS.map((k2) => [k2, 0]));
  for (const l of launches) {
    const rec = truthOf(l, bt, asV1);
    truth.records[l.ctx.mint] = rec;
    for (const tag of rec.kind.split('+')) kinds[tag] = (kinds[tag] ?? 0) + 1;
  }
  const lastSlot = Math.max(all.at(-1)!.spec.slot, snaps.at(-1)?.slot ?? 0);
  return {
    transactions,
    accounts,
    chain: { generator: 'lpa simulate', seed: opts.seed, launches: opts.launches, firstSlot: timeline.firstSlot, lastSlot, genesisTime: timeline.genesisTime },
    truth,
    summary: { launches: launches.length, transactions: transactions.length, failed: all.filter((x) => x.spec.err !== null).length, accountVersions: accounts.length, kinds },
  };
}
