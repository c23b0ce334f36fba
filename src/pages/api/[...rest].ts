import type { APIRoute } from 'astro';
import { errorResponse } from '../../server/errors.ts';
import { preflightResponse } from '../../server/http.ts';

/**
 * Any other path under /api: JSON 404 `not_found` (with CORS and finding.class UNKNOWN), and the
 * CORS preflight answer, so every API path answers OPTIONS.
 */
export const GET: APIRoute = () => errorResponse('not_found');

export const OPTIONS: APIRoute = () => preflightResponse();
