import { instant } from '../core/canonical.ts';
import type { Deps } from './deps.ts';
import { errorResponse } from './errors.ts';
import { CACHE_NONE, jsonResponse } from './http.ts';
import { bearerToken } from '../access/keys.ts';
import { DAILY_QUOTA, rateLimitHeaders } from './quota.ts';

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

/**
 * `POST /api/v1/keys/rotate` with the current key as `Authorization: Bearer`: a new key with the
 * same label and account, today's request count carried over (rotation never resets the quota),
 * the current key revoked — one transaction. 200 with the new key (`no-store`) and the new key's
 * RateLimit fields; 401 `missing_key`/`invalid_key`/`revoked_key`. Not counted against the quota.
 */
export async function handleRotate(request: Request, deps: Deps): Promise<Response> {
  const nowMs = deps.now();
  const current = bearerToken(request);
  if (current === null) return errorResponse('missing_key', { nowMs });
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
