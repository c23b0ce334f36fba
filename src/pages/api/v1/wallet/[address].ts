import type { APIRoute } from 'astro';
import { route } from '../../../../server/route.ts';
import { handleWallet } from '../../../../server/wallet.ts';
import { preflightResponse } from '../../../../server/http.ts';

/** GET /api/v1/wallet/{address} (key): the wallet record (spec §2.4). Behaviour: src/server/wallet.ts. */
export const GET: APIRoute = ({ request, params }) => route(request, (deps) => handleWallet(request, deps, { address: params.address }));

export const OPTIONS: APIRoute = () => preflightResponse();
