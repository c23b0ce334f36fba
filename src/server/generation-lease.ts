/**
 * Serving from public-database generations (issue 26 item 2; docs/scaling.md): an API node with
 * API_GENERATIONS_DIR answers each request from the newest verified generation
 * (src/db/generation-reader.ts), holding a lease on it for the whole request, so a swap never
 * closes a database under a request; every such answer carries `X-Archive-Generation`.
 */
import { watch, type FSWatcher } from 'node:fs';
import type { GenerationReader } from '../db/generation-reader.ts';
import type { Logger } from '../log.ts';
import type { Deps } from './deps.ts';
import { errorResponse } from './errors.ts';

/** The response header naming the generation an answer was read from (a whole number ≥ 1). */
export const GENERATION_HEADER = 'X-Archive-Generation';

/** How often (ms) a node looks at the manifest even when no file event arrived (rsync, NFS, object-storage mounts may not send one). */
export const GENERATION_POLL_MS = 1000;

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

/**
 * Keep `reader` on the newest generation of `dir`: a refresh on every file event in the folder and
 * every {@link GENERATION_POLL_MS}. Each swap is logged at info; a generation refused (size or
 * sha256 not the manifest's, file missing) is logged once as a warning and asked again at the next
 * refresh. Returns a stop function.
 */
export function watchGenerations(reader: GenerationReader, dir: string, log: Logger, pollMs = GENERATION_POLL_MS): () => void {
  const warned = new Set<string>();
  const refresh = () => {
    reader
      .refresh()
      .then((r) => {
        if (typeof r === 'number') log.info({ generation: r }, 'serving public-database generation');
        else if ('generation' in r) {
          const key = `${r.generation}:${r.reason}`;
          if (!warned.has(key)) log.warn({ generation: r.generation, reason: r.reason }, 'public-database generation not served (yet): it does not match its manifest');
          warned.add(key);
        }
      })
      .catch((err) => log.warn({ err: String(err) }, 'reading the generations folder failed; the generation served stays'));
  };
  let watcher: FSWatcher | null = null;
  try {
    watcher = watch(dir, { persistent: false }, refresh);
    watcher.on('error', () => undefined); // the poll carries on
  } catch {
    // folder not there yet: the poll finds it
  }
  const timer = setInterval(refresh, pollMs);
  timer.unref();
  refresh();
  return () => {
    clearInterval(timer);
    watcher?.close();
  };
}
