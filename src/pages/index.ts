import type { APIRoute } from 'astro';
import { renderIndexPage } from '../render/token-page.ts';
import { corsHeaders } from '../server/http.ts';

/** The front page: what the archive is and where its data is. */
export const GET: APIRoute = () =>
  new Response(renderIndexPage(), {
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'max-age=300', ...corsHeaders() },
  });

export { OPTIONS } from './[...path].ts';
