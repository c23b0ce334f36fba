import type { APIContext } from 'astro';
import { methods } from '../server/methods.ts';
import { ROUTES } from '../server/routes.ts';

/**
 * Astro's error route for a missing page (`/404`, and an answer of 404 without a body, which Astro
 * renders through it): without this file Astro answers it with its own default page (no CSP, no
 * CORS, not this site's look). The same HTML 404 as any path no route serves (`[...path].ts`).
 */
export const { OPTIONS, ALL } = methods<APIContext>(ROUTES.unknown, {});
