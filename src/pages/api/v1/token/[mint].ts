import type { APIContext } from 'astro';
import { route } from '../../../../server/route.ts';
import { handleToken } from '../../../../server/token.ts';
import { methods } from '../../../../server/methods.ts';
import { ROUTES } from '../../../../server/routes.ts';

/** GET /api/v1/token/{mint} (key): the launch record. Behaviour: src/server/token.ts. */
export const { GET, HEAD, OPTIONS, ALL } = methods<APIContext>(ROUTES.token, {
  GET: ({ request, params, clientAddress }) => route(request, (deps) => handleToken(request, deps, { mint: params.mint, clientAddress })),
});
