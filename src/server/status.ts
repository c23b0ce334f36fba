import type { Deps } from './deps.ts';
import { PrivateStateUnavailable } from '../db/private-state.ts';
import { CACHE_NONE, jsonResponse } from './http.ts';
import { statusBody } from '../facts/status.ts';

export { statusBody, type StatusBody } from '../facts/status.ts';

/**
 * `GET /api/v1/status` (no key): what the archive holds and what it was awake for.
 * Always `no-store`: it changes with every collector batch.
 */
export async function handleStatus(_request: Request, deps: Deps): Promise<Response> {
  const rebuildCounts = await rebuildCountsOf(deps);
  return jsonResponse(statusBody({ ...deps, rebuildCounts }, deps.now()), 200, { 'Cache-Control': CACHE_NONE });
}

/**
 * The rebuild queue's counts for the status, or null when the private database cannot be reached
 * (cluster mode, PostgreSQL down): the public status is still served.
 */
export async function rebuildCountsOf(deps: Partial<Pick<Deps, 'rebuilds'>>): Promise<{ queued: number; running: number } | null> {
  if (!deps.rebuilds) return null;
  try {
    return await deps.rebuilds.jobs.queueCounts();
  } catch (e) {
    if (e instanceof PrivateStateUnavailable) return null;
    throw e;
  }
}
