/**
 * Compressed answers when the client asks (src/server/compress.ts) from the built server over a
 * collected simulated chain: the site's pages and stylesheet and the large JSON answers come
 * compressed (brotli or gzip as negotiated) with `Vary: Accept-Encoding`, decompress to the
 * identity answer's bytes, and carry its ETag made weak; revalidation answers 304 for either form;
 * a single record's answer is never compressed and keeps the spec's strong ETag; a client that
 * refuses an encoding does not get it. Needs `npx astro build`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { LARGE_JSON_BYTES, compressible } from '../../src/server/compress.ts';
import { startApiNode, type ApiNode } from '../helpers/api-node.ts';
import { smallArchive, type SmallArchive } from '../helpers/small-archive.ts';
import { rawGet, type RawAnswer } from '../helpers/net.ts';

let archive: SmallArchive;
let node: ApiNode;
let mint: string;
let creator: string;

beforeAll(async () => {
  archive = await smallArchive('lpa-compress-', 10, 2711, Date.UTC(2026, 10, 27, 12));
  ({ mint, creator } = archive);
  node = await startApiNode(archive.dataDir, { SOLANA_RPC_URL: archive.rpc.url });
}, 120_000);

afterAll(async () => {
  await node?.kill();
  await archive?.close();
});

type Got = RawAnswer;
const get = (path: string, headers: Record<string, string> = {}, method = 'GET') => rawGet(node.base + path, headers, method);

function decoded(r: Got): Buffer {
  const enc = r.headers['content-encoding'];
  return enc === 'br' ? brotliDecompressSync(r.body) : enc === 'gzip' ? gunzipSync(r.body) : r.body;
}

const keyed = () => ({ Authorization: `Bearer ${node.key}` });

describe('compressed answers', () => {
  const pages = () => ['/', '/lists/latest/1.html', '/status.html', '/methodology.html', `/t/${mint}.html`, `/w/${creator}.html`, '/site.css', '/search?q=a'];

  it('pages and the stylesheet: compressed as asked, the same bytes decoded, Vary, the ETag made weak', async () => {
    for (const path of pages()) {
      const plain = await get(path);
      expect(plain.status, path).toBe(200);
      expect(plain.headers['content-encoding'], path).toBeUndefined();
      for (const encoding of ['gzip', 'br']) {
        const r = await get(path, { 'Accept-Encoding': encoding });
        expect([r.status, r.headers['content-encoding']], `${path} ${encoding}`).toEqual([200, encoding]);
        expect(String(r.headers.vary), path).toMatch(/accept-encoding/i);
        expect(decoded(r).equals(plain.body), `${path} ${encoding} bytes`).toBe(true);
        expect(r.body.length, `${path} smaller`).toBeLessThan(plain.body.length);
        if (plain.headers.etag) expect(r.headers.etag, path).toBe(`W/${plain.headers.etag}`);
      }
    }
  });

  it('revalidation answers 304 for the compressed and the identity answer, each with its own form of the tag', async () => {
    for (const path of ['/', `/t/${mint}.html`, '/site.css']) {
      const strong = String((await get(path)).headers.etag);
      expect(strong, path).toMatch(/^"[0-9a-f]{64}"$/);
      const weak = await get(path, { 'Accept-Encoding': 'gzip', 'If-None-Match': `W/${strong}` });
      expect([weak.status, weak.body.length, weak.headers.etag], path).toEqual([304, 0, `W/${strong}`]);
      const same = await get(path, { 'Accept-Encoding': 'gzip', 'If-None-Match': strong });
      expect([same.status, same.body.length, same.headers.etag], path).toEqual([304, 0, strong]);
    }
  });

  it('a query names the same file: the stylesheet with a cache-busting ?v=, robots.txt, a shared link to a list page (they were 404 beside the written pages)', async () => {
    for (const [path, plain] of [['/site.css?v=1', '/site.css'], ['/robots.txt?x=1', '/robots.txt'], ['/lists/latest/1.html?utm_source=x', '/lists/latest/1.html'], ['/?ref=share', '/']] as const) {
      const [a, b] = [await get(path), await get(plain)];
      expect([a.status, a.headers['content-type']], path).toEqual([200, b.headers['content-type']]);
      expect(a.body.equals(b.body), path).toBe(true);
    }
  });

  it('a single record is never compressed and keeps its strong ETag; a list page of records is', async () => {
    const token = await get(`/api/v1/token/${mint}`, { ...keyed(), 'Accept-Encoding': 'gzip, br' });
    expect(token.status).toBe(200);
    expect(token.headers['content-encoding']).toBeUndefined();
    expect(String(token.headers.etag)).toMatch(/^"[0-9a-f]{64}"$/);
    expect(Number(token.headers['content-length'])).toBe(token.body.length);

    const plain = await get('/api/v1/launches?limit=100', keyed());
    expect(plain.body.length).toBeGreaterThanOrEqual(LARGE_JSON_BYTES);
    const list = await get('/api/v1/launches?limit=100', { ...keyed(), 'Accept-Encoding': 'gzip' });
    expect([list.status, list.headers['content-encoding']]).toEqual([200, 'gzip']);
    const [a, b] = [JSON.parse(plain.body.toString()), JSON.parse(decoded(list).toString())];
    expect({ ...b, generatedAt: null }).toEqual({ ...a, generatedAt: null });
    // the quota headers are those of the request answered
    expect(list.headers.ratelimit).toBeTruthy();
  });

  it('an encoding refused, HEAD, and no Accept-Encoding: no compressed bytes', async () => {
    const refused = await get('/', { 'Accept-Encoding': 'gzip;q=0, br;q=0' });
    expect([refused.status, refused.headers['content-encoding']]).toEqual([200, undefined]);
    const head = await get(`/t/${mint}.html`, { 'Accept-Encoding': 'gzip' }, 'HEAD');
    expect([head.status, head.body.length]).toEqual([200, 0]);
    // the plain page says it varies too, so a cache that fetched it first does not send it to a client that asks
    for (const path of ['/', `/t/${mint}.html`, '/search?q=a']) {
      const none = await get(path);
      expect([none.headers['content-encoding'], String(none.headers.vary)], path).toEqual([undefined, 'Accept-Encoding']);
    }
  });

  it('chooses by type and size (pure)', () => {
    expect(compressible('text/html; charset=utf-8', undefined)).toBe(true);
    expect(compressible('text/css; charset=utf-8', '20')).toBe(true);
    expect(compressible('application/json; charset=utf-8', String(LARGE_JSON_BYTES))).toBe(true);
    expect(compressible('application/json; charset=utf-8', String(LARGE_JSON_BYTES - 1))).toBe(false);
    expect(compressible('application/json; charset=utf-8', undefined)).toBe(false);
    expect(compressible('text/event-stream; charset=utf-8', undefined)).toBe(false);
    expect(compressible('application/gzip', '9999999')).toBe(false);
    expect(compressible('application/vnd.sqlite3', '9999999')).toBe(false);
    expect(compressible(undefined, undefined)).toBe(false);
    // a record or document keeps its strong ETag, however large
    expect(compressible('application/json; charset=utf-8', String(10 * LARGE_JSON_BYTES), '"ab"')).toBe(false);
    expect(compressible('text/html; charset=utf-8', '30000', '"ab"')).toBe(true);
  });
});
