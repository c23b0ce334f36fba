import type { APIContext } from 'astro';
import { methods } from '../server/methods.ts';
import { ROUTES } from '../server/routes.ts';
import { route } from '../server/route.ts';
import { handleHome } from '../server/site-pages.ts';

/** GET / (no key): the home page the collector writes (site/index.html). Behaviour: src/server/site-pages.ts. */
export const { GET, HEAD, OPTIONS, ALL } = methods<APIContext>(ROUTES.index, {
  GET: ({ request }) => route(request, (deps) => handleHome(request, deps)),
});
