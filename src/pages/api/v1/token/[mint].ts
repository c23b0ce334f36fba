import type { APIRoute } from 'astro';
import { route } from '../../../../server/route.ts';
import { handleToken } from '../../../../server/token.ts';
import { preflightResponse } from '../../../../server/http.ts';

/** GET /api/v1/token/{mint} (key): the launch record. Behaviour: src/server/token.ts. */
export const GET: APIRoute = ({ request, params, clientAddress }) =>
  route(request, (deps) => handleToken(request, deps, { mint: params.mint, clientAddress }));

export const OPTIONS: APIRoute = () => preflightResponse();
