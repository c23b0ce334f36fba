import type { APIContext } from 'astro';
import { route } from '../server/route.ts';
import { handlePricing } from '../server/billing-http.ts';
import { methods } from '../server/methods.ts';
import { ROUTES } from '../server/routes.ts';

/** GET /pricing (no key): the plan and its subscribe button. Behaviour: src/server/billing-http.ts. */
export const { GET, HEAD, OPTIONS, ALL } = methods<APIContext>(ROUTES.pricing, {
  GET: ({ request }) => route(request, (deps) => handlePricing(request, deps)),
});
