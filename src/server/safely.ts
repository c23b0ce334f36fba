import type { Deps } from './deps.ts';
import { errorResponse } from './errors.ts';

/**
 * Run a handler; an unexpected exception becomes 500 `internal`. The log line carries the path
 * and the error message only — never headers, so never key material.
 * @example return safely(deps, request, () => handleStatus(request, deps))
 */
export async function safely(deps: Pick<Deps, 'log' | 'now'>, request: Request, fn: () => Response | Promise<Response>): Promise<Response> {
  try {
    return await fn();
  } catch (e) {
    let path = '?';
    try {
      path = new URL(request.url).pathname;
    } catch {
      /* keep '?' */
    }
    deps.log.error({ path, err: e instanceof Error ? `${e.name}: ${e.message}` : String(e) }, 'request failed');
    return errorResponse('internal', { nowMs: deps.now() });
  }
}
