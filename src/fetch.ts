/**
 * Astro's fetch entrypoint (config `fetchFile`, default `src/fetch.ts`; Astro ≥ 7). It composes
 * Astro's own request pipeline:
 * - `/api/*` (every method) and every `GET` elsewhere (token pages, search, documents, pricing):
 *   Astro's router and endpoint dispatch only (`pages`). The app has no middleware, sessions,
 *   actions, i18n, redirects or cache provider, so the stages that handle them are skipped; routes,
 *   params and `APIRoute` handlers are Astro's as everywhere else, and every header of an answer is
 *   its handler's (pageHeaders, corsHeaders: src/server/http.ts), as on the full pipeline.
 * - everything else: the full default pipeline (`astro`). Of what it adds, two stages can change an
 *   answer outside `/api/`: a path ending in `//` is redirected (301/308, trailing-slash handling),
 *   and a 404 or 500 with no body is re-rendered as Astro's error page — every page route answers a
 *   `GET` with a body, but `HEAD` (methods.ts drops the body) and `OPTIONS` (204) do not, so those,
 *   and paths ending in `//`, keep the full pipeline and answer as before.
 *
 * Also: the built manifest's page map holds `() => import(chunk)` thunks that Astro calls on every
 * request; re-running `import()` on an evaluated module still costs a loader lookup, so each thunk's
 * promise is kept once loaded (a failed load is retried next time).
 * Measured effect: docs/benchmarks.md ("Where the time goes").
 */
import { FetchState, astro, pages } from 'astro/fetch';
import { noSuchPath, optionsAnswer } from './server/methods.ts';
import { ROUTES } from './server/routes.ts';

const API_PREFIX = '/api/';
// Astro checks once, after the first request, which pipeline stages the fetch handler used and warns
// about configured ones it did not see; the first request takes the full pipeline so that check
// sees every stage (the API path skips stages the API does not use, see above).
let firstRequest = true;
const memoized = new WeakSet<object>();

function memoizePageMap(manifest: unknown): void {
  if (!manifest || typeof manifest !== 'object' || memoized.has(manifest)) return;
  memoized.add(manifest);
  const pageMap = (manifest as { pageMap?: Map<string, () => Promise<unknown>> }).pageMap;
  if (!(pageMap instanceof Map)) return;
  for (const [component, load] of pageMap) {
    let loaded: Promise<unknown> | undefined;
    pageMap.set(component, () =>
      (loaded ??= load().catch((e: unknown) => {
        loaded = undefined;
        throw e;
      })),
    );
  }
}

/**
 * Astro's own endpoints, which this app does not use: its image service (`/_image`, registered for
 * every server build) and server islands (`/_server-islands/{name}`, for every build with an
 * adapter). They answered outside this app's rules (a bare 400, no CSP, no CORS); each now answers
 * as any path no route serves (`[...path].ts`).
 */
const ASTRO_INTERNAL = /^\/(?:_image|_server-islands)(?:\/|$)/;

/** Whether the URL's path ends in two slashes or more (Astro's trailing-slash stage reads the raw URL: FetchState's pathname has them collapsed). */
function endsInSlashes(url: string): boolean {
  const q = url.indexOf('?');
  return (q === -1 ? url : url.slice(0, q)).endsWith('//');
}

export default {
  fetch(request: Request): Promise<Response> {
    const state = new FetchState(request);
    if (ASTRO_INTERNAL.test(state.pathname)) return Promise.resolve(request.method === 'OPTIONS' ? optionsAnswer(ROUTES.unknown) : noSuchPath(ROUTES.unknown));
    memoizePageMap((state as unknown as { manifest?: unknown }).manifest);
    if (firstRequest || !(state.pathname.startsWith(API_PREFIX) || (request.method === 'GET' && !endsInSlashes(request.url)))) {
      firstRequest = false;
      return astro(state);
    }
    return pages(state);
  },
};
