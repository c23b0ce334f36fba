import { instant } from '../core/canonical.ts';
import type { LaunchDocument } from '../core/types.ts';
import { coverageOf } from './coverage.ts';
import type { Deps } from './deps.ts';
import { errorResponse } from './errors.ts';
import { CACHE_NONE, CACHE_SETTLED, etagOf, ifNoneMatch, isAddressParam, jsonResponse, notModified } from './http.ts';
import { admitKeyed, quotaExceededHeaders, rateLimitHeaders } from './quota.ts';

/** Retry-After (s) of 503 `busy` when the curve exists but no record is held yet: a rebuild arrives later. */
export const RETRY_AFTER_EXISTS_S = 300;
/** Retry-After (s) of 503 `busy` when the chain could not be read. */
export const RETRY_AFTER_UNKNOWN_S = 60;

/** Public token page of a mint: the `source` field. */
export function sourceUrl(baseUrl: string, mint: string): string {
  return `${baseUrl}/t/${mint}.html`;
}

/**
 * `GET /api/v1/token/{mint}` (spec §4, §5, §7). Order of checks: the path value (400
 * `not_an_address`), the key (401 `missing_key`/`invalid_key`/`revoked_key`), the daily quota
 * (429 `quota_exceeded`), then the record: 200 with the stored document plus `coverage`,
 * `generatedAt`, `source`, `license`; strong ETag = sha256 of the document, 304 on a match;
 * settled → cacheable, unsettled → `no-store`. A mint not held: the chain decides between 404
 * `not_a_curve_launch` (curve never existed) and 503 `busy` (exists, or the chain could not be read).
 */
export async function handleToken(request: Request, deps: Deps, params: { mint?: string }): Promise<Response> {
  const nowMs = deps.now();
  const mint = params.mint;
  if (!isAddressParam(mint)) return errorResponse('not_an_address', { nowMs });

  const key = deps.keys.check(request);
  if (key.status !== 'ok') return errorResponse(key.status, { nowMs });
  const usage = admitKeyed(deps, key.keyId);
  if (usage.exceeded) return errorResponse('quota_exceeded', { nowMs, headers: quotaExceededHeaders(usage) });
  const rate = rateLimitHeaders(usage);

  const row = deps.publicStore.getLaunch(mint);
  if (!row) {
    const status = await deps.curveStatus(mint);
    if (status === 'never') return errorResponse('not_a_curve_launch', { nowMs, headers: rate });
    const retry = status === 'exists' ? RETRY_AFTER_EXISTS_S : RETRY_AFTER_UNKNOWN_S;
    return errorResponse('busy', { nowMs, headers: { ...rate, 'Retry-After': String(retry) } });
  }

  const etag = etagOf(row.sha256);
  const cacheControl = row.settled ? CACHE_SETTLED : CACHE_NONE;
  if (ifNoneMatch(request, etag)) return notModified(etag, cacheControl, rate);

  const doc = JSON.parse(row.document) as LaunchDocument;
  const { config } = deps;
  const body = {
    ...doc,
    apiVersion: 'v1',
    coverage: coverageOf(deps.publicStore),
    generatedAt: instant(nowMs),
    source: sourceUrl(config.baseUrl, mint),
    license: `${config.LICENSE_TEXT} ${config.LICENSE_URL}`,
  };
  return jsonResponse(body, 200, { ETag: etag, 'Cache-Control': cacheControl, ...rate });
}
