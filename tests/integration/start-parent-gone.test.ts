/**
 * `lpa start` runs the built server as its child. Killed hard (kill -9: no handler runs), it used to
 * leave that server listening, orphaned, and the next `lpa start` failed on the port (an operator's
 * review). The server now stops when its parent goes: the IPC channel it was started with closes.
 * Built server (dist/), the real mainnet fixtures through the replay RPC.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReplayRpc, type ReplayRpc } from '../../devchain/replay/server.ts';
import { freePort } from '../helpers/net.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const LPA = join(ROOT, 'bin/lpa.mjs');
let tmp: string;
let rpc: ReplayRpc;
const children: ChildProcess[] = [];

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'lpa-parent-gone-'));
  rpc = await startReplayRpc({ chainDir: join(ROOT, 'tests/fixtures/chains/mainnet') });
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await rpc?.close();
  rmSync(tmp, { recursive: true, force: true });
});

const answers = async (url: string) => {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(2_000) })).status;
  } catch {
    return null;
  }
};
const until = async (what: string, ok: () => Promise<boolean>, ms: number) => {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe('lpa start killed with kill -9', () => {
  it('its server stops too: the port is free again, and a new lpa start listens on it', async () => {
    const port = String(await freePort());
    const env = { ...process.env, SOLANA_RPC_URL: rpc.url, DATA_DIR: join(tmp, 'data'), PORT: port, HOST: '127.0.0.1', COLLECT_START: 'earliest', LOG_LEVEL: 'warn' };
    const url = `http://127.0.0.1:${port}/api/v1/status`;
    const first = spawn(process.execPath, [LPA, 'start'], { env, cwd: ROOT, stdio: 'ignore' });
    children.push(first);
    await until('the server to answer', async () => (await answers(url)) === 200, 60_000);
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    // the orphan answered 34 s later in the review; it now goes within its stop's grace
    await until('the orphaned server to stop', async () => (await answers(url)) === null, 10_000);
    const second = spawn(process.execPath, [LPA, 'start'], { env, cwd: ROOT, stdio: 'ignore' });
    children.push(second);
    await until('a new lpa start to answer on the same port', async () => (await answers(url)) === 200, 60_000);
    second.kill('SIGTERM');
    const code = await new Promise((r) => second.once('exit', (c, s) => r(c ?? s)));
    expect(code).toBe(0);
    expect(await answers(url)).toBeNull();
  }, 180_000);
});
