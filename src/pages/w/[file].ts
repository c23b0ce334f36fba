import type { APIContext } from 'astro';
import { route } from '../../server/route.ts';
import { handleWalletPage } from '../../server/site.ts';
import { methods } from '../../server/methods.ts';
import { ROUTES } from '../../server/routes.ts';

/** GET /w/{address}.html (no key): a wallet's creator page. Behaviour: src/server/site.ts. */
export const { GET, HEAD, OPTIONS, ALL } = methods<APIContext>(ROUTES.walletPage, {
  GET: ({ request, params }) => route(request, (deps) => handleWalletPage(request, deps, { file: params.file })),
});
