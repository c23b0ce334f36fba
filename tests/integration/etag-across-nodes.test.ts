/**
 * ETags of the site's written files are the same from every server process over one archive: two
 * API nodes (or one node before and after a restart) answer the same bytes with the same tag, so a
 * CDN or nginx revalidating against any node gets 304 (issue: per-process ETags). The second node
 * runs its own copy of the build, as another machine's build or `npm start` (which rebuilds first)
 * would: the build's files have other mtimes, which must not show in a tag.
 * Needs `npx astro build`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { smallArchive, type SmallArchive } from '../helpers/small-archive.ts';
import { ENTRY, startApiNode, type ApiNode } from '../helpers/api-node.ts';
import { rawGet, sleep } from '../helpers/net.ts';

let archive: SmallArchive;
let otherBuild: string;
let dataDir: string;
const nodes: ApiNode[] = [];
let mint: string;
let creator: string;

beforeAll(async () => {
  archive = await smallArchive('lpa-etag-nodes-', 4, 2611, Date.UTC(2026, 10, 26, 12));
  ({ mint, creator, dataDir } = archive);
  // another build of the same tree: same bytes, files written later (inside the tree, so its imports resolve)
  const dist = dirname(dirname(ENTRY));
  await sleep(20);
  const scratch = join(resolve(dist, '..'), '.scratch'); // git-ignored
  mkdirSync(scratch, { recursive: true });
  otherBuild = mkdtempSync(join(scratch, 'dist-'));
  cpSync(dist, otherBuild, { recursive: true });
  // one public address for both, as behind a load balancer (pages rendered by a node name it: /status.html)
  const env = { SOLANA_RPC_URL: archive.rpc.url, PUBLIC_BASE_URL: 'https://archive.example' };
  nodes.push(await startApiNode(dataDir, env));
  nodes.push(await startApiNode(dataDir, env, join(otherBuild, 'server', 'entry.mjs')));
}, 120_000);

afterAll(async () => {
  await Promise.all(nodes.map((n) => n.kill()));
  if (otherBuild) rmSync(otherBuild, { recursive: true, force: true });
  await archive?.close();
});

/** A plain GET as a CDN or nginx sends it (fetch adds `Cache-Control: no-cache` to a conditional request). */
const get = (base: string, path: string, headers: Record<string, string> = {}) => rawGet(base + path, headers);

describe('ETags across server processes over one archive', () => {
  const paths = () => ['/', '/lists/latest/1.html', '/status.html', '/methodology.html', `/t/${mint}.html`, `/d/${mint}`, `/w/${creator}.html`, '/site.css'];

  it('the same bytes get the same ETag from both nodes, and either node answers the other\'s tag with 304', async () => {
    const [a, b] = nodes as [ApiNode, ApiNode];
    for (const path of paths()) {
      const [ra, rb] = [await get(a.base, path), await get(b.base, path)];
      expect([ra.status, rb.status], path).toEqual([200, 200]);
      expect(rb.body.equals(ra.body), `${path} bytes`).toBe(true);
      expect(ra.headers.etag, `${path} ETag`).toBeTruthy();
      expect(rb.headers.etag, `${path} ETag`).toBe(ra.headers.etag);
      for (const [from, to] of [[ra, b], [rb, a]] as const) {
        const again = await get(to.base, path, { 'If-None-Match': String(from.headers.etag) });
        expect([again.status, again.body.length], `${path} conditional`).toEqual([304, 0]);
        expect(again.headers['cache-control'], `${path} conditional`).toBe(ra.headers['cache-control']);
      }
    }
  });

  it('the stylesheet\'s ETag is the sha256 of its bytes, like every written file\'s', async () => {
    const { createHash } = await import('node:crypto');
    const r = await get(nodes[0]!.base, '/site.css');
    expect(r.headers.etag).toBe(`"${createHash('sha256').update(r.body).digest('hex')}"`);
    expect([r.headers['content-type'], r.headers['cache-control']]).toEqual(['text/css; charset=utf-8', 'public, max-age=0']);
  });
});
