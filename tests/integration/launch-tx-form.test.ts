/**
 * The form each transaction is kept in (methodology "Transactions taken from their logs";
 * src/core/record/from-logs.ts `keptFromLogs`): a catch-up that fetches every transaction keeps
 * a later curve trade in its logs form — the row the live watch keeps for a heard one — and
 * everything else whole, exactly as the pure rule says, whatever order the batch's answers
 * arrive in; a rebuild keeps the same rows. A simulated chain served by the replay RPC.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeChain } from '../../devchain/simulate/write-chain.ts';
import type { SimulatedChain } from '../../devchain/simulate/chain.ts';
import { startReplayRpc, type ReplayRpc } from '../../devchain/replay/server.ts';
import { rebuildLaunch } from '../../src/ingest/rebuild-launch.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { createArchiveRpc } from '../../src/chain/rpc.ts';
import { collectOnce } from '../helpers/collect-once.ts';
import { expectedRows, heldRows, type RowsByMint } from '../helpers/kept-rows.ts';

let tmp: string;
let chain: SimulatedChain;
let rpc: ReplayRpc;
/** mint → signature → the row the rule gives, from the chain file */
let expected: RowsByMint;
let keptFromLogsCount = 0;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'lpa-tx-form-'));
  chain = writeChain({ launches: 60, seed: 913, out: join(tmp, 'chain') });
  rpc = await startReplayRpc({ chainDir: join(tmp, 'chain') });
  expected = expectedRows(chain.transactions);
  keptFromLogsCount = new Set([...expected.values()].flatMap((m) => [...m.values()].filter((t) => t.fromLogsOnly).map((t) => t.signature))).size;
}, 120_000);

afterAll(async () => {
  await rpc?.close();
  rmSync(tmp, { recursive: true, force: true });
});

const rowsOf = (dataDir: string) => heldRows(join(dataDir, 'public.db'));

describe('launch_tx rows: the form the rule gives', () => {
  it('a catch-up in small batches, answers arriving out of order: every row is the rule\'s, later curve trades in their logs form', async () => {
    const dataDir = join(tmp, 'catch-up');
    // 40 signatures a batch, 7 calls a request, 4 requests at once: launches cross batches, and a
    // batch's answers arrive in any order
    await collectOnce(dataDir, rpc.url, Date.now, { COLLECT_BATCH: '40', RPC_BATCH_SIZE: '7', RPC_CONCURRENCY: '4', FUNDER_DAILY_RPC_BUDGET: '0' });
    const rows = rowsOf(dataDir);
    expect(keptFromLogsCount).toBeGreaterThan(chain.transactions.length / 3);
    expect([...rows.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [mint, bySignature] of expected) {
      const held = rows.get(mint)!;
      expect([...held.keys()].sort()).toEqual([...bySignature.keys()].sort());
      for (const [signature, tx] of bySignature) {
        expect({ mint, signature, row: held.get(signature) }).toEqual({ mint, signature, row: tx });
      }
    }
    expect(new Set([...rows.values()].flatMap((m) => [...m.values()].filter((t) => t.fromLogsOnly).map((t) => t.signature))).size).toBe(keptFromLogsCount);
  }, 120_000);

  it('a rebuild keeps the same rows as the collector for every transaction of the launch', async () => {
    const dataDir = join(tmp, 'rebuilt');
    const config = loadConfig({ DATA_DIR: dataDir, SOLANA_RPC_URL: rpc.url, LOG_LEVEL: 'silent', FUNDER_DAILY_RPC_BUDGET: '0' });
    const store = new PublicStore(config.publicDbPath);
    // the three launches with the most transactions
    const mints = [...expected.entries()].sort((a, b) => b[1].size - a[1].size).slice(0, 3).map(([m]) => m);
    try {
      for (const mint of mints) await rebuildLaunch({ config, store, rpc: createArchiveRpc({ url: rpc.url }), log: createLogger('silent') }, mint, { maxRps: 0 });
    } finally {
      store.close();
    }
    const rows = rowsOf(dataDir);
    for (const mint of mints) {
      const want = expected.get(mint)!;
      const held = rows.get(mint)!;
      expect([...want.values()].some((t) => t.fromLogsOnly)).toBe(true);
      for (const [signature, row] of held) expect({ mint, signature, row }).toEqual({ mint, signature, row: want.get(signature) });
    }
  }, 120_000);
});
