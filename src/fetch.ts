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
 * promise is kept once loaded (a failed load is retried next time). The built server loads them all
 * before it listens ({@link loadEveryModule}).
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

/** A lazy loader of the built manifest (`() => import(chunk)`), memoized by {@link memoizeLoaders}. */
type Loader = () => Promise<unknown>;

/** The manifest's module loaders besides its page map, each called by a stage of Astro's pipeline. */
const MODULE_LOADERS = ['middleware', 'actions', 'sessionDriver', 'serverIslandMappings'] as const;

/** `load` with its promise kept once it resolves (a failed load is retried next time). */
function keptOnceLoaded(load: Loader): Loader {
  let loaded: Promise<unknown> | undefined;
  return () =>
    (loaded ??= load().catch((e: unknown) => {
      loaded = undefined;
      throw e;
    }));
}

/** Keep every loader's promise (page map and module loaders) once; each manifest is wrapped once. */
function memoizeLoaders(manifest: unknown): void {
  if (!manifest || typeof manifest !== 'object' || memoized.has(manifest)) return;
  memoized.add(manifest);
  const m = manifest as Record<string, unknown> & { pageMap?: Map<string, Loader> };
  if (m.pageMap instanceof Map) for (const [component, load] of m.pageMap) m.pageMap.set(component, keptOnceLoaded(load));
  for (const name of MODULE_LOADERS) {
    const load = m[name];
    if (typeof load !== 'function') continue;
    try {
      m[name] = keptOnceLoaded(load as Loader);
    } catch {
      // a read-only property: Astro calls the adapter's loader as it is
    }
  }
}

/** A page-map component that no request reaches (Astro's image endpoint: `/_image` is answered as an unknown path here). */
const UNREACHED_COMPONENT = /^node_modules\/astro\/dist\/assets\/endpoint\//;

/**
 * Load every route's module and the pipeline's modules now, once (src/server/node-entry.ts calls it
 * before the server listens). Astro imports a route's chunk at its first request; a build run beside
 * a serving process (`npm run build`, `npm test`) replaces `dist/server/chunks/` with files of new
 * names, and a route first asked for after that answered 500 until the process restarted. Loaded
 * at start, every answer comes from the build the process started with. `manifest`: the app's
 * (`app.manifest`). Returns one message per module that failed to load (empty when all loaded); a
 * failed one is loaded again at its first request, as before.
 */
export async function loadEveryModule(manifest: unknown): Promise<string[]> {
  memoizeLoaders(manifest);
  if (!manifest || typeof manifest !== 'object') return [];
  const m = manifest as Record<string, unknown> & { pageMap?: Map<string, Loader> };
  const loads: [string, Loader][] = [];
  if (m.pageMap instanceof Map) for (const [component, load] of m.pageMap) if (!UNREACHED_COMPONENT.test(component)) loads.push([component, load]);
  for (const name of MODULE_LOADERS) if (typeof m[name] === 'function') loads.push([name, m[name] as Loader]);
  const settled = await Promise.allSettled(loads.map(([, load]) => load()));
  return settled.flatMap((r, i) => (r.status === 'rejected' ? [`${loads[i]![0]}: ${r.reason instanceof Error ? r.reason.message : String(r.reason)}`] : []));
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
    memoizeLoaders((state as unknown as { manifest?: unknown }).manifest);
    if (firstRequest || !(state.pathname.startsWith(API_PREFIX) || (request.method === 'GET' && !endsInSlashes(request.url)))) {
      firstRequest = false;
      return astro(state);
    }
    return pages(state);
  },
};
