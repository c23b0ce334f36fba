import type { APIRoute } from 'astro';
import { route } from '../../../server/route.ts';
import { handleStatus } from '../../../server/status.ts';
import { preflightResponse } from '../../../server/http.ts';

/** GET /api/v1/status (no key): what the archive holds and what it was awake for. Behaviour: src/server/status.ts. */
export const GET: APIRoute = ({ request }) => route(request, (deps) => handleStatus(request, deps));

export const OPTIONS: APIRoute = () => preflightResponse();
