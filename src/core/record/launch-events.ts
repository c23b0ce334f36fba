import type { DecodedEvent, DecodedTransaction, DecodedValue } from '../types.ts';
import { DEFAULT_KEY, WSOL_MINT } from '../programs.ts';

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
  /** raw token units */
  tokens: bigint;
  /** raw quote units (lamports for SOL coins; `quote_amount` for other quotes) */
  quote: bigint;
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

/** Whether a quote mint means SOL (the default key or WSOL). */
export function isSolQuote(quoteMint: string | undefined): boolean {
  return quoteMint === undefined || quoteMint === DEFAULT_KEY || quoteMint === WSOL_MINT;
}

/**
 * The curve trades of `mint` (TradeEvents) in successful transactions.
 * Quote: `sol_amount`, or `quote_amount` when the event's quote mint is not SOL (USDC-quoted coins
 * report `sol_amount` = 0; reference.md §1.5).
 */
export function tradesOf(mint: string, txs: DecodedTransaction[]): Trade[] {
  const out: Trade[] = [];
  for (const tx of txs) {
    for (const e of eventsNamed(tx, 'TradeEvent')) {
      const f = e.fields;
      if (str(f.mint) !== mint) continue;
      const wallet = str(f.user);
      if (!wallet) continue;
      const quoteMint = str(f.quote_mint);
      const quote = isSolQuote(quoteMint) ? big(f.sol_amount) : big(f.quote_amount);
      out.push({
        signature: tx.signature,
        slot: tx.slot ?? 0,
        blockTime: tx.blockTime,
        wallet,
        isBuy: f.is_buy === true,
        tokens: big(f.token_amount),
        quote,
      });
    }
  }
  return out;
}

export function ref(tx: DecodedTransaction): TxRef {
  return { signature: tx.signature, slot: tx.slot ?? 0, blockTime: tx.blockTime };
}
