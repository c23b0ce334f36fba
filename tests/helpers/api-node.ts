/**
 * API nodes for the integration tests of the cluster pieces (issue 26): the built server
 * (`dist/server/entry.mjs`, `npx astro build` first) started as a child process on a free port
 * over its own DATA_DIR, with a key created in its private database. Reusable by `npm run cluster`
 * tests: start N of them, point nginx at them (tests/helpers/nginx.ts, devchain/cluster/nginx.ts), kill one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { KeyService } from '../../src/access/keys.ts';
import { PrivateStore } from '../../src/db/private-store.ts';
import { freePort, sleep } from './net.ts';

/** The built server of this tree (`npx astro build`). */
export const ENTRY = resolve(import.meta.dirname, '../../dist/server/entry.mjs');

/** A fixed HMAC secret shared by every node of a test cluster (≥ 32 characters). */
export const TEST_KEY_SECRET = 'cluster-test-secret-0123456789abcdef';

export interface ApiNode {
  base: string;
  port: number;
  dataDir: string;
  /** A key valid on this node (created in its private.db before it started). */
  key: string;
  proc: ChildProcess;
  /** Its stdout and stderr so far. */
  log: () => string;
  /** SIGKILL it and wait for its exit. */
  kill: () => Promise<void>;
}

/** Create a key for `dataDir`'s private database under {@link TEST_KEY_SECRET}. */
export async function createTestKey(dataDir: string, label = 'cluster-test'): Promise<string> {
  mkdirSync(dataDir, { recursive: true });
  const store = new PrivateStore(join(dataDir, 'private.db'));
  try {
    return (await new KeyService(store, TEST_KEY_SECRET).create(label)).key;
  } finally {
    store.close();
  }
}

/**
 * Start an API node over `dataDir` with `env` on top (LOG_LEVEL warn, KEY_SECRET fixed). Resolves
 * when `/api/v1/status` answers. `entry` is the built server to run (default this tree's
 * `dist/server/entry.mjs`; another copy of the build stands for another machine's build or a
 * rebuild before a restart). Errors: rejects with its log when it does not answer within 30 s.
 */
export async function startApiNode(dataDir: string, env: Record<string, string> = {}, entry = ENTRY): Promise<ApiNode> {
  const key = await createTestKey(dataDir);
  const port = await freePort();
  let log = '';
  const proc = spawn(process.execPath, [entry], {
    env: { ...process.env, DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', LOG_FORMAT: 'json', KEY_SECRET: TEST_KEY_SECRET, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout!.on('data', (d) => (log += d));
  proc.stderr!.on('data', (d) => (log += d));
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (proc.exitCode !== null) throw new Error(`API node exited (${proc.exitCode}):\n${log}`);
    try {
      const res = await fetch(`${base}/api/v1/status`);
      await res.body?.cancel();
      break;
    } catch {
      if (i > 300) throw new Error(`API node did not start:\n${log}`);
      await sleep(100);
    }
  }
  return {
    base,
    port,
    dataDir,
    key,
    proc,
    log: () => log,
    kill: async () => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
      await exited;
    },
  };
}
