/**
 * Astro's fetch entrypoint (config `fetchFile`, default `src/fetch.ts`; Astro ≥ 7). It composes
 * Astro's own request pipeline:
 * - `/api/*`: Astro's router and endpoint dispatch only (`pages`). The API has no middleware,
 *   sessions, actions, i18n or redirects, so the stages that handle them are skipped; routes,
 *   params and `APIRoute` handlers are Astro's as everywhere else.
 * - everything else (token pages, documents, pricing, billing): the full default pipeline (`astro`).
 *
 * Also: the built manifest's page map holds `() => import(chunk)` thunks that Astro calls on every
 * request; re-running `import()` on an evaluated module still costs a loader lookup, so each thunk's
 * promise is kept once loaded (a failed load is retried next time).
 * Measured effect: docs/benchmarks.md ("Where the time goes").
 */
import { FetchState, astro, pages } from 'astro/fetch';

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

export default {
  fetch(request: Request): Promise<Response> {
    const state = new FetchState(request);
    memoizePageMap((state as unknown as { manifest?: unknown }).manifest);
    if (firstRequest || !state.pathname.startsWith(API_PREFIX)) {
      firstRequest = false;
      return astro(state);
    }
    return pages(state);
  },
};
