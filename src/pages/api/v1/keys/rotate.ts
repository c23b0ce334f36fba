import type { APIRoute } from 'astro';
import { route } from '../../../../server/route.ts';
import { handleRotate } from '../../../../server/rotate.ts';
import { preflightResponse } from '../../../../server/http.ts';
import { errorResponse } from '../../../../server/errors.ts';

/** POST /api/v1/keys/rotate (current key as Bearer): a new key, the old one revoked. Behaviour: src/server/rotate.ts. */
export const POST: APIRoute = ({ request }) => route(request, (deps) => handleRotate(request, deps));

/** Only POST rotates; a GET answers like any unknown API path (JSON 404 `not_found`). */
export const GET: APIRoute = () => errorResponse('not_found');

export const OPTIONS: APIRoute = () => preflightResponse('POST, OPTIONS');
