import { createLogger } from '../log.ts';
import { getDeps, type Deps } from './deps.ts';
import { errorResponse } from './errors.ts';
import { safely } from './safely.ts';
import { withGeneration } from './generation-lease.ts';

/**
 * The glue every route file uses: get the process's deps (created on first use) and run the
 * handler; any exception — including a failure to load the config or open a database — becomes
 * 500 `internal`, logged without request headers (so without key material). On a node serving
 * generations the handler runs on a lease of the newest one (src/server/generation-lease.ts).
 * @example export const { GET, HEAD, OPTIONS, ALL } = methods<APIContext>(ROUTES.status, { GET: ({ request }) => route(request, (deps) => handleStatus(request, deps)) });
 */
export async function route(request: Request, fn: (deps: Deps) => Response | Promise<Response>): Promise<Response> {
  let deps: Deps;
  try {
    deps = getDeps();
  } catch (e) {
    createLogger('error', 'server').error({ err: e instanceof Error ? `${e.name}: ${e.message}` : String(e) }, 'server setup failed');
    return errorResponse('internal');
  }
  const reader = deps.generations;
  return safely(deps, request, () => (reader ? withGeneration(deps, reader, fn) : fn(deps)));
}
