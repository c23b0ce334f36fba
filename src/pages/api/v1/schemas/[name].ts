import type { APIContext } from 'astro';
import { route } from '../../../../server/route.ts';
import { handleSchema } from '../../../../server/api-docs.ts';
import { methods } from '../../../../server/methods.ts';
import { ROUTES } from '../../../../server/routes.ts';

/** GET /api/v1/schemas/{name} (no key): JSON Schema of the launch document or wallet record. Behaviour: src/server/api-docs.ts. */
export const { GET, HEAD, OPTIONS, ALL } = methods<APIContext>(ROUTES.schemas, {
  GET: ({ request, params }) => route(request, (deps) => handleSchema(request, deps, { name: params.name })),
});
