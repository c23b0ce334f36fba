import type { APIRoute } from 'astro';
import { route } from '../../server/route.ts';
import { handleWebhook } from '../../server/billing-http.ts';

/** POST /billing/webhook (Stripe, signed): payment events. Behaviour: src/server/billing-http.ts. */
export const POST: APIRoute = ({ request }) => route(request, (deps) => handleWebhook(request, deps));
