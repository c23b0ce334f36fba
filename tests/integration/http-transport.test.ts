/**
 * The node:http transport (src/chain/http-transport.ts) under the retrying transport: a connection
 * cut mid-answer and HTTP 5xx are retried; 4xx is kit's SolanaError with the status and headers, at
 * once; an answer arrives parsed by the given parser. A local HTTP server plays the RPC.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSolanaError, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR, SolanaError } from '@solana/kit';
import { createNodeHttpTransport } from '../../src/chain/http-transport.ts';
import { createArchiveRpc, createRetryingTransport, parseRpcJson, ProviderRpcError, retryAfterMs } from '../../src/chain/rpc.ts';
import { unreachableAdvice } from '../../collector/run/reach-chain.ts';

/** What the server does with the next requests, in order; then it answers normally. */
let plan: ('cut' | 'http503' | 'http400' | 'http429' | `rpc${number}`)[] = [];
let requests: string[] = [];
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      requests.push(body);
      const step = plan.shift();
      const answer = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { slot: 411070202, lamports: 12345678901234567 } }).replace('12345678901234568', '12345678901234567');
      if (step === 'cut') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(answer.length) });
        res.write(answer.slice(0, 10));
        setTimeout(() => res.socket?.destroy(), 10);
      } else if (step === 'http503') {
        res.writeHead(503, { 'retry-after': '1' }).end('busy');
      } else if (step === 'http429') {
        res.writeHead(429, { 'retry-after': '60' }).end('slow down');
      } else if (step?.startsWith('rpc')) {
        // a JSON-RPC error answer (HTTP 200), as providers send for a bad key or plan
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: JSON.parse(body).id, error: { code: Number(step.slice(3)), message: 'bad api key for this endpoint' } }));
      } else if (step === 'http400') {
        res.writeHead(400, { 'x-why': 'bad' }).end('no');
      } else {
        res.writeHead(200, { 'content-type': 'application/json' }).end(answer);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

function transport(reasons: string[], delays: number[] = []) {
  return createRetryingTransport(
    { url, baseDelayMs: 1, onRetry: (i) => (reasons.push(i.reason), delays.push(i.delayMs)) },
    createNodeHttpTransport({ url, fromJson: (t) => parseRpcJson(t) }),
  );
}

describe('node:http transport', () => {
  it('posts the JSON payload and parses the answer (an unsafe integer stays exact)', async () => {
    plan = [];
    requests = [];
    const got = await transport([])({ payload: { jsonrpc: '2.0', id: 1, method: 'getAccountInfo', params: ['x'] } });
    expect(got).toEqual({ jsonrpc: '2.0', id: 1, result: { slot: 411070202, lamports: '12345678901234567' } });
    expect(JSON.parse(requests[0]!)).toEqual({ jsonrpc: '2.0', id: 1, method: 'getAccountInfo', params: ['x'] });
  });

  it('a connection cut mid-answer and an HTTP 503 are retried (waiting the Retry-After it asks), then the answer arrives', async () => {
    plan = ['cut', 'http503'];
    const reasons: string[] = [];
    const delays: number[] = [];
    const got = await transport(reasons, delays)({ payload: { jsonrpc: '2.0', id: 1, method: 'getSlot' } });
    expect(delays[0]).toBeLessThan(100);
    expect(delays[1]).toBe(1000);
    expect(got).toMatchObject({ result: { slot: 411070202 } });
    expect(reasons).toHaveLength(2);
    expect(reasons[0]).toMatch(/^network: E[A-Z]+$|truncated or malformed JSON answer/);
    expect(reasons[1]).toBe('HTTP 503');
  });

  it('HTTP 400 is thrown at once as kit’s HTTP error with the status and the headers', async () => {
    plan = ['http400'];
    const reasons: string[] = [];
    const err = await transport(reasons)({ payload: { jsonrpc: '2.0', id: 1, method: 'getSlot' } }).catch((e: unknown) => e);
    expect(isSolanaError(err, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR)).toBe(true);
    if (isSolanaError(err, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR)) {
      expect(err.context.statusCode).toBe(400);
      expect(err.context.headers.get('x-why')).toBe('bad');
    }
    expect(reasons).toEqual([]);
  });

  it('a stop during a 60 s Retry-After wait ends the call at once with the abort reason (lpa start under 429s stops on SIGTERM)', async () => {
    plan = ['http429', 'http429'];
    const reasons: string[] = [];
    const delays: number[] = [];
    const ac = new AbortController();
    const started = performance.now();
    const call = transport(reasons, delays)({ payload: { jsonrpc: '2.0', id: 1, method: 'getSlot' }, signal: ac.signal });
    setTimeout(() => ac.abort(new Error('stopping')), 100);
    const err = await call.catch((e: unknown) => e);
    const tookMs = performance.now() - started;
    expect(delays).toEqual([60_000]);
    expect((err as Error).message).toBe('stopping');
    expect(tookMs).toBeLessThan(5_000);
    plan = [];
  });
});

describe('a JSON-RPC error answer', () => {
  it('with a code kit has no message for is thrown with the provider\'s code and words (kit threw a TypeError that lost them); a code kit knows stays kit\'s error', async () => {
    const rpc = createArchiveRpc({ url, baseDelayMs: 1 });
    for (const code of [-32052, -32000]) {
      plan = [`rpc${code}`];
      const err = await rpc.getSlot().send().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ProviderRpcError);
      expect((err as Error).message).toBe(`the provider answered JSON-RPC error ${code}: bad api key for this endpoint`);
      expect(unreachableAdvice(err as Error)).toMatch(/check the key, plan and endpoint in SOLANA_RPC_URL/);
    }
    plan = ['rpc-32601'];
    const known = await rpc.getSlot().send().catch((e: unknown) => e);
    expect(known).toBeInstanceOf(SolanaError);
    expect((known as Error).message).toContain('bad api key for this endpoint');
    expect(plan).toEqual([]);
  });
});

describe('Retry-After', () => {
  const httpError = (headers: Record<string, string>) => new SolanaError(SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR, { headers: new Headers(headers), message: '', statusCode: 429 });
  it('reads seconds or an HTTP date, caps at 60 s, and ignores what it cannot read', () => {
    const now = Date.UTC(2026, 10, 23, 12, 0, 0);
    expect(retryAfterMs(httpError({ 'retry-after': '7' }), now)).toBe(7000);
    expect(retryAfterMs(httpError({ 'retry-after': new Date(now + 12_000).toUTCString() }), now)).toBe(12_000);
    expect(retryAfterMs(httpError({ 'retry-after': '3600' }), now)).toBe(60_000);
    expect(retryAfterMs(httpError({ 'retry-after': 'soon' }), now)).toBeNull();
    expect(retryAfterMs(httpError({}), now)).toBeNull();
    expect(retryAfterMs(new Error('x'), now)).toBeNull();
  });
});

describe('a keep-alive socket the server closed under a request', () => {
  /** 'second': the server drops each connection when its second request arrives (an idle timeout racing the reuse); 'all': every request. */
  let mode: 'second' | 'all' = 'second';
  let connections = 0;
  let seen = 0;
  let racing: Server;
  let racingUrl: string;

  beforeAll(async () => {
    racing = createServer();
    racing.on('connection', (socket) => {
      connections++;
      let onThis = 0;
      socket.on('data', () => {
        onThis++;
        seen++;
        if (mode === 'all' || onThis === 2) socket.destroy(); // closed before any answer: ECONNRESET at the client
      });
    });
    racing.on('request', (req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"result":7}'));
    });
    await new Promise<void>((r) => racing.listen(0, '127.0.0.1', r));
    racingUrl = `http://127.0.0.1:${(racing.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => (racing.closeAllConnections(), racing.close(() => r()))));

  const payload = { jsonrpc: '2.0', id: 1, method: 'getSlot', params: [] };

  it('is sent again at once on a new socket: no retry, no error', async () => {
    mode = 'second';
    [connections, seen] = [0, 0];
    const reasons: string[] = [];
    const t = createRetryingTransport({ url: racingUrl, baseDelayMs: 1, onRetry: (i) => reasons.push(i.reason) }, createNodeHttpTransport({ url: racingUrl, fromJson: (x) => parseRpcJson(x) }));
    for (let i = 0; i < 3; i++) expect(await t({ payload })).toEqual({ jsonrpc: '2.0', id: 1, result: 7 });
    // the second and third calls each met a dropped socket and went out again on a new one
    expect({ reasons, connections, seen }).toEqual({ reasons: [], connections: 3, seen: 5 });
  });

  it('a new socket reset is the provider\'s error: thrown to the retrying transport, not sent again silently', async () => {
    mode = 'all';
    [connections, seen] = [0, 0];
    const bare = createNodeHttpTransport({ url: racingUrl, fromJson: (x) => parseRpcJson(x) });
    await expect(bare({ payload })).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect({ connections, seen }).toEqual({ connections: 1, seen: 1 });
  });
});
