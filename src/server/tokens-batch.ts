import { instant } from '../core/canonical.ts';
import type { Instant } from '../core/types.ts';
import type { Deps } from './deps.ts';
import { errorReply, errorResponse, notAnAddressReply, type ErrorBody, type ErrorCode } from './errors.ts';
import { CACHE_NONE, isAddressParam, isAddressShape, joinBytes, jsonTextResponse, licenseOf, type Reply } from './http.ts';
import { DAILY_QUOTA, admitKeyed, keyRefusal, quotaExceededHeaders, rateLimitHeaders } from './quota.ts';
import { heldRecordParts, heldRows, recordFields, tokenAnswer } from './token.ts';

/**
 * `GET /api/v1/tokens?mints=a,b,c` (key): up to 100 token lookups in one request, each answered
 * exactly as `GET /api/v1/token/{mint}` would answer it alone — its record (200), its rebuild
 * state (202, counting against the rebuild limits as a single call does), or its error object —
 * in request order, duplicates answered once. Each mint counts one request against the daily
 * quota, as a single call would (a malformed mint, like a single call's 400, counts none).
 */

/** The most mints in one batch. */
export const BATCH_MAX_MINTS = 100;

/**
 * The distinct mints of a `mints` value in request order, or the refusal: 400 `invalid_mints`
 * (missing, empty, an empty entry, a space: its message names which) or 400 `too_many_mints` (more than 100 distinct). Pure.
 * @example parseMints('a,b,a') // ['a', 'b']
 */
export function parseMints(value: string | null): string[] | { code: ErrorCode; message?: string } {
  const bad = (why: string) => ({ code: 'invalid_mints' as const, message: `${why} (mints are separated by single commas, with no spaces and no empty entries). Nothing was looked up.` });
  if (value === null) return bad('The mints parameter is missing');
  if (value === '') return bad('The mints parameter is empty');
  if (/\s/.test(value)) return bad('The mints list holds a space or another blank');
  if (!/^[^,]+(,[^,]+)*$/.test(value)) return bad(value.startsWith(',') || value.endsWith(',') ? 'The mints list starts or ends with a comma' : 'The mints list holds an empty entry (two commas in a row)');
  const mints = [...new Set(value.split(','))];
  return mints.length > BATCH_MAX_MINTS ? { code: 'too_many_mints' } : mints;
}

/** One answer of a batch: the status and body the single call would have given. */
export interface BatchEntry {
  mint: string;
  status: number;
  body: Record<string, unknown> | ErrorBody;
}

/** Body of `GET /api/v1/tokens` (docs/api.md "Batch"). */
export interface BatchBody {
  apiVersion: 'v1';
  results: BatchEntry[];
  generatedAt: Instant;
  license: string;
}

/**
 * Checks: the `mints` list (400), the key (401, checked once for the batch), the quota before any
 * mint (429 `quota_exceeded` when none is left); then the well-formed mints are counted at once
 * (KeyService.countRequests: one transaction, the first ones admitted while the quota lasts); then
 * each mint in order as the token endpoint answers it after its key check: its address
 * (`not_an_address`, not counted), its count (`quota_exceeded` past the quota), then its record.
 * The records are read before the count, in one statement, for the mints of an address's length and
 * alphabet (http.ts isAddressShape); a mint held is an address (every held mint is a key read from
 * the chain), so only the others are decoded to check them (isAddressParam). A held record
 * no rebuild may be due for is answered from its stored bytes and the request's fields made once
 * (token.ts heldRecordParts), any other mint by `tokenAnswer`. 200 with the entries, each body as
 * the single call writes it; `RateLimit` as it stands after the last mint; `no-store`.
 */
export async function handleTokensBatch(request: Request, deps: Deps, params: { clientAddress?: string }): Promise<Response> {
  const nowMs = deps.now();
  const url = new URL(request.url);
  for (const name of url.searchParams.keys()) {
    if (name !== 'mints') return errorResponse('invalid_query', { nowMs, message: `Unknown query parameter "${name}": this endpoint takes only mints. Nothing was looked up.` });
  }
  if (url.searchParams.getAll('mints').length > 1) return errorResponse('invalid_mints', { nowMs, message: 'The mints parameter is given more than once: send one, its mints separated by commas. Nothing was looked up.' });
  const mints = parseMints(url.searchParams.get('mints'));
  if ('code' in mints) return errorResponse(mints.code, { nowMs, message: mints.message });
  const key = await deps.keys.check(request);
  if (key.status !== 'ok') return keyRefusal(key.status, request, nowMs);
  const quota = deps.dailyQuota ?? DAILY_QUOTA;
  const before = deps.countUsage === false ? null : await deps.keys.peekUsage(key.keyId, quota);
  if (before?.exceeded) return errorResponse('quota_exceeded', { nowMs, headers: quotaExceededHeaders(before) });
  // each lookup not answered as held is the single call itself (same checks, counting and rebuild limits), without the batch's
  // validators: the key was checked above (one check for the batch); each mint is counted as a single call is
  let one: Request | undefined;
  const single = (): Request => {
    if (one) return one;
    const headers = new Headers(request.headers);
    headers.delete('If-None-Match');
    // the batch's own method: a HEAD batch's lookups are HEADs, which read no chain and start no rebuild (docs/api.md; a
    // security review: the lookups were GETs, so a HEAD batch started rebuilds)
    return (one = new Request(request.url, { method: request.method, headers }));
  };
  const fields = recordFields(deps, nowMs);
  const rows = heldRows(deps, mints.filter(isAddressShape));
  // every well-formed mint counts one request, all in one transaction: the first ones while the quota lasts, as one call per mint would
  const isAddress = mints.map((m) => rows.has(m) || isAddressParam(m));
  const wellFormed = isAddress.filter(Boolean).length;
  const counted = deps.countUsage === false ? null : (await deps.keys.countRequests(key.keyId, wellFormed, quota)).usages;
  // the body as pieces joined once, each answer's bytes copied in (a held record's are its stored document's)
  const s = JSON.stringify;
  const parts: (string | Buffer)[] = ['{"apiVersion":"v1","results":['];
  let i = 0;
  for (const [n, mint] of mints.entries()) {
    const open = `${n ? ',' : ''}{"mint":${s(mint)},"status":`;
    const row = rows.get(mint);
    if (!isAddress[n]) {
      pushReply(parts, open, notAnAddressReply(mint, nowMs, 'This entry of mints'));
      continue;
    }
    const usage = counted ? counted[i++]! : await admitKeyed(deps, key.keyId);
    const held = !usage.exceeded && row ? heldRecordParts(row, deps.config.baseUrl, fields) : null;
    if (held) {
      parts.push(`${open}200,"body":`, ...held, '}');
      continue;
    }
    // each answer as text (a Reply), not a Response built and read back: that cost more than the lookup
    const answer = usage.exceeded
      ? errorReply('quota_exceeded', { nowMs, headers: quotaExceededHeaders(usage) })
      : await tokenAnswer(single(), deps, { mint, clientAddress: params.clientAddress, nowMs, rate: rateLimitHeaders(usage), fields });
    pushReply(parts, open, answer);
  }
  const after = deps.countUsage === false ? { used: 0, quota, resetSeconds: before?.resetSeconds ?? 1, exceeded: false } : await deps.keys.peekUsage(key.keyId, quota);
  // a BatchBody, members in its order
  parts.push(`],"generatedAt":${s(instant(nowMs))},"license":${s(licenseOf(deps.config))}}`);
  return jsonTextResponse(joinBytes(parts), 200, { 'Cache-Control': CACHE_NONE, ...rateLimitHeaders(after) });
}

/** A {@link BatchEntry} of an answer: `open` (its separator, mint and `"status":`), the status, the body. */
function pushReply(parts: (string | Buffer)[], open: string, answer: Reply): void {
  parts.push(`${open}${answer.status},"body":`, answer.body, '}');
}
