/**
 * One cron-form collector run (`collect --once`) in the test's process, against a replay RPC, with
 * the test's clock: what the sweep tests repeat run after run.
 */
import { collect } from '../../collector/collect.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { createArchiveRpc } from '../../src/chain/rpc.ts';

/** Run the collector once over `rpcUrl` into `dataDir` (COLLECT_START earliest, silent) with `env` on top; `now` is its clock. */
export async function collectOnce(dataDir: string, rpcUrl: string, now: () => number, env: Record<string, string> = {}): Promise<void> {
  const config = loadConfig({ DATA_DIR: dataDir, SOLANA_RPC_URL: rpcUrl, COLLECT_START: 'earliest', LOG_LEVEL: 'silent', ...env });
  const store = new PublicStore(config.publicDbPath);
  try {
    await collect({ config, store, rpc: createArchiveRpc({ url: rpcUrl }), log: createLogger('silent'), now }, { once: true });
  } finally {
    store.close();
  }
}
