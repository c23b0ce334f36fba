import type { BundledBuy, CreationAt, CurveBuyout, DecodedTransaction, Flag, Instant, LaunchFacts, PoolNow } from '../types.ts';
import { MULTI_HOP_ROUTE, PROTOCOL_WALLETS } from '../programs.ts';
import { instant } from '../canonical.ts';
import { cohortPending, sharedFunders, type FunderFact, type SharedFunder } from '../funding.ts';
import { TOKEN_DECIMALS, exactUnits, quoteUnit } from '../amounts.ts';
import { big, chainTimeOf, documentQuoteMint, isProgramAddress, eventsNamed, quoteDecimalsOf, ref, str, successful, tradesOf, type Trade, type TxRef, type UnplacedTx } from './launch-events.ts';
import { compareCurveHistory, type CurveHistoryComparison, type CurveRead } from './curve-history.ts';
import { unrecognisedOf } from '../decode/unrecognised.ts';

/** Seconds after creation within which a buyer counts in `buyersFirst30s` (methodology §buyersFirst30s). */
export const FIRST_WINDOW_SECONDS = 30;
/** Used only when a transaction has no blockTime: 30 s ≈ 75 slots of ≈400 ms. */
export const FIRST_WINDOW_SLOTS = 75;
/**
 * Whether a transaction at (slot, blockTime) came within the first 30 s of the creation
 * (methodology "buyersFirst30s"): by blockTime when both have one, else by ≈75 slots. Pure.
 */
export function inFirstWindow(creation: CreationAt, t: { slot: number; blockTime: number | null }): boolean {
  return t.blockTime !== null && creation.blockTime !== null
    ? t.blockTime - creation.blockTime <= FIRST_WINDOW_SECONDS
    : t.slot - creation.slot <= FIRST_WINDOW_SLOTS;
}

/** Default token supply when the CreateEvent predates `token_total_supply` (2024): 1e9 tokens × 1e6. */
export const DEFAULT_TOTAL_SUPPLY = 1_000_000_000_000_000n;

/** State read from chain accounts at `asOf` (optional; issue-3 follow-up fills it live). */
export interface ChainState {
  /** the bonding curve account's `complete`, or null when the account could not be read */
  curveComplete?: boolean | null;
  /** the canonical PumpSwap pool now; 'unreadable' when it should exist but could not be read; null when none */
  pool?: PoolNow | 'unreadable' | null;
  checkedAtMs?: number;
  /** first funding source of a wallet, from the public store; undefined = not (yet) established */
  funderOf?: (wallet: string) => FunderFact | undefined;
  /**
   * The bonding curve account as read (context slot and reserves) for the history completeness check
   * (curve-history.ts), and whether every signature the chain lists for the curve up to the read's
   * slot is held (`listedAllHeld`: the rebuild's complete listing, or the collector's confirmation);
   * only then is a disagreement evidence of missing trades.
   */
  curve?: { read: CurveRead; listedAllHeld: boolean };
  /** signatures of this launch's transactions that could not be read (collector: unreadable transactions) */
  unreadable?: string[];
}

/** One role a wallet played in a launch (the wallet endpoint, spec §2.4). */
export interface WalletRole {
  wallet: string;
  role: 'creator' | 'bundled' | 'early' | 'buyout';
  /** the first transaction behind the role */
  signature: string;
  slot: number;
  detail: Record<string, unknown>;
}

/** Everything the builder derives from history; classification happens in classify.ts. */
export interface LaunchAnalysis {
  mint: string;
  name: string | null;
  symbol: string | null;
  uri: string | null;
  facts: LaunchFacts | null;
  curveBuyout: CurveBuyout | null;
  pool: PoolNow | null;
  poolUnreadable: boolean;
  /** funders shared by ≥ 2 of the cohort (creator, bundled and first-30 s buyers); null = not established */
  sharedCohort: SharedFunder[] | null;
  /** a lookup may still change the cohort's funders (funding.ts cohortPending): the record is not settled (markers-v9) */
  cohortPending: boolean;
  /** wallets and the roles they played (creator, bundled, early, buyout) */
  roles: WalletRole[];
  flags: Flag[];
  /** history held from the creation transaction on (and the caller says it is complete) */
  historyComplete: boolean;
  /** the curve account disagreed with the held history (conclusively): the record is UNKNOWN */
  historyCheck: CurveHistoryComparison | null;
  transactions: number;
  failedTransactions: number;
  firstSlot: number | null;
  lastSlot: number | null;
}

const sortUnique = (xs: Iterable<string>): string[] => [...new Set(xs)].sort();

/** `creator_kept_majority`: the creator kept more than this share of supply (percent) at the end of the creation slot (methodology markers table). */
export const CREATOR_MAJORITY_PCT = 50;

/** The pump instructions that migrate a completed curve to PumpSwap (CPI create_pool; reference.md §2.2, idl/2026-10). */
export const MIGRATE_INSTRUCTIONS = new Set(['migrate', 'migrate_v2']);

/**
 * Whether `i` is a pump `migrate` or `migrate_v2` of `mint`. The two name the curve's mint
 * differently: `migrate` its account `mint`, `migrate_v2` (pump 2026-10, any quote) `base_mint`
 * beside `quote_mint` (idl pump.json); markers-v7 read `mint` only, so a migrate_v2 without its
 * migration event was not recognised (markers-v8).
 */
export function migratesMint(i: DecodedTransaction['instructions'][number], mint: string): boolean {
  return i.program === 'pump' && MIGRATE_INSTRUCTIONS.has(i.name) && (i.name === 'migrate_v2' ? i.accounts.base_mint : i.accounts.mint) === mint;
}

/**
 * Build the facts of one launch from its decoded transactions (any order; failed ones count for
 * nothing). Pure. Definitions: docs/methodology.md (markers-v7; markers-v2 for most markers); sources: reference.md §1.5, §2, §3; idl/2026-10 FACTS §2 (synthetic migration).
 *
 * @param mint the launch's mint (base58)
 * @param txs every transaction held that touched the launch's bonding curve or mint
 * @param historyComplete true when `txs` is the complete history from creation to asOf
 * @param state optional account reads (curve complete, pool now)
 */
export function analyzeLaunch(mint: string, txs: DecodedTransaction[], historyComplete: boolean, state: ChainState = {}): LaunchAnalysis {
  const ok = successful(txs);
  // a loop, not Math.min(...slots): spreading a long curve's history (over ~100k transactions)
  // into arguments throws RangeError (call stack size exceeded)
  let firstSlot: number | null = null;
  let lastSlot: number | null = null;
  for (const t of txs) {
    const slot = t.slot ?? 0;
    if (firstSlot === null || slot < firstSlot) firstSlot = slot;
    if (lastSlot === null || slot > lastSlot) lastSlot = slot;
  }
  const base = {
    mint,
    transactions: txs.length,
    failedTransactions: txs.length - ok.length,
    firstSlot,
    lastSlot,
  };

  // Creation: the successful transaction whose CreateEvent names this mint.
  let creationTx: DecodedTransaction | undefined;
  let create: Record<string, unknown> | undefined;
  for (const tx of ok) {
    const e = eventsNamed(tx, 'CreateEvent').find((ev) => str(ev.fields.mint) === mint);
    if (e) {
      creationTx = tx;
      create = e.fields;
      break;
    }
  }
  if (!creationTx || !create) {
    const flags = unreadableFlags(ok, state.unreadable ?? [], []);
    return { ...base, name: null, symbol: null, uri: null, facts: null, curveBuyout: null, pool: null, poolUnreadable: false, sharedCohort: null, cohortPending: false, roles: [], flags, historyComplete: false, historyCheck: null };
  }
  const creation = ref(creationTx);
  const c = create as Record<string, never>;
  const creator = str(c.creator) ?? str(c.user) ?? '';
  const totalSupply = c.token_total_supply !== undefined ? big(c.token_total_supply) : DEFAULT_TOTAL_SUPPLY;
  // SOL is spelled as the wrapped SOL mint in documents, whatever the create event says (markers-v3)
  const quoteMint = documentQuoteMint(str(c.quote_mint));
  const createIx = creationTx.instructions.find(
    (i) => i.program === 'pump' && (i.name === 'create' || i.name === 'create_v2') && i.accounts.mint === mint,
  );
  const tokenProgram = str(c.token_program) ?? createIx?.accounts.token_program ?? null;
  const mayhemMode = typeof c.is_mayhem_mode === 'boolean' ? (c.is_mayhem_mode as boolean) : null;

  // transactions whose trades cannot all be placed (a pool part following no buy, a wallet's routes both ending in and passing
  // through the coin): nothing is claimed from them (markers-v10, v11)
  const unplaced: UnplacedTx[] = [];
  // the receiver rule where the record reads whole transactions: the creation slot, the first 30 s, the completion (markers-v11)
  const receiversRead = (tx: DecodedTransaction) =>
    tx.slot === creation.slot || inFirstWindow(creation, { slot: tx.slot ?? 0, blockTime: chainTimeOf(tx) }) || tx.events.some((e) => e.name === 'CompleteEvent' && str(e.fields.mint) === mint);
  const trades = tradesOf(mint, ok, unplaced, receiversRead);
  const driftFlags = unreadableFlags(ok, state.unreadable ?? [], unplaced);
  const isOutside = (w: string) => w !== creator && !PROTOCOL_WALLETS.has(w);
  const inCreationSlot = (t: { slot: number }) => t.slot === creation.slot;
  const withinFirstWindow = (t: Trade) => inFirstWindow(creation, t);

  // Creator's net tokens at the end of the creation slot.
  let creatorNet = 0n;
  const creatorCreationSlotSigs: string[] = [];
  for (const t of trades) {
    if (t.wallet !== creator || !inCreationSlot(t)) continue;
    creatorNet += t.isBuy ? t.tokens : -t.tokens;
    creatorCreationSlotSigs.push(t.signature);
  }
  const creatorSupplyPct = totalSupply > 0n ? (Number(creatorNet) / Number(totalSupply)) * 100 : 0;
  const creatorSells = trades.filter((t) => t.wallet === creator && !t.isBuy);
  // markers-v2: a sale by the creator in the creation slot or the first 30 s is a marker at birth
  const creatorSellsAtBirth = creatorSells.filter((t) => inCreationSlot(t) || withinFirstWindow(t));

  const outsideBuys = trades.filter((t) => t.isBuy && isOutside(t.wallet));
  const curveBuyers = new Set(outsideBuys.map((t) => t.wallet)).size;
  const bundled = outsideBuys.filter(inCreationSlot);
  const bundledBuyers = new Set(bundled.map((t) => t.wallet)).size;
  const bundle = bundleOf(bundled, creation.signature, ok);
  const early = outsideBuys.filter(withinFirstWindow);
  const buyersFirst30s = new Set(early.map((t) => t.wallet)).size;
  // Funding cohort: the creator and the outside wallets that bought in the creation slot or the first 30 s, and (markers-v11)
  // the wallets that paid for a buy then delivered to another wallet (a payer of the creator's tokens is the strongest link)
  const payers = trades.filter((t) => t.isBuy && t.payer !== undefined && t.wallet !== MULTI_HOP_ROUTE && (inCreationSlot(t) || withinFirstWindow(t)) && isOutside(t.payer)).map((t) => t.payer!);
  // markers-v12: a router's authority that paid for a wallet's buy is no cohort wallet (the wallet that signed is: launch-events.ts
  // holdersOf); a program's address that kept what it bought (a vault) or created the coin stays in it
  const cohort = [creator, ...bundled.map((t) => t.wallet), ...early.map((t) => t.wallet), ...payers.filter((w) => !isProgramAddress(w))];
  const sharedCohort = state.funderOf ? sharedFunders(cohort, state.funderOf) : null;
  const pendingCohort = state.funderOf ? cohortPending(cohort, state.funderOf) : true;

  // Completion: CompleteEvent.user took the curve; `buysBefore`: the buy TradeEvents of the mint before it in its transaction
  let completion: { tx: TxRef; user: string; buysBefore: number } | undefined;
  for (const tx of ok) {
    const at = tx.events.findIndex((ev) => ev.name === 'CompleteEvent' && str(ev.fields.mint) === mint);
    if (at >= 0) {
      const buysBefore = tx.events.slice(0, at).filter((ev) => ev.name === 'TradeEvent' && ev.fields.is_buy === true && str(ev.fields.mint) === mint).length;
      completion = { tx: ref(tx), user: str(tx.events[at]!.fields.user) ?? '', buysBefore };
      break;
    }
  }
  const at = (r: TxRef): Instant | null => (r.blockTime === null ? null : instant(r.blockTime * 1000));
  let curveBuyout: CurveBuyout | null = null;
  if (completion) {
    const inTx = trades.filter((t) => t.signature === completion.tx.signature && t.isBuy);
    // the buy that completed the curve (the last before the CompleteEvent): a route's middle hop or a wallet's own buy, and the
    // buys of the transaction counted with it are of the same kind (markers-v11: a wallet's own buy and its route's middle hop
    // in one transaction were summed, and the curve said taken by the wallet when the route's hop took it)
    const completer = completion.buysBefore > 0 ? inTx[completion.buysBefore - 1] : undefined;
    const middle = completer !== undefined && completer.wallet === MULTI_HOP_ROUTE;
    // named by the CompleteEvent: its user paid or bought, or (markers-v12) traded as a router for the wallet that holds the tokens
    const named = inTx.filter((t) => (t.via ?? t.payer ?? t.wallet) === completion.user && (completer === undefined || (t.wallet === MULTI_HOP_ROUTE) === middle));
    // a CompleteEvent naming no buyer of the transaction (as a route's hop might): the last buy completed it, the curve taking none after (markers-v10)
    const buys = named.length > 0 || inTx.length === 0 ? named : [inTx[inTx.length - 1]!];
    const same = completion.tx.slot === creation.slot;
    const sum = (f: (t: Trade) => bigint) => buys.reduce((n, t) => n + f(t), 0n).toString();
    // fees: unknown (null) when any of the buys' events does not report them (markers-v8)
    const sumKnown = (f: (t: Trade) => bigint | null): string | null => {
      let n = 0n;
      for (const t of buys) {
        const v = f(t);
        if (v === null) return null;
        n += v;
      }
      return n.toString();
    };
    const pool = buys.find((t) => t.pool !== null)?.pool ?? null;
    curveBuyout = {
      // a multi-hop route's middle hop completed it: the tokens went to the route's next curve or pool, no wallet (markers-v10)
      wallet:
        buys.length > 0 && buys.every((t) => t.wallet === MULTI_HOP_ROUTE)
          ? MULTI_HOP_ROUTE
          : named.length > 0 && named[0]!.via === completion.user
            ? named[0]!.wallet // a router's authority took it for this wallet (markers-v12)
            : named.length > 0 || buys.length === 0
              ? completion.user
              : (buys[0]!.payer ?? buys[0]!.wallet),
      signature: completion.tx.signature,
      slot: completion.tx.slot,
      sameBatchAsLaunch: same,
      hoursAfterLaunch:
        same || completion.tx.blockTime === null || creation.blockTime === null
          ? null
          : (completion.tx.blockTime - creation.blockTime) / 3600,
      quoteSpent: sum((t) => t.quote),
      quoteMint,
      tokens: sum((t) => t.tokens),
      fees: sumKnown((t) => t.fees),
      curvePart: { tokens: sum((t) => t.curve.tokens), quoteSpent: sum((t) => t.curve.quote), fees: sumKnown((t) => t.curve.fees) },
      poolPart: pool && {
        tokens: pool.tokens.toString(),
        quoteSpent: pool.quote.toString(),
        fees: pool.fees === null ? null : pool.fees.toString(),
        poolReservesBefore: { base: pool.reservesBefore.base.toString(), quote: pool.reservesBefore.quote.toString() },
        poolReservesAfter: { base: pool.reservesAfter.base.toString(), quote: pool.reservesAfter.quote.toString() },
      },
    };
  }

  // Graduation: migration events, or a Raydium-era withdraw; never a bare `migrate` log (reference.md §2.2).
  let graduation: LaunchFacts['graduation'] = null;
  let graduationTx: TxRef | undefined;
  let confirmedBy: LaunchFacts['graduationConfirmedBy'] = null;
  for (const tx of ok) {
    // this mint's migration events only: one transaction may migrate several curves (markers-v5).
    // A PumpSwap CreatePoolEvent of the mint is a migration only inside one (markers-v7): with the
    // mint's CompletePumpAmmMigrationEvent, or in a transaction with a pump migrate instruction of
    // the mint (reference.md §2.2: migrate CPIs create_pool). Anyone may create a PumpSwap pool of
    // any mint; such a pool is not a graduation (mints-of.ts does not attribute it either).
    const migrated =
      tx.events.some((e) => e.name === 'CompletePumpAmmMigrationEvent' && str(e.fields.mint) === mint) ||
      tx.instructions.some((i) => migratesMint(i, mint));
    const migs = migrated
      ? tx.events.filter(
          (e) =>
            (e.name === 'CompletePumpAmmMigrationEvent' && str(e.fields.mint) === mint) ||
            (e.name === 'CreatePoolEvent' && str(e.fields.base_mint) === mint),
        )
      : [];
    if (migs.length > 0) {
      graduationTx = ref(tx);
      confirmedBy = 'migration_event';
      graduation = { signature: tx.signature, slot: tx.slot, venue: 'pumpswap', pool: migs.map((e) => str(e.fields.pool)).find((p) => p !== undefined) ?? null };
      break;
    }
    const withdraw = tx.instructions.find((i) => i.program === 'pump' && i.name === 'withdraw' && i.accounts.mint === mint);
    if (withdraw) {
      graduationTx = ref(tx);
      confirmedBy = 'withdraw';
      graduation = { signature: tx.signature, slot: tx.slot, venue: 'raydium', pool: null };
      break;
    }
  }
  const statePool = state.pool && state.pool !== 'unreadable' ? state.pool : null;
  if (!graduation && state.curveComplete === true && statePool) {
    confirmedBy = 'pool';
    graduation = { signature: null, slot: null, venue: 'pumpswap', pool: statePool.address };
  }
  const graduated = graduation !== null;
  const graduatedAt = graduationTx ? at(graduationTx) : null;
  const createdAt = creation.blockTime === null ? null : instant(creation.blockTime * 1000);

  const facts: LaunchFacts = {
    createdAt,
    creator,
    creatorSupplyPct,
    creatorTokensRaw: creatorNet.toString(),
    totalSupplyRaw: totalSupply.toString(),
    creatorSold: creatorSells.length > 0,
    curveBuyers,
    buyersFirst30s,
    bundledBuyers,
    bundle,
    quoteMint,
    quoteDecimals: quoteDecimalsOf(quoteMint, ok),
    tokenProgram,
    mayhemMode,
    completed: completion !== undefined,
    completedAt: completion ? at(completion.tx) : null,
    graduated,
    graduationObserved: graduationTx !== undefined,
    graduationCheck:
      state.checkedAtMs !== undefined
        ? {
            checkedAt: instant(state.checkedAtMs),
            curveComplete: typeof state.curveComplete === 'boolean' ? state.curveComplete : null,
            // markers-v7: null when the pool was not read or could not be read (it said false: "not found")
            poolFound: state.pool === undefined || state.pool === 'unreadable' ? null : state.pool !== null,
            pool: statePool?.address ?? null,
          }
        : null,
    graduationConfirmedBy: confirmedBy,
    graduatedAt,
    secondsToGraduate:
      graduationTx && graduationTx.blockTime !== null && creation.blockTime !== null ? graduationTx.blockTime - creation.blockTime : null,
    graduation,
    transaction: { signature: creation.signature, slot: creation.slot },
  };

  const historyCheck = state.curve && state.curve.listedAllHeld ? compareCurveHistory(mint, ok, state.curve.read) : null;
  const incomplete = historyCheck && !historyCheck.agrees ? historyCheck : null;
  // markers-v4: a marker that rests on something NOT being in the history (no outside buyer; the
  // creator's share at the end of the creation slot, which a missing transaction of that slot would change)
  // is flagged only over a complete history. A marker shown by transactions the archive holds
  // (bundled buyers, a sale, the curve taken, a shared funder) stays true whatever is missing.
  // markers-v7: and every transaction of it read and understood (no drift flag): a transaction that
  // could not be read, or program data the decoder does not know, may be the outside buy or the
  // creator's sale that the absence denies.
  const absenceProvable = historyComplete && !incomplete && driftFlags.length === 0;
  const flags: Flag[] = [];
  const pct = (n: number) => `${n.toFixed(3)}%`;
  if (absenceProvable && creatorSupplyPct > CREATOR_MAJORITY_PCT) {
    flags.push({
      code: 'creator_kept_majority',
      class: 'FINDINGS',
      summary: `The creator kept ${pct(creatorSupplyPct)} of supply at the end of the creation slot (more than ${CREATOR_MAJORITY_PCT}%).`,
      evidence: sortUnique(creatorCreationSlotSigs),
    });
  }
  // outside wallets that paid for buys of this coin through multi-hop routes (its middle hops): real demand, no holder (markers-v10)
  const routedDemand = trades.some((t) => t.isBuy && t.wallet === MULTI_HOP_ROUTE && t.payer !== undefined && t.payer !== creator);
  if (absenceProvable && curveBuyers === 0 && !routedDemand) {
    flags.push({
      code: 'no_outside_curve_buyer',
      class: 'FINDINGS',
      summary: 'No outside wallet bought on the bonding curve: every buy was the creator’s (or the protocol’s own).',
      evidence: [creation.signature],
    });
  }
  if (bundledBuyers > 0) {
    flags.push({
      code: 'bundled_buyers',
      class: 'FINDINGS',
      summary: `${bundledBuyers} outside wallet${bundledBuyers === 1 ? '' : 's'} bought in the creation slot (the same batch of chain events as the launch).`,
      evidence: sortUnique(bundled.map((t) => t.signature)),
    });
  }
  if (completion && completion.tx.slot === creation.slot) {
    flags.push({
      code: 'curve_taken_in_creation_slot',
      class: 'FINDINGS',
      // the creator taking its own curve is the common case of this marker: said so, not left to the reader to match an address
      summary:
        curveBuyout?.wallet === MULTI_HOP_ROUTE
          ? `The curve was taken within the creation slot by a multi-hop route through this coin (its tokens went on to the route's next venue), run by ${completion.user === creator ? `the creator (${completion.user})` : completion.user}.`
          : `The curve was taken within the creation slot by ${completion.user === creator ? `the creator (${completion.user})` : completion.user}.`,
      evidence: [completion.tx.signature],
    });
  }
  if (sharedCohort && sharedCohort.length > 0) {
    const wallets = sharedCohort.reduce((n, g) => n + g.wallets.length, 0);
    // markers-v9: a cohort wallet that first funded another is in its own group
    const inCohort = sharedCohort.filter((g) => g.wallets.includes(g.funder)).length;
    const funders = sharedCohort.length === 1 ? 'one shared wallet' : `${sharedCohort.length} shared wallets`;
    flags.push({
      code: 'shared_funder',
      class: 'FINDINGS',
      summary:
        inCohort === 0
          ? `${wallets} wallets of the launch cohort (creator, creation-slot and first-30-second buyers, and who paid for their buys) were first funded by ${funders}.`
          : `${wallets} wallets of the launch cohort (creator, creation-slot and first-30-second buyers, and who paid for their buys) are linked by their first funding: ${funders}, ${inCohort === sharedCohort.length ? (inCohort === 1 ? 'itself' : 'each') : `${inCohort} of them`} in the cohort, first funded the others.`,
      evidence: sortUnique(sharedCohort.flatMap((g) => g.signatures)),
    });
  }
  if (creatorSellsAtBirth.length > 0) {
    flags.push({
      code: 'creator_sold_at_birth',
      class: 'FINDINGS',
      summary: `The creator sold in the creation slot or the first ${FIRST_WINDOW_SECONDS} seconds (${creatorSellsAtBirth.length} sell transaction${creatorSellsAtBirth.length === 1 ? '' : 's'}).`,
      evidence: sortUnique(creatorSellsAtBirth.map((t) => t.signature)),
    });
  }
  if (incomplete) {
    const h = incomplete.held;
    const a = incomplete.account;
    // each reserve exactly, in its mint's units (tokens: 6 decimals; the quote: SOL, USDC, or its
    // decimals when the record has them, else raw units): the summary is read on the public pages too
    const q = quoteUnit(facts.quoteMint, facts.quoteDecimals);
    const amount = (raw: string | null, unit: 'quote' | 'tokens') =>
      raw === null ? 'unknown' : unit === 'tokens' ? `${exactUnits(raw, TOKEN_DECIMALS)} tokens` : `${exactUnits(raw, q.decimals)} ${q.symbol}`;
    const show = (x: { virtualTokenReserves: string | null; realTokenReserves: string | null; realQuoteReserves: string | null; complete: boolean } | null) =>
      x
        ? `real reserves ${amount(x.realQuoteReserves, 'quote')} and ${amount(x.realTokenReserves, 'tokens')}, virtual token reserves ${amount(x.virtualTokenReserves, 'tokens')}, ${x.complete ? 'complete' : 'not complete'}`
        : 'none';
    flags.push({
      code: 'history_incomplete',
      class: 'UNKNOWN',
      summary:
        a.exists === false
          ? `The archive's history of this launch is not the chain's: the chain has no bonding curve account for it at slot ${a.slot}, while the held transactions give a curve (${show(h)}).`
          : `Trades are missing from the archive's history of this launch: the bonding curve account read at slot ${a.slot} (${show(a)}) disagrees with the state the held transactions give (${show(h)}).`,
      evidence: [creation.signature],
    });
  }
  flags.push(...driftFlags);
  if (creatorSells.length > 0) {
    flags.push({
      code: 'creator_sold',
      class: 'NOTE',
      summary: `The creator sold on the curve (${creatorSells.length} sell transaction${creatorSells.length === 1 ? '' : 's'}).`,
      evidence: sortUnique(creatorSells.map((t) => t.signature)),
    });
  }
  flags.sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));

  const roles = rolesOf(creator, creation, bundled, early, curveBuyout);
  const c2 = create as Record<string, unknown>;
  return {
    ...base,
    name: typeof c2.name === 'string' ? c2.name : null,
    symbol: typeof c2.symbol === 'string' ? c2.symbol : null,
    uri: typeof c2.uri === 'string' ? c2.uri : null,
    facts,
    curveBuyout,
    pool: statePool,
    // A graduated launch whose pool is not known now (unreadable, absent or not read) is unknown, not
    // "no pool" (spec §2.3); likewise one whose curve account could not be read.
    poolUnreadable: graduation?.venue === 'pumpswap' && (statePool === null || state.curveComplete === null),
    sharedCohort,
    cohortPending: pendingCohort,
    roles,
    flags,
    historyComplete,
    historyCheck: incomplete,
  };
}


/**
 * The roles wallets played in one launch: the creator; each outside wallet that bought in the
 * creation slot (`bundled`) or else within the first 30 s (`early`), with its buy signatures; the
 * wallet that took the curve (`buyout`, the curveBuyout fields). Pure.
 */
function rolesOf(creator: string, creation: TxRef, bundled: Trade[], early: Trade[], buyout: CurveBuyout | null): WalletRole[] {
  const roles: WalletRole[] = [
    { wallet: creator, role: 'creator', signature: creation.signature, slot: creation.slot, detail: {} },
  ];
  const byWallet = (trades: Trade[]) => {
    const m = new Map<string, Trade[]>();
    for (const t of trades) m.set(t.wallet, [...(m.get(t.wallet) ?? []), t]);
    return m;
  };
  const bundledWallets = byWallet(bundled);
  for (const [wallet, ts] of bundledWallets) {
    roles.push({ wallet, role: 'bundled', signature: ts[0]!.signature, slot: ts[0]!.slot, detail: { signatures: sortUnique(ts.map((t) => t.signature)), tokens: ts.reduce((s, t) => s + t.tokens, 0n).toString() } });
  }
  for (const [wallet, ts] of byWallet(early)) {
    if (bundledWallets.has(wallet)) continue;
    const secondsAfterLaunch = ts[0]!.blockTime !== null && creation.blockTime !== null ? ts[0]!.blockTime - creation.blockTime : null;
    roles.push({ wallet, role: 'early', signature: ts[0]!.signature, slot: ts[0]!.slot, detail: { secondsAfterLaunch, signatures: sortUnique(ts.map((t) => t.signature)), tokens: ts.reduce((s, t) => s + t.tokens, 0n).toString() } });
  }
  // a curve completed by a multi-hop route's middle hop was taken by no wallet: no role, no wallet page (markers-v10)
  if (buyout && buyout.wallet !== MULTI_HOP_ROUTE) {
    const { wallet, signature, slot, ...rest } = buyout;
    roles.push({ wallet, role: 'buyout', signature, slot, detail: rest });
  }
  return roles;
}


/**
 * Bundle evidence (markers-v2): one entry per outside wallet that bought in the creation slot,
 * sorted by wallet, with whether a buy of it is in the creation transaction and the Jito tips its
 * distinct buy transactions paid (DecodedTransaction.jitoTipLamports; null when one of them cannot tell). Pure.
 */
function bundleOf(bundled: Trade[], creationSignature: string, txs: DecodedTransaction[]): BundledBuy[] {
  const tips = new Map(txs.map((t) => [t.signature, t.jitoTipLamports ?? null]));
  const byWallet = new Map<string, Trade[]>();
  for (const t of bundled) byWallet.set(t.wallet, [...(byWallet.get(t.wallet) ?? []), t]);
  return [...byWallet.keys()].sort().map((wallet) => {
    const ts = byWallet.get(wallet)!;
    const signatures = sortUnique(ts.map((t) => t.signature));
    let tip: bigint | null = 0n;
    for (const sig of signatures) {
      const v = tips.get(sig) ?? null;
      tip = tip === null || v === null ? null : tip + BigInt(v);
    }
    return {
      wallet,
      signatures,
      tokens: ts.reduce((n, t) => n + t.tokens, 0n).toString(),
      quoteSpent: ts.reduce((n, t) => n + t.quote, 0n).toString(),
      withCreation: signatures.includes(creationSignature),
      jitoTipLamports: tip === null ? null : tip.toString(),
    };
  });
}

/**
 * The drift guard (markers-v2): a launch transaction holding pump, PumpSwap or fees program data the
 * decoder cannot read (an unknown instruction or event discriminator, an event that fails to decode:
 * `skipped` items with `program` set), or a transaction of the launch that could not be read at all,
 * means no fact is claimed from it: one flag `unrecognised_program_data` (class UNKNOWN) citing the
 * signatures; so does an RPC answer without `meta` (markers-v7: its status is unknown, and it was
 * counted as a successful transaction with no events). Pure.
 */
function unreadableFlags(ok: DecodedTransaction[], unreadable: string[], unplaced: readonly UnplacedTx[]): Flag[] {
  const sigs: string[] = [];
  const discs = new Set<string>();
  // an RPC answer without `meta` has no status, logs, inner instructions or balances: whether it
  // succeeded and what it did cannot be read (the decoder leaves its err null)
  const noMeta: string[] = [];
  for (const tx of ok) {
    if (tx.skipped.some((x) => x.where === 'meta')) noMeta.push(tx.signature);
    const items = unrecognisedOf(tx);
    if (items.length === 0) continue;
    sigs.push(tx.signature);
    for (const x of items) discs.add(`${x.program} ${x.kind ?? 'data'} ${x.discriminator ?? '?'}`);
  }
  if (sigs.length === 0 && unreadable.length === 0 && noMeta.length === 0 && unplaced.length === 0) return [];
  const parts: string[] = [];
  if (sigs.length > 0) parts.push(`${sigs.length} transaction${sigs.length === 1 ? '' : 's'} of this launch hold${sigs.length === 1 ? 's' : ''} program data the archive cannot read (${[...discs].sort().join(', ')})`);
  if (noMeta.length > 0) parts.push(`${noMeta.length} transaction${noMeta.length === 1 ? '' : 's'} of this launch came without status metadata (no result, logs or balances)`);
  if (unreadable.length > 0) parts.push(`${unreadable.length} transaction${unreadable.length === 1 ? '' : 's'} of this launch could not be read from the chain`);
  const stray = sortUnique(unplaced.filter((u) => u.why === 'pool_part').map((u) => u.signature));
  if (stray.length > 0) parts.push(`${stray.length} transaction${stray.length === 1 ? '' : 's'} of this launch hold${stray.length === 1 ? 's' : ''} a pool part of a completing buy (PostCompleteBuyEvent) that follows no buy of it, so who bought those tokens cannot be read`);
  const routed = sortUnique(unplaced.filter((u) => u.why === 'routes').map((u) => u.signature));
  const unpaired = sortUnique(unplaced.filter((u) => u.why === 'receivers').map((u) => u.signature));
  if (unpaired.length > 0) parts.push(`${unpaired.length} transaction${unpaired.length === 1 ? '' : 's'} of this launch hold${unpaired.length === 1 ? 's' : ''} buys a program made whose events do not pair with them, so whose tokens those were cannot be read`);
  if (routed.length > 0) parts.push(`${routed.length} transaction${routed.length === 1 ? '' : 's'} of this launch run${routed.length === 1 ? 's' : ''} several multi-hop routes of one wallet in one instruction, some ending in this coin and some passing through it, so which of those trades are the wallet's own cannot be read`);
  return [{
    code: 'unrecognised_program_data',
    class: 'UNKNOWN',
    summary: `${parts.join('; ')}. No fact is claimed from a transaction the archive cannot fully read.`,
    evidence: sortUnique([...sigs, ...noMeta, ...unreadable, ...stray, ...routed, ...unpaired]),
  }];
}
