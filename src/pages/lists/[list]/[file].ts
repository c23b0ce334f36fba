import type { APIContext } from 'astro';
import { methods } from '../../../server/methods.ts';
import { ROUTES } from '../../../server/routes.ts';
import { route } from '../../../server/route.ts';
import { handleListPage } from '../../../server/site-pages.ts';

/** GET /lists/{list}/{n}.html (no key): a page of a public list. Behaviour: src/server/site-pages.ts. */
export const { GET, HEAD, OPTIONS, ALL } = methods<APIContext>(ROUTES.listPage, {
  GET: ({ request, params }) => route(request, (deps) => handleListPage(request, deps, { list: params.list, file: params.file })),
});
