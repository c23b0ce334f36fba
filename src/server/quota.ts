import type { Deps } from './deps.ts';
import { errorResponse } from './errors.ts';
import { bearerToken, type KeyAdmit } from '../access/keys.ts';
import { DAILY_QUOTA, secondsToUtcMidnight, type Usage } from '../access/quota-day.ts';

/**
 * The daily request quota of keyed endpoints (spec §5 rule 5, §8) and its response header fields.
 * Pure functions; the counting itself is the private state's (SQLite: PrivateState.admitRequest, the
 * asks of one event-loop turn in one transaction; PostgreSQL in cluster mode: PrivateState.admitByHash,
 * the key checks and counts of one turn in one statement; exact across processes and nodes, and
 * settled only once committed).
 *
 * Header fields follow draft-ietf-httpapi-ratelimit-headers-10 (structured fields, one named
 * policy): `RateLimit-Policy: "daily";q=10000;w=86400` and `RateLimit: "daily";r=<left>;t=<s>`.
 * `w` is the nominal window (a UTC day); `t` is the exact number of seconds until 00:00 UTC.
 */

// The quota's day and usage (keys.ts counts them too) live in quota-day.ts, outside this module's
// imports of the server's deps: kept here under their old names.
export { DAILY_QUOTA, secondsToUtcMidnight, utcDay, type Usage } from '../access/quota-day.ts';

/** Name of the one quota policy in the RateLimit fields. */
export const QUOTA_POLICY = 'daily';

/** Seconds in the policy's window (one UTC day). */
export const QUOTA_WINDOW_S = 86_400;

/**
 * The IETF rate-limit fields of a keyed response (draft-ietf-httpapi-ratelimit-headers-10).
 * @example rateLimitHeaders({used: 1, quota: 10000, resetSeconds: 3600, exceeded: false})
 * // {'RateLimit-Policy': '"daily";q=10000;w=86400', RateLimit: '"daily";r=9999;t=3600'}
 */
export function rateLimitHeaders(u: Usage): Record<string, string> {
  return {
    'RateLimit-Policy': `"${QUOTA_POLICY}";q=${u.quota};w=${QUOTA_WINDOW_S}`,
    RateLimit: `"${QUOTA_POLICY}";r=${Math.max(0, u.quota - u.used)};t=${u.resetSeconds}`,
  };
}

/** Headers of a 429 `quota_exceeded`: the rate-limit fields and `Retry-After` until 00:00 UTC. */
export function quotaExceededHeaders(u: Usage): Record<string, string> {
  return { ...rateLimitHeaders(u), 'Retry-After': String(u.resetSeconds) };
}

/**
 * Admit one keyed request against the key's daily quota (deps.dailyQuota, default 10,000) and
 * count it. Every keyed endpoint calls this right after the key check. With `deps.countUsage ===
 * false` (benchmarks only) nothing is counted or refused, and the fields report the full quota.
 */
export function admitKeyed(deps: Pick<Deps, 'keys' | 'dailyQuota' | 'countUsage' | 'now'>, keyId: number): Promise<Usage> {
  const quota = deps.dailyQuota ?? DAILY_QUOTA;
  if (deps.countUsage === false) return Promise.resolve({ used: 0, quota, resetSeconds: secondsToUtcMidnight(deps.now()), exceeded: false });
  return deps.keys.countRequest(keyId, quota);
}

/**
 * The key check and quota admission of every keyed endpoint, in spec order (§5, §7): 401
 * `missing_key`/`invalid_key`/`revoked_key`, then the request is counted and 429 `quota_exceeded`
 * when the day's quota is used. Returns the refusal to send, or the usage (for rate-limit headers).
 * Errors: rejects with PrivateStateUnavailable when PostgreSQL cannot be reached (safely.ts: 503).
 */
export async function admitKeyedRequest(request: Request, deps: Deps, nowMs: number): Promise<{ refused: Response } | { usage: Usage }> {
  const key = await admitKey(deps, bearerToken(request));
  if (key.status !== 'ok') return { refused: keyRefusal(key.status, request, nowMs) };
  if (key.usage.exceeded) return { refused: errorResponse('quota_exceeded', { nowMs, headers: quotaExceededHeaders(key.usage) }) };
  return { usage: key.usage };
}

/**
 * The key check and quota count of a keyed request whose bearer token is `key` (null: none):
 * KeyService.admit (PostgreSQL: both in the one statement of the turn's batch), or with
 * `deps.countUsage === false` the key check alone (see {@link admitKeyed}).
 * Errors: rejects with PrivateStateUnavailable when PostgreSQL cannot be reached.
 */
export async function admitKey(deps: Pick<Deps, 'keys' | 'dailyQuota' | 'countUsage' | 'now'>, key: string | null): Promise<KeyAdmit> {
  if (deps.countUsage !== false) return deps.keys.admit(key, deps.dailyQuota ?? DAILY_QUOTA);
  const check = key === null ? ({ status: 'missing_key' } as const) : await deps.keys.verify(key);
  return check.status === 'ok' ? { ...check, usage: await admitKeyed(deps, check.keyId) } : check;
}

/**
 * The 401 of a key check that failed (docs/api.md "Errors": `missing_key`, `invalid_key`,
 * `revoked_key`). A request that carried a key where this API does not read one — an
 * `Authorization` field without `Bearer `, an `X-API-Key` field, an `api_key` or `key` query
 * parameter — is told where it put it and how to send it, instead of "the request carried none".
 * The key itself is never repeated.
 */
export function keyRefusal(status: 'missing_key' | 'invalid_key' | 'revoked_key', request: Request, nowMs: number): Response {
  if (status !== 'missing_key') return errorResponse(status, { nowMs });
  const message = misplacedKeyMessage(request);
  return errorResponse(status, message ? { nowMs, message } : { nowMs });
}

/** What a 401 `missing_key` tells a request that carried a key where this API does not read one; null when it shows none. */
function misplacedKeyMessage(request: Request): string | null {
  const auth = request.headers.get('Authorization');
  if (auth !== null && /^\s*bearer\s*$/i.test(auth)) return 'The Authorization field says "Bearer" but no key follows it. Send "Authorization: Bearer <API_KEY>" from your server. Nothing was looked up.';
  const where = misplacedKey(request, auth);
  return where === null ? null : `The request carried a key in ${where}, where this API does not read one: send it as "Authorization: Bearer <API_KEY>" from your server. Nothing was looked up.`;
}

/** Where a request put a key the API does not read, in words; null when it shows none. */
function misplacedKey(request: Request, auth: string | null): string | null {
  if (auth !== null && auth.trim() !== '') return /^\s*bearer\b/i.test(auth) ? 'the Authorization field after "Bearer", but not as one key after one space' : 'the Authorization field without the "Bearer " scheme';
  if (request.headers.has('X-API-Key')) return 'an X-API-Key field';
  const params = new URL(request.url).searchParams;
  for (const name of ['api_key', 'apiKey', 'key']) if (params.has(name)) return `the query parameter "${name}" (a key in a URL ends up in logs)`;
  return null;
}

