import type { Deps } from './deps.ts';
import { errorResponse } from './errors.ts';
import { jsonResponse } from './http.ts';
import { openApiDocument, publishedSchema } from './openapi.ts';

/** Machine-readable descriptions change only with a deployment: a few minutes of caching. */
const CACHE_DESCRIPTION = 'max-age=300';

/**
 * `GET /api/v1/openapi.json` (no key): the OpenAPI 3.1 document (openapi.ts), its server the
 * archive's PUBLIC_BASE_URL. Not counted against any quota.
 */
export function handleOpenApi(_request: Request, deps: Deps): Response {
  return jsonResponse(openApiDocument(deps.config.baseUrl), 200, { 'Cache-Control': CACHE_DESCRIPTION });
}

/**
 * `GET /api/v1/schemas/{name}` (no key): the JSON Schema (2020-12) of the launch document
 * (`launch.json`) or the wallet record (`wallet.json`); any other name 404 `not_found`.
 */
export function handleSchema(_request: Request, deps: Deps, params: { name?: string }): Response {
  const schema = publishedSchema(deps.config.baseUrl, params.name ?? '');
  if (!schema) return errorResponse('not_found', { nowMs: deps.now() });
  return jsonResponse(schema, 200, { 'Cache-Control': CACHE_DESCRIPTION, 'Content-Type': 'application/schema+json' });
}
