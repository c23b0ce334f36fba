import type { Deps } from './deps.ts';
import { errorResponse } from './errors.ts';
import { PrivateStateUnavailable } from '../db/private-state.ts';

/**
 * Run a handler; an unexpected exception becomes 500 `internal`, and the private database being
 * unreachable (cluster mode: PostgreSQL down) 503 `unavailable` with `Retry-After:
 * UNAVAILABLE_RETRY_S` (default 5). The log line carries the path and the error message only —
 * never headers, so never key material.
 * @example return safely(deps, request, () => handleStatus(request, deps))
 */
export async function safely(deps: Pick<Deps, 'log' | 'now'> & { config?: Pick<Deps['config'], 'UNAVAILABLE_RETRY_S'> }, request: Request, fn: () => Response | Promise<Response>): Promise<Response> {
  try {
    return await fn();
  } catch (e) {
    let path = '?';
    try {
      path = new URL(request.url).pathname;
    } catch {
      /* keep '?' */
    }
    if (e instanceof PrivateStateUnavailable) {
      deps.log.warn({ path, err: e.message }, 'request refused: private database unavailable');
      return errorResponse('unavailable', { nowMs: deps.now(), headers: { 'Retry-After': String(deps.config?.UNAVAILABLE_RETRY_S ?? 5) } });
    }
    deps.log.error({ path, err: e instanceof Error ? `${e.name}: ${e.message}` : String(e) }, 'request failed');
    return errorResponse('internal', { nowMs: deps.now() });
  }
}
