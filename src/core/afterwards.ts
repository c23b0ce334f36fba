/**
 * What a buyout wallet did afterwards (wallet priors, spec §2.4 `buyouts[]`; docs/methodology.md
 * "Buyout afterwards"): a fold over the successful transactions of the token account that received
 * the completing buy's tokens, read after the completing transaction. Pure.
 *
 * A decrease of that account's balance (post − pre in `meta.pre/postTokenBalances`) is a **sale**
 * when the same transaction emits, for this account, a PumpSwap `SellEvent` (venue `pool`:
 * `user_base_token_account` = the account, or — in a transaction the wallet signed — another
 * token account of the same mint, as a router's: the wallet's tokens moved to the router's account
 * and sold from it, e.g. `3vg7eD…` through OKX) or a pump sell `TradeEvent` of the wallet and mint
 * (venue `curve`); the tokens sold are the events' amounts, at most the decrease. Whatever else
 * leaves the account (transfers, venues the archive does not decode) is `movedOutTokens`, never
 * counted as a sale.
 */
import { instant } from './canonical.ts';
import type { DecodedTransaction, Instant } from './types.ts';

/** Where a sale happened: the pump bonding curve, or the PumpSwap pool. */
export type SaleVenue = 'curve' | 'pool';

/** One sale of the buyout wallet after it took the curve (evidence of `buyouts[].afterwards`). */
export interface BuyoutSale {
  signature: string;
  slot: number;
  /** unix seconds, or null when the RPC gave none */
  blockTime: number | null;
  venue: SaleVenue;
  /** raw token units sold, decimal string */
  tokens: string;
}

/**
 * The followed state of one buyout (stored; `afterwardsOf` renders it). Amounts are raw token
 * units as decimal strings.
 */
export interface AfterwardsState {
  /** the token account followed: the wallet's account of the mint in the completing transaction's postTokenBalances */
  tokenAccount: string;
  /** the account's balance after the newest transaction read */
  balance: string;
  /** tokens that left the account other than by a sale */
  movedOut: string;
  sales: BuyoutSale[];
  /** newest transaction read (the completing transaction until a newer one is read) */
  throughSignature: string;
  throughSlot: number;
}

/** `buyouts[].afterwards` of the wallet endpoint (docs/api.md "Wallet record"). */
export interface BuyoutAfterwards {
  /** `all`: it sold, and the account now holds nothing; `part`: it sold and still holds tokens; `none`: no sale */
  sold: 'all' | 'part' | 'none';
  /** raw token units sold, decimal string */
  soldTokens: string;
  /** venues of the sales, sorted */
  venues: SaleVenue[];
  firstSoldAt: Instant | null;
  lastSoldAt: Instant | null;
  /** raw token units that left the account other than by a sale (transfers, other venues) */
  movedOutTokens: string;
  /** raw token units the account holds as of `throughSlot` */
  balanceTokens: string;
  tokenAccount: string;
  /** sale signatures, oldest first */
  signatures: string[];
  /** the newest transaction of the account read; the facts hold as of it and of `checkedAt` */
  throughSlot: number;
  checkedAt: Instant;
}

/**
 * The starting state from the completing transaction: the token account of `wallet` for `mint` in
 * its postTokenBalances, with that balance. Null when the transaction holds no such account (the
 * wallet's tokens went elsewhere: it cannot be followed).
 */
export function afterwardsStart(completing: DecodedTransaction, wallet: string, mint: string): AfterwardsState | null {
  const acct = completing.postTokenBalances.find((b) => b.owner === wallet && b.mint === mint);
  if (!acct || completing.slot === null) return null;
  return { tokenAccount: acct.account, balance: acct.amount, movedOut: '0', sales: [], throughSignature: completing.signature, throughSlot: completing.slot };
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Tokens this transaction sold out of `state.tokenAccount` and where (null: no sale event for the account). */
function saleOf(tx: DecodedTransaction, tokenAccount: string, wallet: string, mint: string): { venue: SaleVenue; tokens: bigint } | null {
  let pool = 0n;
  let curve = 0n;
  // a sale through a router in the wallet's own transaction: the SellEvent names the router's account of the mint
  const routerAccounts = tx.signers.includes(wallet) ? new Set([...tx.preTokenBalances, ...tx.postTokenBalances].filter((b) => b.mint === mint).map((b) => b.account)) : null;
  const ofMint = (account: unknown) => account === tokenAccount || (typeof account === 'string' && routerAccounts !== null && routerAccounts.has(account));
  for (const e of tx.events) {
    if (e.program === 'pump_amm' && e.name === 'SellEvent' && ofMint(e.fields.user_base_token_account)) pool += BigInt(str(e.fields.base_amount_in) ?? '0');
    else if (e.program === 'pump' && e.name === 'TradeEvent' && e.fields.is_buy === false && e.fields.user === wallet && e.fields.mint === mint) {
      curve += BigInt(str(e.fields.token_amount) ?? '0');
    }
  }
  if (pool > 0n) return { venue: 'pool', tokens: pool + curve };
  if (curve > 0n) return { venue: 'curve', tokens: curve };
  return null;
}

/**
 * Fold the account's transactions (oldest first, all newer than `state.throughSignature`) into the
 * state. Failed transactions change nothing but still advance `throughSignature`. An account absent
 * from a transaction's postTokenBalances but present in its pre balances was closed: balance 0.
 */
export function foldAfterwards(state: AfterwardsState, txs: DecodedTransaction[], wallet: string, mint: string): AfterwardsState {
  let balance = BigInt(state.balance);
  let movedOut = BigInt(state.movedOut);
  const sales = [...state.sales];
  let through = { signature: state.throughSignature, slot: state.throughSlot };
  for (const tx of txs) {
    through = { signature: tx.signature, slot: tx.slot ?? through.slot };
    if (tx.err !== null) continue;
    const pre = tx.preTokenBalances.find((b) => b.account === state.tokenAccount);
    const post = tx.postTokenBalances.find((b) => b.account === state.tokenAccount);
    if (!pre && !post) continue;
    const before = pre ? BigInt(pre.amount) : 0n;
    const after = post ? BigInt(post.amount) : 0n;
    balance = after;
    const out = before - after;
    if (out <= 0n) continue;
    const sale = saleOf(tx, state.tokenAccount, wallet, mint);
    const sold = sale ? (sale.tokens < out ? sale.tokens : out) : 0n;
    if (sale && sold > 0n) sales.push({ signature: tx.signature, slot: tx.slot ?? through.slot, blockTime: tx.blockTime, venue: sale.venue, tokens: sold.toString() });
    movedOut += out - sold;
  }
  return { tokenAccount: state.tokenAccount, balance: balance.toString(), movedOut: movedOut.toString(), sales, throughSignature: through.signature, throughSlot: through.slot };
}

/** The endpoint's view of a followed state, checked at `checkedAtMs`. */
export function afterwardsOf(state: AfterwardsState, checkedAtMs: number): BuyoutAfterwards {
  const sold = state.sales.reduce((s, x) => s + BigInt(x.tokens), 0n);
  const at = (x: BuyoutSale | undefined) => (x && x.blockTime !== null ? instant(x.blockTime * 1000) : null);
  return {
    sold: state.sales.length === 0 ? 'none' : BigInt(state.balance) === 0n ? 'all' : 'part',
    soldTokens: sold.toString(),
    venues: [...new Set(state.sales.map((s) => s.venue))].sort(),
    firstSoldAt: at(state.sales[0]),
    lastSoldAt: at(state.sales.at(-1)),
    movedOutTokens: state.movedOut,
    balanceTokens: state.balance,
    tokenAccount: state.tokenAccount,
    signatures: state.sales.map((s) => s.signature),
    throughSlot: state.throughSlot,
    checkedAt: instant(checkedAtMs),
  };
}
