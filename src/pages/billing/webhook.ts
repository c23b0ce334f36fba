import type { APIContext } from 'astro';
import { route } from '../../server/route.ts';
import { handleWebhook } from '../../server/billing-http.ts';
import { methods } from '../../server/methods.ts';
import { ROUTES } from '../../server/routes.ts';

/** POST /billing/webhook (Stripe, signed): payment events. Behaviour: src/server/billing-http.ts. */
export const { POST, OPTIONS, ALL } = methods<APIContext>(ROUTES.webhook, {
  POST: ({ request }) => route(request, (deps) => handleWebhook(request, deps)),
});
