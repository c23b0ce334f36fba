import type { APIContext } from 'astro';
import { methods } from '../server/methods.ts';
import { ROUTES } from '../server/routes.ts';

/** Any path no other route serves: an HTML 404 for every method that, like every response, carries CORS. */
export const { OPTIONS, ALL } = methods<APIContext>(ROUTES.unknown, {});
