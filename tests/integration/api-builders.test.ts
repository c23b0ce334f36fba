import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { startReplayRpc, type ReplayRpc } from '../../devchain/replay/server.ts';
import { writeChain } from '../../devchain/simulate/write-chain.ts';
import type { SimulatedChain } from '../../devchain/simulate/chain.ts';
import { collectOnce } from '../helpers/collect-once.ts';
import { openApiDocument, publishedSchema } from '../../src/server/openapi.ts';
import { freePort } from '../helpers/net.ts';
import { ArchiveClient, ArchiveError } from '../../client/src/index.ts';
import { generateTypes } from '../../client/scripts/generate-types.ts';

/**
 * The API for builders (issue 25) over the built server: the OpenAPI document and the published
 * JSON Schemas as served, the usage endpoint against the RateLimit fields, `license` on every keyed
 * response, 405 with `Allow` and CORS on every API route. Records: a collector run over a simulated
 * chain of 40 launches (half of it landed first). Every response here also passes the OpenAPI check of the setupFile.
 */

const ROOT = resolve(import.meta.dirname, '../..');
const LPA = join(ROOT, 'bin/lpa.mjs');
const ENTRY = join(ROOT, 'dist/server/entry.mjs');
const run = promisify(execFile);
/** A record whose history is complete (served 200, its creator in the wallet record), read from the collected database. */
let MINT: string;
let CREATOR: string;
let chain: SimulatedChain;
let tmp: string;
let dataDir: string;
/** Slots of the simulated chain: the first half is landed before the first collector run. */
let midSlot: number;
let lastSlot: number;

let replay: ReplayRpc;
let server: ChildProcess;
let base: string;
let key: string;
let serverLog = '';

const get = (path: string, headers: Record<string, string> = {}, method = 'GET') => fetch(base + path, { headers, method });
const keyed = (path: string) => get(path, { Authorization: `Bearer ${key}` });

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'lpa-builders-'));
  chain = writeChain({ launches: 40, seed: 2025, out: join(tmp, 'chain') });
  const slots = chain.transactions.map((l) => (JSON.parse(l) as { slot: number }).slot).sort((a, b) => a - b);
  midSlot = slots[Math.floor(slots.length / 2)]!;
  lastSlot = slots.at(-1)!;
  replay = await startReplayRpc({ chainDir: join(tmp, 'chain'), live: true, speed: 1e-6 });
  replay.advanceTo(midSlot);
  dataDir = join(tmp, 'data');
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const env = { ...process.env, SOLANA_RPC_URL: replay.url, SOLANA_WS_URL: replay.wsUrl, DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), COLLECT_START: 'earliest', LOG_LEVEL: 'warn', PUBLIC_BASE_URL: base };
  await collectOnce(dataDir, replay.url, Date.now);
  const pub = new Database(join(dataDir, 'public.db'), { readonly: true });
  ({ mint: MINT, creator: CREATOR } = pub.prepare("SELECT mint, creator FROM launch WHERE finding_class != 'UNKNOWN' AND creator IS NOT NULL ORDER BY mint LIMIT 1").get() as { mint: string; creator: string });
  pub.close();
  key = (await run(process.execPath, [LPA, 'keys', 'create', '--label', 'builders'], { env, cwd: ROOT })).stdout.trim().split('\n').at(-1)!;
  server = spawn(process.execPath, [ENTRY], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout!.on('data', (d) => (serverLog += d));
  server.stderr!.on('data', (d) => (serverLog += d));
  const until = Date.now() + 30_000;
  for (;;) {
    try {
      await fetch(`${base}/api/v1/status`);
      break;
    } catch {
      if (Date.now() > until) throw new Error(`server did not start:\n${serverLog}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}, 120_000);

afterAll(async () => {
  server?.kill('SIGTERM');
  await replay?.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('GET /api/v1/openapi.json and /api/v1/schemas/*', () => {
  it('serves the generated document, which validates as OpenAPI 3.1', async () => {
    const res = await get('/api/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe('*');
    const doc = await res.json();
    expect(doc).toEqual(JSON.parse(JSON.stringify(openApiDocument(base))));
    expect(doc.servers).toEqual([{ url: base }]);
    expect((await new Validator().validate(doc)).valid).toBe(true);
  });

  it('the published launch schema accepts the documents served at /d/{mint}; the wallet schema the wallet record', async () => {
    const ajv = new Ajv2020({ strict: false });
    const launch = await (await get('/api/v1/schemas/launch.json')).json();
    const validLaunch = ajv.compile(launch);
    const doc = await (await get(`/d/${MINT}`)).json();
    expect(validLaunch(doc), JSON.stringify(validLaunch.errors)).toBe(true);
    // served open: a member a later release adds is accepted; the suite's closed copy refuses any member not described
    expect(validLaunch({ ...doc, addedLater: 1 })).toBe(true);
    const closedLaunch = ajv.compile({ ...publishedSchema(base, 'launch.json', { closed: true })!, $id: `${base}/closed/launch.json` });
    expect(closedLaunch(doc), JSON.stringify(closedLaunch.errors)).toBe(true);
    expect(closedLaunch({ ...doc, addedLater: 1 })).toBe(false);
    const wallet = ajv.compile(await (await get('/api/v1/schemas/wallet.json')).json());
    const { apiVersion: _a, coverage: _c, generatedAt: _g, license: _l, ...record } = await (await keyed(`/api/v1/wallet/${CREATOR}`)).json();
    expect(record.inArchive).toBe(true);
    expect(wallet(record), JSON.stringify(wallet.errors)).toBe(true);
    const missing = await get('/api/v1/schemas/nope.json');
    expect(missing.status).toBe(404);
    expect((await missing.json()).error).toBe('not_found');
  });
});

describe('consistency', () => {
  it('license is on every keyed response that carries records (token 200 and 202, wallet), never on keyless ones', async () => {
    const token = await (await keyed(`/api/v1/token/${MINT}`)).json();
    // (the 202 of a rebuild carries it too: tests/unit/server.test.ts "a mint not held")
    const wallet = await (await keyed(`/api/v1/wallet/${CREATOR}`)).json();
    const unseen = await (await keyed('/api/v1/wallet/11111111111111111111111111111112')).json();
    for (const body of [token, wallet, unseen]) expect(body.license).toMatch(/\S+ \S+/);
    expect(wallet.license).toBe(token.license);
    expect((await (await get('/api/v1/status')).json()).license).toBeUndefined();
  });

  it('a wrong method on every API route answers 405 JSON with Allow and CORS', async () => {
    const paths = [`/api/v1/token/${MINT}`, `/api/v1/wallet/${CREATOR}`, '/api/v1/status', '/api/v1/usage', '/api/v1/openapi.json', '/api/v1/schemas/launch.json', '/api/v1/keys/rotate'];
    for (const path of paths) {
      for (const method of ['PUT', 'DELETE', 'PATCH', path.endsWith('rotate') ? 'GET' : 'POST']) {
        const res = await get(path, {}, method);
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(res.headers.get('Allow'), path).toMatch(/OPTIONS$/);
        expect(res.headers.get('Access-Control-Allow-Origin')).toBe('*');
        const body = await res.json();
        expect(body.error).toBe('method_not_allowed');
        expect(body.finding.class).toBe('UNKNOWN');
      }
    }
  });

  it('an address that is not 32 bytes gets its own message, distinct from the length and alphabet ones', async () => {
    const bytes33 = (await (await keyed(`/api/v1/token/${'z'.repeat(44)}`)).json()).message;
    const short = (await (await keyed('/api/v1/token/abc')).json()).message;
    const alphabet = (await (await keyed(`/api/v1/wallet/${'0'.repeat(40)}`)).json()).message;
    expect(bytes33).toContain('does not decode to 32 bytes (it decodes to 33)');
    expect(short).toContain('(it has 3)');
    expect(alphabet).toContain('not base58');
  });
});

describe('GET /api/v1/usage', () => {
  const daily = (h: string | null) => Number(/"daily";r=(\d+)/.exec(h ?? '')![1]);

  it('reports the quota the RateLimit fields report, and is not counted itself', async () => {
    const counted = await keyed(`/api/v1/token/${MINT}`);
    const left = daily(counted.headers.get('RateLimit'));
    const a = await keyed('/api/v1/usage');
    expect(a.status).toBe(200);
    const u = await a.json();
    expect(u.quota.remaining).toBe(left);
    expect(u.quota.limit - u.quota.used).toBe(left);
    expect(daily(a.headers.get('RateLimit'))).toBe(left);
    expect(a.headers.get('RateLimit-Policy')).toContain(`"daily";q=${u.quota.limit};w=86400`);
    expect(u.quota.resetsAt.iso).toMatch(/T00:00:00\.000Z$/);
    // the same reset as the answer's own RateLimit field; the counted request's, made just before, may be a second later if a second turned between them
    const resetOf = (r: Response) => Number(/t=(\d+)/.exec(r.headers.get('RateLimit')!)![1]);
    expect(u.quota.resetSeconds).toBe(resetOf(a));
    expect(resetOf(counted) - u.quota.resetSeconds).toBeOneOf([0, 1]);
    // not counted: asking again changes nothing; the next counted request takes exactly one
    const b = await (await keyed('/api/v1/usage')).json();
    expect(b.quota.used).toBe(u.quota.used);
    const next = await keyed(`/api/v1/wallet/${CREATOR}`);
    expect(daily(next.headers.get('RateLimit'))).toBe(left - 1);
    expect(u.rebuilds).toMatchObject({ policy: 'rebuilds', limit: 5, windowSeconds: 3600, caller: '127.0.0.1' });
    expect(u.rebuilds.remaining).toBe(5 - u.rebuilds.started);
  });

  it('needs a key', async () => {
    expect((await (await get('/api/v1/usage')).json()).error).toBe('missing_key');
    expect((await (await get('/api/v1/usage', { Authorization: 'Bearer lpa_nope' })).json()).error).toBe('invalid_key');
  });
});

describe('GET /api/v1/launches: list and sync', () => {
  type Page = { order: string; records: { mint: string; sha256: string; changeSeq: number; document: { mint: string } }[]; next: string | null; hasMore: boolean };
  const page = async (query: string): Promise<Page> => {
    const res = await keyed(`/api/v1/launches?${query}`);
    expect(res.status, query).toBe(200);
    return res.json();
  };
  const held = () => {
    const db = new Database(join(dataDir, 'public.db'), { readonly: true });
    try {
      return new Map((db.prepare('SELECT mint, sha256 FROM launch').all() as { mint: string; sha256: string }[]).map((r) => [r.mint, r.sha256]));
    } finally {
      db.close();
    }
  };
  /** Every page of a sync from `start` until a page is not full; the mirror keeps the latest of each mint. */
  const sync = async (start: string, mirror: Map<string, string>, seen: { mint: string; sha256: string }[]) => {
    let query = start;
    for (;;) {
      const p = await page(query);
      expect(p.order).toBe('changes');
      expect(p.next).not.toBeNull();
      for (const r of p.records) {
        mirror.set(r.mint, r.sha256);
        seen.push(r);
      }
      query = `cursor=${p.next}&limit=7`;
      if (!p.hasMore) return p.next!;
    }
  };

  it('browsing lists every record once, newest launch first, and a page counts one request', async () => {
    const mints: string[] = [];
    const slots: number[] = [];
    let query = 'limit=6';
    for (;;) {
      const before = await (await keyed('/api/v1/usage')).json();
      const p = await page(query);
      const after = await (await keyed('/api/v1/usage')).json();
      expect(after.quota.used - before.quota.used).toBe(1);
      expect(p.order).toBe('newest');
      for (const r of p.records) {
        mints.push(r.mint);
        slots.push((r.document as unknown as { launch: { transaction: { slot: number } } }).launch.transaction.slot);
      }
      if (!p.next) break;
      query = `cursor=${p.next}&limit=6`;
    }
    expect(new Set(mints).size).toBe(mints.length);
    expect(new Set(mints)).toEqual(new Set(held().keys()));
    expect(slots).toEqual([...slots].sort((a, b) => b - a));
    const graduated = await page('graduated=true&limit=100');
    expect(graduated.records.every((r) => (r.document as unknown as { launch: { graduated: boolean } }).launch.graduated)).toBe(true);
    const byCreator = await page(`creator=${CREATOR}`);
    expect(byCreator.records.map((r) => r.mint)).toContain(MINT);
    const notes = await page('class=NOTE&limit=100');
    expect(notes.records.every((r) => (r.document as unknown as { finding: { class: string } }).finding.class === 'NOTE')).toBe(true);
  });

  it('a sync of the collected chain gives exactly its records; after the rest of the chain lands, continuing from the last cursor brings the new ones and again every record changed since', async () => {
    const mirror = new Map<string, string>();
    const first: { mint: string; sha256: string }[] = [];
    const next = await sync('since=0&limit=7', mirror, first);
    expect(mirror).toEqual(held());
    // nothing new: the same cursor answers an empty page and keeps its place
    const idle = await page(`cursor=${next}`);
    expect(idle.records).toEqual([]);
    expect(idle.next).toBe(next);

    // asked again, the same page comes from the server's memory (LIST_CACHE_MB): the same bytes, but generatedAt
    const raw = async (query: string) => {
      // as sent (no compression): its parts written as they are, Content-Length their sum
      const res = await get(`/api/v1/launches?${query}`, { Authorization: `Bearer ${key}`, 'Accept-Encoding': 'identity' });
      const body = Buffer.from(await res.arrayBuffer());
      expect(Number(res.headers.get('content-length'))).toBe(body.length);
      return body.toString('utf8').replace(/"generatedAt":\{[^}]*\}/, '');
    };
    const fromMemory = `cursor=${next}`;
    expect(await raw(fromMemory)).toBe(await raw(fromMemory));
    expect(await raw('limit=9')).toBe(await raw('limit=9'));
    // and compressed (compression wraps the parts' writes)
    const gz = await get('/api/v1/launches?limit=9', { Authorization: `Bearer ${key}`, 'Accept-Encoding': 'gzip' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect((await gz.text()).replace(/"generatedAt":\{[^}]*\}/, '')).toBe(await raw('limit=9'));

    replay.advanceTo(lastSlot);
    await collectOnce(dataDir, replay.url, Date.now);
    // the collector's commit is seen at once: the kept page is not answered again
    expect((await page(fromMemory)).records.length).toBeGreaterThan(0);
    const later: { mint: string; sha256: string }[] = [];
    await sync(`cursor=${next}&limit=7`, mirror, later);
    const now = held();
    expect(mirror).toEqual(now);
    expect(new Set(now.keys())).toEqual(new Set(Object.keys(chain.truth.records)));
    const changed = first.filter((r) => now.get(r.mint) !== r.sha256);
    expect(changed.length).toBeGreaterThan(0);
    for (const c of changed) expect(later.map((r) => r.mint)).toContain(c.mint);
    const unchanged = first.filter((r) => now.get(r.mint) === r.sha256);
    for (const u of unchanged) expect(later.map((r) => r.mint)).not.toContain(u.mint);
  });

  it('refuses malformed queries before the key and the quota', async () => {
    for (const [query, code] of [
      ['limit=101', 'invalid_query'],
      ['limit=0', 'invalid_query'],
      ['class=CLEAN', 'invalid_query'],
      ['graduated=yes', 'invalid_query'],
      ['creator=abc', 'invalid_query'],
      ['colour=red', 'invalid_query'],
      ['since=0&cursor=x', 'invalid_query'],
      ['cursor=not-a-cursor', 'invalid_cursor'],
      ['since=eyJ2IjoxfQ', 'invalid_cursor'],
    ]) {
      const res = await get(`/api/v1/launches?${query}`);
      expect(res.status, query).toBe(400);
      expect((await res.json()).error, query).toBe(code);
    }
    expect((await (await get('/api/v1/launches')).json()).error).toBe('missing_key');
  });
});

describe('GET /api/v1/tokens (batch)', () => {
  it('answers each distinct mint in request order as its single call would, counting one request per mint looked up', async () => {
    const before = (await (await keyed('/api/v1/usage')).json()).quota.used;
    const single = await (await keyed(`/api/v1/token/${MINT}`)).json();
    const noCurve = 'So11111111111111111111111111111111111111112'; // a mint, but no bonding curve was ever made for it
    const res = await keyed(`/api/v1/tokens?mints=${MINT},abc,${MINT},${noCurve}`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.results.map((r: { mint: string; status: number }) => [r.mint, r.status])).toEqual([[MINT, 200], ['abc', 400], [noCurve, 404]]);
    const { generatedAt: _g1, ...a } = body.results[0].body;
    const { generatedAt: _g2, ...b } = single;
    expect(a).toEqual(b);
    expect(body.results[1].body.error).toBe('not_an_address');
    expect(body.results[2].body.error).toBe('not_a_curve_launch');
    const after = (await (await keyed('/api/v1/usage')).json()).quota.used;
    expect(after - before).toBe(1 + 2);
    for (const [q, code] of [['mints=', 'invalid_mints'], [`mints=${MINT},,${MINT}`, 'invalid_mints'], [`mints=${Array.from({ length: 101 }, (_, i) => `${'x'.repeat(40)}${String(i).padStart(4, '0')}`).join(',')}`, 'too_many_mints']]) {
      const r = await keyed(`/api/v1/tokens?${q}`);
      expect(r.status).toBe(400);
      expect((await r.json()).error).toBe(code);
    }
  });
});

describe('one spelling of SOL (markers-v3)', () => {
  it('no quoteMint of any document held or wallet record is the default key: SOL is the wrapped SOL mint everywhere', async () => {
    const WSOL = 'So11111111111111111111111111111111111111112';
    const db = new Database(join(dataDir, 'public.db'), { readonly: true });
    const docs = (db.prepare('SELECT document FROM launch').pluck().all() as string[]).map((d) => JSON.parse(d));
    db.close();
    const quoteMints = docs.flatMap((d) => [d.launch?.quoteMint, d.curveBuyout?.quoteMint, d.pool?.quoteMint]).filter((q) => q !== undefined && q !== null);
    expect(quoteMints.length).toBeGreaterThan(docs.length);
    expect(quoteMints).not.toContain('11111111111111111111111111111111');
    expect(quoteMints).toContain(WSOL);
    expect(docs.every((d) => d.methodVersion === 'markers-v12')).toBe(true);
    const buyout = docs.find((d) => d.curveBuyout)!;
    const wallet = await (await keyed(`/api/v1/wallet/${buyout.curveBuyout.wallet}`)).json();
    expect(wallet.buyouts.find((b: { mint: string }) => b.mint === buyout.mint).quoteMint).toBe(buyout.curveBuyout.quoteMint);
  });
});

describe('the typed client (client/)', () => {
  const client = () => new ArchiveClient({ baseUrl: base, key, sleep: (ms) => new Promise((r) => setTimeout(r, Math.min(ms, 200))), maxWaitMs: 60_000 });

  it('its types are generated from the current OpenAPI document', () => {
    expect(readFileSync(join(ROOT, 'client/src/types.ts'), 'utf8')).toBe(generateTypes());
  });

  it('getToken follows a rebuild (202, Retry-After) to the record; keeps the RateLimit state; typed errors', async () => {
    const c = client();
    const rebuilt = chain.truth.records[MINT] ? MINT : Object.keys(chain.truth.records)[0]!;
    const db = new Database(join(dataDir, 'public.db'));
    db.prepare('DELETE FROM launch WHERE mint = ?').run(rebuilt); // not held any more: asking rebuilds it from chain
    db.close();
    const first = await keyed(`/api/v1/token/${rebuilt}`);
    expect(first.status).toBe(202);
    const record = await c.getToken(rebuilt);
    expect(record.mint).toBe(rebuilt);
    expect(record.origin).toBe('rebuilt');
    expect(c.rateLimit!.limit).toBe(10_000);
    const u = await c.usage();
    expect(c.rateLimit!.remaining).toBe(u.quota.remaining);
    await expect(c.getToken('abc')).rejects.toMatchObject({ name: 'ArchiveError', code: 'not_an_address', status: 400 });
    const wrong = new ArchiveClient({ baseUrl: base, key: 'lpa_nope' });
    await expect(wrong.getWallet(CREATOR)).rejects.toBeInstanceOf(ArchiveError);
    await expect(wrong.getWallet(CREATOR)).rejects.toMatchObject({ code: 'invalid_key', status: 401 });
  });

  it('sync and batch', async () => {
    const c = client();
    const mirror = new Map<string, string>();
    for await (const page of c.sync({ since: 0, limit: 9 })) for (const r of page.records) mirror.set(r.mint, r.sha256);
    const db = new Database(join(dataDir, 'public.db'), { readonly: true });
    const held = new Map((db.prepare('SELECT mint, sha256 FROM launch').all() as { mint: string; sha256: string }[]).map((r) => [r.mint, r.sha256]));
    db.close();
    expect(mirror).toEqual(held);
    const batch = await c.getTokens([MINT, 'abc']);
    expect(batch.results.map((r) => r.status)).toEqual([200, 400]);
    // the status narrows the body (BatchEntry): this compiles only with the narrowed type
    const [found, bad] = batch.results;
    if (found!.status !== 200 || bad!.status !== 400) throw new Error('unexpected statuses');
    expect(found!.body.mint).toBe(MINT);
    expect(bad!.body.error).toBe('not_an_address');
    expect((await c.getWallet(CREATOR)).inArchive).toBe(true);
  });
});
