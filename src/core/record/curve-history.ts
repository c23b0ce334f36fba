/**
 * History completeness check (methodology markers-v2 "History completeness"): the bonding curve
 * account read from chain must agree with the curve state the held events give at the read's
 * context slot. A disagreement means trades are missing from the held history, and a record built
 * on it must not claim facts (flag `history_incomplete`, class UNKNOWN). Pure.
 *
 * What the events give (reference.md §1.5, §1.7; idl/2026-10 FACTS §2–§3):
 * - `CreateEvent` (2025+ layouts): the starting reserves; real quote reserves 0;
 * - every `TradeEvent`: the reserves after the trade (2024's 10-field layout has no real reserves:
 *   only the virtual ones are compared);
 * - `CompleteEvent`: `complete` becomes true;
 * - a migration (`CompletePumpAmmMigrationEvent`, PumpSwap `CreatePoolEvent`, Raydium-era
 *   `withdraw`): the real reserves leave the curve (0); the virtual ones are not compared after it.
 * Transactions of one slot have no order the archive can prove, so the account agrees when it equals
 * the state after any event of the last slot at or before the read.
 */
import type { DecodedTransaction, DecodedValue } from '../types.ts';
import { big, isSolQuote, str, successful } from './launch-events.ts';

/** Curve reserves in raw units (decimal strings); null = not given by the source, not compared. */
export interface CurveSnapshot {
  virtualTokenReserves: string | null;
  virtualQuoteReserves: string | null;
  realTokenReserves: string | null;
  realQuoteReserves: string | null;
  complete: boolean;
}

/**
 * The bonding curve account as read: its decoded reserves and the read's context slot. `exists`
 * false: the chain has no account at the curve's address (a launch whose creation is held always has
 * one: curves are never closed), which disagrees with any held state.
 */
export interface CurveRead extends CurveSnapshot {
  slot: number;
  exists?: boolean;
}

/** The read of a curve address with no account, at a context slot. */
export function absentCurveRead(slot: number): CurveRead {
  return { slot, exists: false, virtualTokenReserves: null, virtualQuoteReserves: null, realTokenReserves: null, realQuoteReserves: null, complete: false };
}

/** What {@link compareCurveHistory} found. */
export interface CurveHistoryComparison {
  /** true when the account equals the held state (or nothing could be compared) */
  agrees: boolean;
  /** the held state the account was compared with (the last one of the slot), null when no event gave one */
  held: CurveSnapshot | null;
  account: CurveRead;
}

/** A raw amount as its decimal string (the decoder's u64 strings as they are), null when absent. */
const s = (v: DecodedValue | undefined): string | null => (v === undefined || v === null ? null : typeof v === 'string' ? v : big(v).toString());

/**
 * A decoded BondingCurve account (src/core/decode/accounts.ts fields) at a context slot → {@link CurveRead}.
 * Field names: virtual_token_reserves, virtual_quote_reserves (2024: the same position), real_token_reserves,
 * real_quote_reserves, complete.
 */
export function curveReadOf(fields: Record<string, DecodedValue>, slot: number): CurveRead {
  return {
    slot,
    virtualTokenReserves: s(fields.virtual_token_reserves),
    virtualQuoteReserves: s(fields.virtual_quote_reserves ?? fields.virtual_sol_reserves),
    realTokenReserves: s(fields.real_token_reserves),
    realQuoteReserves: s(fields.real_quote_reserves ?? fields.real_sol_reserves),
    complete: fields.complete === true,
  };
}

/**
 * The curve states the held events give in the last slot at or before `upToSlot` (in history order),
 * one pass, keeping only that slot's states.
 */
function lastSlotStates(mint: string, txs: DecodedTransaction[], upToSlot: number): CurveSnapshot[] {
  let states: CurveSnapshot[] = [];
  let statesSlot = -1;
  let cur = null as CurveSnapshot | null;
  let migrated = false;
  const push = (slot: number, state: CurveSnapshot) => {
    if (slot !== statesSlot) {
      states = [];
      statesSlot = slot;
    }
    states.push(state);
  };
  for (const tx of successful(txs)) {
    const slot = tx.slot ?? 0;
    if (slot > upToSlot) break;
    for (const e of tx.events) {
      const f = e.fields;
      if (e.name === 'CreateEvent' && str(f.mint) === mint) {
        const sol = isSolQuote(str(f.quote_mint));
        cur = {
          virtualTokenReserves: s(f.virtual_token_reserves),
          virtualQuoteReserves: sol ? s(f.virtual_sol_reserves ?? f.virtual_quote_reserves) : s(f.virtual_quote_reserves),
          realTokenReserves: s(f.real_token_reserves),
          realQuoteReserves: f.real_token_reserves === undefined ? null : '0',
          complete: false,
        };
      } else if (e.name === 'TradeEvent' && str(f.mint) === mint && !migrated) {
        const sol = isSolQuote(str(f.quote_mint));
        cur = {
          virtualTokenReserves: s(f.virtual_token_reserves),
          virtualQuoteReserves: sol ? s(f.virtual_sol_reserves) : s(f.virtual_quote_reserves),
          realTokenReserves: s(f.real_token_reserves),
          realQuoteReserves: sol ? s(f.real_sol_reserves) : s(f.real_quote_reserves),
          complete: cur?.complete ?? false,
        };
      } else if (e.name === 'CompleteEvent' && str(f.mint) === mint) {
        cur = { ...(cur ?? { virtualTokenReserves: null, virtualQuoteReserves: null, realTokenReserves: null, realQuoteReserves: null }), complete: true };
      } else if (
        (e.name === 'CompletePumpAmmMigrationEvent' && str(f.mint) === mint) ||
        (e.name === 'CreatePoolEvent' && str(f.base_mint) === mint)
      ) {
        if (migrated) continue;
        migrated = true;
        cur = MIGRATED;
      } else continue;
      push(slot, cur);
    }
    if (!migrated && tx.instructions.some((i) => i.program === 'pump' && i.name === 'withdraw' && i.accounts.mint === mint)) {
      migrated = true;
      cur = MIGRATED;
      push(slot, cur);
    }
  }
  return states;
}

/** After a migration the real reserves have left the curve; the virtual ones are not compared. */
const MIGRATED: CurveSnapshot = { virtualTokenReserves: null, virtualQuoteReserves: null, realTokenReserves: '0', realQuoteReserves: '0', complete: true };

const same = (a: string | null, b: string | null): boolean => a === null || b === null || a === b;

function agreesWith(held: CurveSnapshot, read: CurveSnapshot): boolean {
  return (
    held.complete === read.complete &&
    same(held.virtualTokenReserves, read.virtualTokenReserves) &&
    same(held.virtualQuoteReserves, read.virtualQuoteReserves) &&
    same(held.realTokenReserves, read.realTokenReserves) &&
    same(held.realQuoteReserves, read.realQuoteReserves)
  );
}

/**
 * Compare the curve account read at `read.slot` with the state the held transactions give at that
 * slot. `agrees` false is evidence of missing trades only when the caller knows the held history
 * reaches `read.slot` (every signature the chain lists for the curve up to that slot is held); the
 * caller says so to the builder (ChainState.curve.listedAllHeld).
 * @param mint the launch's mint
 * @param txs every transaction held for the launch (failed ones are ignored)
 * @param read the account read (see {@link curveReadOf})
 */
export function compareCurveHistory(mint: string, txs: DecodedTransaction[], read: CurveRead): CurveHistoryComparison {
  const candidates = lastSlotStates(mint, txs, read.slot);
  if (candidates.length === 0) return { agrees: true, held: null, account: read };
  const held = candidates[candidates.length - 1]!;
  if (read.exists === false) return { agrees: false, held, account: read };
  return { agrees: candidates.some((c) => agreesWith(c, read)), held, account: read };
}
