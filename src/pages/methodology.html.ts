import type { APIContext } from 'astro';
import markdown from '../../docs/methodology.md?raw';
import { methods } from '../server/methods.ts';
import { ROUTES } from '../server/routes.ts';
import { route } from '../server/route.ts';
import { handleMethodologyPage } from '../server/site-pages.ts';

/** GET /methodology.html (no key): docs/methodology.md as a page (the file the collector writes, else the text bundled at build). */
export const { GET, HEAD, OPTIONS, ALL } = methods<APIContext>(ROUTES.methodologyPage, {
  GET: ({ request }) => route(request, (deps) => handleMethodologyPage(request, deps, markdown)),
});
