/**
 * A cron run (`lpa collect --once`) stopped by a signal before it caught up must not report
 * success: it returns 130 (SIGINT), 143 (SIGTERM) or 1 and says it stopped, not "caught up" (an
 * operator audit found rc 0 and "caught up" with the cursor far behind the tip). What it committed
 * stays, and the next run resumes and catches up.
 */
import { join } from 'node:path';
import { startServedChain, type ServedChain } from '../helpers/live-chain.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReplayRpc } from '../../devchain/replay/server.ts';
import { loadConfig } from '../../src/config.ts';
import { runCollect } from '../../collector/commands/collect.ts';
import { PublicStore } from '../../src/db/public-store.ts';

let served: ServedChain;
let tmp: string;
let rpc: ReplayRpc;
beforeAll(async () => {
  served = await startServedChain('stopped', 40, 2701, { latencyMs: 20 }); // slow enough to stop mid-run
  ({ tmp, rpc } = served);
}, 120_000);
afterAll(() => served?.close());

describe('lpa collect --once stopped by a signal', () => {
  it('returns non-zero (it returned 0 and logged "caught up"); a rerun catches up', async () => {
    const dataDir = join(tmp, 'data');
    const config = loadConfig({ DATA_DIR: dataDir, SOLANA_RPC_URL: rpc.url, COLLECT_START: 'earliest', LOG_LEVEL: 'silent', RPC_MAX_RPS: '50' });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 1_500);
    const code = await runCollect(config, { once: true }, ac.signal);
    expect(code).toBe(1);
    const store = new PublicStore(config.publicDbPath);
    const before = store.counts().records;
    store.close();
    expect(await runCollect({ ...config, RPC_MAX_RPS: 0 }, { once: true })).toBe(0);
    const after = new PublicStore(config.publicDbPath);
    expect(after.counts().records).toBeGreaterThan(before); // the first run had not caught up
    after.close();
  }, 120_000);
});
