import type { APIContext } from 'astro';
import { route } from '../../../server/route.ts';
import { handleStream } from '../../../server/stream.ts';
import { methods } from '../../../server/methods.ts';
import { ROUTES } from '../../../server/routes.ts';

/** GET /api/v1/stream (key with the feed entitlement, not counted): the creation feed, Server-Sent Events. Behaviour: src/server/stream.ts. */
export const { GET, HEAD, OPTIONS, ALL } = methods<APIContext>(ROUTES.stream, {
  GET: ({ request }) => route(request, (deps) => handleStream(request, deps)),
});
