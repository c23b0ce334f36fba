import type { DecodedEvent, DecodedTransaction, DecodedValue } from '../types.ts';
import { DEFAULT_KEY, MULTI_HOP_ROUTE, WSOL_MINT, knownQuoteDecimals } from '../programs.ts';

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
}

/**
 * Who received the top-level pump buys of `mint` in a transaction, by the instruction's top-level
 * index: its paying wallet (`user`) and the owner of its receiving token account (`associated_user`,
 * or `associated_base_user` of the 2026 trades) from the transaction's token balances (absent when
 * they do not say: a closed account, an answer without them). A buy's TradeEvent names the wallet
 * that signed and paid; the instruction may deliver the tokens to another wallet's account
 * (mainnet k1LPbZ…, August 2024: the creator's second buy in its creation transaction filled an
 * account of DNfuF1L6…, which holds them after it). Only top-level instructions: a router's CPI
 * may pass its own accounts on the way.
 */
function receiversOf(mint: string, tx: DecodedTransaction): Map<number, { user: string; owner: string | undefined }> {
  const out = new Map<number, { user: string; owner: string | undefined }>();
  for (const ix of tx.instructions) {
    if (ix.program !== 'pump' || ix.inner || !ix.name.startsWith('buy') || (ix.accounts.mint ?? ix.accounts.base_mint) !== mint) continue;
    const user = ix.accounts.user;
    const account = ix.accounts.associated_user ?? ix.accounts.associated_base_user;
    if (!user || !account) continue;
    const owner = tx.postTokenBalances.find((b) => b.account === account && b.mint === mint)?.owner ?? undefined;
    out.set(Number(ix.path), { user, owner });
  }
  return out;
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
 * (markers-v10). A route trades the coin at its far end — what a buy route delivers to
 * `user_out_token_account`, what a sell route takes from `user_in_token_account` — and a hop of any
 * other coin is a middle hop: "Coin A never touches the user's wallet. Each hop's output stays in
 * the pool or curve until the next hop pulls it" (MULTI_HOP_SWAP.md), so it is no wallet's buy or
 * sale ({@link MULTI_HOP_ROUTE}). The far-end hop of a buy route called at top level is the
 * wallet's that owns the account it delivered to (markers-v9's rule, here through the route's own
 * account); called by another program, the event's user's (its accounts may be that program's). When the
 * balances do not say which coin is at the far end, a coin another curve hop of the same route is
 * quoted in is a middle coin (the hops chain: B quoted in A is bought with A). Else the event's user.
 */
function hopOf(mint: string, user: string, isBuy: boolean, e: DecodedEvent, tx: DecodedTransaction, routes: Map<number, { buy: Route; sell: Route }[]>): string {
  const here = e.outerIndex === null ? [] : (routes.get(e.outerIndex) ?? []).filter((r) => r.buy.user === user).map((r) => (isBuy ? r.buy : r.sell));
  // the receiver of a far-end buy: read through a route called at top level only (a router's call may pass its own accounts, as markers-v9 says)
  const receiverOf = (r: Route) => (isBuy && r.receiver && !r.inner ? r.receiver : user);
  if (here.length > 0 && here.every((r) => r.farEnd !== undefined)) {
    const farEnd = here.filter((r) => r.farEnd === mint);
    // every route of this user here ends in another coin: this coin is in their middle
    if (farEnd.length === 0) return MULTI_HOP_ROUTE;
    // every route ends in this coin: the user's trade (several routes under one top-level instruction are a program's calls, whose
    // accounts are not read as receivers: the receiver rule holds for a route called at top level, one per instruction)
    if (farEnd.length === here.length) return farEnd.length === 1 ? receiverOf(farEnd[0]!) : user;
    // some end here, some pass through (which hop is which is not told apart by the balances): the chain of quotes below
  }
  const quotedIn = tx.events.some(
    (o) => o !== e && o.name === 'TradeEvent' && o.outerIndex === e.outerIndex && o.fields.ix_name === 'multi_hop_swap' && str(o.fields.quote_mint) === mint && str(o.fields.mint) !== mint,
  );
  return quotedIn ? MULTI_HOP_ROUTE : user;
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
 * The curve trades of `mint` (TradeEvents, any instruction: buy/sell v1–v3, `multi_hop_curve_swap`
 * hops) in successful transactions.
 * Quote: `sol_amount`, or `quote_amount` when the event's quote mint is not SOL (USDC- and
 * pump-coin-quoted coins report `sol_amount` = 0; reference.md §1.5).
 * Synthetic migration (pump 2026-10, FACTS §2): a buy TradeEvent followed in the same transaction by a
 * `PostCompleteBuyEvent` of the same mint is one buy of both parts added (tokens + base_out, quote +
 * quote_in, fees of both); the parts stay apart in `curve` and `pool`. The curve takes no trade after
 * its completion, so the pool part is the last buy's, whatever `user` its event names (markers-v10:
 * one naming another user was dropped). One that follows no buy of the mint cannot be placed: its
 * transaction's signature is added to `strays` (the record claims nothing from it: build-launch.ts).
 * Multi-hop routes: {@link hopOf}.
 */
export function tradesOf(mint: string, txs: DecodedTransaction[], strays?: string[]): Trade[] {
  const out: Trade[] = [];
  for (const tx of txs) {
    let lastBuy: Trade | undefined;
    // read from the instructions only for a transaction with a buy (most of a curve's are one trade: no second walk for a sell)
    let receivers: ReturnType<typeof receiversOf> | undefined;
    let routes: ReturnType<typeof routesOf> | undefined;
    for (const e of tx.events) {
      const f = e.fields;
      if (e.name === 'PostCompleteBuyEvent') {
        if (str(f.mint) !== mint) continue;
        if (!lastBuy || lastBuy.pool !== null) {
          strays?.push(tx.signature);
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
      let wallet: string;
      if (f.ix_name === 'multi_hop_swap') {
        // a hop of a multi-hop route: the route's far-end coin is the wallet's trade, a middle coin no wallet's (markers-v10)
        wallet = hopOf(mint, user, f.is_buy === true, e, tx, (routes ??= routesOf(tx)));
      } else {
        // a buy's tokens belong to the wallet that received them (markers-v9); the user paid
        const by = f.is_buy === true && e.outerIndex !== null ? (receivers ??= receiversOf(mint, tx)).get(e.outerIndex) : undefined;
        wallet = by && by.user === user && by.owner ? by.owner : user;
      }
      const quote = isSolQuote(str(f.quote_mint)) ? big(f.sol_amount) : big(f.quote_amount);
      const tokens = big(f.token_amount);
      const fees = feesOf(f);
      const t: Trade = {
        signature: tx.signature,
        slot: tx.slot ?? 0,
        blockTime: tx.blockTime,
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
      lastBuy = t.isBuy ? t : undefined;
    }
  }
  return out;
}

export function ref(tx: DecodedTransaction): TxRef {
  return { signature: tx.signature, slot: tx.slot ?? 0, blockTime: tx.blockTime };
}
