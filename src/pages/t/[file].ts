import type { APIContext } from 'astro';
import { route } from '../../server/route.ts';
import { handleTokenPage } from '../../server/site.ts';
import { methods } from '../../server/methods.ts';
import { ROUTES } from '../../server/routes.ts';

/** GET /t/{mint}.html (no key): the public token page. Behaviour: src/server/site.ts. */
export const { GET, HEAD, OPTIONS, ALL } = methods<APIContext>(ROUTES.tokenPage, {
  GET: ({ request, params }) => route(request, (deps) => handleTokenPage(request, deps, { file: params.file })),
});
