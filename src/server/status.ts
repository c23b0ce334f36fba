import type { Deps } from './deps.ts';
import { CACHE_NONE, jsonResponse } from './http.ts';
import { statusBody } from '../facts/status.ts';

export { statusBody, type StatusBody } from '../facts/status.ts';

/**
 * `GET /api/v1/status` (no key): what the archive holds and what it was awake for.
 * Always `no-store`: it changes with every collector batch.
 */
export function handleStatus(_request: Request, deps: Deps): Response {
  return jsonResponse(statusBody(deps, deps.now()), 200, { 'Cache-Control': CACHE_NONE });
}
