import type { APIRoute } from 'astro';
import { route } from '../../server/route.ts';
import { handleCheckout } from '../../server/billing-http.ts';

/** POST /billing/checkout (the subscribe button): 303 to Stripe Checkout. Behaviour: src/server/billing-http.ts. */
export const POST: APIRoute = ({ request }) => route(request, (deps) => handleCheckout(request, deps));
