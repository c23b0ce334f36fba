/**
 * Coverage rules (methodology "Coverage"): when the collector was watching, in wall time and in
 * slots. Pure.
 */

/** A run as the coverage rules see it. */
export interface RunMark {
  /** last heartbeat (epoch ms) */
  lastBeatMs: number;
  /** chain tip at that heartbeat, null when unknown */
  tipSlot: number | null;
}

/** An interval the collector was not watching. */
export interface Gap {
  fromMs: number;
  toMs: number;
  fromSlot: number | null;
  toSlot: number | null;
}

/**
 * The gap opened by a run starting at `nowMs` (chain tip `startSlot`) after `prev`: the time from
 * prev's last heartbeat to now, when it is longer than `allowedMs` (a cron run every minute stays
 * under the default 120 s, so its coverage is continuous). Null: no gap (or no previous run).
 */
export function gapOnStart(prev: RunMark | undefined, nowMs: number, startSlot: number | null, allowedMs: number): Gap | null {
  if (!prev || nowMs - prev.lastBeatMs <= allowedMs) return null;
  return { fromMs: prev.lastBeatMs, toMs: nowMs, fromSlot: prev.tipSlot, toSlot: startSlot };
}

/**
 * Whether a creation at `slot` was watched: after the slot the collector first began watching
 * (`fromSlot`; null = unknown, then only gaps decide) and inside no gap's slot range
 * (fromSlot, toSlot]. A gap with an unknown bound cannot place slots and is ignored here
 * (its wall-time length still counts as downtime).
 */
export function watchedAt(slot: number, fromSlot: number | null, gaps: readonly Gap[]): boolean {
  if (fromSlot !== null && slot <= fromSlot) return false;
  return !gaps.some((g) => g.fromSlot !== null && g.toSlot !== null && slot > g.fromSlot && slot <= g.toSlot);
}

/**
 * Whole minutes the collector was not running: recorded gaps plus the ongoing one when the latest
 * heartbeat is older than `allowedMs` at `nowMs` (spec §2.1 `coverage.downtimeMinutes`).
 */
export function downtimeMinutes(gapMs: number, lastBeatMs: number | null, nowMs: number, allowedMs: number): number {
  const ongoing = lastBeatMs !== null && nowMs - lastBeatMs > allowedMs ? nowMs - lastBeatMs : 0;
  return Math.floor((gapMs + ongoing) / 60_000);
}

/** Meta key of the collector's current RPC outage (JSON {@link Unreachable}; empty: none). */
export const UNREACHABLE_META = 'collector_unreachable';

/** An RPC outage as the collector records it: since when, last try, the last error (URLs redacted). */
export interface Unreachable {
  sinceMs: number;
  checkedMs: number;
  error: string;
}

/** The recorded outage, or null when none (absent, empty or unreadable). */
export function parseUnreachable(raw: string | undefined): Unreachable | null {
  if (!raw) return null;
  try {
    const u = JSON.parse(raw) as Partial<Unreachable>;
    return typeof u.sinceMs === 'number' && typeof u.checkedMs === 'number' ? { sinceMs: u.sinceMs, checkedMs: u.checkedMs, error: String(u.error ?? '') } : null;
  } catch {
    return null;
  }
}

/** A cursor further than this many slots (≈1 minute) behind the tip is catching up, not live. */
export const CATCHING_UP_LAG_SLOTS = 150;

/** What the collector is doing, for `/api/v1/status` `collector.state`. */
export type CollectorPhase = 'live' | 'catching_up' | 'unreachable' | 'between_runs' | 'stopped';

/**
 * The collector's state at `nowMs`: `unreachable` when its latest try to read the chain failed
 * within `aliveMs`; else `between_runs` when its newest run ended (it stopped, as a cron run does
 * when caught up) less than `allowedGapMs` (COVERAGE_GAP_MS) after its last heartbeat — a run
 * started by then leaves no gap, so nothing is missed yet; else `stopped` when it ended longer ago
 * or has not beaten within `aliveMs` (a process that died says nothing); else `catching_up` when
 * the cursor trails the tip by more than {@link CATCHING_UP_LAG_SLOTS}, else `live`.
 */
export function collectorPhase(o: { nowMs: number; aliveMs: number; allowedGapMs?: number; lastBeatMs: number | null; stopped: boolean; lagSlots: number | null; unreachable: Unreachable | null }): CollectorPhase {
  if (o.unreachable && o.nowMs - o.unreachable.checkedMs < o.aliveMs) return 'unreachable';
  if (o.stopped && o.lastBeatMs !== null && o.allowedGapMs !== undefined && o.nowMs - o.lastBeatMs < o.allowedGapMs) return 'between_runs';
  if (o.lastBeatMs === null || o.stopped || o.nowMs - o.lastBeatMs >= o.aliveMs) return 'stopped';
  return o.lagSlots !== null && o.lagSlots > CATCHING_UP_LAG_SLOTS ? 'catching_up' : 'live';
}
