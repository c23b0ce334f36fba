import type { APIContext } from 'astro';
import { methods } from '../server/methods.ts';
import { ROUTES } from '../server/routes.ts';
import { route } from '../server/route.ts';
import { handleSearch } from '../server/search.ts';

/** GET /search?q= (no key): the search box. Behaviour: src/server/search.ts. */
export const { GET, HEAD, OPTIONS, ALL } = methods<APIContext>(ROUTES.search, {
  GET: ({ request, clientAddress }) => route(request, (deps) => handleSearch(request, deps, { clientAddress })),
});
