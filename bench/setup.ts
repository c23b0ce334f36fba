import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, type Config } from '../src/config.ts';
import { PrivateStore } from '../src/db/private-store.ts';
import { KeyService, loadKeySecret } from '../src/access/keys.ts';
import { startReplayRpc } from '../devchain/replay/server.ts';
import { runCollect } from '../collector/commands/collect.ts';
import { PublicStore } from '../src/db/public-store.ts';
import { createArchiveRpc } from '../src/chain/rpc.ts';
import { createLogger } from '../src/log.ts';
import { rebuildLaunch } from '../src/ingest/rebuild-launch.ts';

export const ROOT = resolve(fileURLToPath(import.meta.url), '../..');
/** The mint whose record the token-endpoint benchmarks read (FIX/7, a real 2026 create_v2 launch). */
export const BENCH_MINT = 'CWiTGbCiDd8BKtNYNE2boT9fJGFG2MU53Uf6HQk4pump';

/** A data directory filled by the real collector from the shipped mainnet fixtures, and a key. */
export interface BenchArchive {
  dataDir: string;
  config: Config;
  key: string;
  env: Record<string, string>;
}

/**
 * Build the benchmark archive: replay RPC over tests/fixtures/chains/mainnet → `runCollect --once`
 * into a fresh temporary DATA_DIR → BENCH_MINT rebuilt (so requests read a settled-state record, not
 * start rebuilds) → one API key. The replay RPC is closed afterwards; the servers
 * under test only read the databases (unknown mints are not requested).
 */
export async function buildBenchArchive(): Promise<BenchArchive> {
  const replay = await startReplayRpc({ chainDir: join(ROOT, 'tests/fixtures/chains/mainnet') });
  const dataDir = mkdtempSync(join(tmpdir(), 'lpa-bench-'));
  const env = {
    SOLANA_RPC_URL: replay.url,
    DATA_DIR: dataDir,
    COLLECT_START: 'earliest',
    LOG_LEVEL: 'warn',
    KEY_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
  };
  const config = loadConfig({ ...process.env, ...env });
  await runCollect(config, { once: true });
  // BENCH_MINT's record rests on its creation alone and is UNKNOWN history_incomplete, which a keyed
  // request would rebuild (issue 20 (d)); rebuilt once here, it is the held record every request reads
  const publicStore = new PublicStore(config.publicDbPath);
  try {
    await rebuildLaunch({ config, store: publicStore, rpc: createArchiveRpc({ url: replay.url }), log: createLogger('silent') }, BENCH_MINT);
  } finally {
    publicStore.close();
  }
  await replay.close();
  const store = new PrivateStore(config.privateDbPath);
  const { key } = await new KeyService(store, loadKeySecret(config)).create('bench');
  store.close();
  return { dataDir, config, key, env };
}
