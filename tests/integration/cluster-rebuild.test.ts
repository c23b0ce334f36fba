/**
 * A rebuild requested on two nodes at once runs once (issue 26 item 5): two API nodes share the
 * rebuild queue in one PostgreSQL (PRIVATE_DB_URL) and, on one machine, one DATA_DIR (public.db,
 * where a rebuilt record is written: docs/scaling.md). Each node reads its own replay RPC of the
 * same simulated chain (30 ms per answer), so the chain reads of the rebuild show which node ran
 * it. The same unheld mint asked on both at the same moment: one start counted, the curve's
 * history read through one node's RPC only, and both answer 200 with the same rebuilt record.
 * Needs the built server and postgresql.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { writeChain } from '../../devchain/simulate/write-chain.ts';
import type { SimulatedChain } from '../../devchain/simulate/chain.ts';
import { startReplayRpc, type ReplayRpc } from '../../devchain/replay/server.ts';
import { bondingCurveAddress } from '../../src/chain/pda.ts';
import { PgPrivateState } from '../../src/db/private-state-pg.ts';
import { KeyService } from '../../src/access/keys.ts';
import { freePort, sleep } from '../helpers/net.ts';
import { startPostgres, type TestPostgres } from '../helpers/postgres.ts';
import { startServerProcess, type ServerProcess } from '../helpers/processes.ts';

const KEY_SECRET = 'r'.repeat(40);

let tmp: string;
let chain: SimulatedChain;
let pgc: TestPostgres;
const rpcs: ReplayRpc[] = [];
/**
 * A rebuild's history reads per RPC (one per node), by address: getSignaturesForAddress pages of
 * more than one signature (the curve check before a start, src/chain/curve-status.ts, asks for 1).
 */
const historyReads: Map<string, number>[] = [new Map(), new Map()];
const nodes: ServerProcess[] = [];
let key: string;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'lpa-cluster-rebuild-'));
  chain = writeChain({ launches: 8, seed: 2605, out: join(tmp, 'chain') });
  for (const reads of historyReads) {
    const inject = (method: string, params: unknown[]) => {
      if (method === 'getSignaturesForAddress' && (params[1] as { limit?: number } | undefined)?.limit !== 1) reads.set(String(params[0]), (reads.get(String(params[0])) ?? 0) + 1);
      return null;
    };
    rpcs.push(await startReplayRpc({ chainDir: join(tmp, 'chain'), latencyMs: 30, inject }));
  }
  pgc = startPostgres();
  const state = PgPrivateState.open({ url: pgc.url });
  key = (await new KeyService(state, KEY_SECRET).create('cluster rebuild test')).key;
  await state.close();
  const dataDir = join(tmp, 'data'); // nothing held
  mkdirSync(dataDir);
  for (const rpc of rpcs) {
    nodes.push(
      await startServerProcess({
        ...process.env,
        DATA_DIR: dataDir,
        HOST: '127.0.0.1',
        PORT: String(await freePort()),
        PRIVATE_DB_URL: pgc.url,
        KEY_SECRET,
        SOLANA_RPC_URL: rpc.url,
        RPC_CONCURRENCY: '2',
        REBUILD_RPC_MAX_RPS: '0',
        LOG_LEVEL: 'warn',
        LOG_FORMAT: 'json',
      }),
    );
  }
}, 90_000);

afterAll(async () => {
  await Promise.all(nodes.map((n) => n.stop()));
  await Promise.all(rpcs.map((r) => r.close()));
  pgc?.destroy();
  rmSync(tmp, { recursive: true, force: true });
});

const token = (n: ServerProcess, mint: string) => fetch(`${n.base}/api/v1/token/${mint}`, { headers: { Authorization: `Bearer ${key}` } });

describe('cluster mode: a rebuild asked on two nodes at once', () => {
  it('runs once, and both nodes then answer 200 with the same rebuilt record', async () => {
    const mint = Object.keys(chain.truth.records).sort()[0]!;
    const curve = await bondingCurveAddress(mint);
    const first = await Promise.all(nodes.map((n) => token(n, mint)));
    expect(first.map((r) => r.status)).toEqual([202, 202]);
    await Promise.all(first.map((r) => r.body?.cancel()));

    const bodies: (string | null)[] = [null, null];
    for (const until = Date.now() + 60_000; bodies.includes(null); await sleep(150)) {
      for (const [i, n] of nodes.entries()) {
        if (bodies[i] !== null) continue;
        const res = await token(n, mint);
        if (res.status === 200) bodies[i] = await res.text();
        else {
          expect(res.status).toBe(202);
          await res.body?.cancel();
        }
      }
      if (Date.now() > until) throw new Error(`still 202 after 60 s:\n${nodes.map((n) => n.log()).join('\n')}`);
    }
    // the same record; the answer's own envelope names the node (source) and the time it was sent
    const record = (text: string) => {
      const { generatedAt: _g, source: _s, ...rest } = JSON.parse(text) as Record<string, unknown>;
      return rest;
    };
    expect(record(bodies[0]!)).toEqual(record(bodies[1]!));
    expect(record(bodies[0]!)).toMatchObject({ mint, origin: 'rebuilt' });

    // one start counted in the shared queue, and the curve's history read by one node only
    const client = new pg.Client({ connectionString: pgc.url });
    await client.connect();
    try {
      const starts = await client.query<{ n: string }>('SELECT count(*) AS n FROM rebuild_start WHERE mint = $1', [mint]);
      expect(Number(starts.rows[0]!.n)).toBe(1);
      expect((await client.query('SELECT * FROM rebuild_job WHERE mint = $1', [mint])).rowCount).toBe(0);
    } finally {
      await client.end();
    }
    const reads = historyReads.map((m) => m.get(curve) ?? 0);
    expect(reads.filter((n) => n > 0)).toHaveLength(1); // one node ran it
    expect(Math.max(...reads)).toBe(2); // once: the curve's short history is one page, and the empty page that confirms its end (src/chain/signatures.ts)
  }, 90_000);
});
