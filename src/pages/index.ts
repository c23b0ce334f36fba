import type { APIContext } from 'astro';
import { renderIndexPage } from '../render/token-page.ts';
import { corsHeaders, pageHeaders } from '../server/http.ts';
import { methods } from '../server/methods.ts';
import { ROUTES } from '../server/routes.ts';
import { route } from '../server/route.ts';

/** The front page: what the archive is and where its data is. */
export const { GET, HEAD, OPTIONS, ALL } = methods<APIContext>(ROUTES.index, {
  GET: ({ request }) =>
    route(request, (deps) =>
      new Response(renderIndexPage({ demo: deps.config.DEMO }), { headers: { ...pageHeaders(), 'Cache-Control': 'max-age=300', ...corsHeaders() } }),
    ),
});
