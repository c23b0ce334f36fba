import type { APIContext } from 'astro';
import { route } from '../../../server/route.ts';
import { handleLaunches } from '../../../server/launches.ts';
import { methods } from '../../../server/methods.ts';
import { ROUTES } from '../../../server/routes.ts';

/** GET /api/v1/launches (key): list the records held, or sync a mirror. Behaviour: src/server/launches.ts. */
export const { GET, HEAD, OPTIONS, ALL } = methods<APIContext>(ROUTES.launches, {
  GET: ({ request }) => route(request, (deps) => handleLaunches(request, deps)),
});
