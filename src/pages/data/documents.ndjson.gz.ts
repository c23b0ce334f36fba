import type { APIRoute } from 'astro';
import { route } from '../../server/route.ts';
import { handleDownload } from '../../server/downloads.ts';
import { preflightResponse } from '../../server/http.ts';

/** GET /data/documents.ndjson.gz (key): every launch document held, one JSON line each, gzip. Behaviour: src/server/downloads.ts. */
export const GET: APIRoute = ({ request }) => route(request, (deps) => handleDownload(request, deps, 'documents.ndjson.gz'));

export const OPTIONS: APIRoute = () => preflightResponse();
