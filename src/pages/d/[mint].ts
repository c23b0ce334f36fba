import type { APIContext } from 'astro';
import { route } from '../../server/route.ts';
import { handleDocument } from '../../server/site.ts';
import { methods } from '../../server/methods.ts';
import { ROUTES } from '../../server/routes.ts';

/** GET /d/{mint} (no key): the canonical launch document. Behaviour: src/server/site.ts. */
export const { GET, HEAD, OPTIONS, ALL } = methods<APIContext>(ROUTES.document, {
  GET: ({ request, params }) => route(request, (deps) => handleDocument(request, deps, { mint: params.mint })),
});
