import type { APIContext } from 'astro';
import { methods } from '../server/methods.ts';
import { ROUTES } from '../server/routes.ts';

const page = methods<APIContext>(ROUTES.unknown, {});
const data = methods<APIContext>(ROUTES.dataUnknown, {});
const of = (context: APIContext) => (ROUTES.dataUnknown.pattern.test(context.url.pathname) ? data : page);

/**
 * Any path no other route serves: an HTML 404 for every method that, like every response, carries
 * CORS; under /d and /data (the documents and the bulk downloads, whose errors are JSON) the JSON
 * 404 `not_found`.
 */
export const OPTIONS = (context: APIContext) => of(context).OPTIONS(context);
export const ALL = (context: APIContext) => of(context).ALL(context);
