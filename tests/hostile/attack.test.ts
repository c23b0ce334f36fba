import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { getBase58Decoder } from '@solana/kit';
import Stripe from 'stripe';
import WebSocket from 'ws';
import { startReplayRpc, type ReplayRpc } from '../../devchain/replay/server.ts';
import { recordLaunch } from '../../src/ingest/record-launch.ts';
import { writeSiteFiles } from '../../src/ingest/publish.ts';
import { writeDownloads } from '../../collector/publish/downloads.ts';
import { loadConfig } from '../../src/config.ts';
import { PrivateStore } from '../../src/db/private-store.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { createLogger } from '../../src/log.ts';
import { KeyService } from '../../src/access/keys.ts';
import { ROUTES, allowOf, type RouteSpec } from '../../src/server/routes.ts';
import { createEvent, trade, tx } from '../helpers/synthetic-launch.ts';
import { freePort, sleep } from '../helpers/net.ts';
import { headOf, rawRequest, type RawAnswer } from './raw-http.ts';

/**
 * The hostile suite (issue 21): a reusable attack on a local copy of the archive — the built
 * server (`dist/server/entry.mjs`) over a DATA_DIR holding launches with hostile chain metadata
 * (built from synthetic transactions through the collector's own record builder and page writer),
 * the bulk downloads and a key. Every route × every method; 50+ malformed paths and encodings;
 * oversized bodies and headers; forged and malformed webhooks; hostile metadata rendered into
 * pages; a trickling client; descriptor, WAL and memory checks. Each answer's status and body shape
 * is asserted, and the suite prints what it tried and how many were answered as expected.
 *
 * Memory: after a warm-up of the attack's own request mix and a round of every kind of request, a
 * 2 s settle and a forced full GC (through the inspector the test starts the server with; the
 * product exposes no GC), the server's live V8 heap, its external memory and its RSS
 * (/proc/<pid>/status) are read; again after the attack, a 3 s settle and a forced GC. The heap may
 * grow by 2 MB, external memory by 1 MB, the RSS by 48 MB (why: {@link HEAP_SLACK_KB}). Descriptors: /proc/<pid>/fd after the warm-up and its forced GC,
 * and 1 s after the last download request — before any forced GC, so a descriptor that only garbage
 * collection would close counts as leaked; slack 5. While the requests run, the count is sampled
 * every 20 ms: at most 64 over the start (16 keep-alive connections, 16 aborted ones still closing,
 * 16 files in flight, slack 16; the code before issue 21 peaked at 242).
 */

const ROOT = resolve(import.meta.dirname, '../..');
const ENTRY = join(ROOT, 'dist/server/entry.mjs');
const KEY_SECRET = 'hostile-suite-secret-'.padEnd(40, 'h');
const WEBHOOK_SECRET = 'whsec_hostile_suite';
const address = () => getBase58Decoder().decode(randomBytes(32));
/** A real mint (tests/fixtures/mainnet FIX/7) lower-cased: base58 still, but 33 bytes decoded. */
const LOWERCASED = 'CWiTGbCiDd8BKtNYNE2boT9fJGFG2MU53Uf6HQk4pump'.toLowerCase();

/** Hostile chain metadata, each a launch of its own. */
const HOSTILE = [
  { label: 'script', name: '<script>alert(1)</script>', symbol: '<b>X</b>', uri: 'https://example.com/<script>alert(1)</script>.json' },
  { label: 'attribute', name: '"><img src=x onerror=alert(1)>', symbol: `'"><svg/onload=alert(1)>`, uri: '"><img src=x onerror=alert(1)>' },
  { label: 'javascript-uri', name: 'Click me', symbol: 'JS', uri: 'javascript:alert(document.cookie)' },
  { label: 'rtl-override', name: 'evil\u202Egnp.exe', symbol: 'US\u202EDC\u2066', uri: 'https://example.com/\u202Efdp.exe' },
  { label: 'controls', name: 'a\u0000b\u0007c\u001Bd\u0085e\u009Bf\u200Eg\u061C', symbol: '\r\nX\u007F', uri: 'https://example.com/x\n<script>' },
  { label: '10-KB name', name: 'N'.repeat(10_240), symbol: 'S'.repeat(1_000), uri: `https://example.com/${'u'.repeat(5_000)}` },
];

let replay: ReplayRpc;
let dataDir: string;
let server: ChildProcess;
let port: number;
let key: string;
let serverLog = '';
const mints: { label: string; mint: string; name: string; symbol: string; uri: string }[] = [];
let held: string;
let creator: string;

/** The tally the suite prints: every request of the matrix, malformed, body, webhook and page checks. */
const tally = { tried: 0, asExpected: 0, failures: [] as string[] };
/** Count one request; `problem` null when it was answered as expected. */
function count(label: string, problem: string | null): void {
  tally.tried++;
  if (problem === null) tally.asExpected++;
  else tally.failures.push(`${label}: ${problem}`);
}

/** The server's memory after a forced GC: V8's live heap and Buffers (process.memoryUsage) and VmRSS, kB. */
interface ServerMemory {
  heapUsedKb: number;
  externalKb: number;
  rssKb: number;
}

/**
 * A full garbage collection in the server, through its inspector (the test starts it with
 * `--inspect=127.0.0.1:0`; the product exposes no GC): `HeapProfiler.collectGarbage` twice, then
 * `process.memoryUsage()` read in the server through the same session, and VmRSS.
 */
async function forceGc(): Promise<ServerMemory> {
  const url = /Debugger listening on (ws:\/\/\S+)/.exec(serverLog)?.[1];
  if (!url) throw new Error('no inspector URL in the server log');
  const ws = new WebSocket(url);
  await new Promise<void>((ok, fail) => {
    ws.once('open', () => ok());
    ws.once('error', fail);
  });
  const call = (id: number, method: string, params: object = {}) =>
    new Promise<{ result?: { result?: { value?: unknown } } }>((ok) => {
      const onMessage = (m: WebSocket.RawData) => {
        const msg = JSON.parse(String(m));
        if (msg.id !== id) return;
        ws.off('message', onMessage);
        ok(msg);
      };
      ws.on('message', onMessage);
      ws.send(JSON.stringify({ id, method, params }));
    });
  await call(1, 'HeapProfiler.collectGarbage');
  await call(2, 'HeapProfiler.collectGarbage');
  await sleep(500);
  const usage = await call(3, 'Runtime.evaluate', { expression: 'JSON.stringify(process.memoryUsage())', returnByValue: true });
  ws.close();
  const m = JSON.parse(String(usage.result?.result?.value)) as { heapUsed: number; external: number };
  return { heapUsedKb: Math.round(m.heapUsed / 1024), externalKb: Math.round(m.external / 1024), rssKb: rssKb() };
}

const rssKb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))![1]);
const openFiles = () => readdirSync(`/proc/${server.pid}/fd`).length;

/** Does an error answer have the shape of its route's format? null when it does. */
function shapeProblem(a: RawAnswer, spec: RouteSpec, head = false): string | null {
  if (a.noAnswer) return 'no answer';
  if (a.status >= 500 && a.status !== 502) return `status ${a.status}`;
  if (head || a.status < 400) return null;
  const type = a.headers['content-type'] ?? '';
  if (spec.errors === 'json') {
    if (!type.startsWith('application/json')) return `content-type ${type}`;
    let body: { error?: unknown; finding?: { class?: unknown } };
    try {
      body = JSON.parse(a.body.toString('utf8'));
    } catch {
      return 'body is not JSON';
    }
    if (typeof body.error !== 'string') return 'no error code';
    if (body.finding?.class !== 'UNKNOWN') return 'finding.class is not UNKNOWN';
    if (spec.cors && a.headers['access-control-allow-origin'] !== '*') return 'no CORS';
    return null;
  }
  if (!type.startsWith('text/html')) return `content-type ${type}`;
  if (!a.body.toString('utf8').startsWith('<!doctype html>')) return 'not an HTML page';
  if (!(a.headers['content-security-policy'] ?? '').includes("default-src 'none'")) return 'no CSP';
  return null;
}

const errorOf = (a: RawAnswer): string | undefined => {
  try {
    return JSON.parse(a.body.toString('utf8')).error;
  } catch {
    return undefined;
  }
};

async function waitFor(url: string, ms: number): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      await fetch(url);
      return;
    } catch {
      if (Date.now() > until) throw new Error(`server did not answer within ${ms} ms:\n${serverLog}`);
      await sleep(100);
    }
  }
}

beforeAll(async () => {
  if (!existsSync(ENTRY)) throw new Error('dist/server/entry.mjs missing: run `npx astro build` (npm test does)');
  replay = await startReplayRpc({ chainDir: join(ROOT, 'tests/fixtures/chains/mainnet') });
  dataDir = mkdtempSync(join(tmpdir(), 'lpa-hostile-'));
  const config = loadConfig({ DATA_DIR: dataDir });
  const store = new PublicStore(config.publicDbPath);
  const t0 = 1_790_000_000;
  creator = address();
  HOSTILE.forEach((h, i) => {
    const mint = address();
    const create = tx({ slot: 1000 + i * 10, blockTime: t0 + i, events: [createEvent(mint, creator, { name: h.name, symbol: h.symbol, uri: h.uri }), trade(mint, creator, true, 10n ** 12n, 10n ** 8n)] });
    store.db.transaction(() => {
      store.addTransaction(mint, create);
      recordLaunch(store, mint, { origin: 'observed', observedAtLaunch: true, nowMs: (t0 + 100) * 1000 });
    })();
    mints.push({ ...h, mint });
  });
  held = mints[0].mint;
  writeSiteFiles(store, config, createLogger('silent'));
  // a record.db of a few MB, so an aborted download is cut off mid-file
  store.setMeta('hostile_filler', randomBytes(300_000).toString('base64'));
  await writeDownloads(store, dataDir, Date.now());
  store.close();
  const priv = new PrivateStore(config.privateDbPath);
  key = (await new KeyService(priv, KEY_SECRET).create('hostile')).key;
  priv.close();

  port = await freePort();
  const stripePort = await freePort(); // nothing listens: checkout and success answer 502
  server = spawn(process.execPath, ['--inspect=127.0.0.1:0', ENTRY], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      KEY_SECRET,
      SOLANA_RPC_URL: replay.url,
      SOLANA_WS_URL: replay.wsUrl,
      DAILY_QUOTA: '1000000',
      REBUILD_DAILY_CEILING: '0',
      LOG_LEVEL: 'info',
      STRIPE_SECRET_KEY: 'sk_test_hostile',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_PRICE_ID: 'price_hostile',
      STRIPE_API_HOST: '127.0.0.1',
      STRIPE_API_PORT: String(stripePort),
      STRIPE_API_PROTOCOL: 'http',
      // glibc's per-thread arenas (libuv's file-read threads) make RSS drift by tens of MB between
      // identical runs; two arenas keep the RSS comparison about the server, not the allocator
      MALLOC_ARENA_MAX: '2',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.on('data', (d) => (serverLog += d));
  server.stderr!.on('data', (d) => (serverLog += d));
  await waitFor(`http://127.0.0.1:${port}/api/v1/status`, 30_000);
}, 120_000);

afterAll(async () => {
  server?.kill('SIGTERM');
  await replay?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE'] as const;

/** Every route, a concrete path of it, whether it needs the key, and the status of its own method(s) here. */
const matrix = () => [
  { target: `/api/v1/token/${held}`, spec: ROUTES.token, keyed: true, ok: 200 },
  { target: `/api/v1/wallet/${creator}`, spec: ROUTES.wallet, keyed: true, ok: 200 },
  { target: '/api/v1/status', spec: ROUTES.status, keyed: false, ok: 200 },
  // sent without a key: with one it would rotate the suite's key
  { target: '/api/v1/keys/rotate', spec: ROUTES.rotate, keyed: false, ok: 401 },
  { target: '/api/v1/no/such/path', spec: ROUTES.apiUnknown, keyed: false, ok: 404 },
  { target: `/d/${held}`, spec: ROUTES.document, keyed: false, ok: 200 },
  { target: '/data/record.db', spec: ROUTES.recordDb, keyed: true, ok: 200 },
  { target: '/data/documents.ndjson.gz', spec: ROUTES.documentsNdjson, keyed: true, ok: 200 },
  { target: `/t/${held}.html`, spec: ROUTES.tokenPage, keyed: false, ok: 200 },
  { target: '/', spec: ROUTES.index, keyed: false, ok: 200 },
  { target: '/pricing', spec: ROUTES.pricing, keyed: false, ok: 200 },
  // Stripe cannot be reached (nothing listens on STRIPE_API_PORT): the page says so with 502
  { target: '/billing/checkout', spec: ROUTES.checkout, keyed: false, ok: 502 },
  { target: '/billing/success?session_id=cs_test_hostile', spec: ROUTES.success, keyed: false, ok: 502 },
  // no Stripe-Signature: 400 invalid_signature
  { target: '/billing/webhook', spec: ROUTES.webhook, keyed: false, ok: 400 },
  { target: '/no/such/page', spec: ROUTES.unknown, keyed: false, ok: 404 },
  // the path of Astro's own error route: this app's 404 page, not Astro's default one (src/pages/404.ts)
  { target: '/404', spec: ROUTES.unknown, keyed: false, ok: 404 },
  // Astro's own endpoints, which this app does not use (its image service, server islands): any path no route serves (src/fetch.ts)
  { target: '/_image?href=%2Fsite.css&w=10&f=webp', spec: ROUTES.unknown, keyed: false, ok: 404 },
  { target: '/_server-islands/Island', spec: ROUTES.unknown, keyed: false, ok: 404 },
];

async function matrixRound(record: boolean): Promise<void> {
  for (const r of matrix()) {
    for (const method of METHODS) {
      const extra = r.keyed ? [`Authorization: Bearer ${key}`] : [];
      const withBody = method === 'POST' || method === 'PUT' || method === 'PATCH';
      const a = await rawRequest(port, headOf(method, r.target, withBody ? [...extra, 'Content-Type: application/json', 'Content-Length: 2'] : extra), withBody ? '{}' : '');
      if (!record) continue;
      const allowed = (r.spec.methods as readonly string[]).includes(method) || (method === 'HEAD' && (r.spec.methods as readonly string[]).includes('GET'));
      let problem: string | null = null;
      if (method === 'OPTIONS') {
        if (a.status !== 204) problem = `status ${a.status}, expected 204`;
        else if (a.headers.allow !== allowOf(r.spec)) problem = `Allow ${a.headers.allow}`;
        else if (r.spec.cors !== (a.headers['access-control-allow-origin'] === '*')) problem = 'CORS on a preflight differs from the route';
      } else if (r.spec.methods.length === 0) {
        if (a.status !== 404) problem = `status ${a.status}, expected 404`;
      } else if (allowed) {
        if (a.status !== r.ok) problem = `status ${a.status}, expected ${r.ok}`;
        else if (method === 'HEAD' && a.body.length > 0) problem = 'HEAD with a body';
      } else if (a.status !== 405) problem = `status ${a.status}, expected 405`;
      else if (a.headers.allow !== allowOf(r.spec)) problem = `Allow ${a.headers.allow}, expected ${allowOf(r.spec)}`;
      else if (r.spec.errors === 'json' && method !== 'HEAD' && errorOf(a) !== 'method_not_allowed') problem = `error ${errorOf(a)}`;
      problem ??= shapeProblem(a, r.spec, method === 'HEAD');
      if (!r.spec.cors && a.headers['access-control-allow-origin'] !== undefined) problem ??= 'CORS on a route without it';
      count(`${method} ${r.target}`, problem);
    }
  }
}

/** 50+ malformed paths and encodings: [target, route format, acceptable statuses]. */
function malformed(): [string, RouteSpec, number[]][] {
  const m = held;
  const json = ROUTES.apiUnknown;
  const page = ROUTES.unknown;
  const notAddress = [400];
  return [
    ['/api/v1/token/%zz', json, [400]],
    ['/api/v1/token/%', json, [400]],
    ['/api/v1/token/%E0%A4%A', json, [400]],
    ['/api/v1/token/%C0%AF', json, [400]],
    ['/api/v1/token/%FF%FE', json, [400]],
    ['/api/v1/token/%ED%A0%80', json, [400]],
    ['/api/v1/token/%00', json, notAddress],
    ['/api/v1/token/abc', json, notAddress],
    ['/api/v1/token/' + LOWERCASED, json, notAddress],
    // an upper-cased mint may still decode to 32 bytes: then it is an address (401 without a key)
    ['/api/v1/token/' + m.toUpperCase(), json, [400, 401]],
    // a 44-character mint and one more: 45 characters, never an address (a random `m` + 'x' is 44 characters for a
    // 43-character m, and then decodes to 32 bytes when m < 2^256 / 58: about 2 % of runs; it failed a CI run so)
    ['/api/v1/token/CWiTGbCiDd8BKtNYNE2boT9fJGFG2MU53Uf6HQk4pumpx', json, notAddress],
    ['/api/v1/token/' + m.slice(0, 31), json, notAddress],
    ['/api/v1/token/' + '1'.repeat(45), json, notAddress],
    ['/api/v1/token/' + '0OIl'.repeat(10), json, notAddress],
    ['/api/v1/token/' + '1'.repeat(32), json, [401]], // 32 zero bytes: an address (the system program)
    ['/api/v1/token/' + m + '%00', json, notAddress],
    ['/api/v1/token/' + m + '%20', json, notAddress],
    ['/api/v1/token/..%2F..%2Fetc%2Fpasswd', json, notAddress],
    ['/api/v1/token/%2e%2e', json, [400, 404]],
    ['/api/v1/token/' + m + '/extra', json, [404]],
    ['/api/v1/token/', json, notAddress], // an empty path value (spec §7: not 32-44 characters)
    ['/api/v1/wallet/', json, notAddress],
    ['/api/v1/token', json, [404]], // no value at all: no such path
    ['/api/v1/token/%3Cscript%3Ealert(1)%3C%2Fscript%3E', json, notAddress],
    ['/api/v1/token/%E2%80%AE' + m.slice(0, 40), json, notAddress],
    ['/api/v1/token/' + encodeURIComponent('ａ'.repeat(40)), json, notAddress],
    ['/api/v1/wallet/%zz', json, [400]],
    ['/api/v1/wallet/abc', json, notAddress],
    ['/api/v1/wallet/' + LOWERCASED, json, notAddress],
    ['/api/v1/status?x=%zz', json, [400]],
    ['/api/v1/status?' + 'a=1&'.repeat(1000), json, [200]],
    ['/api/v1/status/%', json, [400]],
    ['/api//v1/status', json, [200, 404]],
    ['/api/v1/../v1/status', json, [200, 404]],
    ['/api/v2/token/' + m, json, [404]],
    ['/api/%zz', json, [400]],
    ['/api', json, [404]],
    ['/d/%zz', ROUTES.document, [400]],
    ['/d/abc', ROUTES.document, notAddress],
    ['/d/' + LOWERCASED, ROUTES.document, notAddress],
    ['/d/' + m + '.json', ROUTES.document, notAddress],
    ['/data/%zz', ROUTES.dataUnknown, [400]],
    ['/data/record.db%00', ROUTES.dataUnknown, [404]],
    ['/data/../private.db', page, [404]],
    ['/data/%2e%2e/private.db', page, [404]],
    ['/data/..%2Fprivate.db', ROUTES.dataUnknown, [404]],
    ['/t/%zz.html', ROUTES.tokenPage, [400]],
    ['/t/abc.html', ROUTES.tokenPage, [400]],
    ['/t/' + LOWERCASED + '.html', ROUTES.tokenPage, [400]],
    ['/t/..%2F..%2Fetc%2Fpasswd', ROUTES.tokenPage, [400]],
    ['/t/../../etc/passwd', page, [404]],
    ['/t/%2e%2e/%2e%2e/etc/passwd', page, [404]],
    ['/t/' + m + '.html%00', ROUTES.tokenPage, [400]],
    ['/%zz', page, [400]],
    ['/%', page, [400]],
    ['/%%%%', page, [400]],
    ['/' + 'a'.repeat(8_000), page, [404]],
    ['/billing/%zz', page, [400]],
    ['/billing/success?session_id=%zz', ROUTES.success, [400]],
    ['/billing/success?session_id=' + encodeURIComponent('"><script>'), ROUTES.success, [400]],
    ['/pricing?%zz', page, [400]],
    ['/private.db', page, [404]],
    ['/key-secret', page, [404]],
    ['/site/t/' + m + '.html', page, [404]],
    ['/.env', page, [404]],
    ['//etc/passwd', page, [404]],
  ];
}

describe('hostile: every route × every method', () => {
  it('answers each of GET HEAD POST PUT DELETE PATCH OPTIONS TRACE on every route as the route table says', async () => {
    const before = tally.failures.length;
    await matrixRound(true);
    expect(tally.failures.slice(before)).toEqual([]);
  }, 120_000);
});

describe('hostile: malformed paths and encodings', () => {
  it('every malformed path or encoding gets its route format, never a 500', async () => {
    const before = tally.failures.length;
    const cases = malformed();
    expect(cases.length).toBeGreaterThanOrEqual(50);
    for (const [target, spec, statuses] of cases) {
      const a = await rawRequest(port, headOf('GET', target, spec === ROUTES.recordDb ? [`Authorization: Bearer ${key}`] : []));
      const problem = !statuses.includes(a.status) ? `status ${a.status}, expected ${statuses.join('/')}` : shapeProblem(a, spec);
      count(`GET ${target.slice(0, 80)}`, problem);
    }
    // a re-cased address gets the precise message
    const lower = await rawRequest(port, headOf('GET', `/api/v1/token/${LOWERCASED}`));
    const msg = JSON.parse(lower.body.toString('utf8')).message as string;
    count('not_an_address message for a lowercased mint', /does not decode to 32 bytes|not base58/.test(msg) ? null : msg);
    const rotate = await rawRequest(port, headOf('GET', '/api/v1/keys/rotate'));
    count('GET /api/v1/keys/rotate message', !/mint/i.test(JSON.parse(rotate.body.toString('utf8')).message) ? null : 'mentions a mint');
    expect(tally.failures.slice(before)).toEqual([]);
  }, 120_000);

  it('request lines and headers Node cannot parse get the same vocabulary', async () => {
    const before = tally.failures.length;
    const cases: [string | Buffer, RouteSpec, number][] = [
      ['get /api/v1/status HTTP/1.1\r\nHost: x', ROUTES.apiUnknown, 400],
      ['GET /api/v1/st\u00e4tus HTTP/1.1\r\nHost: x', ROUTES.apiUnknown, 400],
      [Buffer.from('GET /api/v1/token/\u00ff HTTP/1.1\r\nHost: x', 'latin1'), ROUTES.apiUnknown, 400],
      ['GET /api/v1/status HTTP/1.1\r\nHost: x\r\nBad Header: y', ROUTES.apiUnknown, 400],
      ['GET /api/v1/status HTTP/1.1\r\nHost: x\r\nX: ' + 'a'.repeat(20_000), ROUTES.apiUnknown, 431],
      ['GET /pricing HTTP/1.1\r\nHost: x\r\nX: ' + 'a'.repeat(20_000), ROUTES.unknown, 431],
      ['GET /api/v1/status HTTP/1.1\r\nHost: x\r\n' + Array.from({ length: 3000 }, (_, i) => `X-${i}: y`).join('\r\n'), ROUTES.apiUnknown, 431],
      ['GET /api/v1/status HTTP/1.1\r\nHost: x\r\n' + Array.from({ length: 100 }, (_, i) => `X-${i}: ${'v'.repeat(90)}`).join('\r\n'), ROUTES.status, 200],
      ['GET /' + 'a'.repeat(20_000) + ' HTTP/1.1\r\nHost: x', ROUTES.unknown, 431],
      // absolute form: refused, in the error format of its path (JSON on an API path)
      ['GET http://evil.example/api/v1/status HTTP/1.1\r\nHost: x', ROUTES.apiUnknown, 400],
      ['GET http://evil.example/pricing HTTP/1.1\r\nHost: x', ROUTES.unknown, 400],
      ['OPTIONS * HTTP/1.1\r\nHost: x', ROUTES.unknown, 400],
      ['GET /api/v1/status HTTP/1.1\r\nHost: a b', ROUTES.status, 200],
      ['GET /api/v1/status HTTP/1.1\r\nHost: [::1', ROUTES.status, 200],
      ['GET /api/v1/status HTTP/1.0', ROUTES.status, 200],
      ['GET /api/v1/status HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5', ROUTES.apiUnknown, 400],
      ['BREW /api/v1/status HTTP/1.1\r\nHost: x', ROUTES.apiUnknown, 400],
      ['PROPFIND /api/v1/status HTTP/1.1\r\nHost: x', ROUTES.status, 405],
      ['CONNECT /api/v1/status HTTP/1.1\r\nHost: x', ROUTES.status, 405],
      ['CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22', ROUTES.unknown, 400],
    ];
    for (const [head, spec, status] of cases) {
      const a = await rawRequest(port, head);
      const label = (Buffer.isBuffer(head) ? head.toString('latin1') : head).split('\r\n')[0].slice(0, 60);
      // a header Node's own clients refuse when repeated (Content-Length: fetch and http.get fail) is sent once
      const twice = a.repeated.filter((h) => h === 'content-length' || h === 'content-type' || h === 'transfer-encoding');
      count(`raw ${label}`, a.status !== status ? `status ${a.status}, expected ${status}` : twice.length ? `sent twice: ${twice.join(', ')}` : shapeProblem(a, spec));
    }
    expect(tally.failures.slice(before)).toEqual([]);
  }, 120_000);
});

/** Stream `total` bytes of a POST body (chunked unless `length` is given) until the server answers or closes. */
function streamBody(target: string, headers: string[], total: number, chunked: boolean): Promise<RawAnswer & { sentBytes: number }> {
  return new Promise((resolveAnswer) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let sent = 0;
    let closed = false;
    const piece = Buffer.alloc(64 * 1024, 'x');
    socket.on('data', (c) => chunks.push(c));
    const finish = () => {
      if (closed) return;
      closed = true;
      socket.destroy();
      const raw = Buffer.concat(chunks);
      import('./raw-http.ts').then(({ parseAnswer }) => resolveAnswer({ ...parseAnswer(raw), sentBytes: sent }));
    };
    socket.on('close', finish);
    socket.on('error', finish);
    socket.write([`POST ${target} HTTP/1.1`, 'Host: 127.0.0.1', ...headers, chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${total}`, '', ''].join('\r\n'));
    const pump = () => {
      while (!closed && sent < total && chunks.length === 0) {
        const ok = socket.write(chunked ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]) : piece);
        sent += piece.length;
        if (!ok) {
          socket.once('drain', pump);
          return;
        }
      }
      if (!closed && sent >= total && chunked) socket.write('0\r\n\r\n');
    };
    pump();
    setTimeout(finish, 30_000);
  });
}

describe('hostile: oversized bodies', () => {
  it('every POST route refuses a body over its limit with 413 before reading it; other methods too', async () => {
    const before = tally.failures.length;
    const sig = ['Stripe-Signature: t=1,v1=00', 'Content-Type: application/json'];
    // 300 MB declared, unsigned: refused on the Content-Length alone
    const declared = await streamBody('/billing/webhook', ['Content-Type: application/json'], 300 * 1024 * 1024, false);
    count('POST /billing/webhook Content-Length 300 MB', declared.status === 413 && errorOf(declared) === 'payload_too_large' && declared.sentBytes < 64 * 1024 * 1024 ? null : `status ${declared.status}, sent ${declared.sentBytes}`);
    // chunked (no Content-Length): counted as it streams, cut off after 64 KB
    const chunked = await streamBody('/billing/webhook', sig, 200 * 1024 * 1024, true);
    count('POST /billing/webhook chunked 200 MB', chunked.status === 413 && errorOf(chunked) === 'payload_too_large' ? null : `status ${chunked.status}, sent ${chunked.sentBytes}`);
    const cases: [string, string, number, RouteSpec][] = [
      ['POST', '/billing/webhook', 65 * 1024, ROUTES.webhook],
      ['POST', '/api/v1/keys/rotate', 100 * 1024, ROUTES.rotate],
      ['POST', '/billing/checkout', 20 * 1024, ROUTES.checkout],
      ['PUT', '/api/v1/status', 1024 * 1024, ROUTES.status],
      ['GET', '/api/v1/status', 20 * 1024, ROUTES.status],
      ['PATCH', `/t/${held}.html`, 20 * 1024, ROUTES.tokenPage],
    ];
    for (const [method, target, size, spec] of cases) {
      const a = await rawRequest(port, headOf(method, target, [...sig, `Content-Length: ${size}`]), Buffer.alloc(size, 'y'));
      count(`${method} ${target} body ${size}`, a.status !== 413 ? `status ${a.status}` : spec.errors === 'json' && errorOf(a) !== 'payload_too_large' ? `error ${errorOf(a)}` : shapeProblem(a, spec));
    }
    if (tally.failures.length > before) console.log(tally.failures.slice(before).join('\n'));
    expect(tally.failures.slice(before)).toEqual([]);
  }, 120_000);
});

/** A webhook delivery signed with `secret` at `timestampS`. */
async function webhook(payload: string, opts: { secret?: string; timestampS?: number; header?: string } = {}): Promise<RawAnswer> {
  const header = opts.header ?? Stripe.webhooks.generateTestHeaderString({ payload, secret: opts.secret ?? WEBHOOK_SECRET, timestamp: opts.timestampS ?? Math.floor(Date.now() / 1000) });
  const body = Buffer.from(payload, 'utf8');
  return rawRequest(port, headOf('POST', '/billing/webhook', ['Content-Type: application/json', `Stripe-Signature: ${header}`, `Content-Length: ${body.length}`]), body);
}

describe('hostile: forged and malformed webhooks', () => {
  it('forged → 400 invalid_signature; signed but malformed → 400 invalid_event; never 500; a good event once', async () => {
    const before = tally.failures.length;
    const event = (type: string, object: unknown, id = `evt_${randomBytes(6).toString('hex')}`) => JSON.stringify({ id, object: 'event', type, data: { object } });
    const good = event('invoice.paid', { id: 'in_1' });
    const cases: [string, Promise<RawAnswer>, number, string | null][] = [
      ['no signature', rawRequest(port, headOf('POST', '/billing/webhook', ['Content-Type: application/json', `Content-Length: ${good.length}`]), good), 400, 'invalid_signature'],
      ['wrong secret', webhook(good, { secret: 'whsec_forged' }), 400, 'invalid_signature'],
      ['an hour old', webhook(good, { timestampS: Math.floor(Date.now() / 1000) - 3600 }), 400, 'invalid_signature'],
      ['malformed header', webhook(good, { header: 't=abc,v1=zz' }), 400, 'invalid_signature'],
      ['empty header', webhook(good, { header: '' }), 400, 'invalid_signature'],
      ['header of 8 KB', webhook(good, { header: `t=1,v1=${'a'.repeat(8000)}` }), 400, 'invalid_signature'],
      ['signed, not JSON', webhook('not json at all'), 400, 'invalid_event'],
      ['signed, empty body', webhook(''), 400, 'invalid_event'],
      ['signed, a JSON array', webhook('[1,2,3]'), 400, 'invalid_event'],
      ['signed, no type', webhook(JSON.stringify({ id: 'evt_notype' })), 400, 'invalid_event'],
      ['signed, checkout without a session', webhook(event('checkout.session.completed', {})), 400, 'invalid_event'],
      ['signed, subscription id a number', webhook(event('customer.subscription.deleted', { id: 5 })), 400, 'invalid_event'],
      ['signed, deep nesting', webhook(`{"id":"evt_deep","type":"x","data":{"object":${'['.repeat(5000)}${']'.repeat(5000)}}}`), 200, null],
      ['signed, over 64 KB', webhook(event('invoice.paid', { pad: 'p'.repeat(70_000) })), 413, 'payload_too_large'],
    ];
    for (const [label, pending, status, code] of cases) {
      const a = await pending;
      count(`webhook ${label}`, a.status !== status ? `status ${a.status}, expected ${status}` : code && errorOf(a) !== code ? `error ${errorOf(a)}` : shapeProblem(a, ROUTES.webhook));
    }
    const first = await webhook(good);
    count('webhook good event', first.status === 200 && JSON.parse(first.body.toString()).duplicate === false ? null : `status ${first.status} ${first.body}`);
    const again = await webhook(good);
    count('webhook replay', again.status === 200 && JSON.parse(again.body.toString()).duplicate === true ? null : `status ${again.status} ${again.body}`);
    expect(serverLog).toContain('payment webhook refused: signed event malformed');
    expect(tally.failures.slice(before)).toEqual([]);
  }, 120_000);
});

// eslint-disable-next-line no-control-regex
const RAW_HIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

describe('hostile: chain metadata rendered into pages', () => {
  it('pages escape markup, link no javascript:, show bidi and control characters visibly, cut long titles; the JSON keeps the raw value', async () => {
    const before = tally.failures.length;
    for (const h of mints) {
      const page = await rawRequest(port, headOf('GET', `/t/${h.mint}.html`));
      const html = page.body.toString('utf8');
      const title = /<title>([\s\S]*?)<\/title>/.exec(html)?.[1] ?? '';
      const h1 = /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1] ?? '';
      const problem =
        page.status !== 200 ? `status ${page.status}`
        : /<script|<img|<[a-z]+[^>]*\son(error|load)=/i.test(html.replace(/"[^"]*"/g, '""')) || (html.match(/<svg/g) ?? []).length !== (html.match(/<svg viewBox="0 0 640 /g) ?? []).length ? 'markup from metadata is live'
        : /href="javascript:/i.test(html) ? 'javascript: linked'
        : RAW_HIDDEN.test(title) || RAW_HIDDEN.test(h1) || RAW_HIDDEN.test(html) ? 'a bidi or control character is raw in the page'
        : title.length > 600 ? `title of ${title.length} characters`
        : shapeProblem(page, ROUTES.tokenPage) ?? (page.headers['x-content-type-options'] !== 'nosniff' || page.headers['referrer-policy'] !== 'no-referrer' || !(page.headers['content-security-policy'] ?? '').includes("frame-ancestors 'none'") ? 'page headers missing' : null);
      count(`page of the ${h.label} launch`, problem);
      const api = await rawRequest(port, headOf('GET', `/api/v1/token/${h.mint}`, [`Authorization: Bearer ${key}`]));
      const doc = JSON.parse(api.body.toString('utf8'));
      count(`API record of the ${h.label} launch keeps the raw name`, api.status === 200 && doc.name === h.name && doc.symbol === h.symbol && doc.uri === h.uri ? null : `status ${api.status}`);
      const d = await rawRequest(port, headOf('GET', `/d/${h.mint}`));
      count(`document of the ${h.label} launch keeps the raw name`, d.status === 200 && JSON.parse(d.body.toString('utf8')).name === h.name ? null : `status ${d.status}`);
    }
    const rtl = mints.find((m) => m.label === 'rtl-override')!;
    const html = (await rawRequest(port, headOf('GET', `/t/${rtl.mint}.html`))).body.toString('utf8');
    count('the RTL override is shown as [U+202E]', html.includes('evil[U+202E]gnp.exe') ? null : 'not visible');
    expect(tally.failures.slice(before)).toEqual([]);
  }, 120_000);
});

describe('hostile: a client that trickles its headers', () => {
  it('is answered 408 and closed within 12 s (headers timeout 10 s)', async () => {
    const started = Date.now();
    const answer = await new Promise<{ ms: number; data: string }>((resolveTrickle) => {
      const socket = connect(port, '127.0.0.1');
      let data = '';
      socket.on('data', (c) => (data += c));
      socket.write('GET /api/v1/status HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
      const timer = setInterval(() => socket.writable && socket.write('a'), 1000);
      const done = () => {
        clearInterval(timer);
        resolveTrickle({ ms: Date.now() - started, data });
      };
      socket.on('close', done);
      socket.on('error', () => undefined);
      setTimeout(() => socket.destroy(), 20_000);
    });
    console.log(`hostile: trickling client closed after ${(answer.ms / 1000).toFixed(1)} s`);
    count('trickling client', answer.ms <= 12_000 && answer.data.startsWith('HTTP/1.1 408') ? null : `closed after ${answer.ms} ms: ${answer.data.slice(0, 80)}`);
    expect(answer.ms).toBeLessThanOrEqual(12_000);
    expect(answer.data).toMatch(/^HTTP\/1\.1 408/);
  }, 30_000);
});

/** `n` requests with at most `concurrency` in flight. */
async function many(n: number, concurrency: number, one: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < n) await one(next++);
  }));
}

function head(agent: http.Agent, path: string): Promise<number> {
  return new Promise((ok, fail) => {
    const req = http.request({ host: '127.0.0.1', port, path, method: 'HEAD', agent, headers: { Authorization: `Bearer ${key}` } }, (res) => {
      res.resume();
      res.on('end', () => ok(res.statusCode ?? 0));
    });
    req.on('error', fail);
    req.end();
  });
}

function abortedGet(path: string): Promise<number> {
  return new Promise((ok) => {
    const req = http.request({ host: '127.0.0.1', port, path, method: 'GET', agent: false, headers: { Authorization: `Bearer ${key}` } }, (res) => {
      const status = res.statusCode ?? 0;
      res.once('data', () => {
        req.destroy();
        ok(status);
      });
      res.once('end', () => ok(status));
    });
    req.on('error', () => ok(-1));
    req.end();
  });
}

/**
 * The attack of the memory test: 5,000 HEAD and 5,000 aborted GETs of each download (16 at a time),
 * then the 300 MB chunked webhook body twice. `n` is per kind and download; `onDownload`
 * runs after each download's requests.
 */
async function downloadAttack(agent: http.Agent, n: number, onDownload?: (path: string) => void): Promise<{ headOk: number; getOk: number }> {
  let headOk = 0;
  let getOk = 0;
  for (const p of ['/data/record.db', '/data/documents.ndjson.gz']) {
    await many(n, 16, async () => {
      if ((await head(agent, p)) === 200) headOk++;
    });
    await many(n, 16, async () => {
      if ((await abortedGet(p)) === 200) getOk++;
    });
    onDownload?.(p);
  }
  return { headOk, getOk };
}

async function webhookAttack(): Promise<void> {
  for (let i = 0; i < 2; i++) await streamBody('/billing/webhook', ['Stripe-Signature: t=1,v1=00'], 300 * 1024 * 1024, true);
}

/**
 * Memory: what the server keeps is read after a forced GC, twice — after a warm-up of the same
 * request mix as the attack, and after the attack — on three counts:
 * - V8's live heap (`heapUsed`) may grow by {@link HEAP_SLACK_KB}: a leak of 100 bytes a request
 *   (2 MB over the 20,000 requests) fails it. Measured on the server as it is: +0.03 to +0.22 MB a
 *   round of the attack; with a 150-byte object kept per download request: +3.0 MB.
 * - Buffers and other memory V8 tracks outside its heap (`external`) by {@link EXTERNAL_SLACK_KB}
 *   (measured: +0.0 MB; with a 256-byte Buffer kept per download request: +6.9 MB).
 * - VmRSS by {@link RSS_SLACK_KB}, for what neither counts (SQLite, libuv): only a native leak of
 *   2.4 KB a request or more fails it. It cannot be tighter: glibc keeps what the server freed. Its
 *   main arena (the brk heap) grows to the peak that requests in flight held at once — 14 to 56 MB
 *   over the idle server's in four runs, set by the machine's load, not by the count of requests — and
 *   keeps it as free chunks: malloc_trim(0) through gdb gave it back (RSS 168.5 → 106.7 MB, heap
 *   unchanged). A warm-up of the same mix does not settle it: after one, a round of the attack added
 *   0.1 to 5.2 MB of RSS in nine rounds over five runs and 22.4 MB in a sixth run (load 10-15, heap
 *   and external unchanged), as in the CI run that failed the former 10 % bound (+21.0 MB). 48 MB:
 *   the widest spread of that peak seen (56 - 14 = 42 MB) and the largest growth seen within one
 *   (5.2 MB), rounded up.
 */
const HEAP_SLACK_KB = 2 * 1024;
const EXTERNAL_SLACK_KB = 1024;
const RSS_SLACK_KB = 48 * 1024;

describe('hostile: descriptors, WAL and memory under load', () => {
  it('5,000 HEAD and 5,000 aborted GETs of each download leave the open files, the WAL and the memory where they were', async () => {
    // warm-up: the attack's own mix, fewer of them, and a round of every kind of request, so the
    // baseline includes what the server (and its allocator) keeps anyway
    const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
    await downloadAttack(agent, 1500);
    await matrixRound(false);
    await webhookAttack();
    await sleep(2000);
    const before = await forceGc();
    const filesBefore = openFiles();

    // the issue saw 579 files open during 5,000 HEADs: sample the count while the requests run
    let peakFiles = filesBefore;
    const sampler = setInterval(() => (peakFiles = Math.max(peakFiles, openFiles())), 20);
    const { headOk, getOk } = await downloadAttack(agent, 5000, (p) => {
      if (process.env.LPA_HOSTILE_DEBUG) console.log(`after ${p}: ${rssKb()} kB`);
    });
    clearInterval(sampler);
    agent.destroy();
    await sleep(1000);
    // before any forced GC: a descriptor that only garbage collection would close counts as leaked
    const filesAfter = openFiles();
    const afterDownloads = await forceGc();
    // the 300 MB attack of the issue, chunked and unsigned-looking, twice more
    await webhookAttack();
    await sleep(3000);
    const after = await forceGc();
    const wal = statSync(join(dataDir, 'private.db-wal')).size;
    const mb = (kb: number) => (kb / 1024).toFixed(1);
    console.log(
      `hostile: 20,000 download requests (${headOk} HEAD, ${getOk} aborted GET answered 200): open files ${filesBefore} → ${filesAfter} (peak ${peakFiles}); ` +
        `after GC, before → after the downloads → after the webhooks: heap used ${mb(before.heapUsedKb)} → ${mb(afterDownloads.heapUsedKb)} → ${mb(after.heapUsedKb)} MB, ` +
        `external ${mb(before.externalKb)} → ${mb(after.externalKb)} MB, RSS ${mb(before.rssKb)} → ${mb(afterDownloads.rssKb)} → ${mb(after.rssKb)} MB; private.db WAL ${(wal / 1024 / 1024).toFixed(2)} MB`,
    );
    expect(headOk).toBe(10_000);
    expect(getOk).toBe(10_000);
    expect(filesAfter - filesBefore).toBeLessThanOrEqual(5);
    // in flight at most: 16 keep-alive connections, 16 aborted connections still closing, 16 files, slack 16
    expect(peakFiles - filesBefore).toBeLessThanOrEqual(64);
    expect(wal).toBeLessThan(8 * 1024 * 1024);
    expect(after.heapUsedKb - before.heapUsedKb).toBeLessThanOrEqual(HEAP_SLACK_KB);
    expect(after.externalKb - before.externalKb).toBeLessThanOrEqual(EXTERNAL_SLACK_KB);
    expect(after.rssKb - before.rssKb).toBeLessThanOrEqual(RSS_SLACK_KB);
  }, 300_000);
});

describe('hostile: the server log', () => {
  it('holds no stack trace and no 500 for any of the above, and prints the tally', () => {
    // Stripe being unreachable is logged at error level on purpose (the service's failure, not the client's)
    const stackLines = serverLog.split('\n').filter((l) => /^\s+at .+|Could not render|Internal Server Error|"msg":"request failed"|"msg":"server setup failed/.test(l));
    count('server log free of stack traces', stackLines.length === 0 ? null : stackLines.slice(0, 3).join(' | '));
    console.log(`hostile: ${tally.tried} requests tried, ${tally.asExpected} answered as expected`);
    if (tally.failures.length) console.log(tally.failures.join('\n'));
    expect(tally.failures).toEqual([]);
    expect(tally.asExpected).toBe(tally.tried);
  });
});
