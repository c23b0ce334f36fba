import type { CreationAt, DecodedTransaction } from '../types.ts';
import { decodeLogsNotification } from '../decode/logs-notification.ts';
import { inFirstWindow } from './build-launch.ts';
import { chainTimeOf, str } from './launch-events.ts';

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
 * it is only when it is a plain curve trade well after its launch; anything else is fetched. A
 * fetched transaction the same rules would take is kept in the same logs form ({@link keptFromLogs}),
 * so a transaction's row does not depend on how it was read.
 */

/**
 * pump instructions whose whole effect on a record is their TradeEvent (pump IDL), the 2026-10 v3
 * trades included (a v3 buy that completes the curve also emits CompleteEvent and PostCompleteBuyEvent,
 * so it is never one event per instruction and is fetched whole).
 */
export const TRADE_INSTRUCTIONS: ReadonlySet<string> = new Set(['buy', 'buy_v2', 'buy_exact_sol_in', 'buy_exact_quote_in_v2', 'sell', 'sell_v2', 'buy_v3', 'buy_exact_quote_in_v3', 'sell_v3']);

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
  const trade = plainCurveTrade(heard, listed);
  return trade && laterTradeForm({ logs: heard, trade }, creationOf);
}

/**
 * The row a plain curve trade is kept as — its logs form with the trade's blockTime — when its
 * launch's creation allows ({@link afterFirstWindow} at the transaction's slot); null otherwise.
 * What {@link takeFromLogs} and {@link keptFromLogs} end with; the collector and rebuilds call it
 * once the creations they need are known.
 */
export function laterTradeForm(f: { logs: DecodedTransaction; trade: PlainCurveTrade }, creationOf: (mint: string) => CreationAt | undefined): DecodedTransaction | null {
  return f.logs.slot !== null && afterFirstWindow(f.trade, f.logs.slot, creationOf) ? { ...f.logs, blockTime: f.trade.blockTime } : null;
}

/** A plain curve trade as its logs show it: its blockTime (the events' common `timestamp`) and the mints it trades. */
export interface PlainCurveTrade {
  blockTime: number;
  mints: ReadonlySet<string>;
}

/**
 * The rules of {@link takeFromLogs} that the logs alone decide — the listed transaction, succeeded,
 * whole logs, only pump trade instructions with one TradeEvent each, one common integer timestamp —
 * or null when one fails. The launch's creation is checked by {@link afterFirstWindow}.
 */
export function plainCurveTrade(heard: DecodedTransaction, listed: ListedSignature): PlainCurveTrade | null {
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
  return timestamp === null ? null : { blockTime: timestamp, mints };
}

/**
 * Whether, for every mint `trade` trades, the launch's creation is known (`creationOf`, with a
 * blockTime) and the trade at `slot` is neither in the creation slot nor within its first 30 s
 * ({@link inFirstWindow}).
 */
export function afterFirstWindow(trade: PlainCurveTrade, slot: number, creationOf: (mint: string) => CreationAt | undefined): boolean {
  const at = { slot, blockTime: trade.blockTime };
  for (const mint of trade.mints) {
    const creation = creationOf(mint);
    if (!creation || creation.blockTime === null || creation.slot === at.slot || inFirstWindow(creation, at)) return false;
  }
  return true;
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
    // the builder's clock (markers-v12: launch-events.ts chainTimeOf): blockTime, else any pump event's timestamp (a 2024 CreateEvent has none; its dev buy's TradeEvent has)
    if (mint) out.push([mint, { slot: tx.slot, blockTime: chainTimeOf(tx) }]);
  }
  return out;
}

/**
 * The logs form of a fetched transaction: what the live watch would have heard for it — its
 * `meta.logMessages` decoded by `decodeLogsNotification` with its signature, slot and `meta.err`
 * (`fromLogsOnly: true`, blockTime null) — or null when `answer` is not a getTransaction result
 * (`json` encoding, plain JSON, no envelope) with logs.
 */
export function logsFormOf(answer: unknown): DecodedTransaction | null {
  if (typeof answer !== 'object' || answer === null) return null;
  const r = answer as { slot?: unknown; transaction?: { signatures?: unknown }; meta?: { err?: unknown; logMessages?: unknown } | null };
  const signature = Array.isArray(r.transaction?.signatures) ? (r.transaction.signatures as unknown[])[0] : undefined;
  const meta = r.meta;
  if (typeof r.slot !== 'number' || typeof signature !== 'string' || !meta || !Array.isArray(meta.logMessages)) return null;
  return decodeLogsNotification({ context: { slot: r.slot }, value: { signature, err: meta.err ?? null, logs: meta.logMessages } });
}

/**
 * A fetched transaction that its logs alone show to be a plain curve trade ({@link plainCurveTrade}),
 * with the fetched `blockTime` equal to its events' timestamp: its logs form and the trade, or null.
 * Whether it is kept in that form depends on its launch's creation ({@link keptFromLogs}).
 */
export function fetchedCurveTrade(answer: unknown, listed: ListedSignature): { logs: DecodedTransaction; trade: PlainCurveTrade } | null {
  // What the answer alone rules out — a failed transaction, another slot, no integer blockTime —
  // before its logs are decoded (the catch-up calls this for every transaction it fetches; the
  // failed ones and those without a blockTime are then decoded whole anyway). The same checks
  // follow in plainCurveTrade and below, so the result is the same.
  const a = answer as { slot?: unknown; blockTime?: unknown; meta?: { err?: unknown } | null } | null;
  if (listed.err !== null && listed.err !== undefined) return null;
  if (typeof a === 'object' && a !== null && (a.slot !== listed.slot || !Number.isSafeInteger(a.blockTime) || (a.meta && (a.meta.err ?? null) !== null))) return null;
  const logs = logsFormOf(answer);
  const trade = logs ? plainCurveTrade(logs, listed) : null;
  return logs && trade && trade.blockTime === (answer as { blockTime?: unknown }).blockTime ? { logs, trade } : null;
}

/**
 * The form a later curve trade is kept in wherever it came from (methodology "Transactions taken
 * from their logs"): a fetched transaction that {@link takeFromLogs} would take from its
 * notification is kept as that notification's decode would be — its logs form with its blockTime —
 * so `launch_tx` holds the same row whether the live watch heard it or a catch-up, scan or rebuild
 * fetched it. Null: the transaction is kept whole (`decodeTransaction`). Pure.
 */
export function keptFromLogs(answer: unknown, listed: ListedSignature, creationOf: (mint: string) => CreationAt | undefined): DecodedTransaction | null {
  const f = fetchedCurveTrade(answer, listed);
  return f && laterTradeForm(f, creationOf);
}
