import { errorResponse } from './errors.ts';
import { CACHE_NONE, htmlPage, preflightResponse } from './http.ts';
import { allowOf, type RouteSpec } from './routes.ts';

/**
 * Every method of a route, from the route table (routes.ts): the handlers the route file writes
 * (GET and/or POST), HEAD from GET with the body released, OPTIONS (204 preflight), and every other
 * method 405 `method_not_allowed` with `Allow` — in the route's error format (JSON or a page),
 * with CORS unless the route has none. Route files export the result:
 * @example export const { GET, HEAD, OPTIONS, ALL } = methods(ROUTES.status, { GET: ({ request }) => … });
 */

/** What a handler receives from Astro (structurally its APIContext; route files pass it through). */
type Handler<C> = (context: C) => Response | Promise<Response>;

/** 405 for `spec` in its error format, with `Allow`. */
export function methodNotAllowed(spec: RouteSpec): Response {
  const headers = { Allow: allowOf(spec) };
  if (spec.errors === 'json') return errorResponse('method_not_allowed', { headers });
  return htmlPage(405, 'Method not allowed', `This page answers ${allowOf(spec)} only.`, { cors: spec.cors, headers });
}

/** 404 of a catch-all (no route here, whatever the method), in its error format. */
export function noSuchPath(spec: RouteSpec): Response {
  if (spec.errors === 'json') return errorResponse('not_found');
  return htmlPage(404, 'Not found', 'Nothing is served at this path. Token pages are at /t/{mint}.html.', { cors: spec.cors });
}

/** The OPTIONS answer of a route: the CORS preflight (204), or just `Allow` where there is no CORS. */
export function optionsAnswer(spec: RouteSpec): Response {
  const allow = allowOf(spec);
  if (!spec.cors) return new Response(null, { status: 204, headers: { Allow: allow, 'Cache-Control': CACHE_NONE } });
  // HEAD is CORS-safelisted (never preflighted), so the preflight names the route's methods and OPTIONS.
  const r = preflightResponse(spec.methods.length === 0 ? 'GET, OPTIONS' : [...spec.methods, 'OPTIONS'].join(', '));
  r.headers.set('Allow', allow);
  return r;
}

/**
 * HEAD of a GET handler: the GET's answer without its body; the body stream is cancelled, so a
 * file it would have read is closed at once (not when garbage is collected).
 */
function headOf<C>(get: Handler<C>): Handler<C> {
  return async (context) => {
    const r = await get(context);
    await r.body?.cancel().catch(() => undefined);
    return new Response(null, { status: r.status, statusText: r.statusText, headers: r.headers });
  };
}

/** The exports of a route file for `spec` (see the module comment). */
export function methods<C>(spec: RouteSpec, handlers: { GET?: Handler<C>; POST?: Handler<C> }) {
  const got = Object.keys(handlers).sort().join();
  if (got !== [...spec.methods].sort().join()) throw new Error(`route ${spec.name}: handlers ${got} differ from the route table's ${spec.methods.join()}`);
  const refuse: Handler<C> = () => (spec.methods.length === 0 ? noSuchPath(spec) : methodNotAllowed(spec));
  return {
    GET: handlers.GET,
    HEAD: handlers.GET ? headOf(handlers.GET) : undefined,
    POST: handlers.POST,
    OPTIONS: (() => optionsAnswer(spec)) as Handler<C>,
    ALL: refuse,
  };
}
