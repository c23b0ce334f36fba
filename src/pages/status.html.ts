import type { APIContext } from 'astro';
import { methods } from '../server/methods.ts';
import { ROUTES } from '../server/routes.ts';
import { route } from '../server/route.ts';
import { handleStatusPage } from '../server/site-pages.ts';

/** GET /status.html (no key): the status in words. Behaviour: src/server/site-pages.ts. */
export const { GET, HEAD, OPTIONS, ALL } = methods<APIContext>(ROUTES.statusPage, {
  GET: ({ request }) => route(request, (deps) => handleStatusPage(request, deps)),
});
