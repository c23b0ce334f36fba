import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { configEnv, type Config } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
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
  const log = createLogger(config.LOG_LEVEL, 'start');
  const server = startServer(config);
  log.info({ url: config.baseUrl, rpc: config.SOLANA_RPC_URL, dataDir: config.dataDir }, 'archive starting');
  const ac = new AbortController();
  server.once('exit', (code) => {
    log.error({ code }, 'server exited; stopping the collector');
    ac.abort();
    process.exitCode = code ?? 1;
  });
  try {
    await runCollect(config, { once: false }, ac.signal);
  } finally {
    if (server.exitCode === null) server.kill('SIGTERM');
  }
}
