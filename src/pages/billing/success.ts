import type { APIContext } from 'astro';
import { route } from '../../server/route.ts';
import { handleSuccess } from '../../server/billing-http.ts';
import { methods } from '../../server/methods.ts';
import { ROUTES } from '../../server/routes.ts';

/** GET /billing/success?session_id=… : the new key, shown once (no CORS). Behaviour: src/server/billing-http.ts. */
export const { GET, HEAD, OPTIONS, ALL } = methods<APIContext>(ROUTES.success, {
  GET: ({ request, clientAddress }) => route(request, (deps) => handleSuccess(request, deps, { clientAddress })),
});
