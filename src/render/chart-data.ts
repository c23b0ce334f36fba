/**
 * The series behind the token page's three charts, computed from a launch's decoded transactions
 * (`launch_tx`) and its document, by the same rules as the record builder (docs/methodology.md):
 * only successful transactions, trades from `tradesOf`, outside wallets exclude the creator and the
 * protocol wallets, the first window is `inFirstWindow`. Pure: no I/O; the collector's publish step
 * and the server's fallback render read the transactions and pass them in, so both give the same page.
 *
 * When the held history cannot support a chart (no creation, history incomplete) the series says
 * why in `missing` instead of drawing a partial picture.
 */
import type { DecodedTransaction, LaunchDocument } from '../core/types.ts';
import { PROTOCOL_WALLETS } from '../core/programs.ts';
import { inFirstWindow, migratesMint } from '../core/record/build-launch.ts';
import { big, chainTimeOf, isSolQuote, str, successful, tradesOf, type Trade } from '../core/record/launch-events.ts';

/** Net tokens held per group at one moment (raw units, decimal strings); `curve` = supply not yet bought. */
export interface SupplySplit {
  creator: string;
  bundled: string;
  early: string;
  other: string;
  curve: string;
}

/** One trade of the buyer timeline. */
export interface TimelinePoint {
  /** seconds after the creation transaction (blockTime; slot distance × 0.4 s when a blockTime is missing) */
  t: number;
  /** present when `t` is estimated from the slot distance (this or the creation transaction has no blockTime) */
  estimated?: true;
  slot: number;
  signature: string;
  wallet: string;
  /** creator (buy or sell), bundled (an outside buy in the creation slot), early (first-window buy), other */
  who: 'creator' | 'bundled' | 'early' | 'other';
  isBuy: boolean;
  tokens: string;
  quote: string;
}

/** A first-window buyer: its buys in the window summed. */
export interface EarlyBuyer {
  wallet: string;
  /** seconds after creation of its first buy */
  t: number;
  /** present when `t` is estimated from the slot distance (a blockTime is missing) */
  estimated?: true;
  signatures: string[];
  tokens: string;
  quote: string;
}

/** One point of the curve's real quote reserves (after a trade). */
export interface CurvePoint {
  t: number;
  slot: number;
  /** raw quote units in the curve after this trade */
  realQuote: string;
}

/** Everything the three charts draw. */
export interface ChartSeries {
  /** why no chart can be drawn (the launch's history is not held whole), or null */
  missing: string | null;
  /**
   * Whether any time the charts place was estimated from the slot distance (× 0.4 s) because a
   * transaction, or the creation, has no blockTime: the page then says so and marks such times "≈".
   */
  timesEstimated: boolean;
  quoteMint: string;
  /** `launch.quoteDecimals` (null: not known; the quote amounts are then drawn in raw units) */
  quoteDecimals: number | null;
  totalSupplyRaw: string;
  supply: { atCreationSlot: SupplySplit; at30s: SupplySplit } | null;
  timeline: {
    points: TimelinePoint[];
    /** the window shown: buys within 30 s, cut at the first 100 buys */
    cutAt100: boolean;
    /** the last second of the creation slot's trades (the bundle band), seconds after creation */
    creationSlotEnd: number;
    /** distinct outside wallets that bought in the creation slot (= launch.bundledBuyers) */
    bundledWallets: number;
    /** distinct outside wallets that bought in the first window (= launch.buyersFirst30s) */
    first30sWallets: number;
  } | null;
  /** the first-window buyers that are not bundled (wallet_role 'early'), with what they bought in the window, first buy first */
  earlyBuyers: EarlyBuyer[];
  curve: {
    points: CurvePoint[];
    /** points after each trade, at most CURVE_MAX_POINTS (the last of each time bucket) */
    /** the curve trades walked (each a point before the points were thinned to at most CURVE_MAX_POINTS) */
    trades: number;
    /** where the reserves came from: the events' real reserves, or the sum of trade amounts (2024 events) */
    source: 'events' | 'trades';
    completedAt: number | null;
    migratedAt: number | null;
    /** seconds after creation of the chart's right edge: the latest trade, completion or migration */
    endAt: number;
    /** the pool's quote reserves now (raw), when graduated and read */
    poolQuoteNow: string | null;
  } | null;
}

/** The curve keeps at most this many points (about one per pixel column of the chart): a 2,000-trade curve stays a small path. */
export const CURVE_MAX_POINTS = 560;

/**
 * At most {@link CURVE_MAX_POINTS} points: the last point of each equal time bucket over [0, end]
 * (the state a step chart shows at that column), the first and last points always kept. The points
 * come as parallel arrays (time, slot, raw quote): only the kept ones become objects.
 */
function downsample(ts: Float64Array, slots: Float64Array, q: (bigint | string)[], n: number, end: number): CurvePoint[] {
  const out: CurvePoint[] = [{ t: ts[0]!, slot: slots[0]!, realQuote: q[0]!.toString() }];
  if (n <= CURVE_MAX_POINTS) {
    for (let i = 1; i < n; i++) out.push({ t: ts[i]!, slot: slots[i]!, realQuote: q[i]!.toString() });
    return out;
  }
  const width = Math.max(end, 1) / (CURVE_MAX_POINTS - 2);
  // each point's bucket computed once (it is compared with the next point's)
  let bucket = Math.floor(ts[1]! / width);
  for (let i = 1; i < n; i++) {
    const next = i === n - 1 ? NaN : Math.floor(ts[i + 1]! / width);
    if (i === n - 1 || next !== bucket) out.push({ t: ts[i]!, slot: slots[i]!, realQuote: q[i]!.toString() });
    bucket = next;
  }
  return out;
}

/** The creation transaction as the walk reads it. */
interface Creation {
  signature: string;
  slot: number;
  blockTime: number | null;
}

/**
 * The one walk over every held successful transaction (slot order), as a running state: whether
 * the creation transaction is among them, the transactions of the creation slot and the first
 * window (for `tradesOf`), and the curve's real quote reserves after each trade, to migration, as
 * parallel arrays (time after creation, slot, raw quote), with where they came from and the
 * completion and migration times. No object per trade (inside chartSeries it ran about three
 * times slower). {@link advance} walks transactions into it; the same list grown by appends (the
 * collector's transaction cache: src/ingest/tx-cache.ts) is walked on from where it stopped
 * ({@link resumedWalk}).
 */
interface Walk {
  mint: string;
  creation: Creation;
  /** how many transactions of the list were walked, and the first and last of them: a list that still holds them there is the same list grown */
  n: number;
  first: DecodedTransaction | undefined;
  last: DecodedTransaction | undefined;
  held: boolean;
  windowTxs: DecodedTransaction[];
  /**
   * The points: time after creation and slot in typed arrays (grown by doubling; their bytes are
   * outside the JavaScript heap, so a walk kept for a held list is not copied by every young-generation
   * collection), the raw quote in an array; `points` of them are filled.
   */
  pointT: Float64Array;
  pointSlot: Float64Array;
  pointQ: (bigint | string)[];
  points: number;
  source: 'events' | 'trades';
  sum: bigint;
  lastQ: bigint | string | null;
  completedAt: number | null;
  migratedAt: number | null;
  prevSlot: number;
  /** whether a walked transaction's time was estimated from its slot (it or the creation has no blockTime) */
  estimated: boolean;
  /** the first window's part of the series, kept while the window holds the same transactions and the record the same creator and supply */
  window?: { key: string; part: WindowPart };
}

/** A walk before any transaction, with room for `room` points (the creation's and one a transaction: {@link walk} knows how many). */
function newWalk(mint: string, creation: Creation, room: number): Walk {
  const pointSlot = new Float64Array(room);
  pointSlot[0] = creation.slot;
  return {
    mint, creation, n: 0, first: undefined, last: undefined, held: false, windowTxs: [], pointT: new Float64Array(room), pointSlot, pointQ: [0n], points: 1,
    source: 'events', sum: 0n, lastQ: null, completedAt: null, migratedAt: null, prevSlot: -Infinity, estimated: false,
  };
}

/**
 * Walk `txs[from…]` into `w`. Failed transactions are skipped; false when the successful ones are
 * not in slot order (the store returns them in order: then this one pass is all, with no filtered
 * copy made first), and the caller walks `successful(txs)` instead — the same transactions in the
 * same order. Indexed loops, and the instructions' cheapest test first: this walk reads every held
 * transaction at every first render (a 2,000-trade curve), and for-of cost measurably here.
 */
function advance(w: Walk, txs: DecodedTransaction[], from: number): boolean {
  const { mint, creation } = w;
  const cbt = creation.blockTime;
  const { pointQ, windowTxs } = w;
  let { pointT, pointSlot, points } = w;
  // room for a point per transaction (one trade each, as most are); grown again on demand below
  if (pointT.length < points + txs.length - from) {
    pointT = grown(pointT, points + txs.length - from);
    pointSlot = grown(pointSlot, pointT.length);
  }
  let { held, source, sum, lastQ, completedAt, migratedAt, prevSlot, estimated } = w;
  const nTx = txs.length;
  for (let k = from; k < nTx; k++) {
    const tx = txs[k]!;
    if (tx.err !== null && tx.err !== undefined) continue;
    const slot = tx.slot ?? 0;
    if (slot < prevSlot) return false;
    prevSlot = slot;
    if (!held && tx.signature === creation.signature) held = true;
    // the events' clock where the answer has no blockTime, as the record reads it (launch-events.ts chainTimeOf, markers-v12)
    const blockTime = tx.blockTime ?? chainTimeOf(tx);
    if (tx.slot === creation.slot || inFirstWindow(creation, { slot, blockTime })) windowTxs.push(tx);
    const timed = cbt !== null && blockTime !== null;
    if (!timed) estimated = true;
    const tAt = timed ? blockTime - cbt : (slot - creation.slot) * SLOT_SECONDS;
    const events = tx.events;
    let poolCreated = false;
    for (let j = 0; j < events.length; j++) {
      const e = events[j]!;
      const name = e.name;
      const f = e.fields;
      if (name === 'TradeEvent') {
        if (migratedAt !== null || f.mint !== mint) continue;
        const sol = isSolQuote(str(f.quote_mint));
        const real = sol ? f.real_sol_reserves : f.real_quote_reserves;
        if (real === undefined || source === 'trades') {
          source = 'trades';
          if (sum === 0n && lastQ !== null) sum = BigInt(lastQ);
          const q = sol ? big(f.sol_amount) : big(f.quote_amount);
          sum += f.is_buy === true ? q : -q;
        }
        // the raw decimal string is kept as it is; only the points the chart keeps are converted
        lastQ = source === 'trades' ? sum : typeof real === 'string' ? real : big(real);
        if (points === pointT.length) {
          pointT = grown(pointT, points + 1);
          pointSlot = grown(pointSlot, pointT.length);
        }
        pointT[points] = tAt;
        pointSlot[points] = slot;
        pointQ.push(lastQ);
        points++;
      } else if (name === 'CompleteEvent') {
        if (completedAt === null && str(f.mint) === mint) completedAt = tAt;
      } else if (migratedAt === null && name === 'CompletePumpAmmMigrationEvent' && str(f.mint) === mint) {
        migratedAt = tAt;
      } else if (name === 'CreatePoolEvent' && str(f.base_mint) === mint) {
        poolCreated = true;
      }
    }
    if (migratedAt === null) {
      // a Raydium-era withdraw; or a PumpSwap pool of the mint created inside a pump migrate of it
      // (markers-v7, as build-launch.ts: anyone may create a pool of any mint, which is no migration)
      const instructions = tx.instructions;
      for (let j = 0; j < instructions.length; j++) {
        const i = instructions[j]!;
        if ((i.program === 'pump' && i.name === 'withdraw' && i.accounts.mint === mint) || (poolCreated && migratesMint(i, mint))) {
          migratedAt = tAt;
          break;
        }
      }
    }
  }
  Object.assign(w, { pointT, pointSlot, points, held, source, sum, lastQ, completedAt, migratedAt, prevSlot, estimated, n: nTx, first: txs[0], last: txs[nTx - 1] });
  return true;
}

/** `a`'s values in a new array of at least `min` (and twice `a`'s) length. */
function grown(a: Float64Array, min: number): Float64Array {
  const b = new Float64Array(Math.max(min, a.length * 2));
  b.set(a);
  return b;
}

/** A whole walk of `txs`, or null when they are not in slot order. */
function walk(mint: string, txs: DecodedTransaction[], creation: Creation): Walk | null {
  const w = newWalk(mint, creation, txs.length + 1);
  return advance(w, txs, 0) ? w : null;
}

/**
 * The walk last made of each list of transactions, kept by the list: a list dropped (the
 * collector's transaction cache lets an idle or evicted mint's list go; the server reads a new list
 * for each render) takes its walk with it, so the walks held never outgrow the lists held.
 */
let walks = new WeakMap<DecodedTransaction[], Walk>();

/**
 * The walk of `txs`, resumed from the one kept for that list when it has grown by appends since
 * (the collector's transaction cache appends in place: still the same mint and creation, still
 * starting with the same first transaction and holding the last one walked where it was): only the
 * new transactions are read. Else a whole walk, kept for next time. A busy curve's page is written
 * again after each batch of its trades; each render then reads its new trades, not its whole history.
 */
function resumedWalk(mint: string, txs: DecodedTransaction[], creation: Creation): Walk | null {
  const kept = walks.get(txs);
  let w: Walk | null;
  if (
    kept && kept.mint === mint && txs.length >= kept.n && txs[0] === kept.first && txs[kept.n - 1] === kept.last &&
    kept.creation.signature === creation.signature && kept.creation.slot === creation.slot && kept.creation.blockTime === creation.blockTime
  ) {
    w = txs.length === kept.n || advance(kept, txs, kept.n) ? kept : null;
  } else {
    w = walk(mint, txs, creation);
  }
  if (w) walks.set(txs, w);
  else walks.delete(txs);
  return w;
}

/** Seconds per slot used only when a blockTime is missing (Solana's target slot time). */
const SLOT_SECONDS = 0.4;
/** The timeline shows at most this many buys. */
export const TIMELINE_MAX_BUYS = 100;

/**
 * The chart series of a record.
 * @param doc the launch document
 * @param txs every transaction held for the launch (`launch_tx`, any order)
 */
export function chartSeries(doc: LaunchDocument, txs: DecodedTransaction[]): ChartSeries {
  return seriesOf(doc, txs, walk);
}

function seriesOf(doc: LaunchDocument, txs: DecodedTransaction[], walkOf: (mint: string, txs: DecodedTransaction[], creation: Creation) => Walk | null): ChartSeries {
  const l = doc.launch;
  const base = { timesEstimated: false, quoteMint: l?.quoteMint ?? '', quoteDecimals: l?.quoteDecimals ?? null, totalSupplyRaw: l?.totalSupplyRaw ?? '0', supply: null, timeline: null, curve: null, earlyBuyers: [] };
  if (!l) return { ...base, missing: 'the creation transaction is not held, so nothing about the launch is charted' };
  if (!doc.history.complete) return { ...base, missing: 'the held history is incomplete, so a chart would leave out trades the archive has not read' };
  const creation = { signature: l.transaction.signature, slot: l.transaction.slot, blockTime: l.createdAt ? l.createdAt.ms / 1000 : null };
  const walked = walkOf(doc.mint, txs, creation) ?? walk(doc.mint, successful(txs), creation)!;
  if (!walked.held) return { ...base, missing: 'the creation transaction is not among the held transactions' };

  // the window's part: the same objects while the window's transactions and the facts it reads are (a resumed walk's)
  const key = `${walked.windowTxs.length}\n${l.creator}\n${l.totalSupplyRaw}`;
  let part = walked.window?.key === key ? walked.window.part : undefined;
  if (!part) {
    part = windowPart(doc.mint, l.creator, BigInt(l.totalSupplyRaw), creation, walked.windowTxs);
    walked.window = { key, part };
  }

  const { pointT, pointSlot, pointQ, points, source, completedAt, migratedAt } = walked;
  const endAt = Math.max(pointT[points - 1]!, migratedAt ?? 0, completedAt ?? 0);
  const curveOut = downsample(pointT, pointSlot, pointQ, points, endAt);
  return {
    ...base,
    missing: null,
    timesEstimated: walked.estimated,
    supply: part.supply,
    timeline: part.timeline,
    earlyBuyers: part.earlyBuyers,
    curve: { points: curveOut, trades: points - 1, source, completedAt, migratedAt, endAt, poolQuoteNow: l.graduated && doc.pool ? doc.pool.quoteReserves : null },
  };
}

/** The part of the series the first window decides: supply at birth, the buyer timeline, the first-window buyers. */
interface WindowPart {
  supply: NonNullable<ChartSeries['supply']>;
  timeline: NonNullable<ChartSeries['timeline']>;
  earlyBuyers: EarlyBuyer[];
}

/** {@link WindowPart} from the transactions of the creation slot and the first window (slot order). */
function windowPart(mint: string, creator: string, total: bigint, creation: Creation, windowTxs: DecodedTransaction[]): WindowPart {
  const timed = (x: { blockTime: number | null }) => creation.blockTime !== null && x.blockTime !== null;
  const tOf = (x: { slot: number; blockTime: number | null }) => (timed(x) ? x.blockTime! - creation.blockTime! : (x.slot - creation.slot) * SLOT_SECONDS);
  const est = (x: { blockTime: number | null }) => (timed(x) ? {} : { estimated: true as const });
  // Supply, timeline and early buyers need only the first window's trades (decoded by tradesOf);
  // the curve reads one field per later trade (a 2,000-trade curve renders in milliseconds).
  const trades = tradesOf(mint, windowTxs);
  const outside = (w: string) => w !== creator && !PROTOCOL_WALLETS.has(w);
  const bundled = new Set(trades.filter((t) => t.isBuy && outside(t.wallet) && t.slot === creation.slot).map((t) => t.wallet));
  const early = new Set(trades.filter((t) => t.isBuy && outside(t.wallet) && !bundled.has(t.wallet) && inFirstWindow(creation, t)).map((t) => t.wallet));
  const who = (t: Trade): TimelinePoint['who'] =>
    t.wallet === creator ? 'creator' : bundled.has(t.wallet) ? 'bundled' : early.has(t.wallet) ? 'early' : 'other';

  const split = (until: (t: Trade) => boolean): SupplySplit => {
    const net = { creator: 0n, bundled: 0n, early: 0n, other: 0n };
    const perWallet = new Map<string, bigint>();
    for (const t of trades) if (until(t)) perWallet.set(t.wallet, (perWallet.get(t.wallet) ?? 0n) + (t.isBuy ? t.tokens : -t.tokens));
    let sold = 0n;
    for (const [w, n] of perWallet) {
      sold += n;
      const k = w === creator ? 'creator' : bundled.has(w) ? 'bundled' : early.has(w) ? 'early' : 'other';
      // a wallet that sold more than it bought here held tokens from elsewhere: it holds none of this window's
      if (n > 0n) net[k] += n;
    }
    const curve = total - sold;
    return { creator: net.creator.toString(), bundled: net.bundled.toString(), early: net.early.toString(), other: net.other.toString(), curve: (curve < 0n ? 0n : curve).toString() };
  };
  const supply = { atCreationSlot: split((t) => t.slot === creation.slot), at30s: split((t) => t.slot === creation.slot || inFirstWindow(creation, t)) };

  // Timeline: every trade of the first window (the creation slot included), cut at the 100th buy.
  const windowTrades = trades.filter((t) => t.slot === creation.slot || inFirstWindow(creation, t));
  const points: TimelinePoint[] = [];
  let buys = 0;
  let cutAt100 = false;
  for (const t of windowTrades) {
    if (t.isBuy && ++buys > TIMELINE_MAX_BUYS) {
      cutAt100 = true;
      break;
    }
    points.push({ t: tOf(t), ...est(t), slot: t.slot, signature: t.signature, wallet: t.wallet, who: who(t), isBuy: t.isBuy, tokens: t.tokens.toString(), quote: t.quote.toString() });
  }
  const creationSlotEnd = Math.max(0, ...points.filter((p) => p.slot === creation.slot).map((p) => p.t));
  const first30sWallets = new Set(trades.filter((t) => t.isBuy && outside(t.wallet) && inFirstWindow(creation, t)).map((t) => t.wallet)).size;
  const earlyMap = new Map<string, { t: number; estimated?: true; signatures: Set<string>; tokens: bigint; quote: bigint }>();
  for (const t of trades) {
    if (!t.isBuy || !early.has(t.wallet) || !inFirstWindow(creation, t)) continue;
    const e = earlyMap.get(t.wallet) ?? { t: tOf(t), ...est(t), signatures: new Set<string>(), tokens: 0n, quote: 0n };
    e.signatures.add(t.signature);
    e.tokens += t.tokens;
    e.quote += t.quote;
    earlyMap.set(t.wallet, e);
  }
  const earlyBuyers: EarlyBuyer[] = [...earlyMap].map(([wallet, e]) => ({ wallet, t: e.t, ...(e.estimated ? { estimated: e.estimated } : {}), signatures: [...e.signatures].sort(), tokens: e.tokens.toString(), quote: e.quote.toString() }));

  return { supply, timeline: { points, cutAt100, creationSlotEnd, bundledWallets: bundled.size, first30sWallets }, earlyBuyers };
}

/** How many records' series {@link chartSeriesCached} keeps (the most recently used; ~100 KB each for a long curve). */
export const SERIES_CACHE_SIZE = 64;
const seriesCache = new Map<string, ChartSeries>();

/**
 * {@link chartSeries}, remembered per record version: a record rendered again with the same
 * document and transactions (the server's fallback answering request after request until the
 * collector has written the file, a page written twice) reuses the series instead of walking every
 * transaction again. The key is the mint, the document's sha256 (it names the record's content,
 * history.transactions and lastSlot included), the transaction count with the first and last
 * signatures, and every document field chartSeries reads — so a caller passing a placeholder
 * sha256 (tests) still cannot get another record's series. The series is shared: callers must not
 * change it. Least recently used entries go past {@link SERIES_CACHE_SIZE}. A record not remembered
 * (a busy curve's next version, after more trades) is computed from its launch's walk resumed
 * ({@link resumedWalk}: only the trades appended since are read), and its first-window part (supply,
 * timeline, first-window buyers) is the same objects as the last version's while the window holds
 * the same transactions: the page's sections drawn from them are remembered by those objects
 * (charts.ts, token-page.ts). Equal, field for field, to {@link chartSeries} (tests/unit/chart-data.test.ts).
 */
export function chartSeriesCached(doc: LaunchDocument, sha256: string, txs: DecodedTransaction[]): ChartSeries {
  const l = doc.launch;
  const key = [
    doc.mint,
    sha256,
    txs.length,
    txs[0]?.signature,
    txs[txs.length - 1]?.signature,
    doc.history.complete,
    l ? `${l.transaction.signature}|${l.transaction.slot}|${l.createdAt?.ms}|${l.creator}|${l.totalSupplyRaw}|${l.quoteMint}|${l.quoteDecimals}|${l.graduated}` : '-',
    doc.pool?.quoteReserves,
  ].join('\n');
  const hit = seriesCache.get(key);
  if (hit) {
    seriesCache.delete(key);
    seriesCache.set(key, hit);
    return hit;
  }
  // a record not remembered: its walk resumed when the list is the one walked before, grown (resumedWalk)
  const s = seriesOf(doc, txs, resumedWalk);
  seriesCache.set(key, s);
  if (seriesCache.size > SERIES_CACHE_SIZE) seriesCache.delete(seriesCache.keys().next().value!);
  return s;
}

/** Forget every remembered series and walk (benchmarks measuring a record's first render). */
export function clearChartSeriesCache(): void {
  seriesCache.clear();
  walks = new WeakMap();
}
