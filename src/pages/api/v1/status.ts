import type { APIContext } from 'astro';
import { route } from '../../../server/route.ts';
import { handleStatus } from '../../../server/status.ts';
import { methods } from '../../../server/methods.ts';
import { ROUTES } from '../../../server/routes.ts';

/** GET /api/v1/status (no key): what the archive holds and what it was awake for. Behaviour: src/server/status.ts. */
export const { GET, HEAD, OPTIONS, ALL } = methods<APIContext>(ROUTES.status, {
  GET: ({ request }) => route(request, (deps) => handleStatus(request, deps)),
});
