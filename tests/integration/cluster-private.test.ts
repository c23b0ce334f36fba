/**
 * Cluster mode (PRIVATE_DB_URL): three built server processes, each with its own DATA_DIR (its own
 * public.db), share keys and quota counts in one PostgreSQL (a throwaway cluster). The quota is
 * exact across them (issue 26 item 5: Q + 300 keyed requests in flight at once, round-robin over the
 * three: exactly Q succeed); PostgreSQL stopped → keyed requests 503 `unavailable` with Retry-After while
 * public pages are served; when it returns, nothing counted before is lost.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson, sha256Hex } from '../../src/core/canonical.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { PgPrivateState } from '../../src/db/private-state-pg.ts';
import { KeyService } from '../../src/access/keys.ts';
import { launchDoc, randomAddress } from '../helpers/launch-doc.ts';
import { freePort, sleep } from '../helpers/net.ts';
import { startPostgres, type TestPostgres } from '../helpers/postgres.ts';
import { startServerProcess, type ServerProcess } from '../helpers/processes.ts';

const KEY_SECRET = 'c'.repeat(40);
const Q = 100;
const NODES = 3;
/** Requests past the quota in the final burst (issue 26 item 5: Q + 300 over 3 nodes). */
const OVER = 300;
const MINT = randomAddress();

let tmp: string;
let pgc: TestPostgres;
let nodes: ServerProcess[] = [];
let key: string;

/** Wait until the quota's UTC day has at least a minute left (the servers' clock is the wall clock). */
async function awayFromMidnight(): Promise<void> {
  const left = 86_400_000 - (Date.now() % 86_400_000);
  if (left < 60_000) await sleep(left + 1000);
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'lpa-cluster-'));
  pgc = startPostgres();
  const state = PgPrivateState.open({ url: pgc.url });
  key = (await new KeyService(state, KEY_SECRET).create('cluster test')).key;
  await state.close();
  const doc = launchDoc(MINT, Date.parse('2026-11-01T00:00:00.000Z'), { settled: true });
  const text = canonicalJson(doc);
  for (let i = 0; i < NODES; i++) {
    const dataDir = join(tmp, `node-${i}`);
    const store = new PublicStore(join(dataDir, 'public.db'));
    store.putLaunch(doc, null, text, sha256Hex(text), Date.now());
    store.close();
    const env = {
      ...process.env,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
      PRIVATE_DB_URL: pgc.url,
      KEY_SECRET,
      DAILY_QUOTA: String(Q),
      UNAVAILABLE_RETRY_S: '7',
      SOLANA_RPC_URL: 'http://127.0.0.1:9', // never read here: every mint asked for is held
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
    };
    nodes.push(await startServerProcess(env));
  }
}, 90_000);

afterAll(async () => {
  await Promise.all(nodes.map((n) => n.stop()));
  pgc?.destroy();
  rmSync(tmp, { recursive: true, force: true });
});

const keyed = (i: number, path = `/api/v1/token/${MINT}`) => fetch(nodes[i % nodes.length]!.base + path, { headers: { Authorization: `Bearer ${key}` } });

/** `n` keyed token requests spread round-robin over the nodes, `width` in flight at a time; the statuses in order. */
async function burst(n: number, width = 20): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i += width) {
    const rs = await Promise.all(Array.from({ length: Math.min(width, n - i) }, (_, j) => keyed(i + j).then(async (r) => (await r.arrayBuffer(), r.status))));
    statuses.push(...rs);
  }
  return statuses;
}

const count = (xs: number[], v: number) => xs.filter((x) => x === v).length;

describe('cluster mode: three API nodes over one PostgreSQL', () => {
  it('share the quota exactly, answer 503 unavailable while PostgreSQL is down (public pages still served), and lose nothing when it returns', async () => {
    await awayFromMidnight();
    // 60 requests before the outage: all admitted, counted in PostgreSQL
    const before = await burst(60);
    expect(count(before, 200)).toBe(60);

    pgc.stop();
    const down = await keyed(0);
    expect(down.status).toBe(503);
    expect(down.headers.get('Retry-After')).toBe('7');
    const body = await down.json();
    expect(body).toMatchObject({ error: 'unavailable', finding: { class: 'UNKNOWN' } });
    expect((await keyed(1)).status).toBe(503);
    expect((await keyed(1, '/api/v1/usage')).status).toBe(503);
    // public pages do not need the private database
    for (const n of nodes) {
      expect((await fetch(`${n.base}/api/v1/status`)).status).toBe(200);
      expect((await fetch(`${n.base}/t/${MINT}.html`)).status).toBe(200);
      expect((await fetch(`${n.base}/d/${MINT}`)).status).toBe(200);
    }

    pgc.start();
    // the pools reconnect by themselves (probe: the usage endpoint, which is never counted)
    for (const started = Date.now(); ; await sleep(200)) {
      const rs = await Promise.all(nodes.map((_, i) => keyed(i, '/api/v1/usage')));
      if (rs.every((r) => r.status === 200)) {
        // nothing lost: the 60 counted before the outage, none of the refused ones
        for (const r of rs) expect((await r.json()).quota.used).toBe(60);
        break;
      }
      await Promise.all(rs.map((r) => r.body?.cancel()));
      if (Date.now() - started > 20_000) throw new Error(`nodes did not recover: ${rs.map((r) => r.status).join(' ')}`);
    }

    // Q + 300 counted requests in all, over the three nodes, all the rest in flight at once: exactly Q admitted
    const after = await burst(Q + OVER - 60, Q + OVER);
    expect(count(after, 200)).toBe(Q - 60);
    expect(count(after, 429)).toBe(OVER);
    const usage = await (await keyed(1, '/api/v1/usage')).json();
    expect(usage.quota).toMatchObject({ limit: Q, used: Q, remaining: 0 });
  }, 90_000);
});
