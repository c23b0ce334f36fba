import type { APIContext } from 'astro';
import { methods } from '../../server/methods.ts';
import { ROUTES } from '../../server/routes.ts';
import { notAnAddress } from '../../server/errors.ts';

const unknown = methods<APIContext>(ROUTES.apiUnknown, {});

/** `/api/v1/token/` and `/api/v1/wallet/`: the token or wallet route with an empty path value, which no page route matches. */
const EMPTY_VALUE = /^\/api\/v1\/(?:token|wallet)\/$/;

/**
 * Any other path under /api: JSON 404 `not_found` for every method (with CORS and finding.class
 * UNKNOWN), and the CORS preflight answer, so every API path answers OPTIONS. A GET or HEAD of the
 * token or wallet route with an empty value is 400 `not_an_address` (spec §7: a path value that is
 * not 32-44 base58 characters), as the routes answer any other value that is not an address.
 */
export const OPTIONS = unknown.OPTIONS;
export const ALL = (context: APIContext) =>
  (context.request.method === 'GET' || context.request.method === 'HEAD') && EMPTY_VALUE.test(context.url.pathname) ? notAnAddress('') : unknown.ALL(context);
