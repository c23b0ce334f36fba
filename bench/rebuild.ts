/**
 * Rebuild figures for `npm run bench` (issue 4): RPC calls per rebuild against each curve's
 * transaction count, and the wall time of a 2,000-transaction curve against a replay RPC limited to
 * 50 requests/s with 50 ms latency. Returns a markdown section.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { getBase58Decoder } from '@solana/kit';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/log.ts';
import { PublicStore } from '../src/db/public-store.ts';
import { createArchiveRpc } from '../src/chain/rpc.ts';
import { writeChain } from '../devchain/simulate/write-chain.ts';
import { startReplayRpc, type ReplayRpc } from '../devchain/replay/server.ts';
import { rebuildLaunch } from '../src/ingest/rebuild-launch.ts';
import { median } from './load.ts';

const PAGE = 1000;
const total = (r: ReplayRpc) => Object.values(r.stats.calls).reduce((a, b) => a + b, 0);

export async function benchRebuild(): Promise<string> {
  const tmp = mkdtempSync(join(tmpdir(), 'lpa-bench-rebuild-'));
  try {
    const chainDir = join(tmp, 'chain');
    const chain = writeChain({ launches: 100, seed: 99, out: chainDir });
    const mints = Object.keys(chain.truth.records).sort();
    const log = createLogger('silent');

    // 1. RPC calls per rebuild, every launch of a simulated chain.
    const replay = await startReplayRpc({ chainDir });
    const config = loadConfig({ SOLANA_RPC_URL: replay.url, DATA_DIR: join(tmp, 'a'), LOG_LEVEL: 'silent', REBUILD_RPC_MAX_RPS: '0' });
    const store = new PublicStore(config.publicDbPath);
    const rpc = createArchiveRpc({ url: replay.url });
    const overheads: number[] = [];
    const rows: { txs: number; sigs: number; calls: number; byMethod: Record<string, number> }[] = [];
    for (const mint of mints) {
      const before = { ...replay.stats.calls };
      const { progress } = await rebuildLaunch({ config, store, rpc, log }, mint);
      const byMethod: Record<string, number> = {};
      for (const [m, n] of Object.entries(replay.stats.calls)) if (n - (before[m] ?? 0) > 0) byMethod[m] = n - (before[m] ?? 0);
      const calls = Object.values(byMethod).reduce((a, b) => a + b, 0);
      rows.push({ txs: progress.transactions, sigs: progress.signatures, calls, byMethod });
      overheads.push(calls - progress.transactions - Math.ceil(progress.signatures / PAGE));
    }
    store.close();
    await replay.close();
    const biggest = [...rows].sort((a, b) => b.txs - a.txs).slice(0, 3);

    // 2. A 2,000-transaction curve: one simulated launch's trades cloned (new signatures, later slots).
    const lines = chain.transactions.map((l) => JSON.parse(l) as { slot: number; transaction: { signatures: string[]; message: { accountKeys: string[] } } });
    const target = biggest[0] ? mints.find((m) => rows[mints.indexOf(m)] === biggest[0])! : mints[0]!;
    const own = lines.filter((t) => JSON.stringify(t).includes(target));
    const template = own[own.length - 1]!;
    const slow = await startReplayRpc({ chainDir, latencyMs: 50, maxRequestsPerSecond: 50 });
    const b58 = getBase58Decoder();
    let slot = Math.max(...lines.map((l) => l.slot)) + 1;
    for (let i = own.length; i < 2000; i++) {
      const clone = JSON.parse(JSON.stringify(template));
      clone.transaction.signatures = [b58.decode(randomBytes(64))];
      clone.slot = slot++;
      slow.addTransaction(clone);
    }
    const config2 = loadConfig({ SOLANA_RPC_URL: slow.url, DATA_DIR: join(tmp, 'b'), LOG_LEVEL: 'silent' });
    const store2 = new PublicStore(config2.publicDbPath);
    const rpc2 = createArchiveRpc({ url: slow.url });
    const callsBefore = total(slow);
    const t0 = performance.now();
    const { progress } = await rebuildLaunch({ config: config2, store: store2, rpc: rpc2, log }, target, { maxRps: 48 });
    const wallS = (performance.now() - t0) / 1000;
    const calls = total(slow) - callsBefore;
    store2.close();
    await slow.close();
    const needed = progress.transactions + Math.ceil(progress.signatures / PAGE) + (progress.signatures % PAGE === 0 ? 1 : 0);
    const refused = calls - needed; // answered 429 by the replay's limit and retried by the transport
    const floorS = needed / 50;

    return [
      '## Rebuilds (issue 4)',
      '',
      `RPC calls per rebuild, for every launch of a simulated chain (100 launches, seed 99; replay RPC in history mode). ` +
        `Target: transactions + ⌈signatures/1000⌉ + a small constant. The constant measured (calls − transactions − ⌈signatures/1000⌉): ` +
        `median ${median(overheads)}, min ${Math.min(...overheads)}, max ${Math.max(...overheads)} ` +
        '(1 extra signature page when a page is exactly full; 1 account read for the curve and the pool together plus 1 for both pool vaults when the curve completed and its pool exists; and the first-funder lookups of the launch cohort’s wallets not yet known — one signature page plus the oldest transactions read per wallet — which the collector makes too).',
      '',
      '| transactions | signatures | RPC calls | by method |',
      '|---|---|---|---|',
      ...biggest.map((r) => `| ${r.txs} | ${r.sigs} | ${r.calls} | ${Object.entries(r.byMethod).map(([m, n]) => `${m} ${n}`).join(', ')} |`),
      '',
      `A ${progress.transactions}-transaction curve (a simulated launch's last trade cloned with new signatures) against a replay RPC limited to 50 requests/s with 50 ms latency, ` +
        `the rebuild's own limit set to 48 requests/s: **${wallS.toFixed(1)} s** for ${needed} needed RPC calls (${refused} more were refused with 429 and retried); ` +
        `the server's limit alone needs ${floorS.toFixed(1)} s (wall time ÷ that = ${(wallS / floorS).toFixed(2)}).`,
    ].join('\n');
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
