import type { APIContext } from 'astro';
import { route } from '../../../server/route.ts';
import { handleUsage } from '../../../server/usage.ts';
import { methods } from '../../../server/methods.ts';
import { ROUTES } from '../../../server/routes.ts';

/** GET /api/v1/usage (key, not counted): the key's quota and the caller's rebuild starts. Behaviour: src/server/usage.ts. */
export const { GET, HEAD, OPTIONS, ALL } = methods<APIContext>(ROUTES.usage, {
  GET: ({ request, clientAddress }) => route(request, (deps) => handleUsage(request, deps, { clientAddress })),
});
