import type { APIContext } from 'astro';
import { route } from '../../server/route.ts';
import { handleCheckout } from '../../server/billing-http.ts';
import { methods } from '../../server/methods.ts';
import { ROUTES } from '../../server/routes.ts';

/** POST /billing/checkout (the subscribe button): 303 to Stripe Checkout. Behaviour: src/server/billing-http.ts. */
export const { POST, OPTIONS, ALL } = methods<APIContext>(ROUTES.checkout, {
  POST: ({ request, clientAddress }) => route(request, (deps) => handleCheckout(request, deps, { clientAddress })),
});
