/**
 * The daily quota's number, day and usage shape (spec §5 rule 5, §8): what the key service
 * (keys.ts) counts and the quota checks (quota.ts) report. No imports, so keys.ts does not reach the
 * server's deps through quota.ts (the billing → keys → quota → deps → billing circle).
 */

/** Requests per key per UTC day (spec §5 rule 5, §8). */
export const DAILY_QUOTA = 10_000;

/** A key's quota state after (or without) counting a request. */
export interface Usage {
  /** Requests counted today, including the current one when it was admitted. */
  used: number;
  quota: number;
  /** Whole seconds until the count resets at 00:00 UTC (at least 1). */
  resetSeconds: number;
  /** True when the request was refused: the quota was already used. */
  exceeded: boolean;
}

/** The last day computed and its bounds [start, end) in epoch ms: utcDay runs on every keyed request. */
let lastDay = { start: 0, end: 0, day: '' };

/** The UTC day of an instant as 'YYYY-MM-DD' (the key_usage day). */
export function utcDay(nowMs: number): string {
  if (nowMs >= lastDay.start && nowMs < lastDay.end) return lastDay.day;
  const day = new Date(nowMs).toISOString().slice(0, 10);
  const start = Date.parse(`${day}T00:00:00.000Z`);
  lastDay = { start, end: start + 86_400_000, day };
  return day;
}

/** Whole seconds from `nowMs` until the next 00:00 UTC, rounded up, at least 1. */
export function secondsToUtcMidnight(nowMs: number): number {
  const next = Date.parse(`${utcDay(nowMs)}T00:00:00.000Z`) + 86_400_000;
  return Math.max(1, Math.ceil((next - nowMs) / 1000));
}
