import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { writeChain } from '../../devchain/simulate/write-chain.ts';
import type { SimulatedChain } from '../../devchain/simulate/chain.ts';
import { startReplayRpc, type ReplayRpc } from '../../devchain/replay/server.ts';
import { bondingCurveAddress } from '../../src/chain/pda.ts';
import { decodeTransaction } from '../../src/core/decode/index.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { recordLaunch } from '../../src/ingest/record-launch.ts';
import { freePort, sleep } from '../helpers/net.ts';

/**
 * Rebuild on request (spec §3), end to end: a simulated chain with known truth served by the replay
 * RPC (with latency, so a rebuild takes long enough to be seen running), the built server answering
 * over HTTP, the collector and `lpa rebuild` as separate processes.
 */

const ROOT = resolve(import.meta.dirname, '../..');
const LPA = join(ROOT, 'bin/lpa.mjs');
const ENTRY = join(ROOT, 'dist/server/entry.mjs');
const run = promisify(execFile);

let tmp: string;
let chain: SimulatedChain;
let slowRpc: ReplayRpc; // 30 ms per answer: rebuilds are observable while they run
let fastRpc: ReplayRpc;
let failingCurve: string | null = null; // getSignaturesForAddress(limit 1000) of this address answers HTTP 500
let observedDir: string;
/** Mints by descending transaction count, as the collector stored them. */
let bigMints: string[];
let allMints: string[];
const servers: ChildProcess[] = [];

interface Server {
  base: string;
  key: string;
  dataDir: string;
  proc: ChildProcess;
  env: NodeJS.ProcessEnv;
  log: () => string;
}

async function spawnServer(env: NodeJS.ProcessEnv): Promise<{ proc: ChildProcess; log: () => string }> {
  let log = '';
  const proc = spawn(process.execPath, [ENTRY], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  proc.stdout!.on('data', (d) => (log += d));
  proc.stderr!.on('data', (d) => (log += d));
  servers.push(proc);
  const base = `http://${env.HOST}:${env.PORT}`;
  for (let i = 0; ; i++) {
    try {
      await fetch(`${base}/api/v1/status`);
      return { proc, log: () => log };
    } catch {
      if (i > 300) throw new Error(`server did not start:\n${log}`);
      await sleep(100);
    }
  }
}

/** A server over its own fresh DATA_DIR (nothing held), its key, and the given settings. */
async function startArchive(settings: Record<string, string>): Promise<Server> {
  const dataDir = mkdtempSync(join(tmp, 'srv-'));
  const port = await freePort();
  const env = {
    ...process.env,
    SOLANA_RPC_URL: slowRpc.url,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    TRUSTED_PROXIES: '127.0.0.1,::1,::ffff:127.0.0.1',
    RPC_CONCURRENCY: '2',
    REBUILD_RPC_MAX_RPS: '0',
    REBUILD_LEASE_MS: '1500',
    ...settings,
  };
  const created = await run(process.execPath, [LPA, 'keys', 'create', '--label', 'rebuild-test'], { env, cwd: ROOT });
  const key = created.stdout.trim().split('\n').at(-1)!;
  const { proc, log } = await spawnServer(env);
  return { base: `http://127.0.0.1:${port}`, key, dataDir, proc, env, log };
}

function token(s: Server, mint: string, caller = '198.51.100.1'): Promise<Response> {
  return fetch(`${s.base}/api/v1/token/${mint}`, { headers: { Authorization: `Bearer ${s.key}`, 'X-Forwarded-For': caller } });
}

/** Ask for `mint` (202: a rebuild starts), wait until it runs and has read some transactions, then stop the server with `signal` and wait for its exit. */
async function startAndKill(s: Server, mint: string, signal: NodeJS.Signals): Promise<void> {
  expect((await token(s, mint)).status).toBe(202);
  for (let i = 0; ; i++) {
    const b = await (await token(s, mint)).json();
    if (b.rebuild?.state === 'running' && b.rebuild.progress.transactions > 0) break;
    if (i > 400) throw new Error('never seen running');
    await sleep(25);
  }
  s.proc.kill(signal);
  await new Promise((r) => s.proc.once('exit', r));
}

/** Poll until the answer is not 202; returns the last answer and how many 202s were seen. */
async function pollUntilDone(s: Server, mint: string, caller = '198.51.100.1', timeoutMs = 90_000): Promise<{ res: Response; accepted: number }> {
  const until = Date.now() + timeoutMs;
  let accepted = 0;
  for (;;) {
    const res = await token(s, mint, caller);
    if (res.status !== 202) return { res, accepted };
    accepted++;
    await res.body?.cancel();
    if (Date.now() > until) throw new Error(`still 202 after ${timeoutMs} ms:\n${s.log()}`);
    await sleep(150);
  }
}

/** Fields that legitimately differ between an observed and a rebuilt document (issue 4 "Agreement"). */
const VOLATILE = new Set(['origin', 'observedAtLaunch', 'asOf', 'checkedAt', 'rebuiltAt']);
function flatten(v: unknown, path = '', out: Map<string, string> = new Map()): Map<string, string> {
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    for (const [k, x] of Object.entries(v)) if (!VOLATILE.has(k)) flatten(x, path ? `${path}.${k}` : k, out);
  } else out.set(path, JSON.stringify(v));
  return out;
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'lpa-rebuild-'));
  const chainDir = join(tmp, 'chain');
  chain = writeChain({ launches: 60, seed: 777, out: chainDir });
  const inject = (method: string, params: unknown[]) =>
    method === 'getSignaturesForAddress' && failingCurve !== null && params[0] === failingCurve && (params[1] as { limit?: number } | undefined)?.limit === 1000
      ? { httpStatus: 500 }
      : null;
  slowRpc = await startReplayRpc({ chainDir, latencyMs: 30, inject });
  fastRpc = await startReplayRpc({ chainDir });
  // The collector observes every launch from its creation (the reference for the agreement test).
  observedDir = join(tmp, 'observed');
  await run(process.execPath, [LPA, 'collect', '--once'], {
    env: { ...process.env, SOLANA_RPC_URL: fastRpc.url, DATA_DIR: observedDir, COLLECT_START: 'earliest', LOG_LEVEL: 'warn' },
    cwd: ROOT,
  });
  const db = new Database(join(observedDir, 'public.db'), { readonly: true });
  const rows = db.prepare('SELECT mint, COUNT(*) AS n FROM launch_tx GROUP BY mint ORDER BY n DESC, mint').all() as { mint: string; n: number }[];
  db.close();
  allMints = Object.keys(chain.truth.records).sort();
  bigMints = rows.map((r) => r.mint).filter((m) => allMints.includes(m));
}, 180_000);

afterAll(async () => {
  for (const p of servers) if (p.exitCode === null) p.kill('SIGKILL');
  await slowRpc?.close();
  await fastRpc?.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('the rebuild lifecycle through HTTP', () => {
  it('202 → 202 → 200: queued or running with progress, then the permanent record (origin rebuilt), with Retry-After and caching headers', async () => {
    const s = await startArchive({});
    const mint = bigMints[0]!;
    // a HEAD is safe: it starts no rebuild (an API reviewer's `curl -I` started one and spent a start)
    const headOf = () => fetch(`${s.base}/api/v1/token/${mint}`, { method: 'HEAD', headers: { Authorization: `Bearer ${s.key}`, 'X-Forwarded-For': '198.51.100.1' } });
    const head = await headOf();
    expect([head.status, head.headers.get('ratelimit')]).toEqual([404, expect.stringMatching(/^"daily";r=\d+;t=\d+$/)]);
    const starts = () => {
      const priv = new Database(join(s.dataDir, 'private.db'), { readonly: true });
      try {
        return (priv.prepare('SELECT COUNT(*) AS n FROM rebuild_start').get() as { n: number }).n;
      } finally {
        priv.close();
      }
    };
    expect(starts()).toBe(0);
    // nor does a HEAD of a batch naming it (its lookups were GETs: a security review's `curl -I` of a batch started one)
    const headBatch = await fetch(`${s.base}/api/v1/tokens?mints=${mint}`, { method: 'HEAD', headers: { Authorization: `Bearer ${s.key}`, 'X-Forwarded-For': '198.51.100.1' } });
    expect(headBatch.status).toBe(200);
    expect(starts()).toBe(0);
    const first = await token(s, mint);
    expect(first.status).toBe(202);
    // once a rebuild runs, a HEAD answers as the GET: 202
    expect((await headOf()).status).toBe(202);
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(Number(first.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const b1 = await first.json();
    expect(b1).toMatchObject({ apiVersion: 'v1', mint, cleanAtBirth: null, finding: { class: 'UNKNOWN' } });
    expect(b1.finding.why).toMatch(/^Unknown, not clean, until the rebuild ends: the archive did not watch this launch/);
    expect(['queued', 'running']).toContain(b1.rebuild.state);
    expect(b1.rebuild.queuedAt.iso).toMatch(/Z$/);
    const second = await token(s, mint);
    expect(second.status).toBe(202);
    const b2 = await second.json();
    expect(b2.rebuild.queuedAt).toEqual(b1.rebuild.queuedAt);
    const { res } = await pollUntilDone(s, mint);
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc.origin).toBe('rebuilt');
    expect(doc.observedAtLaunch).toBe(false);
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{64}"$/);
    expect(res.headers.get('cache-control')).toBe(doc.settled ? 'max-age=3600, stale-while-revalidate=86400' : 'no-store');
    const truth = chain.truth.records[mint]!;
    expect(doc.launch.creator).toBe(truth.creator);
    expect(doc.launch.curveBuyers).toBe(truth.curveBuyers);
    expect(doc.finding.class).toBe(truth.findingClass);
    // Polling did not count as new starts: one start for this mint.
    const priv = new Database(join(s.dataDir, 'private.db'), { readonly: true });
    expect((priv.prepare('SELECT COUNT(*) AS n FROM rebuild_start WHERE mint = ?').get(mint) as { n: number }).n).toBe(1);
    priv.close();
    // The page and document were written.
    expect((await fetch(`${s.base}/d/${mint}`)).status).toBe(200);
  });

  it('a held placeholder (later trades, no creation) is rebuilt on request like a mint not held: 202 → 200 rebuilt (issue 20 (d))', async () => {
    const s = await startArchive({});
    const mint = bigMints[2]!;
    // the placeholder: one later curve trade of the mint held, its creation not (as a collector that started after the launch holds it)
    const later = chain.transactions.map((l) => decodeTransaction(JSON.parse(l))).find(
      (t) => t.err === null && t.events.some((e) => e.name === 'TradeEvent' && e.fields.mint === mint) && !t.events.some((e) => e.name === 'CreateEvent'),
    )!;
    const store = new PublicStore(join(s.dataDir, 'public.db'));
    store.transaction(() => {
      store.addTransaction(mint, later);
      recordLaunch(store, mint, { origin: 'observed', observedAtLaunch: false, nowMs: Date.now() });
    });
    const held = JSON.parse(store.getLaunch(mint)!.document);
    store.close();
    expect(held).toMatchObject({ launch: null, origin: 'scanned', observedAtLaunch: false, finding: { class: 'UNKNOWN' } });
    const first = await token(s, mint);
    expect(first.status).toBe(202);
    const { res } = await pollUntilDone(s, mint);
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc.origin).toBe('rebuilt');
    expect(doc.launch.creator).toBe(chain.truth.records[mint]!.creator);
    expect(doc.finding.class).toBe(chain.truth.records[mint]!.findingClass);
    // the rebuilt record is complete: asking again serves it, no second rebuild
    expect((await token(s, mint)).status).toBe(200);
  });

  it('a curve whose history is longer than REBUILD_MAX_TRANSACTIONS is not rebuilt: 404 rebuild_failed saying so, nothing written (a security review: one request held every transaction of 2,000,000)', async () => {
    const s = await startArchive({ REBUILD_MAX_TRANSACTIONS: '10' });
    const mint = bigMints[14]!;
    const { res } = await pollUntilDone(s, mint);
    const body = await res.json();
    expect([res.status, body.error]).toEqual([404, 'rebuild_failed']);
    expect(body.message).toMatch(/^This launch's history holds more than 10 transactions, more than this archive rebuilds on request: its provenance is unknown here, not clean/);
    const pub = new Database(join(s.dataDir, 'public.db'), { readonly: true });
    expect(pub.prepare('SELECT COUNT(*) AS n FROM launch_tx WHERE mint = ?').get(mint)).toEqual({ n: 0 });
    pub.close();
    s.proc.kill('SIGKILL');
  });

  it('a server stopped by SIGTERM mid-rebuild gives up its lease: the restarted server takes the job at once, not after the lease', async () => {
    const s = await startArchive({ REBUILD_LEASE_MS: '120000' });
    const mint = bigMints[13]!;
    await startAndKill(s, mint, 'SIGTERM');
    const priv = new Database(join(s.dataDir, 'private.db'), { readonly: true });
    expect(priv.prepare('SELECT state, lease_until_ms AS lease FROM rebuild_job WHERE mint = ?').get(mint)).toEqual({ state: 'running', lease: 0 });
    priv.close();
    const again = await spawnServer(s.env);
    const restarted = { ...s, proc: again.proc, log: again.log };
    const t0 = Date.now();
    const { res } = await pollUntilDone(restarted, mint, '198.51.100.1', 60_000); // well inside the 120 s lease
    expect(res.status).toBe(200);
    expect(Date.now() - t0).toBeLessThan(60_000);
    restarted.proc.kill('SIGKILL');
  });

  it('a server killed mid-rebuild resumes the job after restart; it finishes once', async () => {
    const s = await startArchive({});
    const mint = bigMints[1]!;
    await startAndKill(s, mint, 'SIGKILL');
    const again = await spawnServer(s.env);
    const restarted = { ...s, proc: again.proc, log: again.log };
    const { res, accepted } = await pollUntilDone(restarted, mint);
    expect(accepted).toBeGreaterThan(0); // the job was still there after the restart
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc.origin).toBe('rebuilt');
    const priv = new Database(join(s.dataDir, 'private.db'), { readonly: true });
    expect((priv.prepare('SELECT COUNT(*) AS n FROM rebuild_start WHERE mint = ?').get(mint) as { n: number }).n).toBe(1);
    expect((priv.prepare('SELECT COUNT(*) AS n FROM rebuild_job').get() as { n: number }).n).toBe(0);
    priv.close();
    const pub = new Database(join(s.dataDir, 'public.db'), { readonly: true });
    const stored = (pub.prepare('SELECT COUNT(*) AS n FROM launch_tx WHERE mint = ?').get(mint) as { n: number }).n;
    pub.close();
    const obs = new Database(join(observedDir, 'public.db'), { readonly: true });
    const expected = (obs.prepare('SELECT COUNT(*) AS n FROM launch_tx WHERE mint = ?').get(mint) as { n: number }).n;
    obs.close();
    expect(stored).toBe(expected); // nothing lost, nothing duplicated
  });

  it('429 rate_limited after 5 starts by one caller in an hour (polling never counts); 503 busy when the queue is full', async () => {
    const s = await startArchive({ REBUILD_MAX_QUEUE: '6', REBUILD_CONCURRENCY: '1' });
    const caller = '203.0.113.9';
    const five = bigMints.slice(2, 7);
    for (const [i, mint] of five.entries()) {
      const res = await token(s, mint, caller);
      expect(res.status).toBe(202);
      expect(res.headers.get('ratelimit')).toContain(`"rebuilds";r=${4 - i};`);
      // polling the same mint is not a start
      expect((await token(s, mint, caller)).status).toBe(202);
    }
    const sixth = await token(s, bigMints[7]!, caller);
    expect(sixth.status).toBe(429);
    const body = await sixth.json();
    expect(body).toMatchObject({ error: 'rate_limited', finding: { class: 'UNKNOWN' } });
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(3000);
    expect(sixth.headers.get('ratelimit')).toContain('"rebuilds";r=0;');
    // Another caller may start: the sixth job fills the queue (6); a seventh is refused as busy.
    expect((await token(s, bigMints[7]!, '203.0.113.10')).status).toBe(202);
    const busy = await token(s, bigMints[8]!, '203.0.113.10');
    expect(busy.status).toBe(503);
    expect((await busy.json()).error).toBe('busy');
    expect(Number(busy.headers.get('retry-after'))).toBeGreaterThan(0);
    // The status shows the queue: six jobs of long curves, one being rebuilt (REBUILD_CONCURRENCY 1).
    const st = (await (await fetch(`${s.base}/api/v1/status`)).json()) as { rebuilds: { queued: number; running: number } };
    expect(st.rebuilds.running).toBeLessThanOrEqual(1);
    expect(st.rebuilds.queued + st.rebuilds.running).toBe(6);
  });

  it('twenty callers asking at once for one mint start one rebuild: only its answer carries the rebuild policy and counts a start', async () => {
    const s = await startArchive({ REBUILD_CONCURRENCY: '1' });
    const mint = bigMints[12]!;
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => token(s, mint, `198.51.100.${100 + i}`)));
    expect(answers.map((r) => r.status).every((st) => st === 202 || st === 200)).toBe(true);
    const withPolicy = answers.filter((r) => (r.headers.get('ratelimit') ?? '').includes('"rebuilds"'));
    expect(withPolicy).toHaveLength(1);
    const priv = new Database(join(s.dataDir, 'private.db'), { readonly: true });
    expect((priv.prepare('SELECT COUNT(*) AS n FROM rebuild_start WHERE mint = ?').get(mint) as { n: number }).n).toBe(1);
    priv.close();
  });

  it('503 rebuild_budget_exhausted past the daily ceiling; records already held are still served', async () => {
    const s = await startArchive({ REBUILD_DAILY_CEILING: '1' });
    const held = bigMints[9]!;
    expect((await token(s, held, '192.0.2.1')).status).toBe(202);
    const refused = await token(s, bigMints[10]!, '192.0.2.2');
    expect(refused.status).toBe(503);
    expect((await refused.json())).toMatchObject({ error: 'rebuild_budget_exhausted', finding: { class: 'UNKNOWN' } });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const { res } = await pollUntilDone(s, held, '192.0.2.1');
    expect(res.status).toBe(200);
    expect((await token(s, held, '192.0.2.3')).status).toBe(200);
  });

  it('404 rebuild_failed when chain reads fail after retries; a later request starts again; 404 not_a_curve_launch for a mint with no curve', async () => {
    const s = await startArchive({});
    const mint = bigMints[11]!;
    failingCurve = await bondingCurveAddress(mint);
    try {
      const { res } = await pollUntilDone(s, mint, '192.0.2.50', 60_000);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ error: 'rebuild_failed', finding: { class: 'UNKNOWN' } });
    } finally {
      failingCurve = null;
    }
    const retry = await token(s, mint, '192.0.2.50');
    expect(retry.status).toBe(202); // may try again
    expect((await pollUntilDone(s, mint, '192.0.2.50')).res.status).toBe(200);
    const noCurve = await token(s, 'So11111111111111111111111111111111111111112', '192.0.2.51');
    expect(noCurve.status).toBe(404);
    expect((await noCurve.json()).error).toBe('not_a_curve_launch');
  });
});

describe('agreement: a rebuild from history equals the record the collector observed', () => {
  it('for 100% of the simulated launches, documents are identical apart from origin, observedAtLaunch, asOf and history.rebuiltAt (lpa rebuild --file)', async () => {
    const dataDir = join(tmp, 'rebuilt');
    const file = join(tmp, 'mints.txt');
    writeFileSync(file, `# every launch of the simulated chain\n${allMints.join('\n')}\n`);
    const env = { ...process.env, SOLANA_RPC_URL: fastRpc.url, DATA_DIR: dataDir, LOG_LEVEL: 'warn', REBUILD_RPC_MAX_RPS: '0' };
    // Interrupted after the first 10 mints, then resumed: held mints are skipped.
    writeFileSync(join(tmp, 'first.txt'), allMints.slice(0, 10).join('\n'));
    await run(process.execPath, [LPA, 'rebuild', '--file', join(tmp, 'first.txt')], { env, cwd: ROOT });
    const resumed = await run(process.execPath, [LPA, 'rebuild', '--file', file], { env, cwd: ROOT, maxBuffer: 1 << 24 });
    expect(resumed.stderr.match(/held already, skipped/g)?.length).toBe(10);
    // an address that is no launch (no curve account, no history): refused, nothing written (it wrote an UNKNOWN record)
    const none = await run(process.execPath, [LPA, 'rebuild', '11111111111111111111111111111111'], { env, cwd: ROOT }).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('not a curve launch: the chain has no bonding curve account and no transaction history for this mint; nothing was written');

    const read = (dir: string) => {
      const db = new Database(join(dir, 'public.db'), { readonly: true });
      const rows = db.prepare('SELECT mint, document FROM launch').all() as { mint: string; document: string }[];
      db.close();
      return new Map(rows.map((r) => [r.mint, JSON.parse(r.document) as Record<string, unknown>]));
    };
    const observed = read(observedDir);
    const rebuilt = read(dataDir);
    expect(rebuilt.has('11111111111111111111111111111111')).toBe(false);
    const perField = new Map<string, { same: number; total: number }>();
    const mismatches: string[] = [];
    for (const mint of allMints) {
      const a = observed.get(mint);
      const b = rebuilt.get(mint);
      expect(a, `observed ${mint}`).toBeDefined();
      expect(b, `rebuilt ${mint}`).toBeDefined();
      expect(b!.origin).toBe('rebuilt');
      const fa = flatten(a);
      const fb = flatten(b);
      for (const k of new Set([...fa.keys(), ...fb.keys()])) {
        const f = perField.get(k) ?? { same: 0, total: 0 };
        f.total++;
        if (fa.get(k) === fb.get(k)) f.same++;
        else mismatches.push(`${mint} ${k}: observed ${fa.get(k)} rebuilt ${fb.get(k)}`);
        perField.set(k, f);
      }
    }
    const report = [...perField].map(([k, f]) => `${k} ${f.same}/${f.total}`).join('\n');
    expect(mismatches, `per field:\n${report}\nmismatches:\n${mismatches.slice(0, 30).join('\n')}`).toEqual([]);
    expect(perField.get('launch.creator')?.total).toBe(allMints.length);
  }, 180_000);
});
