/**
 * Generations wired end to end (issue 26 item 2): the collector's scheduler job publishes a
 * generation when GENERATION_INTERVAL_MS is set (and none when it is not), and two API nodes with
 * API_GENERATIONS_DIR serve the newest one while several more are published under load: no 5xx,
 * every answer names its generation, and on each node a request never sees a generation older than
 * one already answered by a request that finished before it began. Needs `npx astro build`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReplayRpc, type ReplayRpc } from '../../devchain/replay/server.ts';
import { writeChain } from '../../devchain/simulate/write-chain.ts';
import { publishGeneration } from '../../collector/publish/generations.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { readGenerationManifest } from '../../src/generations.ts';
import { needsRebuild } from '../../src/core/record/classify.ts';
import type { LaunchDocument } from '../../src/core/types.ts';
import { collectOnce } from '../helpers/collect-once.ts';
import { startApiNode, type ApiNode } from '../helpers/api-node.ts';
import { sleep } from '../helpers/net.ts';

let tmp: string;
let rpc: ReplayRpc;
const nodes: ApiNode[] = [];

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'lpa-gen-swap-'));
  writeChain({ launches: 12, seed: 2626, out: join(tmp, 'chain') });
  rpc = await startReplayRpc({ chainDir: join(tmp, 'chain') });
});

afterAll(async () => {
  await Promise.all(nodes.map((n) => n.kill()));
  await rpc?.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('the collector publishes generations on its schedule', () => {
  it('publishes none without GENERATION_INTERVAL_MS, one with it, and the next only after the interval', async () => {
    const off = join(tmp, 'off');
    await collectOnce(off, rpc.url, () => Date.UTC(2026, 10, 26, 9));
    expect(existsSync(join(off, 'generations'))).toBe(false);

    const on = join(tmp, 'collector');
    let clock = Date.UTC(2026, 10, 26, 9);
    const run = () => collectOnce(on, rpc.url, () => clock, { GENERATION_INTERVAL_MS: '60000' });
    await run();
    const first = readGenerationManifest(join(on, 'generations'))!;
    const store = new PublicStore(join(on, 'public.db'), { readonly: true });
    const held = store.db.prepare('SELECT count(*) FROM launch').pluck().get() as number;
    store.close();
    expect(first).toMatchObject({ generation: 1, records: held });
    expect(first.writtenAt.ms).toBe(clock);
    expect(held).toBeGreaterThan(0);
    clock += 30_000; // within the interval
    await run();
    expect(readGenerationManifest(join(on, 'generations'))!.generation).toBe(1);
    clock += 31_000;
    await run();
    expect(readGenerationManifest(join(on, 'generations'))!.generation).toBe(2);
  });
});

describe('API nodes serving generations', () => {
  it('swap under load: no 5xx, every answer names its generation, monotonic per node', async () => {
    const source = join(tmp, 'collector'); // the previous test's archive: its public.db and generations 1–2
    const shipped = join(tmp, 'shipped'); // the folder as rsync leaves it on the API machines
    mkdirSync(shipped);
    const noChain = { SOLANA_RPC_URL: rpc.url }; // nothing here reads the chain; if it did, the replay answers
    for (const i of [1, 2]) nodes.push(await startApiNode(join(tmp, `node${i}`), { ...noChain, API_GENERATIONS_DIR: shipped, DAILY_QUOTA: '1000000' }));
    const store = new PublicStore(join(source, 'public.db'));
    // before any generation arrived: 503 unavailable, retry in a second (nginx tries another node)
    const early = await fetch(`${nodes[0]!.base}/api/v1/status`);
    expect([early.status, early.headers.get('retry-after'), ((await early.json()) as { error: string }).error]).toEqual([503, '1', 'unavailable']);
    // generations 1 and 2 arrive as a copy would: the files, then the manifest; the nodes find them by themselves
    const arrived = readGenerationManifest(join(source, 'generations'))!;
    for (const f of readdirSync(join(source, 'generations')).filter((f) => f !== 'manifest.json')) cpSync(join(source, 'generations', f), join(shipped, f));
    cpSync(join(source, 'generations', 'manifest.json'), join(shipped, 'manifest.json'));
    for (const node of nodes) {
      for (let i = 0; ; i++) {
        const res = await fetch(`${node.base}/api/v1/status`);
        await res.arrayBuffer();
        if (res.status === 200) {
          expect(res.headers.get('X-Archive-Generation')).toBe(String(arrived.generation));
          break;
        }
        if (i > 100) throw new Error(`node did not pick up generation ${arrived.generation}:\n${node.log()}`);
        await sleep(100);
      }
    }
    // the home page is the generation's, not the node's own empty database's (a cluster review: "0 launch records")
    const held = (store.db.prepare('SELECT count(*) FROM launch').pluck().get() as number).toLocaleString('en-US');
    const home = await fetch(`${nodes[0]!.base}/`);
    expect([home.status, home.headers.get('X-Archive-Generation')]).toEqual([200, String(arrived.generation)]);
    const homeText = await home.text();
    expect(homeText).not.toMatch(/>0 launch records|has not read the chain yet/);
    expect(homeText).toContain(held);
    // records served as held (a placeholder would start a rebuild: a chain read this test does not make)
    const rows = store.db.prepare('SELECT mint, document FROM launch ORDER BY mint').all() as { mint: string; document: string }[];
    const mints = rows.filter((r) => !needsRebuild(JSON.parse(r.document) as LaunchDocument)).map((r) => r.mint).slice(0, 5);
    expect(mints.length).toBeGreaterThan(0);

    type Seen = { node: number; generation: number; floor: number; status: number };
    const seen: Seen[] = [];
    const highestDone = [0, 0]; // per node: the highest generation of an answer already received
    let stop = false;
    const client = async (c: number) => {
      for (let i = 0; !stop; i++) {
        const n = (c + i) % nodes.length;
        const node = nodes[n]!;
        const floor = highestDone[n]!;
        const path = i % 3 === 2 ? '/api/v1/status' : `/api/v1/token/${mints[i % mints.length]}`;
        const res = await fetch(node.base + path, { headers: { Authorization: `Bearer ${node.key}` } });
        await res.arrayBuffer();
        const generation = Number(res.headers.get('X-Archive-Generation'));
        seen.push({ node: n, generation, floor, status: res.status });
        highestDone[n] = Math.max(highestDone[n]!, generation);
      }
    };
    const clients = Array.from({ length: 12 }, (_, c) => client(c));
    // three more generations while the clients run, shipped as a copy would arrive: the file, then the manifest
    for (let g = 0; g < 3; g++) {
      await sleep(400);
      const m = await publishGeneration(store, join(source, 'generations'), Date.UTC(2026, 10, 26, 10, g));
      cpSync(join(source, 'generations', m.file), join(shipped, m.file));
      cpSync(join(source, 'generations', 'manifest.json'), join(shipped, 'manifest.json'));
    }
    const last = readGenerationManifest(shipped)!.generation;
    for (let i = 0; i < 100 && highestDone.some((h) => h < last); i++) await sleep(100);
    await sleep(300);
    stop = true;
    await Promise.all(clients);
    store.close();

    expect(seen.length).toBeGreaterThan(100);
    expect(seen.filter((s) => s.status !== 200)).toEqual([]);
    expect(seen.filter((s) => !(s.generation >= 1))).toEqual([]);
    expect(seen.filter((s) => s.generation < s.floor)).toEqual([]); // never backwards on a node
    expect(highestDone).toEqual([last, last]);
    expect(last).toBe(5);
    for (const n of [0, 1]) expect(new Set(seen.filter((s) => s.node === n).map((s) => s.generation)).size).toBeGreaterThan(1);
  }, 90_000);
});
