import type { APIRoute } from 'astro';
import { route } from '../../server/route.ts';
import { handleSuccess } from '../../server/billing-http.ts';

/** GET /billing/success?session_id=… : the new key, shown once. Behaviour: src/server/billing-http.ts. */
export const GET: APIRoute = ({ request }) => route(request, (deps) => handleSuccess(request, deps));
