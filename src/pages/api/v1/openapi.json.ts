import type { APIContext } from 'astro';
import { route } from '../../../server/route.ts';
import { handleOpenApi } from '../../../server/api-docs.ts';
import { methods } from '../../../server/methods.ts';
import { ROUTES } from '../../../server/routes.ts';

/** GET /api/v1/openapi.json (no key): the OpenAPI 3.1 document. Behaviour: src/server/api-docs.ts. */
export const { GET, HEAD, OPTIONS, ALL } = methods<APIContext>(ROUTES.openapi, {
  GET: ({ request }) => route(request, (deps) => handleOpenApi(request, deps)),
});
