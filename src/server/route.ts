import { createLogger } from '../log.ts';
import { getDeps, type Deps } from './deps.ts';
import { errorResponse } from './errors.ts';
import { safely } from './safely.ts';
import { withGeneration } from './generation-lease.ts';

/**
 * The glue every route file uses: get the process's deps (created on first use) and run the
 * handler; any exception becomes 500 `internal`, logged without request headers (so without key
 * material). Deps that cannot be made (a database in DATA_DIR not openable yet: a read-only folder, a
 * full disk) answer 503 `unavailable` with Retry-After — the service's state, which a client can wait
 * out and an operator's health check can see — and the reason goes to the log only. On a node serving
 * generations the handler runs on a lease of the newest one (src/server/generation-lease.ts).
 * @example export const { GET, HEAD, OPTIONS, ALL } = methods<APIContext>(ROUTES.status, { GET: ({ request }) => route(request, (deps) => handleStatus(request, deps)) });
 */
/** Seconds a client is told to wait when the server cannot open its databases. */
const SETUP_RETRY_S = 30;
const SETUP_UNAVAILABLE =
  'The archive cannot open its databases just now (its operator sees why in the server\'s log). Nothing was looked up or counted. Try again after Retry-After seconds.';

export async function route(request: Request, fn: (deps: Deps) => Response | Promise<Response>): Promise<Response> {
  let deps: Deps;
  try {
    deps = getDeps();
  } catch (e) {
    createLogger('error', 'server').error({ err: e instanceof Error ? `${e.name}: ${e.message}` : String(e) }, 'server setup failed: its databases cannot be opened (each request tries again)');
    return errorResponse('unavailable', { headers: { 'Retry-After': String(SETUP_RETRY_S) }, message: SETUP_UNAVAILABLE });
  }
  const reader = deps.generations;
  return safely(deps, request, () => (reader ? withGeneration(deps, reader, fn) : fn(deps)));
}
