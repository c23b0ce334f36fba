import type { APIContext } from 'astro';
import { route } from '../../server/route.ts';
import { handleDownload } from '../../server/downloads.ts';
import { methods } from '../../server/methods.ts';
import { ROUTES } from '../../server/routes.ts';

/** GET /data/documents.ndjson.gz (key): every launch document held, one JSON line each, gzip. Behaviour: src/server/downloads.ts. */
export const { GET, HEAD, OPTIONS, ALL } = methods<APIContext>(ROUTES.documentsNdjson, {
  GET: ({ request }) => route(request, (deps) => handleDownload(request, deps, 'documents.ndjson.gz')),
});
