import type { APIRoute } from 'astro';
import { route } from '../../server/route.ts';
import { handleDownload } from '../../server/downloads.ts';
import { preflightResponse } from '../../server/http.ts';

/** GET /data/record.db (key): the public record database as one SQLite file. Behaviour: src/server/downloads.ts. */
export const GET: APIRoute = ({ request }) => route(request, (deps) => handleDownload(request, deps, 'record.db'));

export const OPTIONS: APIRoute = () => preflightResponse();
