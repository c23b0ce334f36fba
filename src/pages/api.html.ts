import type { APIContext } from 'astro';
import markdown from '../../docs/api.md?raw';
import { methods } from '../server/methods.ts';
import { ROUTES } from '../server/routes.ts';
import { route } from '../server/route.ts';
import { handleApiDocPage } from '../server/site-pages.ts';

/** GET /api.html (no key): docs/api.md as a page (the file the collector writes, else the text bundled at build). */
export const { GET, HEAD, OPTIONS, ALL } = methods<APIContext>(ROUTES.apiDocPage, {
  GET: ({ request }) => route(request, (deps) => handleApiDocPage(request, deps, markdown)),
});
