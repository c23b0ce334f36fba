/**
 * Serving from public-database generations (issue 26 item 2; docs/scaling.md): an API node with
 * API_GENERATIONS_DIR answers each request from the newest verified generation
 * (src/db/generation-reader.ts), holding a lease on it for the whole request, so a swap never
 * closes a database under a request; every such answer carries `X-Archive-Generation`.
 */
import type { GenerationReader } from '../db/generation-reader.ts';
import type { Deps } from './deps.ts';
import { errorResponse } from './errors.ts';

/** The response header naming the generation an answer was read from (a whole number ≥ 1). */
export const GENERATION_HEADER = 'X-Archive-Generation';

/** `response` with one more header; a response whose headers are immutable (Response.redirect) is copied. */
function withHeader(response: Response, name: string, value: string): Response {
  try {
    response.headers.set(name, value);
    return response;
  } catch {
    const headers = new Headers(response.headers);
    headers.set(name, value);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}

/**
 * Run `fn` on the generation served now: `deps.publicStore` is that generation (read-only) for the
 * request and `deps.rebuiltStore` the node's own writable `public.db` (its rebuilds). Errors:
 * before any verified generation → 503 `unavailable` with `Retry-After: 1`.
 * @example return withGeneration(deps, reader, (d) => handleToken(request, d, params))
 */
export async function withGeneration(deps: Deps, reader: GenerationReader, fn: (deps: Deps) => Response | Promise<Response>): Promise<Response> {
  let lease = reader.acquire();
  if (!lease) {
    await reader.refresh().catch(() => undefined); // the first one may have just arrived
    lease = reader.acquire();
  }
  if (!lease) return errorResponse('unavailable', { nowMs: deps.now(), headers: { 'Retry-After': '1' } });
  try {
    const response = await fn({ ...deps, publicStore: lease.store, rebuiltStore: deps.publicStore });
    return withHeader(response, GENERATION_HEADER, String(lease.generation));
  } finally {
    lease.release();
  }
}
