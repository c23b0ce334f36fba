/**
 * Coverage honesty (issue 24 item 2): coverage begins at the first successful read of the program's
 * history. A cron run against an RPC that does not answer exits with an error and records no
 * coverage and no run; the long-running collector started with the RPC down shows
 * `collector.state: "unreachable"` (since when, the last error with URLs cut to scheme://host,
 * `running: false`) until the RPC comes up; then coverage.from is at or after that first read, and
 * every launch created before it is `scanned`, never `observed`. The RPC is a replay on loopback
 * started late on a port chosen before.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeChain } from '../../devchain/simulate/write-chain.ts';
import type { SimulatedChain } from '../../devchain/simulate/chain.ts';
import { startReplayRpc, type ReplayRpc } from '../../devchain/replay/server.ts';
import { collect } from '../../collector/collect.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { createArchiveRpc } from '../../src/chain/rpc.ts';
import { statusBody } from '../../src/facts/status.ts';
import type { LaunchDocument } from '../../src/core/types.ts';
import { freePort, sleep } from '../helpers/net.ts';

let tmp: string;
let chain: SimulatedChain;
let rpc: ReplayRpc | undefined;
const SECRET = 'key-in-the-url-3f9a';

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'lpa-honest-'));
  chain = writeChain({ launches: 40, seed: 24, out: join(tmp, 'chain') });
});

afterAll(async () => {
  await rpc?.close();
  rmSync(tmp, { recursive: true, force: true });
});

async function waitFor(what: string, ok: () => boolean, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

describe('coverage begins at the first successful chain read', () => {
  it('RPC down, then up: no coverage or run before; status unreachable (redacted error); launches created before the first read are scanned', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/v1/?api-key=${SECRET}`;
    const config = loadConfig({ DATA_DIR: join(tmp, 'data'), SOLANA_RPC_URL: url, SOLANA_WS_URL: `ws://127.0.0.1:${port}`, COLLECT_START: 'earliest', POLL_INTERVAL_MS: '200', LOG_LEVEL: 'silent' });
    const store = new PublicStore(config.publicDbPath);
    const deps = { config, store, rpc: createArchiveRpc({ url, attempts: 1 }), log: createLogger('silent') };

    // 1. a cron run with the RPC down: exits with an error, records no coverage and no run
    await expect(collect(deps, { once: true })).rejects.toThrow(/cannot reach http:\/\/127\.0\.0\.1:\d+ .*SOLANA_RPC_URL/);
    expect(store.getMeta('coverage_from_ms')).toBeUndefined();
    expect(store.lastRun()).toBeUndefined();
    let status = statusBody({ publicStore: store, config }, Date.now());
    expect(status.coverage.from).toBeNull();
    expect(status.collector).toMatchObject({ state: 'unreachable', running: false, lastHeartbeat: null });
    expect(status.collector.unreachableSince).not.toBeNull();
    expect(status.collector.lastRpcError).toMatch(/ECONNREFUSED|connect/);
    expect(JSON.stringify(status)).not.toContain(SECRET);

    // 2. the long-running collector, still down: unreachable, no coverage
    const ac = new AbortController();
    const running = collect(deps, { once: false, wsUrl: config.wsUrl, signal: ac.signal });
    try {
      await sleep(1_000);
      status = statusBody({ publicStore: store, config }, Date.now());
      expect(status.collector.state).toBe('unreachable');
      expect(status.coverage.from).toBeNull();

      // 3. the RPC comes up with the first half of the launches already created
      const creations = Object.values(chain.truth.records).map((r) => r.creationSlot).sort((a, b) => a - b);
      const half = creations[Math.floor(creations.length / 2)]!;
      const last = Math.max(...chain.transactions.map((l) => (JSON.parse(l) as { slot: number }).slot));
      const upAt = Date.now();
      rpc = await startReplayRpc({ chainDir: join(tmp, 'chain'), port, live: true, speed: 1e-6, startSlot: half });
      await waitFor('coverage to begin', () => store.getMeta('coverage_from_ms') !== undefined);
      const fromMs = Number(store.getMeta('coverage_from_ms'));
      const fromSlot = Number(store.getMeta('coverage_from_slot'));
      expect(fromMs).toBeGreaterThanOrEqual(upAt);
      expect(fromSlot).toBe(half);
      rpc.advanceTo(last);
      const lastProgramSlot = Math.max(...creations);
      await waitFor('the cursor to pass the last creation', () => (store.getCursor('program')?.slot ?? 0) >= lastProgramSlot, 90_000);
      await waitFor('a heartbeat after the outage', () => statusBody({ publicStore: store, config }, Date.now()).collector.state === 'live', 30_000);
      status = statusBody({ publicStore: store, config }, Date.now());
      expect(status.collector).toMatchObject({ state: 'live', running: true, unreachableSince: null, lastRpcError: null });
      expect(status.coverage.from!.ms).toBe(fromMs);
    } finally {
      ac.abort();
      await running;
    }

    let before = 0;
    for (const [mint, t] of Object.entries(chain.truth.records)) {
      const row = store.getLaunch(mint);
      expect(row, mint).toBeDefined();
      const doc = JSON.parse(row!.document) as LaunchDocument;
      const beforeFirstRead = t.creationSlot <= Number(store.getMeta('coverage_from_slot'));
      if (beforeFirstRead) before++;
      expect({ mint, origin: doc.origin, observedAtLaunch: doc.observedAtLaunch }).toEqual({ mint, origin: beforeFirstRead ? 'scanned' : 'observed', observedAtLaunch: !beforeFirstRead });
    }
    expect(before).toBeGreaterThan(10);
    store.close();
  }, 180_000);
});

describe('a provider that refuses: the advice fits its answer (it said "set SOLANA_RPC_URL" to a rate limit)', () => {
  it.each([
    [429, 'the provider limits the rate: lower RPC_MAX_RPS (and RPC_BATCH_SIZE), or use a plan or provider that allows more'],
    [401, 'the provider refused the request: check the key or token in SOLANA_RPC_URL'],
    [403, 'the provider refused the request: check the key or token in SOLANA_RPC_URL'],
    [503, 'the provider is failing: the next run tries again; if it lasts, use another SOLANA_RPC_URL'],
  ])('HTTP %i', async (status, advice) => {
    const { createServer } = await import('node:http');
    const server = createServer((_req, res) => res.writeHead(status, { 'Content-Type': 'text/plain' }).end('no'));
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/?api-key=${SECRET}`;
    try {
      const config = loadConfig({ DATA_DIR: join(tmp, `refused-${status}`), SOLANA_RPC_URL: url, LOG_LEVEL: 'silent' });
      const store = new PublicStore(config.publicDbPath);
      const deps = { config, store, rpc: createArchiveRpc({ url, attempts: 1 }), log: createLogger('silent') };
      const err = await collect(deps, { once: true }).then(() => null, (e: Error) => e);
      expect(err?.message).toContain(`): ${advice}; no coverage is recorded until the chain is read`);
      expect(err?.message).not.toContain(SECRET);
      store.close();
    } finally {
      server.close();
    }
  });
});
