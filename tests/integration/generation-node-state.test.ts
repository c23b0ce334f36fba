/**
 * An API node serving public-database generations (API_GENERATIONS_DIR, issue 26) answers every
 * request on a lease of the newest generation with a copy of its deps (src/server/generation-lease.ts).
 * What belongs to the process must not start afresh with each copy: the search limit per caller
 * (SEARCH_PER_MINUTE), the site-file cache, and the creation feed's hub — its streams per key
 * (STREAMS_PER_KEY), and its reads, which must follow the newest generation rather than the one the
 * opening request leased (closed at the next swap). Real SQLite generations written by the
 * collector's writer; launches built by the real builder from synthetic transactions.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { publishGeneration } from '../../collector/publish/generations.ts';
import { runKeysFeed } from '../../collector/commands/keys.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { GenerationReader } from '../../src/db/generation-reader.ts';
import { createDeps, type Deps } from '../../src/server/deps.ts';
import { withGeneration } from '../../src/server/generation-lease.ts';
import { handleSearch } from '../../src/server/search.ts';
import { siteFileCacheOf } from '../../src/server/site-pages.ts';
import { closeFeedOf, feedOf, handleStream } from '../../src/server/stream.ts';
import { STREAMS_PER_KEY } from '../../src/server/feed-hub.ts';
import { commitLaunch } from '../helpers/committed-launch.ts';

let tmp: string;
let collector: PublicStore;
let generations: string;
let reader: GenerationReader;
let deps: Deps;
let slot = 1000;

/** `n` launches committed to the collector's public.db; their mints. */
function addLaunches(n: number): string[] {
  const mints: string[] = [];
  for (let i = 0; i < n; i++) mints.push(commitLaunch(collector, (slot += 10)).mint);
  return mints;
}

/** The next generation written and taken by the node. */
async function nextGeneration(): Promise<number> {
  await publishGeneration(collector, generations, Date.now());
  const g = await reader.refresh();
  if (typeof g !== 'number') throw new Error(`no swap: ${JSON.stringify(g)}`);
  return g;
}

beforeEach(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'lpa-generation-node-'));
  collector = new PublicStore(join(tmp, 'collector.db'));
  generations = join(tmp, 'generations');
  const node = join(tmp, 'node');
  mkdirSync(node);
  reader = new GenerationReader(generations);
  const config = loadConfig({ DATA_DIR: node, API_GENERATIONS_DIR: generations, SEARCH_PER_MINUTE: '3', STREAM_POLL_MS: '10000', STREAM_HEARTBEAT_MS: '60000' });
  deps = createDeps(config, { generations: reader, curveStatus: async () => 'never', log: createLogger('silent') });
  addLaunches(3);
  await nextGeneration();
});

afterEach(() => {
  closeFeedOf(deps);
  reader.close();
  deps.publicStore.close();
  collector.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** A request answered as route() answers it on such a node: on a lease, with the lease's deps copy. */
const onLease = (fn: (d: Deps) => Response | Promise<Response>) => withGeneration(deps, reader, fn);

describe('an API node serving generations keeps its process state across requests', () => {
  it('limits searches per caller over requests (SEARCH_PER_MINUTE), each request on its own lease', async () => {
    const search = () => onLease((d) => handleSearch(new Request('http://x/search?q=pep'), d, { clientAddress: '10.0.0.1' }));
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await search()).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('keeps one site-file cache for the process', async () => {
    const caches = new Set();
    for (let i = 0; i < 3; i++) await onLease((d) => (caches.add(siteFileCacheOf(d)), new Response('')));
    expect(caches.size).toBe(1);
  });

  it('holds a key to its streams across requests, and streams what later generations add', async () => {
    const { key, id } = await deps.keys.create('feed');
    await runKeysFeed(deps.config, id, true, () => undefined);
    const stream = () => onLease((d) => handleStream(new Request('http://x/api/v1/stream', { headers: { Authorization: `Bearer ${key}` } }), d));
    const open = [];
    for (let i = 0; i < STREAMS_PER_KEY; i++) open.push(await stream());
    expect(open.map((r) => r.status)).toEqual(open.map(() => 200));
    const refused = await stream();
    expect(refused.status).toBe(429);
    expect((await refused.json()).error).toBe('too_many_streams');

    // the generation the streams opened on is retired and closed at the next swap; the hub reads on
    const first = reader.acquire()!;
    const firstStore = first.store;
    first.release();
    const added = addLaunches(2);
    expect(await nextGeneration()).toBe(2);
    expect(firstStore.db.open).toBe(false);
    feedOf(deps).poll();
    const reading = open[0]!.body!.getReader();
    let text = '';
    while (!added.every((m) => text.includes(m))) {
      const r = await Promise.race([reading.read(), new Promise<null>((res) => setTimeout(() => res(null), 2_000))]);
      if (r === null || r.done) break;
      text += new TextDecoder().decode(r.value);
    }
    expect(added.filter((m) => text.includes(m))).toEqual(added);
    await reading.cancel();
    await open[1]!.body!.cancel();
  });
});
