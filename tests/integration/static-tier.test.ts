/**
 * The static tier (issue 26 item 3): nginx with the configuration of `lpa cluster-config`
 * (collector/cluster/nginx-config.ts) in front of two API nodes over one archive written by the
 * collector from a simulated chain. For the same paths, nginx (from disk) and the Node server agree
 * on status, Cache-Control, Content-Type and the bytes; each answers a conditional GET with 304 for
 * its own ETag (the forms differ: nginx's `"<mtime>-<size>"`, the server's sha256; a CDN keeps the
 * tag of the tier it fetched from, so what must match is the rule and the bytes, not the tag).
 * The API is proxied; killing one node under a GET loop gives the client no 5xx.
 * Needs `npx astro build` and /usr/sbin/nginx.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { getBase58Decoder } from '@solana/kit';
import { startReplayRpc, type ReplayRpc } from '../../devchain/replay/server.ts';
import { writeChain } from '../../devchain/simulate/write-chain.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { collectOnce } from '../helpers/collect-once.ts';
import { startApiNode, type ApiNode } from '../helpers/api-node.ts';
import { NGINX, startNginx, type RunningNginx } from '../helpers/nginx.ts';
import { rawGet } from '../helpers/net.ts';
import { commitHypedLaunch } from '../helpers/hyped-launch.ts';
import { SiteWriteBatch, sitePaths } from '../../src/ingest/write-site.ts';
import { writeTokenFiles } from '../../src/ingest/publish.ts';
import { loadConfig } from '../../src/config.ts';
import { CACHE_SETTLED } from '../../src/cache-rules.ts';

let tmp: string;
let rpc: ReplayRpc;
let dataDir: string;
const nodes: ApiNode[] = [];
let nginx: RunningNginx;
let settledMint: string | undefined;
let unsettledMint: string;
let creator: string;
let hypedMint: string;

beforeAll(async () => {
  if (!existsSync(NGINX)) throw new Error(`${NGINX} is missing: apt-get install nginx-light (.ci/run does)`);
  tmp = mkdtempSync(join(tmpdir(), 'lpa-static-tier-'));
  writeChain({ launches: 16, seed: 2603, out: join(tmp, 'chain') });
  rpc = await startReplayRpc({ chainDir: join(tmp, 'chain') });
  dataDir = join(tmp, 'data');
  await collectOnce(dataDir, rpc.url, () => Date.UTC(2026, 10, 26, 12));
  const store = new PublicStore(join(dataDir, 'public.db'), { readonly: true });
  const rows = store.db.prepare('SELECT mint, settled FROM launch ORDER BY mint').all() as { mint: string; settled: number }[];
  settledMint = rows.find((r) => r.settled)?.mint;
  unsettledMint = rows.find((r) => !r.settled)!.mint;
  creator = readdirSync(join(dataDir, 'site', 'w'))[0]!.replace(/\.html$/, '');
  store.close();
  // a launch that drew 40 first-30-s buyers, recorded and written as the collector does: its token page and its first-30-seconds page
  const writer = new PublicStore(join(dataDir, 'public.db'));
  hypedMint = commitHypedLaunch(writer, { slot: 900_000, bundled: 2, early: 40 }).mint;
  const batch = new SiteWriteBatch();
  writeTokenFiles(writer, loadConfig({ DATA_DIR: dataDir }), batch, hypedMint);
  batch.commit();
  writer.close();
  const env = { SOLANA_RPC_URL: rpc.url, TRUSTED_PROXIES: '127.0.0.1' };
  for (const i of [1, 2]) nodes.push(await startApiNode(dataDir, env));
  nginx = await startNginx({ siteDir: join(dataDir, 'site'), nodes: nodes.map((n) => `127.0.0.1:${n.port}`) });
}, 120_000);

afterAll(async () => {
  await nginx?.stop();
  await Promise.all(nodes.map((n) => n.kill()));
  await rpc?.close();
  rmSync(tmp, { recursive: true, force: true });
});

const address = () => getBase58Decoder().decode(randomBytes(32));

describe('the same path through nginx and through the server', () => {
  const paths = () => [
    ...(settledMint ? [`/t/${settledMint}.html`, `/d/${settledMint}`] : []),
    `/t/${unsettledMint}.html`,
    `/d/${unsettledMint}`,
    `/t/${hypedMint}.html`,
    `/t/${hypedMint}.early.html`, // its first-30-seconds page
    `/t/${unsettledMint}.early.html`, // a launch without one: 404 (nginx passes it to a node)
    `/t/${address()}.early.html`, // a mint not held: 404
    `/w/${creator}.html`,
    '/',
    '/lists/latest/1.html',
    '/status.html',
    '/methodology.html',
    '/site.css',
    '/favicon.ico',
    '/robots.txt',
    `/t/${address()}.html`, // a mint not held: the 404 page (nginx passes it to a node)
    `/w/${address()}.html`, // a wallet never seen: 404
    `/d/${address()}`, // 404 not_found (JSON)
  ];

  it('has a settled and an unsettled record to compare', () => {
    expect(settledMint, 'the simulated archive holds no settled record: the settled rule is not compared').toBeDefined();
  });

  it('agrees on status, Cache-Control, Content-Type and bytes, and answers 304 to its own ETag', async () => {
    const compared: string[] = [];
    for (const path of paths()) {
      const viaNode = await fetch(nodes[0]!.base + path);
      const viaNginx = await fetch(nginx.base + path);
      const [a, b] = [Buffer.from(await viaNode.arrayBuffer()), Buffer.from(await viaNginx.arrayBuffer())];
      const pick = (r: Response) => ({ status: r.status, cacheControl: r.headers.get('cache-control'), contentType: r.headers.get('content-type'), csp: r.headers.get('content-security-policy'), cors: r.headers.get('access-control-allow-origin') });
      expect(pick(viaNginx), path).toEqual(pick(viaNode));
      if (viaNode.status !== 200) continue;
      if (path === '/status.html' || path === '/') {
        // passed to a node, which sends the page of the facts now when the collector is not running (its run here ended):
        // nginx sent the collector's file from disk, which says it is running and live
        expect(viaNginx.headers.get('last-modified'), `${path} from a node`).toBeNull();
        expect(b.toString()).toMatch(path === '/' ? /Collector (between runs|stopped)/ : /The collector is (not running now|between runs)/);
        expect(b.toString()).not.toMatch(/The collector is running and live|Collector live/);
        compared.push(path);
        continue;
      }
      // sent by nginx from disk, not passed to a node: nginx's own ETag form (weak when gzipped: fetch asks) and a Last-Modified the server never sends
      expect([viaNginx.headers.get('etag'), viaNginx.headers.get('last-modified')], `${path} from disk`).toEqual([expect.stringMatching(/^(W\/)?"[0-9a-f]+-[0-9a-f]+"$/), expect.any(String)]);
      expect(b.equals(a), `${path} bytes`).toBe(true);
      const tiers = [[nodes[0]!.base, viaNode], [nginx.base, viaNginx]] as const;
      for (const [base, res] of tiers) {
        const etag = res.headers.get('etag');
        expect(etag, `${base}${path} ETag`).toBeTruthy();
        const again = await fetch(base + path, { headers: { 'If-None-Match': etag! } });
        await again.arrayBuffer();
        expect([again.status, again.headers.get('cache-control')], `${base}${path} conditional`).toEqual([304, res.headers.get('cache-control')]);
      }
      compared.push(path);
    }
    expect(compared.length).toBeGreaterThanOrEqual(9);
    // the settled rule really differs between the two records (not one Cache-Control for all)
    if (settledMint) {
      const [s, u] = await Promise.all([fetch(`${nginx.base}/t/${settledMint}.html`), fetch(`${nginx.base}/t/${unsettledMint}.html`)]);
      await Promise.all([s.arrayBuffer(), u.arrayBuffer()]);
      expect([s.headers.get('cache-control'), u.headers.get('cache-control')]).toEqual(['max-age=3600, stale-while-revalidate=86400', 'no-store']);
    }
  });

  it('sends a settled launch’s first-30-seconds page under the settled rule, as its token page', async () => {
    const marker = join(dataDir, 'site', 'settled', hypedMint);
    mkdirSync(dirname(marker), { recursive: true });
    writeFileSync(marker, '');
    // nginx keeps a file's absence for open_file_cache_valid (1 s): the marker is seen after it
    await new Promise((r) => setTimeout(r, 1_200));
    try {
      for (const path of [`/t/${hypedMint}.html`, `/t/${hypedMint}.early.html`]) {
        const r = await fetch(nginx.base + path);
        const body = await r.text();
        expect([r.status, r.headers.get('cache-control')], path).toEqual([200, CACHE_SETTLED]);
        expect(body, path).toContain(hypedMint);
      }
    } finally {
      rmSync(marker);
    }
  });

  it('a node renders the first-30-seconds page from the database when its file is missing: the same page; 404 for a launch without one, 400 for a bad mint', async () => {
    const path = sitePaths(join(dataDir, 'site'), hypedMint).early;
    const file = readFileSync(path, 'utf8');
    rmSync(path);
    try {
      const r = await fetch(`${nodes[0]!.base}/t/${hypedMint}.early.html`);
      // the same bytes but for the public base URL in its head (the node's own port; the collector's run had the default)
      const base = (t: string) => t.replaceAll(/http:\/\/127\.0\.0\.1:\d+/g, 'BASE');
      expect([r.status, base(await r.text())]).toEqual([200, base(file)]);
      const none = await fetch(`${nodes[0]!.base}/t/${unsettledMint}.early.html`);
      expect([none.status, await none.text()]).toEqual([404, expect.stringContaining('has no separate first-30-seconds page')]);
      const bad = await fetch(`${nodes[0]!.base}/t/not-a-mint.early.html`);
      expect([bad.status, await bad.text()]).toEqual([400, expect.stringContaining('is not an address')]);
    } finally {
      writeFileSync(path, file);
    }
  });

  it('compresses the same answers as the server when asked: pages and the stylesheet, never a document or the icon', async () => {
    const raw = async (url: string, headers: Record<string, string>) => {
      const r = await rawGet(url, headers);
      return { status: r.status, encoding: r.headers['content-encoding'], vary: r.headers.vary as string | undefined, etag: r.headers.etag as string | undefined };
    };
    for (const path of [`/t/${unsettledMint}.html`, '/lists/latest/1.html', '/methodology.html', '/site.css', `/d/${unsettledMint}`, '/favicon.ico']) {
      const [viaNode, viaNginx] = [await raw(nodes[0]!.base + path, { 'Accept-Encoding': 'gzip' }), await raw(nginx.base + path, { 'Accept-Encoding': 'gzip' })];
      const compressed = !path.startsWith('/d/') && path !== '/favicon.ico'; // the icon's PNGs are compressed already
      expect([viaNode.status, viaNode.encoding, viaNginx.status, viaNginx.encoding], path).toEqual([200, compressed ? 'gzip' : undefined, 200, compressed ? 'gzip' : undefined]);
      if (compressed) for (const r of [viaNode, viaNginx]) expect([r.vary, r.etag?.startsWith('W/')], path).toEqual([expect.stringMatching(/accept-encoding/i), true]);
      // without asking: the bytes as written, each tier's strong tag
      const plain = await raw(nginx.base + path, {});
      expect([plain.encoding, plain.etag?.startsWith('"')], path).toEqual([undefined, true]);
    }
  });

  it('proxies the keyed API and the downloads to the nodes (key checked and counted there)', async () => {
    const key = nodes[0]!.key;
    const status = await fetch(`${nginx.base}/api/v1/status`);
    expect(status.status).toBe(200);
    expect(((await status.json()) as { counts: unknown }).counts).toBeDefined();
    const token = await fetch(`${nginx.base}/api/v1/token/${unsettledMint}`, { headers: { Authorization: `Bearer ${key}` } });
    expect(token.status).toBe(200);
    expect(((await token.json()) as { mint: string }).mint).toBe(unsettledMint);
    const noKey = await fetch(`${nginx.base}/api/v1/token/${unsettledMint}`);
    expect([noKey.status, ((await noKey.json()) as { error: string }).error]).toEqual([401, 'missing_key']); // the node's error body passes through
    const viaNode = await fetch(`${nodes[1]!.base}/data/record.db`, { headers: { Authorization: `Bearer ${key}` } });
    const viaNginx = await fetch(`${nginx.base}/data/record.db`, { headers: { Authorization: `Bearer ${key}` } });
    const [a, b] = [Buffer.from(await viaNode.arrayBuffer()), Buffer.from(await viaNginx.arrayBuffer())];
    expect(viaNginx.status).toBe(200);
    expect(b.equals(a)).toBe(true);
    for (const h of ['etag', 'cache-control', 'content-type', 'content-disposition']) expect(viaNginx.headers.get(h), h).toBe(viaNode.headers.get(h));
    const conditional = await fetch(`${nginx.base}/data/record.db`, { headers: { Authorization: `Bearer ${key}`, 'If-None-Match': viaNginx.headers.get('etag')! } });
    expect(conditional.status).toBe(304);
  });

  it('a POST is not retried on another node, and its error body comes through', async () => {
    const res = await fetch(`${nginx.base}/api/v1/keys/rotate`, { method: 'POST' });
    expect([res.status, ((await res.json()) as { error: string }).error]).toEqual([401, 'missing_key']);
  });

  it('killing one of two API nodes under a GET loop gives the client no 5xx', async () => {
    const key = nodes[0]!.key;
    const statuses: number[] = [];
    let stop = false;
    const loop = async () => {
      for (let i = 0; !stop; i++) {
        const path = i % 2 ? `/api/v1/token/${unsettledMint}` : '/api/v1/status';
        const res = await fetch(nginx.base + path, { headers: { Authorization: `Bearer ${key}` } });
        await res.arrayBuffer();
        statuses.push(res.status);
      }
    };
    const loops = Array.from({ length: 8 }, loop);
    await new Promise((r) => setTimeout(r, 700));
    const before = statuses.length;
    await nodes[1]!.kill(); // SIGKILL: connections reset mid-flight
    await new Promise((r) => setTimeout(r, 1500));
    stop = true;
    await Promise.all(loops);
    expect(statuses.length - before).toBeGreaterThan(20); // requests ran after the kill
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
  });
});
