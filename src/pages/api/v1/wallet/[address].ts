import type { APIContext } from 'astro';
import { route } from '../../../../server/route.ts';
import { handleWallet } from '../../../../server/wallet.ts';
import { methods } from '../../../../server/methods.ts';
import { ROUTES } from '../../../../server/routes.ts';

/** GET /api/v1/wallet/{address} (key): the wallet record (spec §2.4). Behaviour: src/server/wallet.ts. */
export const { GET, HEAD, OPTIONS, ALL } = methods<APIContext>(ROUTES.wallet, {
  GET: ({ request, params }) => route(request, (deps) => handleWallet(request, deps, { address: params.address })),
});
