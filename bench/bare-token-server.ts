/**
 * Baseline of the token-endpoint benchmark: a bare `node:http` server doing the same work as
 * `GET /api/v1/token/{mint}` (src/server/token.ts) on the same databases — address check, key
 * check (HMAC + constant-time compare), daily-quota counting, the record lookup, the same body and
 * headers — with no framework and no WHATWG Request/Response objects. Not part of the product.
 * Run: `node --import tsx bench/bare-token-server.ts` with the archive's environment.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { instant } from '../src/core/canonical.ts';
import { loadConfig } from '../src/config.ts';
import { createDeps } from '../src/server/deps.ts';
import { coverageOf } from '../src/facts/coverage.ts';
import { CACHE_NONE, CACHE_SETTLED, corsHeaders, etagOf, isAddressParam } from '../src/server/http.ts';
import { admitKey, rateLimitHeaders } from '../src/server/quota.ts';
import { sourceUrl } from '../src/server/token.ts';

const config = loadConfig();
const deps = createDeps(config);
const PREFIX = '/api/v1/token/';

const server = createServer((req, res) => void answer(req, res));

async function answer(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
  const url = req.url ?? '';
  if (req.method !== 'GET' || !url.startsWith(PREFIX)) return void res.writeHead(404).end();
  const mint = decodeURIComponent(url.slice(PREFIX.length).split('?')[0]);
  const send = (status: number, body: string, headers: Record<string, string> = {}) =>
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...corsHeaders(), ...headers }).end(body);
  if (!isAddressParam(mint)) return send(400, '{"error":"not_an_address"}');
  const auth = req.headers.authorization;
  // the key check and the quota count as the API's keyed endpoints make them (src/server/quota.ts)
  const key = await admitKey(deps, auth?.startsWith('Bearer ') ? auth.slice(7).trim() : null);
  if (key.status !== 'ok') return send(401, JSON.stringify({ error: key.status }));
  const { usage } = key;
  if (usage.exceeded) return send(429, '{"error":"quota_exceeded"}');
  const row = deps.publicStore.getLaunch(mint);
  if (!row) return send(404, '{"error":"not_held"}');
  const etag = etagOf(row.sha256);
  const body = {
    ...JSON.parse(row.document),
    apiVersion: 'v1',
    coverage: coverageOf(deps.publicStore, deps.now(), deps.config.COVERAGE_GAP_MS),
    generatedAt: instant(deps.now()),
    source: sourceUrl(config.baseUrl, mint),
    license: `${config.LICENSE_TEXT} ${config.LICENSE_URL}`,
  };
  send(200, JSON.stringify(body), { ETag: etag, 'Cache-Control': row.settled ? CACHE_SETTLED : CACHE_NONE, ...rateLimitHeaders(usage) });
}
server.listen(config.PORT, config.HOST);
process.on('SIGTERM', () => process.exit(0));
