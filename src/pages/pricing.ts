import type { APIRoute } from 'astro';
import { route } from '../server/route.ts';
import { handlePricing } from '../server/billing-http.ts';

/** GET /pricing (no key): the plan and its subscribe button. Behaviour: src/server/billing-http.ts. */
export const GET: APIRoute = ({ request }) => route(request, (deps) => handlePricing(request, deps));

export { OPTIONS } from './[...path].ts';
