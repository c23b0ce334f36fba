import type { APIRoute } from 'astro';
import { route } from '../../server/route.ts';
import { handleTokenPage } from '../../server/site.ts';
import { preflightResponse } from '../../server/http.ts';

/** GET /t/{mint}.html (no key): the public token page. Behaviour: src/server/site.ts. */
export const GET: APIRoute = ({ request, params }) => route(request, (deps) => handleTokenPage(request, deps, { file: params.file }));

export const OPTIONS: APIRoute = () => preflightResponse();
