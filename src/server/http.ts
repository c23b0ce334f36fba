import { isAddress } from '@solana/kit';

/**
 * HTTP helpers shared by every handler: CORS, caching headers, ETag matching, address checks.
 * Pure functions over Web Request/Response.
 */

/** Cache-Control of a settled (immutable) record: spec §4 rule 7. */
export const CACHE_SETTLED = 'max-age=3600, stale-while-revalidate=86400';
/** Cache-Control of anything unsettled, and of every error: spec §4 rule 7. */
export const CACHE_NONE = 'no-store';

const EXPOSED = ['ETag', 'Retry-After', 'RateLimit', 'RateLimit-Policy', 'Content-Length'];

/**
 * CORS headers put on every response: open to every origin (spec §1). Keys belong on the caller's
 * server; the browser never needs credentials mode, so `*` is correct.
 */
export function corsHeaders(): Record<string, string> {
  return { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': EXPOSED.join(', ') };
}

/**
 * Answer to a CORS preflight (`OPTIONS`) on any API path: 204, GET only (or the given methods),
 * `Authorization` allowed, a day of caching.
 * @example preflightResponse().status // 204
 */
export function preflightResponse(methods = 'GET, OPTIONS'): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...corsHeaders(),
      'Access-Control-Allow-Methods': methods,
      'Access-Control-Allow-Headers': 'Authorization, Content-Type, If-None-Match',
      'Access-Control-Max-Age': '86400',
    },
  });
}

/** A JSON response with CORS; `headers` may add or override. */
export function jsonResponse(body: unknown, status: number, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...corsHeaders(), ...headers },
  });
}

/**
 * Is `value` a Solana address as the spec allows in paths: base58, 32-44 characters (spec §4, §8),
 * decoding to 32 bytes (@solana/kit `isAddress`).
 */
export function isAddressParam(value: string | undefined): value is string {
  return typeof value === 'string' && value.length >= 32 && value.length <= 44 && isAddress(value);
}

/** Strong entity tag for a sha256 hex digest: `"<hex>"`. */
export function etagOf(sha256: string): string {
  return `"${sha256}"`;
}

/**
 * Does the request's `If-None-Match` match `etag`? RFC 9110 §13.1.2: weak comparison, `*` matches,
 * a comma-separated list matches when any member does.
 */
export function ifNoneMatch(request: Request, etag: string): boolean {
  const header = request.headers.get('If-None-Match');
  if (!header) return false;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === bare;
  });
}

/** A 304 Not Modified carrying the validator and caching headers it replaces (RFC 9110 §15.4.5). */
export function notModified(etag: string, cacheControl: string, extra: Record<string, string> = {}): Response {
  return new Response(null, { status: 304, headers: { ETag: etag, 'Cache-Control': cacheControl, ...corsHeaders(), ...extra } });
}
