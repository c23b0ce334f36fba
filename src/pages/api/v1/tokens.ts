import type { APIContext } from 'astro';
import { route } from '../../../server/route.ts';
import { handleTokensBatch } from '../../../server/tokens-batch.ts';
import { methods } from '../../../server/methods.ts';
import { ROUTES } from '../../../server/routes.ts';

/** GET /api/v1/tokens?mints=a,b,c (key): up to 100 token lookups at once. Behaviour: src/server/tokens-batch.ts. */
export const { GET, HEAD, OPTIONS, ALL } = methods<APIContext>(ROUTES.tokens, {
  GET: ({ request, clientAddress }) => route(request, (deps) => handleTokensBatch(request, deps, { clientAddress })),
});
