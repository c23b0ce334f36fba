/**
 * The archive's HTTP caching and CORS rules, in one place for both answerers of a public path: the
 * Node server (src/server/http.ts, src/server/site-pages.ts) and the static tier's nginx
 * configuration (collector/cluster/nginx-config.ts), which must send the same headers.
 */

/** Cache-Control of a settled (immutable) record: spec §4 rule 7. */
export const CACHE_SETTLED = 'max-age=3600, stale-while-revalidate=86400';
/** Cache-Control of anything unsettled, and of every error: spec §4 rule 7. */
export const CACHE_NONE = 'no-store';
/** Cache-Control of the home, list and status pages: a CDN may keep them a few seconds. */
export const CACHE_LISTS = 'max-age=5';
/** Cache-Control of the methodology page. */
export const CACHE_METHODOLOGY = 'max-age=300';

/** Response headers a browser may read across origins (CORS). */
export const CORS_EXPOSED = ['ETag', 'Retry-After', 'RateLimit', 'RateLimit-Policy', 'Content-Length', 'Content-Range', 'Accept-Ranges'];

/**
 * CORS headers put on every response: open to every origin (spec §1). Keys belong on the caller's
 * server; the browser never needs credentials mode, so `*` is correct.
 */
export function corsHeaders(): Record<string, string> {
  return { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': CORS_EXPOSED.join(', ') };
}

/** Cache-Control of the site's stylesheet (`/site.css`): what @astrojs/node sends for a file of `public/`. */
export const CACHE_ASSET = 'public, max-age=0';
