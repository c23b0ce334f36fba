import type { APIContext } from 'astro';
import { route } from '../../server/route.ts';
import { handleDownload } from '../../server/downloads.ts';
import { methods } from '../../server/methods.ts';
import { ROUTES } from '../../server/routes.ts';

/** GET /data/record.db (key): the public record database as one SQLite file. Behaviour: src/server/downloads.ts. */
export const { GET, HEAD, OPTIONS, ALL } = methods<APIContext>(ROUTES.recordDb, {
  GET: ({ request }) => route(request, (deps) => handleDownload(request, deps, 'record.db')),
});
