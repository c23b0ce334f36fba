import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { configEnv, type Config } from '../../src/config.ts';
import { createLogger, redactUrl } from '../../src/log.ts';
import { runCollect } from './collect.ts';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
export const SERVER_ENTRY = resolve(ROOT, 'dist/server/entry.mjs');

/**
 * Start the built Astro server (`dist/server/entry.mjs`) as a child process with the archive's
 * configuration (every setting of `config`, so the demo's replay RPC and DEMO reach it too). Errors: throws when the build is missing (run `npm run build`).
 */
export function startServer(config: Config, env: Record<string, string> = {}): ChildProcess {
  if (!existsSync(SERVER_ENTRY)) throw new Error(`server build not found at ${SERVER_ENTRY}: run "npm run build" first`);
  return spawn(process.execPath, [SERVER_ENTRY], {
    env: { ...process.env, ...configEnv(config), ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

/** `lpa start` (`npm start`): the server and the long-running collector, until SIGINT/SIGTERM. */
export async function runStart(config: Config): Promise<void> {
  const log = createLogger(config.LOG_LEVEL, 'start', { format: config.LOG_FORMAT });
  const server = startServer(config);
  log.info({ url: config.baseUrl, rpc: redactUrl(config.SOLANA_RPC_URL), ws: redactUrl(config.wsUrl), dataDir: config.dataDir }, `archive starting at ${config.baseUrl}, reading ${redactUrl(config.SOLANA_RPC_URL)}`);
  const ac = new AbortController();
  // SIGINT/SIGTERM (Ctrl-C reaches the server too): a normal stop, logged at info
  let stopping = false;
  const onStop = () => (stopping = true);
  process.once('SIGINT', onStop);
  process.once('SIGTERM', onStop);
  server.once('exit', (code, signal) => {
    if (stopping || (code === 0 && signal === null)) log.info({ code, signal }, 'server stopped');
    else {
      log.error({ code, signal }, 'server exited; stopping the collector');
      process.exitCode = code ?? 1;
    }
    ac.abort();
  });
  try {
    await runCollect(config, { once: false }, ac.signal);
  } finally {
    stopping = true;
    if (server.exitCode === null) server.kill('SIGTERM');
    process.off('SIGINT', onStop);
    process.off('SIGTERM', onStop);
  }
}
