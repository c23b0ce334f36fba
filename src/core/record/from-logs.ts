import type { CreationAt, DecodedTransaction } from '../types.ts';
import { inFirstWindow } from './build-launch.ts';
import { str } from './launch-events.ts';

/**
 * When the live watch's logs are enough (issue 3 "Live watch": "decodes events from the logs,
 * fetches the transaction when logs are truncated or insufficient"; methodology "Transactions
 * taken from their logs"). Pure.
 *
 * A record takes from a later curve trade only its TradeEvents (wallet, side, raw token and quote
 * amounts) and the transaction's signature, slot and blockTime. The accounts, instructions and
 * token balances matter only for the creation transaction, the creation slot and first 30 s
 * (bundles, the funding cohort), completion, graduation (a Raydium-era `withdraw` is known by its
 * accounts) and failed transactions. So a transaction heard in a logsNotification is taken as
 * it is only when it is a plain curve trade well after its launch; anything else is fetched.
 */

/** pump instructions whose whole effect on a record is their TradeEvent (pump IDL). */
export const TRADE_INSTRUCTIONS: ReadonlySet<string> = new Set(['buy', 'buy_v2', 'buy_exact_sol_in', 'buy_exact_quote_in_v2', 'sell', 'sell_v2']);

/** A signature as getSignaturesForAddress listed it (the collector's source of truth for what landed). */
export interface ListedSignature {
  signature: string;
  slot: number;
  err: unknown;
}

/**
 * The transaction a record may take from its logs alone, or `null` when it must be fetched.
 *
 * `heard` is a logsNotification decoded by `decodeLogsNotification` (`fromLogsOnly`, no blockTime).
 * It is taken only when every one of these holds:
 * - it is the listed transaction: same signature and slot, and it succeeded (err null in both);
 * - its logs are whole (no `Log truncated`) and nothing in them failed to decode;
 * - every event is a pump TradeEvent and every instruction named in the logs is a pump trade
 *   instruction ({@link TRADE_INSTRUCTIONS}), one TradeEvent per trade instruction;
 * - every TradeEvent carries the same integer `timestamp` — the Clock sysvar's unix time, which is
 *   the block's `blockTime` (mainnet fixtures: every event timestamp equals its blockTime) — and it
 *   becomes the transaction's blockTime;
 * - for each mint traded, its creation is known (`creationOf`, with a blockTime) and the trade is
 *   neither in the creation slot nor within the first 30 s ({@link inFirstWindow}).
 *
 * Returns `heard` with `blockTime` set (still `fromLogsOnly: true`: no accounts, no balances).
 */
export function takeFromLogs(heard: DecodedTransaction, listed: ListedSignature, creationOf: (mint: string) => CreationAt | undefined): DecodedTransaction | null {
  if (!heard.fromLogsOnly || heard.signature !== listed.signature || heard.slot !== listed.slot) return null;
  if (heard.err !== null || (listed.err !== null && listed.err !== undefined)) return null;
  if (heard.logsTruncated || heard.skipped.length > 0 || heard.events.length === 0) return null;
  let trades = 0;
  for (const i of heard.instructions) {
    if (i.program !== 'pump' || !TRADE_INSTRUCTIONS.has(i.name)) return null;
    trades++;
  }
  if (trades !== heard.events.length) return null;
  let timestamp: number | null = null;
  const mints = new Set<string>();
  for (const e of heard.events) {
    if (e.program !== 'pump' || e.name !== 'TradeEvent') return null;
    const t = Number(e.fields.timestamp);
    if (!Number.isSafeInteger(t) || (timestamp !== null && t !== timestamp)) return null;
    timestamp = t;
    const mint = str(e.fields.mint);
    if (!mint) return null;
    mints.add(mint);
  }
  const at = { slot: listed.slot, blockTime: timestamp };
  for (const mint of mints) {
    const creation = creationOf(mint);
    if (!creation || creation.blockTime === null || creation.slot === at.slot || inFirstWindow(creation, at)) return null;
  }
  return { ...heard, blockTime: timestamp };
}

/**
 * The creation a transaction carries: for each successful CreateEvent, its mint, the slot and the
 * blockTime (the transaction's, else the event's `timestamp`). Empty for anything else. Pure.
 */
export function creationsIn(tx: DecodedTransaction): [string, CreationAt][] {
  if (tx.err !== null || tx.slot === null) return [];
  const out: [string, CreationAt][] = [];
  for (const e of tx.events) {
    if (e.name !== 'CreateEvent' || e.program !== 'pump') continue;
    const mint = str(e.fields.mint);
    const t = Number(e.fields.timestamp);
    if (mint) out.push([mint, { slot: tx.slot, blockTime: tx.blockTime ?? (Number.isSafeInteger(t) ? t : null) }]);
  }
  return out;
}
