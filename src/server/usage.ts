import { instant } from '../core/canonical.ts';
import type { Instant } from '../core/types.ts';
import type { Deps } from './deps.ts';
import { errorResponse } from './errors.ts';
import { CACHE_NONE, jsonResponse } from './http.ts';
import { DAILY_QUOTA, QUOTA_POLICY, QUOTA_WINDOW_S, keyRefusal, rateLimitHeaders, secondsToUtcMidnight, utcDay, type Usage } from './quota.ts';
import { REBUILDS_PER_CALLER_HOURLY, REBUILD_POLICY, callerAddress } from './rebuilds.ts';

/** Seconds in the rebuild policy's window (spec §8: 5 starts per caller per hour). */
const REBUILD_WINDOW_S = 3600;

/** Body of `GET /api/v1/usage` (docs/api.md "Usage"). */
export interface UsageBody {
  apiVersion: 'v1';
  /** The key's daily request quota (spec §8): the same numbers as the `daily` RateLimit policy. */
  quota: { policy: typeof QUOTA_POLICY; limit: number; used: number; remaining: number; windowSeconds: number; resetSeconds: number; resetsAt: Instant };
  /** Rebuild starts of the caller (its originating address, as the rebuild limit counts them) in the last hour. */
  rebuilds: { policy: typeof REBUILD_POLICY; caller: string; limit: number; started: number; remaining: number; windowSeconds: number; resetSeconds: number };
  generatedAt: Instant;
}

/**
 * The usage body and its RateLimit fields from the quota state and the caller's starts. Pure.
 * `oldestStartMs`: the oldest start in the window (the next to free), null when none.
 * @example usageOf({ used: 3, quota: 10000, resetSeconds: 60, exceeded: false }, { caller: '203.0.113.7', started: 0, oldestStartMs: null }, 0).body.quota.remaining // 9997
 */
export function usageOf(u: Usage, r: { caller: string; started: number; oldestStartMs: number | null }, nowMs: number): { body: UsageBody; headers: Record<string, string> } {
  const remaining = Math.max(0, u.quota - u.used);
  const startsLeft = Math.max(0, REBUILDS_PER_CALLER_HOURLY - r.started);
  const rebuildReset = r.oldestStartMs === null ? REBUILD_WINDOW_S : Math.max(1, Math.ceil((r.oldestStartMs + REBUILD_WINDOW_S * 1000 - nowMs) / 1000));
  const rate = rateLimitHeaders(u);
  return {
    body: {
      apiVersion: 'v1',
      quota: { policy: QUOTA_POLICY, limit: u.quota, used: Math.min(u.used, u.quota), remaining, windowSeconds: QUOTA_WINDOW_S, resetSeconds: u.resetSeconds, resetsAt: instant(Date.parse(`${utcDay(nowMs)}T00:00:00.000Z`) + 86_400_000) },
      rebuilds: { policy: REBUILD_POLICY, caller: r.caller, limit: REBUILDS_PER_CALLER_HOURLY, started: r.started, remaining: startsLeft, windowSeconds: REBUILD_WINDOW_S, resetSeconds: rebuildReset },
      generatedAt: instant(nowMs),
    },
    headers: {
      'RateLimit-Policy': `${rate['RateLimit-Policy']}, "${REBUILD_POLICY}";q=${REBUILDS_PER_CALLER_HOURLY};w=${REBUILD_WINDOW_S}`,
      RateLimit: `${rate.RateLimit}, "${REBUILD_POLICY}";r=${startsLeft};t=${rebuildReset}`,
    },
  };
}

/**
 * `GET /api/v1/usage` (key): the key's daily quota — limit, used, remaining, reset — and the
 * caller's rebuild starts this hour, with the same RateLimit fields as a counted response.
 * Never counted against the quota (it answers even when the quota is used: then remaining is 0).
 * 401 `missing_key`/`invalid_key`/`revoked_key`.
 */
export async function handleUsage(request: Request, deps: Deps, params: { clientAddress?: string }): Promise<Response> {
  const nowMs = deps.now();
  const key = await deps.keys.check(request);
  if (key.status !== 'ok') return keyRefusal(key.status, request, nowMs);
  const quota = deps.dailyQuota ?? DAILY_QUOTA;
  const usage: Usage = deps.countUsage === false ? { used: 0, quota, resetSeconds: secondsToUtcMidnight(nowMs), exceeded: false } : await deps.keys.peekUsage(key.keyId, quota);
  const caller = callerAddress(request, params.clientAddress, deps.config.TRUSTED_PROXIES);
  const w = await deps.rebuilds.jobs.callerStartsInHour(caller, nowMs);
  const { body, headers } = usageOf(usage, { caller, started: w.count, oldestStartMs: w.oldestMs }, nowMs);
  return jsonResponse(body, 200, { 'Cache-Control': CACHE_NONE, ...headers });
}
