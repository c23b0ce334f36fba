import { address, isOffCurveAddress } from '@solana/kit';
import type { DecodedEvent, DecodedTransaction, DecodedValue } from '../types.ts';
import { DEFAULT_KEY, MULTI_HOP_ROUTE, PROTOCOL_WALLETS, WSOL_MINT, knownQuoteDecimals } from '../programs.ts';

/**
 * Typed views over a launch's decoded transactions: the pump events and instructions the builder
 * needs, taken only from successful transactions (err = null) — methodology "Failed transactions".
 * Pure.
 */

export interface Trade {
  signature: string;
  slot: number;
  blockTime: number | null;
  wallet: string;
  isBuy: boolean;
  /** raw token units (curve part + pool part) */
  tokens: bigint;
  /** raw quote units before fees (lamports for SOL coins; `quote_amount` for other quotes), curve part + pool part */
  quote: bigint;
  /**
   * fees in raw quote units: fee + creator_fee (buyback_fee is a part of fee: markers-v5), curve part
   * + pool part; null when the TradeEvent does not report them (the 2024 layout, before 2025-05-12:
   * a fee was charged but its event has no `fee` field; markers-v8)
   */
  fees: bigint | null;
  /** the TradeEvent's own amounts (the curve part) */
  curve: { tokens: bigint; quote: bigint; fees: bigint | null };
  /** the PostCompleteBuyEvent that continued this buy at the future pool's price (pump 2026-10 synthetic migration), if any */
  pool: PoolPart | null;
  /**
   * The wallet that paid, when it is not `wallet`: a buy whose tokens went to a token account of
   * another wallet (markers-v9, {@link receiversOf}; markers-v10 also through a multi-hop route,
   * {@link hopOf}); `wallet` is then that other wallet. For a multi-hop route's middle hop
   * (`wallet` = {@link MULTI_HOP_ROUTE}), the wallet that ran the route.
   */
  payer?: string;
  /**
   * The program's address the TradeEvent named as its `user` when the trade is another wallet's
   * (markers-v12: a router's authority, {@link holdersOf}); `wallet` is then the wallet whose holdings
   * it moved, and `payer` the wallet that signed, when another.
   */
  via?: string;
}

/** Who received a pump buy: its paying wallet (`user`) and the owner of its receiving token account (absent when the balances do not say). */
interface Receiver {
  user: string;
  owner: string | undefined;
}

/**
 * Who received the pump buys of `mint` in a transaction, by the instruction's top-level index (one
 * entry per buy TradeEvent of `mint` under it, in order): its paying wallet (`user`) and the owner of
 * its receiving token account (`associated_user`, or `associated_base_user` of the 2026 trades) from
 * the transaction's token balances (absent when they do not say: a closed account, an answer without
 * them). A buy's TradeEvent names the wallet that signed and paid; the instruction may deliver the
 * tokens to another wallet's account (mainnet k1LPbZ…, August 2024: the creator's second buy in its
 * creation transaction filled an account of DNfuF1L6…, which holds them after it).
 *
 * A top-level buy's receiving account counts only when a wallet holds it (markers-v12: an account of
 * a program's address — a multisig vault, a lock escrow — leaves the buy the payer's, as it does for
 * a buy a program called).
 * A buy called by another program (a bundler, a router: markers-v11) is read the same way only when
 * its receiving account kept what it received — its balance grew in the transaction by at least the
 * tokens of every such buy into it — and belongs to a wallet (an address on the ed25519 curve): a
 * router's account on the way — passed on, emptied or closed in the same transaction, or held by a
 * program's address — leaves the buy the payer's. The buys under one top-level instruction pair with
 * that instruction's buy TradeEvents in order (multi-hop hops, which are not `buy*` instructions,
 * excepted); when their counts differ none is read, and the instruction's index is in `unpaired`
 * when one of them was called by a program (its receivers then cannot be read).
 */
function receiversOf(mint: string, tx: DecodedTransaction): { byTop: Map<number, (Receiver | undefined)[]>; unpaired: Set<number> } {
  type Buy = { user: string | undefined; account: string | undefined; inner: boolean };
  const buys = new Map<number, Buy[]>();
  for (const ix of tx.instructions) {
    if (ix.program !== 'pump' || !ix.name.startsWith('buy') || (ix.accounts.mint ?? ix.accounts.base_mint) !== mint) continue;
    const top = Number(ix.path.split('.')[0]);
    const list = buys.get(top) ?? [];
    buys.set(top, list);
    list.push({ user: ix.accounts.user, account: ix.accounts.associated_user ?? ix.accounts.associated_base_user, inner: ix.inner });
  }
  // the buy TradeEvents' token amounts under each top-level instruction, in order
  const events = new Map<number, bigint[]>();
  for (const e of tx.events) {
    if (e.name === 'TradeEvent' && e.outerIndex !== null && e.fields.is_buy === true && str(e.fields.mint) === mint && e.fields.ix_name !== 'multi_hop_swap') {
      const list = events.get(e.outerIndex) ?? [];
      list.push(big(e.fields.token_amount));
      events.set(e.outerIndex, list);
    }
  }
  const byTop = new Map<number, (Receiver | undefined)[]>();
  const unpaired = new Set<number>();
  // what each account received from the program-called buys paired with it
  const intoAccount = new Map<string, bigint>();
  for (const [top, list] of buys) {
    const amounts = events.get(top);
    if (amounts?.length !== list.length) {
      if (list.some((b) => b.inner)) unpaired.add(top);
      continue;
    }
    list.forEach((b, k) => {
      if (b.inner && b.account) intoAccount.set(b.account, (intoAccount.get(b.account) ?? 0n) + amounts[k]!);
    });
  }
  const balanceOf = (list: DecodedTransaction['postTokenBalances'], account: string) => list.find((b) => b.account === account && b.mint === mint);
  for (const [top, list] of buys) {
    if (events.get(top)?.length !== list.length) continue;
    byTop.set(
      top,
      list.map((b) => {
        if (!b.user || !b.account) return undefined;
        const held = balanceOf(tx.postTokenBalances, b.account);
        let owner = held?.owner ?? undefined;
        if (b.inner && owner !== undefined && owner !== b.user) {
          const grew = BigInt(held?.amount ?? '0') - BigInt(balanceOf(tx.preTokenBalances, b.account)?.amount ?? '0');
          if (!(grew > 0n && grew >= intoAccount.get(b.account)! && isWalletAddress(owner))) owner = undefined;
        } else if (owner !== undefined && owner !== b.user && isProgramAddress(owner)) {
          // markers-v12: at top level too, an account held by a program's address (a vault, an escrow) leaves the buy the payer's
          owner = undefined;
        }
        return { user: b.user, owner };
      }),
    );
  }
  return { byTop, unpaired };
}

/**
 * Where an address lies: 'wallet' (on the ed25519 curve), 'program' (off it: a program-derived
 * address) or 'malformed'. Kept per address: the curve check decompresses a point (~80 µs here), and
 * a busy launch's record is built again at every batch with the same window's trades, each asked
 * about; the map is emptied when it reaches {@link CURVE_KEPT} addresses.
 */
function curveSideOf(a: string): 'wallet' | 'program' | 'malformed' {
  let side = curveSides.get(a);
  if (side === undefined) {
    try {
      side = isOffCurveAddress(address(a)) ? 'program' : 'wallet';
    } catch {
      side = 'malformed';
    }
    if (curveSides.size >= CURVE_KEPT) curveSides.clear();
    curveSides.set(a, side);
  }
  return side;
}
const CURVE_KEPT = 65_536;
const curveSides = new Map<string, 'wallet' | 'program' | 'malformed'>();

/** Whether an address is a wallet's (on the ed25519 curve), not a program-derived address; false for a malformed one. */
function isWalletAddress(a: string): boolean {
  return curveSideOf(a) === 'wallet';
}

/**
 * Whether an address is a program's (off the ed25519 curve: a program-derived address, which no key
 * signs for); false for a wallet's and for a malformed one (not read as a program's).
 */
export function isProgramAddress(a: string): boolean {
  return curveSideOf(a) === 'program';
}

/** How the holdings of `mint` changed in a transaction, by owner (post − pre over the owner's accounts of it; a closed account counts 0 after). */
function holdingsChange(mint: string, tx: DecodedTransaction): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const [list, sign] of [[tx.preTokenBalances, -1n], [tx.postTokenBalances, 1n]] as const) {
    for (const b of list) if (b.mint === mint && b.owner) out.set(b.owner, (out.get(b.owner) ?? 0n) + sign * BigInt(b.amount));
  }
  return out;
}

/**
 * Whose trades are the curve trades of a transaction whose TradeEvents name a program's address as
 * their `user` (markers-v12): a router that trades with its own authority (OKX's router passes its
 * PDA as the `user` of the trades it routes: mainnet 3vg7eD…, a PumpSwap sell whose wallet, the
 * signer, is 7kKfrMDn…) buys into its own account and passes the tokens on to the wallet, or takes
 * them from the wallet and sells them. Read from the transaction's token balances of the mint by
 * owner, less what its other trades explain (`residual`: each owner's change in holdings minus the
 * tokens of the trades already credited to it), so a creator's own buy beside a bundler's never
 * explains the bundler's. In order, for each such trade (`pending`, in event order):
 * - a program's address whose trades here net to its own residual change while no wallet's residual
 *   moved (a volume bot buying and selling the same amount): all its trades are its own;
 * - its own residual moved by the trade's tokens (grew by at least them for a buy, fell by at least
 *   them for a sale): it traded for itself (a vault);
 * - else the one wallet (on the ed25519 curve) whose residual moved by at least the tokens, or, when
 *   none did, the one that moved by more than half of them (a router may keep a fee in the coin);
 * - else null: whose trade it was cannot be read, and the record claims nothing from the transaction.
 * A matched trade is taken off its holder's residual. Returns the holder of each pending trade. A
 * transaction whose answer holds no balance of the mint (a test's fake, never a real answer with a
 * curve trade) leaves every trade its `user`'s.
 */
function holdersOf(mint: string, tx: DecodedTransaction, credited: readonly Trade[], pending: readonly Trade[]): (string | null)[] {
  const residual = holdingsChange(mint, tx);
  if (residual.size === 0) return pending.map((t) => t.wallet);
  const signed = (t: Trade) => (t.isBuy ? t.tokens : -t.tokens);
  for (const t of credited) if (residual.has(t.wallet)) residual.set(t.wallet, residual.get(t.wallet)! - signed(t));
  const walletsMoved = [...residual].some(([owner, d]) => d !== 0n && isWalletAddress(owner));
  const selfTraders = new Set<string>();
  if (!walletsMoved) {
    const net = new Map<string, bigint>();
    for (const t of pending) net.set(t.wallet, (net.get(t.wallet) ?? 0n) + signed(t));
    for (const [p, n] of net) if (n === (residual.get(p) ?? 0n)) selfTraders.add(p);
  }
  return pending.map((t) => {
    const program = t.wallet;
    if (selfTraders.has(program)) return program;
    const towards = (d: bigint | undefined) => (d === undefined ? 0n : t.isBuy ? d : -d);
    const take = (owner: string) => {
      residual.set(owner, (residual.get(owner) ?? 0n) - signed(t));
      return owner;
    };
    if (t.tokens > 0n && towards(residual.get(program)) >= t.tokens) return take(program);
    const wallets = [...residual].filter(([owner]) => owner !== program && isWalletAddress(owner));
    const whole = wallets.filter(([, d]) => t.tokens > 0n && towards(d) >= t.tokens);
    if (whole.length === 1) return take(whole[0]![0]);
    if (whole.length > 1) return null;
    const most = wallets.filter(([, d]) => towards(d) * 2n > t.tokens);
    return most.length === 1 ? take(most[0]![0]) : null;
  });
}

/**
 * The chain's time of a transaction, in unix seconds: its blockTime, or, when the answer has none,
 * the `timestamp` its pump events carry — the Clock sysvar's unix time, the value the RPC reports as
 * blockTime (methodology "Transactions taken from their logs"; markers-v12: the builder fell back to
 * a slot estimate although the events gave the time). Null when neither is there.
 */
export function chainTimeOf(tx: Pick<DecodedTransaction, 'blockTime' | 'events'>): number | null {
  if (tx.blockTime !== null) return tx.blockTime;
  for (const e of tx.events) {
    const t = e.fields.timestamp;
    if (e.program === 'pump' && (typeof t === 'string' || typeof t === 'number')) {
      const n = Number(t);
      if (Number.isSafeInteger(n) && n > 0) return n;
    }
  }
  return null;
}

/** The far-end coin of a multi-hop route and who received it: see {@link hopOf}. */
interface Route {
  user: string;
  /** whether the route instruction was called by another program (a router): its accounts may be the router's own */
  inner: boolean;
  /** the coin the route is a trade of: what a buy route delivers, what a sell route takes (undefined: the balances do not say) */
  farEnd: string | undefined;
  /** a buy route: the owner of the account it delivers to (undefined: the balances do not say) */
  receiver: string | undefined;
}

/**
 * The PumpSwap `multi_hop_swap` routes of a transaction (at any depth: a router may call it), by
 * top-level index (idl/2026-10 docs/instructions/MULTI_HOP_SWAP.md "Rules": the amount in is taken
 * from `user_in_token_account`, the final coin lands in `user_out_token_account`): each route's
 * far-end coin for either direction, read from the transaction's token balances by account.
 */
function routesOf(tx: DecodedTransaction): Map<number, { buy: Route; sell: Route }[]> {
  const out = new Map<number, { buy: Route; sell: Route }[]>();
  const balance = (account: string | undefined, post: boolean) => {
    if (!account) return undefined;
    const find = (list: DecodedTransaction['postTokenBalances']) => list.find((b) => b.account === account);
    return (post ? find(tx.postTokenBalances) ?? find(tx.preTokenBalances) : find(tx.preTokenBalances) ?? find(tx.postTokenBalances)) ?? undefined;
  };
  for (const ix of tx.instructions) {
    if (ix.program !== 'pump_amm' || ix.name !== 'multi_hop_swap' || !ix.accounts.user) continue;
    const top = Number(ix.path.split('.')[0]);
    const into = balance(ix.accounts.user_out_token_account, true);
    const from = balance(ix.accounts.user_in_token_account, false);
    const list = out.get(top) ?? [];
    list.push({
      buy: { user: ix.accounts.user, inner: ix.inner, farEnd: into?.mint ?? undefined, receiver: into?.owner ?? undefined },
      sell: { user: ix.accounts.user, inner: ix.inner, farEnd: from?.mint ?? undefined, receiver: undefined },
    });
    out.set(top, list);
  }
  return out;
}

/**
 * Whose trade a curve hop of a multi-hop route (a TradeEvent with `ix_name` "multi_hop_swap") is
 * (markers-v10, v11). A route trades the coin at its far end — what a buy route delivers to
 * `user_out_token_account`, what a sell route takes from `user_in_token_account` — and a hop of any
 * other coin is a middle hop: "Coin A never touches the user's wallet. Each hop's output stays in
 * the pool or curve until the next hop pulls it" (MULTI_HOP_SWAP.md), so it is no wallet's buy or
 * sale ({@link MULTI_HOP_ROUTE}). The far-end hop of a buy route called at top level is the
 * wallet's that owns the account it delivered to (markers-v9's rule, here through the route's own
 * account); called by another program, the event's user's (its accounts may be that program's).
 *
 * Under one top-level instruction a wallet may run several routes (a bundler's calls). A hop of coin
 * M is then read with the direction of its event (markers-v11):
 * - at a far end: a route of the wallet there has M at its far end for that direction (from the balances);
 * - in the middle: another hop of the same wallet there, in the same direction, is of a coin quoted
 *   in M (the hops chain: B quoted in A is bought with A; sold, it gives A, which the next hop sells);
 * - both: which of the wallet's hops of M are its own cannot be read — null (the caller claims
 *   nothing from the transaction);
 * - neither, every route's far end known and none M: in the middle (a hop into a pool, which emits
 *   no curve TradeEvent); neither, a far end unknown: the event's user.
 */
function hopOf(mint: string, user: string, isBuy: boolean, e: DecodedEvent, tx: DecodedTransaction, routes: Map<number, { buy: Route; sell: Route }[]>): string | null {
  const here = e.outerIndex === null ? [] : (routes.get(e.outerIndex) ?? []).filter((r) => r.buy.user === user).map((r) => (isBuy ? r.buy : r.sell));
  const farEnd = here.filter((r) => r.farEnd === mint);
  const middle = tx.events.some(
    (o) =>
      o !== e &&
      o.name === 'TradeEvent' &&
      o.outerIndex === e.outerIndex &&
      o.fields.ix_name === 'multi_hop_swap' &&
      str(o.fields.user) === user &&
      (o.fields.is_buy === true) === isBuy &&
      str(o.fields.quote_mint) === mint &&
      str(o.fields.mint) !== mint,
  );
  if (farEnd.length > 0 && middle) return null;
  if (farEnd.length > 0) {
    // the receiver of a far-end buy: read through a route called at top level only (a router's call may pass its own accounts, as
    // markers-v9 says), one route per instruction
    const r = farEnd[0]!;
    return farEnd.length === 1 && here.length === 1 && isBuy && r.receiver && !r.inner && !isProgramAddress(r.receiver) ? r.receiver : user;
  }
  if (middle) return MULTI_HOP_ROUTE;
  return here.length > 0 && here.every((r) => r.farEnd !== undefined) ? MULTI_HOP_ROUTE : user;
}

/** A PostCompleteBuyEvent's amounts (idl/2026-10 pump.json; FACTS §2). */
export interface PoolPart {
  tokens: bigint;
  quote: bigint;
  /** null when the event has no `fee` field (see feesOf) */
  fees: bigint | null;
  reservesBefore: { base: bigint; quote: bigint };
  reservesAfter: { base: bigint; quote: bigint };
}

export interface TxRef {
  signature: string;
  slot: number;
  blockTime: number | null;
}

export const str = (v: DecodedValue | undefined): string | undefined => (typeof v === 'string' ? v : undefined);
export const big = (v: DecodedValue | undefined): bigint => (typeof v === 'string' || typeof v === 'number' ? BigInt(v) : 0n);

/** Successful transactions only, in slot order (stable within a slot). */
export function successful(txs: DecodedTransaction[]): DecodedTransaction[] {
  return txs.filter((t) => t.err === null || t.err === undefined).sort((a, b) => (a.slot ?? 0) - (b.slot ?? 0));
}

/** Pump/PumpSwap events of a transaction with a given name. */
export function eventsNamed(tx: DecodedTransaction, name: string): DecodedEvent[] {
  return tx.events.filter((e) => e.name === name);
}

/**
 * The quote mint as documents spell it: SOL is always the wrapped SOL mint
 * (`So11111111111111111111111111111111111111112`), however the chain names it. Pump's create event
 * names SOL by the default key (`11111111111111111111111111111111`, the System Program's address;
 * an older event has no quote_mint at all), PumpSwap's pool by the wrapped SOL mint: one spelling in
 * `launch.quoteMint`, `curveBuyout.quoteMint` and `pool.quoteMint` (markers-v3; docs/methodology.md
 * "One spelling of SOL"). Any other quote mint (a coin quoted in a pump coin) is kept as it is.
 * @example documentQuoteMint('11111111111111111111111111111111') // 'So11111111111111111111111111111111111111112'
 */
export function documentQuoteMint(quoteMint: string | undefined): string {
  return isSolQuote(quoteMint) ? WSOL_MINT : quoteMint!;
}

/**
 * The decimals of a launch's quote mint (markers-v6; docs/methodology.md "A quote's own decimals"):
 * 9 for SOL and 6 for USDC; for any other quote (a pump coin, 6; a token listed through QuoteControl
 * such as an 8-decimal xStock: idl/2026-10 FACTS §6) what the chain itself reported for that mint in
 * the launch's successful transactions (`successfulTxs`) — `uiTokenAmount.decimals` of a token balance of the quote
 * mint (a curve trade moves the quote between the trader's token account and the curve's) or
 * `quote_mint_decimals` of a PumpSwap `CreatePoolEvent` for it. Null when none of them names the
 * mint, or when they disagree (a mint's decimals never change: a disagreement is bad data, not a
 * choice to make). Pure.
 * @example quoteDecimalsOf('So11111111111111111111111111111111111111112', []) // 9
 */
export function quoteDecimalsOf(quoteMint: string, successfulTxs: readonly DecodedTransaction[]): number | null {
  const known = knownQuoteDecimals(quoteMint);
  if (known !== null) return known;
  const reported = new Set<number>();
  for (const tx of successfulTxs) {
    for (const b of tx.preTokenBalances) if (b.mint === quoteMint && b.decimals !== null) reported.add(b.decimals);
    for (const b of tx.postTokenBalances) if (b.mint === quoteMint && b.decimals !== null) reported.add(b.decimals);
    for (const e of tx.events) {
      const d = e.fields.quote_mint_decimals;
      if (e.program === 'pump_amm' && e.name === 'CreatePoolEvent' && e.fields.quote_mint === quoteMint && typeof d === 'number') reported.add(d);
    }
  }
  return reported.size === 1 ? [...reported][0]! : null;
}

/** Whether a quote mint means SOL (the default key or WSOL). */
export function isSolQuote(quoteMint: string | undefined): boolean {
  return quoteMint === undefined || quoteMint === DEFAULT_KEY || quoteMint === WSOL_MINT;
}

/**
 * The fees a TradeEvent or PostCompleteBuyEvent charged, in its quote's raw units: `fee + creator_fee`.
 * null when the event has no `fee` field: the 2024 TradeEvent layout (121 B, up to the creator-fee
 * upgrade of 2025-05-12; reference.md §1.5) does not report the fee the trade paid, which the balances
 * show (FIX 2wkECd, January 2025: the fee recipient received 80,133,054 lamports on a buy of
 * 8,013,305,498); markers-v7 and before wrote 0 (markers-v8). An absent `creator_fee` with a `fee` is
 * 0 (no layout has one without the other). `buyback_fee` is not added: it is the part of `fee` paid
 * to the buyback recipient, as the balances of real trades show (markers-v5; docs/methodology.md
 * "The buyback fee is part of fee"): in `2Sh2zTmn…` (buy_exact_quote_in_v2, 2026-10-08) the buyer
 * paid exactly `sol_amount + fee + creator_fee` = 1,000,000,000 lamports, and `fee` 9,382,717 is what
 * the fee recipient (4,691,359) and the buyback recipient (`buyback_fee` 4,691,358) received.
 */
const feesOf = (f: Record<string, DecodedValue>): bigint | null => (f.fee === undefined ? null : big(f.fee) + big(f.creator_fee));

/**
 * A transaction of a launch from which the record claims nothing (build-launch.ts: UNKNOWN
 * `unrecognised_program_data`), and why: a synthetic completion's pool part that follows no buy
 * (markers-v10), a wallet's hops of the coin under one instruction of which some are its own and
 * some pass through (markers-v11, {@link hopOf}), or buys a program called whose events do not pair
 * with them (markers-v11, {@link receiversOf}).
 */
export interface UnplacedTx {
  signature: string;
  why: 'pool_part' | 'routes' | 'receivers';
}

/**
 * The curve trades of `mint` (TradeEvents, any instruction: buy/sell v1–v3, `multi_hop_curve_swap`
 * hops) in successful transactions.
 * Quote: `sol_amount`, or `quote_amount` when the event's quote mint is not SOL (USDC- and
 * pump-coin-quoted coins report `sol_amount` = 0; reference.md §1.5).
 * Synthetic migration (pump 2026-10, FACTS §2): a buy TradeEvent followed in the same transaction by a
 * `PostCompleteBuyEvent` of the same mint is one buy of both parts added (tokens + base_out, quote +
 * quote_in, fees of both); the parts stay apart in `curve` and `pool`. The curve takes no trade after
 * its completion, so the pool part is the last buy's, whatever `user` its event names (markers-v10:
 * one naming another user was dropped). One that follows no buy of the mint cannot be placed: its
 * transaction is added to `unplaced` (the record claims nothing from it: build-launch.ts).
 * Multi-hop routes: {@link hopOf}; a wallet's hops it cannot place also add their transaction to `unplaced`.
 * The receiver rule ({@link receiversOf}, and a route's receiver) is read only in the transactions
 * `receiversRead` accepts (all when absent): the builder reads it where the record reads whole
 * transactions (markers-v11: the creation slot, the first 30 s and the completion), so a later trade
 * kept in its logs form, which has no accounts, gives the same record as the same trade read whole.
 */
export function tradesOf(mint: string, txs: DecodedTransaction[], unplaced?: UnplacedTx[], receiversRead?: (tx: DecodedTransaction) => boolean): Trade[] {
  const out: Trade[] = [];
  for (const tx of txs) {
    let lastBuy: Trade | undefined;
    // read from the instructions only for a transaction with a buy (most of a curve's are one trade: no second walk for a sell)
    let receivers: ReturnType<typeof receiversOf> | undefined;
    let routes: ReturnType<typeof routesOf> | undefined;
    let readsReceivers: boolean | undefined;
    // the buy TradeEvents of the mint (not route hops) seen so far under each top-level instruction: their receivers in order
    const buysSeen = new Map<number, number>();
    let unplacedRoutes = false;
    let unplacedReceivers = false;
    let unplacedHolders = false;
    // the transaction's trades of the mint, and those a program's address made (markers-v12)
    const inTx: Trade[] = [];
    const pending: Trade[] = [];
    for (const e of tx.events) {
      const f = e.fields;
      if (e.name === 'PostCompleteBuyEvent') {
        if (str(f.mint) !== mint) continue;
        if (!lastBuy || lastBuy.pool !== null) {
          unplaced?.push({ signature: tx.signature, why: 'pool_part' });
          continue;
        }
        const pool: PoolPart = {
          tokens: big(f.base_out),
          quote: big(f.quote_in),
          fees: feesOf(f),
          reservesBefore: { base: big(f.pool_base_reserves_before), quote: big(f.pool_quote_reserves_before) },
          reservesAfter: { base: big(f.pool_base_reserves_after), quote: big(f.pool_quote_reserves_after) },
        };
        lastBuy.pool = pool;
        lastBuy.tokens += pool.tokens;
        lastBuy.quote += pool.quote;
        lastBuy.fees = lastBuy.fees === null || pool.fees === null ? null : lastBuy.fees + pool.fees;
        continue;
      }
      if (e.name !== 'TradeEvent' || str(f.mint) !== mint) continue;
      const user = str(f.user);
      if (!user) continue;
      readsReceivers ??= receiversRead ? receiversRead(tx) : true;
      let wallet: string;
      if (f.ix_name === 'multi_hop_swap') {
        // a hop of a multi-hop route: the route's far-end coin is the wallet's trade, a middle coin no wallet's (markers-v10)
        const hop = hopOf(mint, user, f.is_buy === true, e, tx, (routes ??= routesOf(tx)));
        if (hop === null) unplacedRoutes = true;
        wallet = hop === null ? user : hop === user || hop === MULTI_HOP_ROUTE || readsReceivers ? hop : user;
      } else if (f.is_buy === true && e.outerIndex !== null) {
        // a buy's tokens belong to the wallet that received them (markers-v9, v11); the user paid
        const k = buysSeen.get(e.outerIndex) ?? 0;
        buysSeen.set(e.outerIndex, k + 1);
        receivers ??= readsReceivers ? receiversOf(mint, tx) : undefined;
        // a program's buys that cannot be paired with their events: whose tokens they were cannot be read (markers-v11)
        if (receivers?.unpaired.has(e.outerIndex)) unplacedReceivers = true;
        const by = receivers?.byTop.get(e.outerIndex)?.[k];
        wallet = by && by.user === user && by.owner ? by.owner : user;
      } else {
        wallet = user;
      }
      const tokens = big(f.token_amount);
      const quote = isSolQuote(str(f.quote_mint)) ? big(f.sol_amount) : big(f.quote_amount);
      const fees = feesOf(f);
      const t: Trade = {
        signature: tx.signature,
        slot: tx.slot ?? 0,
        blockTime: chainTimeOf(tx),
        wallet,
        isBuy: f.is_buy === true,
        tokens,
        quote,
        fees,
        curve: { tokens, quote, fees },
        pool: null,
        ...(wallet !== user ? { payer: user } : {}),
      };
      out.push(t);
      inTx.push(t);
      // a program's address as the trader: read once the transaction's trades are all known (markers-v12, holdersOf), where the record reads whole transactions
      if (readsReceivers && wallet !== MULTI_HOP_ROUTE && !PROTOCOL_WALLETS.has(wallet) && isProgramAddress(wallet)) pending.push(t);
      lastBuy = t.isBuy ? t : undefined;
    }
    if (pending.length > 0) {
      const holders = holdersOf(mint, tx, inTx.filter((t) => !pending.includes(t) && t.wallet !== MULTI_HOP_ROUTE), pending);
      // the wallet that signed, when it is not the holder: it paid (a wallet paying through a router for another's account is in the cohort, markers-v11)
      const signer = tx.signers.find((x) => isWalletAddress(x));
      pending.forEach((t, k) => {
        const holder = holders[k]!;
        if (holder === null) unplacedHolders = true;
        if (holder === null || holder === t.wallet) return;
        t.via = t.wallet;
        t.wallet = holder;
        if (signer !== undefined && signer !== holder) t.payer = signer;
        else delete t.payer;
      });
    }
    if (unplacedRoutes) unplaced?.push({ signature: tx.signature, why: 'routes' });
    if (unplacedReceivers || unplacedHolders) unplaced?.push({ signature: tx.signature, why: 'receivers' });
  }
  return out;
}

export function ref(tx: DecodedTransaction): TxRef {
  return { signature: tx.signature, slot: tx.slot ?? 0, blockTime: chainTimeOf(tx) };
}
