import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { configEnv, type Config } from '../../src/config.ts';
import { createLogger, redactUrl, type Logger } from '../../src/log.ts';
import { runCollect } from './collect.ts';
import { holdCollectorLock, type CollectorLock } from '../run/collector-lock.ts';

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
    // the IPC channel carries one message: the server listens (src/server/node-entry.ts)
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

/**
 * Whether the server child listens: true when it says so over its IPC channel (it listens on its
 * own port, not merely something on that port), false when it exits first (it could not start: its
 * own line says why) or after `timeoutMs`.
 */
function serverListening(server: ChildProcess, timeoutMs = 60_000): Promise<boolean> {
  return new Promise((done) => {
    const finish = (ok: boolean) => {
      clearTimeout(timer);
      server.off('message', onMessage);
      server.off('exit', onExit);
      done(ok);
    };
    const onMessage = (m: unknown) => {
      if ((m as { lpa?: string } | null)?.lpa === 'listening') finish(true);
    };
    const onExit = () => finish(false);
    const timer = setTimeout(() => finish(false), timeoutMs);
    server.on('message', onMessage);
    server.once('exit', onExit);
    if (server.exitCode !== null || server.signalCode !== null) finish(false);
  });
}

/**
 * `lpa start` (`npm start`): the server and the long-running collector, until SIGINT/SIGTERM. The
 * collector starts once the server listens: a server that cannot start (a port in use) stops the
 * start before the collector has read the chain or begun coverage. Another collector on the same
 * DATA_DIR stops it before anything starts (CollectorRunningError, collector/run/collector-lock.ts).
 */
export async function runStart(config: Config): Promise<void> {
  const log = createLogger(config.LOG_LEVEL, 'start', { format: config.LOG_FORMAT });
  // the collector's lock first: a second `lpa start` (or one beside a cron collector) starts nothing
  const lock = holdCollectorLock(config.dataDir);
  try {
    await startHolding(config, log, lock);
  } finally {
    lock.release();
  }
}

async function startHolding(config: Config, log: Logger, lock: CollectorLock): Promise<void> {
  const server = startServer(config);
  log.info({ url: config.baseUrl, rpc: redactUrl(config.SOLANA_RPC_URL), ws: redactUrl(config.wsUrl), dataDir: config.dataDir }, `archive starting at ${config.baseUrl}, reading ${redactUrl(config.SOLANA_RPC_URL)}`);
  const ac = new AbortController();
  // SIGINT/SIGTERM (Ctrl-C reaches the server too): a normal stop, logged at info
  let stopping = false;
  let collecting = false;
  const onStop = () => (stopping = true);
  process.once('SIGINT', onStop);
  process.once('SIGTERM', onStop);
  server.once('exit', (code, signal) => {
    if (stopping || (code === 0 && signal === null)) log.info({ code, signal }, 'server stopped');
    else {
      log.error({ code, signal }, collecting ? 'server exited; stopping the collector' : 'server exited');
      process.exitCode = code ?? 1;
    }
    ac.abort();
  });
  if (!(await serverListening(server))) {
    if (server.exitCode === null) {
      log.error({ host: config.HOST, port: config.PORT }, 'the server did not listen within 60 s; stopping');
      server.kill('SIGTERM');
      process.exitCode = 1;
    } else log.error('the server could not start (its line above says why); the collector was not started, and nothing was read or written');
    process.off('SIGINT', onStop);
    process.off('SIGTERM', onStop);
    return;
  }
  try {
    collecting = true;
    await runCollect(config, { once: false, lock }, ac.signal);
  } finally {
    stopping = true;
    if (server.exitCode === null) server.kill('SIGTERM');
    process.off('SIGINT', onStop);
    process.off('SIGTERM', onStop);
  }
}
