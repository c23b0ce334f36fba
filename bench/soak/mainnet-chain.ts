/**
 * A simulated chain at mainnet's rate for the soak (`npm run soak`): a small simulated chain of the
 * 2026-10 era (every launch kind, its failed-transaction share), re-slotted into a dense live
 * timeline and filled up to `tps` transactions a second with copies of its curve trades.
 *
 * Why copies: the simulator writes about 25 transactions per launch and takes about 60 ms of CPU per
 * transaction, while mainnet in October 2026 carried about 380 pump and PumpSwap transactions a
 * second for a few launches a second (hundreds of trades per launch). Simulating 10 minutes of
 * that (228,000 transactions) would take longer than the soak itself. So the launches come from the
 * simulator at a realistic launch rate, in block order, spread evenly over the run, and every slot
 * is topped up with copies of recently landed buys and sells — same accounts, logs, result (failed
 * ones stay failed), a new signature — of curves that never complete (a copied completing buy would
 * complete a curve twice), made after the launch's first 30 s by wallets outside its cohort (not the
 * creator, no trade in the first 30 s): the collector looks up the first funders of the cohort, and
 * thousands of copied trades in a cohort wallet's history would exhaust its lookup caps, which a
 * mainnet cohort wallet does not do in ten minutes.
 *
 * A copy is a trade: it moves its curve. Its `TradeEvent` carries the reserves after the trade it
 * copies, so from the copy's slot the curve account is that state (a new account version: the curve's
 * version of the time with those four reserves), as on a chain where the copy had traded. Without it
 * the held history ends on a copy whose reserves the account never shows, and the collector's history
 * completeness check (methodology markers-v2 "History completeness") rightly marks such launches
 * `history_incomplete` once they are quiet (4 of 180 in every 10-minute soak before this). Pure (no fs).
 */
import { createHash } from 'node:crypto';
import { base58 } from '@scure/base';
import type { ChainAccount } from '../../devchain/replay/account.ts';
import type { LoadedChain } from '../../devchain/replay/load-chain.ts';
import { renderTransaction, type ChainTransaction } from '../../devchain/replay/transaction.ts';
import { decodeTransaction } from '../../src/core/decode/index.ts';
import { FIRST_WINDOW_SECONDS } from '../../src/core/record/build-launch.ts';
import { isSolQuote, str } from '../../src/core/record/launch-events.ts';

/** Mainnet's slot time, ms. */
export const SLOT_MS = 400;

/** Options of {@link mainnetRateChain}. */
export interface MainnetRateOptions {
  /** run length in seconds */
  seconds: number;
  /** transactions per second (default 380: pump.fun + PumpSwap, October 2026) */
  tps?: number;
  /** the slot the dense chain starts at (its first slot landing is `firstSlot`) */
  firstSlot: number;
  /** seeds the copies' choice and signatures */
  seed: number;
  /** how many of the most recently landed trades a copy is drawn from (default 400) */
  recentTrades?: number;
}

/** A launch of the dense chain: its mint, creation signature and slot. */
export interface DenseLaunch {
  mint: string;
  signature: string;
  slot: number;
}

/** What {@link mainnetRateChain} returns. */
export interface MainnetRateChain {
  chain: LoadedChain;
  launches: DenseLaunch[];
  /** last slot holding transactions */
  lastSlot: number;
  summary: { transactions: number; simulated: number; copies: number; failed: number; perSlot: number };
}

/** Instruction names (from `Program log: Instruction: X`) of a curve trade and what may ride along. */
const TRADE = /^(Buy|BuyV3|BuyExactQuoteInV3|Sell|SellV2|SellV3|MultiHopCurveSwap)$/;
const RIDE_ALONG = /^(GetAccountDataSize|InitializeAccount3|InitializeImmutableOwner|Transfer|TransferChecked|MultiHopSwap|Swap)$/;

/** Whether a transaction is a plain curve trade (a buy or sell and nothing else of pump's). */
export function isPlainTrade(tx: ChainTransaction): boolean {
  let trade = false;
  for (const line of tx.logs) {
    const i = line.indexOf('Instruction: ');
    if (i < 0) continue;
    const name = line.slice(i + 13);
    if (TRADE.test(name)) trade = true;
    else if (!RIDE_ALONG.test(name)) return false;
  }
  return trade;
}

/** mulberry32: a small seeded PRNG in [0, 1). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A deterministic 64-byte signature, base58. */
const signatureOf = (seed: number, n: number) => base58.encode(createHash('sha512').update(`lpa-soak ${seed} ${n}`).digest());

/**
 * `tx` at a new slot (and, for a copy, a new signature). Its block time stays the simulated one:
 * the events in its logs carry it as their `timestamp` (the Clock sysvar's), and the collector
 * relies on the two being equal (methodology "Transactions taken from their logs"), so block times
 * keep the simulator's clock (October–November 2026) while slots follow the wall clock.
 */
function placed(tx: ChainTransaction, slot: number, signature = tx.signature): ChainTransaction {
  const raw = tx.raw ? { ...tx.raw, signatures: [signature, ...tx.raw.signatures.slice(1)] } : null;
  // a stored wire form holds the old signature: drop it, the replay encodes it again from `raw`
  return { ...tx, signature, slot, raw, wireBase64: signature === tx.signature ? tx.wireBase64 : null };
}

/** The curve state a successful trade leaves: its curve account's address and the reserves after it (raw units), by mint. */
interface CurveAfter {
  curve: string;
  /** virtual token, virtual quote, real token, real quote reserves (u64; null: the event does not give it) */
  reserves: [bigint | null, bigint | null, bigint | null, bigint | null];
}

const u64 = (v: unknown): bigint | null => (typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint' ? BigInt(v) : null);

/**
 * The curve states `tx` leaves (one per launch it trades; the last `TradeEvent` of a mint wins): the
 * curve from `curveOf` (mint → bonding curve address), the reserves from the event (the quote side
 * under `*_sol_*` names when the quote is SOL, as src/core/record/curve-history.ts reads them). None
 * for a failed transaction (it moved nothing) or a mint without a known curve.
 */
export function curvesAfter(tx: ChainTransaction, curveOf: ReadonlyMap<string, string>): CurveAfter[] {
  if (tx.err !== null) return [];
  const out = new Map<string, CurveAfter>();
  for (const e of decodeTransaction(renderTransaction(tx, 'json', true)).events) {
    if (e.name !== 'TradeEvent' || e.program !== 'pump') continue;
    const f = e.fields;
    const mint = str(f.mint);
    const curve = mint === undefined ? undefined : curveOf.get(mint);
    if (!mint || !curve) continue;
    const sol = isSolQuote(str(f.quote_mint));
    out.set(mint, {
      curve,
      reserves: [u64(f.virtual_token_reserves), u64(sol ? f.virtual_sol_reserves : f.virtual_quote_reserves), u64(f.real_token_reserves), u64(sol ? f.real_sol_reserves : f.real_quote_reserves)],
    });
  }
  return [...out.values()];
}

/**
 * `account` (a BondingCurve: 8-byte discriminator, then virtual token, virtual quote, real token, real
 * quote reserves as little-endian u64 at bytes 8, 16, 24, 32; reference.md §1.5) at `slot` with the
 * given reserves (null: kept as it was).
 */
export function withReserves(account: ChainAccount, slot: number, reserves: CurveAfter['reserves']): ChainAccount {
  const data = Buffer.from(account.data);
  reserves.forEach((r, k) => {
    if (r !== null) data.writeBigUInt64LE(r, 8 + 8 * k);
  });
  return { ...account, slot, data };
}

/**
 * A simulated transaction that leaves a curve's reserves as they were (one that touches the curve
 * without trading) writes a base version holding the simulator's reserves, which copies may have
 * moved since: such a version keeps the reserves the curve holds in the dense chain at that point.
 * `accounts`: the base versions (the first `baseCount`, already at their dense slots) then the copies'
 * versions in slot order; replaced in place. Pure over its arguments.
 */
export function keepCopiedReserves(accounts: ChainAccount[], curves: ReadonlySet<string>, baseCount: number): void {
  const reservesOf = (a: ChainAccount) => a.data.subarray(8, 40);
  const byCurve = new Map<string, number[]>();
  accounts.forEach((a, i) => {
    if (!curves.has(a.address) || a.data.length < 40) return;
    const list = byCurve.get(a.address);
    if (list) list.push(i);
    else byCurve.set(a.address, [i]);
  });
  for (const list of byCurve.values()) {
    // dense order: by slot; in a slot the base version (its simulated transactions) before the copies'
    list.sort((x, y) => accounts[x]!.slot - accounts[y]!.slot || x - y);
    let previousBase: Buffer | null = null;
    let current: Buffer | null = null;
    for (const i of list) {
      const a = accounts[i]!;
      if (i < baseCount) {
        const own = Buffer.from(reservesOf(a));
        if (previousBase && current && own.equals(previousBase) && !own.equals(current)) {
          const data = Buffer.from(a.data);
          current.copy(data, 8);
          accounts[i] = { ...a, data };
        }
        previousBase = own;
      }
      current = Buffer.from(reservesOf(accounts[i]!));
    }
  }
}

/** A launch of the base chain, from its truth.json record. */
export interface SimulatedLaunch {
  mint: string;
  creationSignature: string;
  /** creation block time, unix ms */
  createdAtMs: number;
  creator: string;
  /** the curve completes */
  completes: boolean;
  /** its bonding curve's address (bondingCurveAddress): the account its copied trades move; without it they move nothing */
  curve?: string;
}

/**
 * The dense chain from `base` (a simulated chain; `mints`: its launches' mints, e.g. truth.json's
 * keys; `completing`: those whose curve completes). Errors: throws when `base` has no plain trade
 * to copy, or a transaction that cannot be copied (no `raw` form).
 */
export function mainnetRateChain(base: LoadedChain, truth: SimulatedLaunch[], opts: MainnetRateOptions): MainnetRateChain {
  const tps = opts.tps ?? 380;
  const perSlot = Math.max(1, Math.round((tps * SLOT_MS) / 1000));
  const slots = Math.max(1, Math.round((opts.seconds * 1000) / SLOT_MS));
  const rand = prng(opts.seed);
  const txs = base.transactions; // block order
  const completing = new Set(truth.filter((t) => t.completes).map((t) => t.mint));
  const mints = new Set(truth.map((t) => t.mint));
  const mintOf = (tx: ChainTransaction) => tx.accountKeys.find((k) => mints.has(k));
  const creationOf = new Map(truth.map((t) => [t.creationSignature, t.mint]));
  const createdAt = new Map(truth.map((t) => [t.mint, t.createdAtMs / 1000]));
  const inFirstWindow = (tx: ChainTransaction, mint: string) => tx.blockTime === null || tx.blockTime - createdAt.get(mint)! <= FIRST_WINDOW_SECONDS;
  // the cohorts: creators and every fee payer of a transaction in a launch's first window
  const cohort = new Set(truth.map((t) => t.creator));
  for (const tx of txs) {
    const mint = mintOf(tx);
    if (mint && inFirstWindow(tx, mint)) cohort.add(tx.accountKeys[0]!);
  }
  const copyable = (tx: ChainTransaction, mint: string | undefined) =>
    tx.raw !== null && mint !== undefined && !completing.has(mint) && !inFirstWindow(tx, mint) && !cohort.has(tx.accountKeys[0]!) && isPlainTrade(tx);

  // the simulated transactions, spread evenly over the run in block order; the transactions of one
  // simulated slot stay in one slot (the simulator writes one account state after them all)
  const newSlotOf: number[] = [];
  txs.forEach((t, i) => newSlotOf.push(i > 0 && t.slot === txs[i - 1]!.slot ? newSlotOf[i - 1]! : opts.firstSlot + Math.floor((i * slots) / txs.length)));
  // A base account version (the state after its slot's transactions) at the dense slot of the last
  // simulated transaction at or before its slot: the slot its own transactions landed in.
  const baseSlots = txs.map((t) => t.slot);
  const denseSlot = (s: number) => {
    let lo = 0;
    let hi = baseSlots.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (baseSlots[mid]! <= s) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 ? newSlotOf[lo - 1]! : opts.firstSlot;
  };
  const accounts: ChainAccount[] = base.accounts.map((a) => ({ ...a, slot: a.slot === 0 ? 0 : denseSlot(a.slot) }));
  const versionsOf = new Map<string, ChainAccount[]>();
  for (const a of [...accounts].sort((x, y) => x.slot - y.slot)) {
    const list = versionsOf.get(a.address);
    if (list) list.push(a);
    else versionsOf.set(a.address, [a]);
  }
  /** the base version of `address` visible at `slot` (the last one at or before it) */
  const versionAt = (address: string, slot: number) => versionsOf.get(address)?.findLast((a) => a.slot <= slot);
  const afterCache = new Map<string, CurveAfter[]>();
  const curveOf = new Map(truth.flatMap((t) => (t.curve ? [[t.mint, t.curve] as const] : [])));
  const out: ChainTransaction[] = [];
  const launches: DenseLaunch[] = [];
  const recent: ChainTransaction[] = [];
  const keep = opts.recentTrades ?? 400;
  let copies = 0;
  let i = 0;
  for (let slot = opts.firstSlot; slot < opts.firstSlot + slots; slot++) {
    let inSlot = 0;
    for (; i < txs.length && newSlotOf[i] === slot; i++, inSlot++) {
      const tx = placed(txs[i]!, slot);
      out.push(tx);
      const created = creationOf.get(tx.signature);
      if (created) launches.push({ mint: created, signature: tx.signature, slot });
      const mint = mintOf(tx);
      if (copyable(tx, mint)) {
        recent.push(tx);
        if (recent.length > keep) recent.shift();
      }
    }
    if (recent.length === 0) continue; // nothing landed to copy yet
    const moved = new Map<string, CurveAfter['reserves']>(); // curve → the reserves its last copy of the slot leaves
    for (; inSlot < perSlot; inSlot++) {
      const src = recent[Math.floor(rand() * recent.length)]!;
      out.push(placed(src, slot, signatureOf(opts.seed, copies++)));
      let after = afterCache.get(src.signature);
      if (!after) afterCache.set(src.signature, (after = curvesAfter(src, curveOf)));
      for (const a of after) moved.set(a.curve, a.reserves);
    }
    // the copies traded: their curves hold the state they leave, after the slot's simulated transactions
    for (const [curve, reserves] of moved) {
      const current = versionAt(curve, slot);
      if (current) accounts.push(withReserves(current, slot, reserves));
    }
  }
  if (copies === 0 && txs.length < perSlot) throw new Error('the base chain has no plain curve trade to copy');
  keepCopiedReserves(accounts, new Set(curveOf.values()), base.accounts.length);

  const lastSlot = out.at(-1)?.slot ?? opts.firstSlot;
  return {
    chain: { dir: null, transactions: out, accounts, slot: null, blockTimes: new Map() },
    launches,
    lastSlot,
    summary: { transactions: out.length, simulated: txs.length, copies, failed: out.filter((t) => t.err !== null).length, perSlot },
  };
}
