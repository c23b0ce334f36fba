import type { APIContext } from 'astro';
import { route } from '../../../../server/route.ts';
import { handleRotate } from '../../../../server/rotate.ts';
import { methods } from '../../../../server/methods.ts';
import { ROUTES } from '../../../../server/routes.ts';

/**
 * POST /api/v1/keys/rotate (current key as Bearer): a new key, the old one revoked. Behaviour:
 * src/server/rotate.ts. Any other method: 405 `method_not_allowed`, `Allow: POST, OPTIONS`.
 */
export const { POST, OPTIONS, ALL } = methods<APIContext>(ROUTES.rotate, {
  POST: ({ request, clientAddress }) => route(request, (deps) => handleRotate(request, deps, { clientAddress })),
});
