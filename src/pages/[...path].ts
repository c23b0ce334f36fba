import type { APIRoute } from 'astro';
import { renderNoSuchPathPage } from '../render/token-page.ts';
import { CACHE_NONE, corsHeaders, preflightResponse } from '../server/http.ts';

/** Any path no other route serves: an HTML 404 that, like every response, carries CORS. */
export const GET: APIRoute = () =>
  new Response(renderNoSuchPathPage(), {
    status: 404,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': CACHE_NONE, ...corsHeaders() },
  });

export const OPTIONS: APIRoute = () => preflightResponse();
