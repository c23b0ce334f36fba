/**
 * Baseline of the token-endpoint benchmark: a bare `node:http` server doing the same work as
 * `GET /api/v1/token/{mint}` (src/server/token.ts) on the same databases with the same functions —
 * address check, key check (HMAC + constant-time compare), daily-quota counting, the record lookup
 * (token.ts `heldRow`: the public store's kept rows), the same body (the stored bytes with the
 * answer's fields spliced: `recordFields`, `recordBodyParts`) and headers — with no framework and no
 * WHATWG Request/Response objects. Not part of the product.
 * Run: `node --import tsx bench/bare-token-server.ts` with the archive's environment.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { loadConfig } from '../src/config.ts';
import { createDeps } from '../src/server/deps.ts';
import { CACHE_NONE, CACHE_SETTLED, corsHeaders, etagOf, isAddressParam, joinBytes } from '../src/server/http.ts';
import { admitKey, rateLimitHeaders } from '../src/server/quota.ts';
import { heldRow, recordBodyParts, recordFields } from '../src/server/token.ts';

const config = loadConfig();
const deps = createDeps(config);
const PREFIX = '/api/v1/token/';

const server = createServer((req, res) => void answer(req, res));

async function answer(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
  const url = req.url ?? '';
  if (req.method !== 'GET' || !url.startsWith(PREFIX)) return void res.writeHead(404).end();
  const mint = decodeURIComponent(url.slice(PREFIX.length).split('?')[0]);
  const send = (status: number, body: string | Buffer, headers: Record<string, string> = {}) =>
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'X-Content-Type-Options': 'nosniff', ...corsHeaders(), ...headers, 'Content-Length': String(Buffer.byteLength(body)) }).end(body);
  if (!isAddressParam(mint)) return send(400, '{"error":"not_an_address"}');
  const auth = req.headers.authorization;
  // the key check and the quota count as the API's keyed endpoints make them (src/server/quota.ts)
  const key = await admitKey(deps, auth?.startsWith('Bearer ') ? auth.slice(7).trim() : null);
  if (key.status !== 'ok') return send(401, JSON.stringify({ error: key.status }));
  const { usage } = key;
  if (usage.exceeded) return send(429, '{"error":"quota_exceeded"}');
  const row = heldRow(deps, mint);
  if (!row) return send(404, '{"error":"not_held"}');
  const body = joinBytes(recordBodyParts(row, config.baseUrl, recordFields(deps, deps.now())));
  send(200, body, { ETag: etagOf(row.sha256), 'Cache-Control': row.settled ? CACHE_SETTLED : CACHE_NONE, ...rateLimitHeaders(usage) });
}
server.listen(config.PORT, config.HOST);
process.on('SIGTERM', () => process.exit(0));
