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
