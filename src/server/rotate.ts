import { instant } from '../core/canonical.ts';
import type { Deps } from './deps.ts';
import { errorResponse } from './errors.ts';
import { CACHE_NONE, jsonResponse } from './http.ts';
import { bearerToken } from '../access/keys.ts';
import { DAILY_QUOTA, rateLimitHeaders } from './quota.ts';
import { callerAddress } from './rebuilds.ts';
import { callerLimiter } from './search.ts';

/** Body of a successful rotation. `key` is shown here once and exists nowhere else afterwards. */
export interface RotateBody {
  apiVersion: 'v1';
  key: string;
  id: number;
  prefix: string;
  /** The key that was sent: revoked by this rotation (its requests now get 401 `revoked_key`). */
  replaces: { id: number; prefix: string };
  message: string;
  generatedAt: { ms: number; iso: string };
}

/** Key rotations one caller address may ask for in a minute (counted in the server process's memory, as searches are). */
export const ROTATIONS_PER_MINUTE = 10;

/**
 * `POST /api/v1/keys/rotate` with the current key as `Authorization: Bearer`: a new key with the
 * same label and account, today's request count carried over (rotation never resets the quota),
 * the current key revoked — one transaction. 200 with the new key (`no-store`) and the new key's
 * RateLimit fields; 401 `missing_key`/`invalid_key`/`revoked_key`; 429 `rate_limited` with
 * Retry-After for a key less than a minute old (keys.ts KEY_ROTATE_MIN_AGE_MS). Not counted against the quota.
 */
export async function handleRotate(request: Request, deps: Deps, params: { clientAddress?: string } = {}): Promise<Response> {
  const nowMs = deps.now();
  const current = bearerToken(request);
  if (current === null) return errorResponse('missing_key', { nowMs });
  // each rotation adds key rows that stay, and a rotated key's streams last until the next key check: rotations are limited
  // per caller address (a security review rotated 3,000 times in 3 s: ~1.6 KB of private.db each, and held 200 feed streams)
  const wait = callerLimiter(deps.config, 'rotate', ROTATIONS_PER_MINUTE).take(callerAddress(request, params.clientAddress, deps.config.TRUSTED_PROXIES), nowMs);
  if (wait !== null) {
    return errorResponse('rate_limited', {
      nowMs,
      headers: { 'Retry-After': String(wait) },
      message: `Too many key rotations from your address: at most ${ROTATIONS_PER_MINUTE} a minute. Wait ${wait} s; the key you sent still works.`,
    });
  }
  const r = await deps.keys.rotate(current);
  if (r.status !== 'rotated') return errorResponse(r.status === 'ok' ? 'internal' : r.status, { nowMs });
  deps.log.info({ keyId: r.id, replaces: r.oldId }, 'key rotated');
  const body: RotateBody = {
    apiVersion: 'v1',
    key: r.key,
    id: r.id,
    prefix: r.prefix,
    replaces: { id: r.oldId, prefix: r.oldPrefix },
    message: 'New key, shown once: store it on your server now. The key you sent is revoked.',
    generatedAt: instant(nowMs),
  };
  const usage = await deps.keys.peekUsage(r.id, deps.dailyQuota ?? DAILY_QUOTA);
  return jsonResponse(body, 200, { 'Cache-Control': CACHE_NONE, 'Referrer-Policy': 'no-referrer', ...rateLimitHeaders(usage) });
}
