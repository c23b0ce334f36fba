import type { APIContext } from 'astro';
import { methods } from '../../server/methods.ts';
import { ROUTES } from '../../server/routes.ts';

/**
 * Any other path under /api: JSON 404 `not_found` for every method (with CORS and finding.class
 * UNKNOWN), and the CORS preflight answer, so every API path answers OPTIONS.
 */
export const { OPTIONS, ALL } = methods<APIContext>(ROUTES.apiUnknown, {});
