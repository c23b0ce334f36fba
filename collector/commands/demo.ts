import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { loadConfig } from '../../src/config.ts';
import { createLogger, redactUrl } from '../../src/log.ts';
import { PrivateStore } from '../../src/db/private-store.ts';
import { KeyService, loadKeySecret } from '../../src/server/keys.ts';
import { startReplayRpc } from '../replay/server.ts';
import { runCollect } from './collect.ts';
import { startServer } from './start.ts';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
/** The chain folder of real mainnet fixtures shipped with the project. */
export const DEMO_CHAIN = resolve(ROOT, 'tests/fixtures/chains/mainnet');

/**
 * `npm run demo`: the whole archive offline. Serves the real mainnet fixtures through the replay
 * RPC, runs the collector over them into a fresh `data/demo`, creates a demo key, starts the
 * server, and prints the base URL and the key. Runs until SIGINT/SIGTERM.
 */
export async function runDemo(opts: { port?: number }): Promise<void> {
  const replay = await startReplayRpc({ chainDir: DEMO_CHAIN, port: 0 });
  const dataDir = resolve(ROOT, 'data/demo');
  rmSync(dataDir, { recursive: true, force: true });
  const config = loadConfig({
    ...process.env,
    SOLANA_RPC_URL: replay.url,
    SOLANA_WS_URL: replay.wsUrl,
    DATA_DIR: dataDir,
    PORT: opts.port !== undefined ? String(opts.port) : (process.env.PORT ?? '4321'),
    HOST: process.env.HOST ?? '127.0.0.1',
    COLLECT_START: 'earliest',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  });
  const log = createLogger('info', 'demo');
  await runCollect(config, { once: true });
  const privateStore = new PrivateStore(config.privateDbPath);
  const { key } = new KeyService(privateStore, loadKeySecret(config)).create('demo');
  privateStore.close();
  const server = startServer(config);
  log.info({ rpc: redactUrl(replay.url) }, 'replay RPC over the shipped mainnet fixtures');
  const mint = 'CWiTGbCiDd8BKtNYNE2boT9fJGFG2MU53Uf6HQk4pump';
  process.stdout.write(
    [
      '',
      `Demo archive at ${config.baseUrl}`,
      `  status:   ${config.baseUrl}/api/v1/status`,
      `  a page:   ${config.baseUrl}/t/${mint}.html`,
      `  a record: curl -H "Authorization: Bearer ${key}" ${config.baseUrl}/api/v1/token/${mint}`,
      `Demo API key (shown once):`,
      key,
      '',
    ].join('\n'),
  );
  await new Promise<void>((resolveStop) => {
    const stop = () => resolveStop();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    server.once('exit', stop);
  });
  if (server.exitCode === null) server.kill('SIGTERM');
  await replay.close();
}
