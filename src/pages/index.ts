import type { APIRoute } from 'astro';
import { renderIndexPage } from '../render/token-page.ts';
import { corsHeaders } from '../server/http.ts';
import { route } from '../server/route.ts';

/** The front page: what the archive is and where its data is (with the demo banner in `npm run demo`). */
export const GET: APIRoute = ({ request }) =>
  route(request, (deps) =>
    new Response(renderIndexPage({ demo: deps.config.DEMO }), {
      headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'max-age=300', ...corsHeaders() },
    }),
  );

export { OPTIONS } from './[...path].ts';
