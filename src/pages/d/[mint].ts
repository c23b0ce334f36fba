import type { APIRoute } from 'astro';
import { route } from '../../server/route.ts';
import { handleDocument } from '../../server/site.ts';
import { preflightResponse } from '../../server/http.ts';

/** GET /d/{mint} (no key): the canonical launch document. Behaviour: src/server/site.ts. */
export const GET: APIRoute = ({ request, params }) => route(request, (deps) => handleDocument(request, deps, { mint: params.mint }));

export const OPTIONS: APIRoute = () => preflightResponse();
