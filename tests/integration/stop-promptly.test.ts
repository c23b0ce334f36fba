/**
 * A stop is acted on at once (an operator's review): `lpa collect --once` paced by RPC_MAX_RPS, sent
 * SIGTERM while a batch's reads wait for their paced turns, exits with 143 within seconds — before,
 * each of the batch's queued calls still waited its turn and then failed (at RPC_MAX_RPS=5 a batch of
 * 500 took ~92 s to stop, past systemd's default 90 s stop timeout). What it committed stays; the
 * next run resumes and catches up. A simulated chain through the replay RPC.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReplayRpc, type ReplayRpc } from '../../devchain/replay/server.ts';
import { writeChain } from '../../devchain/simulate/write-chain.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const LPA = join(ROOT, 'bin/lpa.mjs');
let tmp: string;
let rpc: ReplayRpc;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'lpa-stop-'));
  writeChain({ launches: 12, seed: 31, out: join(tmp, 'chain') });
  rpc = await startReplayRpc({ chainDir: join(tmp, 'chain') });
}, 120_000);
afterAll(async () => {
  await rpc?.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** Run `lpa collect --once`; `stopAfterMs`: send SIGTERM once its log says it is reading a batch, after that long. */
function collectOnce(env: NodeJS.ProcessEnv, stopAfterMs?: number): Promise<{ code: number | null; log: string; stoppedInMs: number | null }> {
  return new Promise((done) => {
    const p = spawn(process.execPath, [LPA, 'collect', '--once'], { env, cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    let signalledAt: number | null = null;
    const onData = (d: Buffer) => {
      log += d;
      if (stopAfterMs !== undefined && signalledAt === null && /catching up/.test(log)) {
        signalledAt = -1;
        setTimeout(() => {
          signalledAt = performance.now();
          p.kill('SIGTERM');
        }, stopAfterMs);
      }
    };
    p.stdout!.on('data', onData);
    p.stderr!.on('data', onData);
    p.once('exit', (code) => done({ code, log, stoppedInMs: signalledAt !== null && signalledAt > 0 ? performance.now() - signalledAt : null }));
  });
}

describe('a stop during a paced catch-up', () => {
  it('SIGTERM while a batch waits for its paced reads: exit 143 within seconds; the next run catches up', async () => {
    const env = { ...process.env, SOLANA_RPC_URL: rpc.url, DATA_DIR: join(tmp, 'data'), COLLECT_START: 'earliest', COLLECT_BATCH: '500', RPC_MAX_RPS: '5', LOG_LEVEL: 'info', LOG_FORMAT: 'json' };
    const stopped = await collectOnce(env, 3_000);
    expect(stopped.code, stopped.log.slice(-2000)).toBe(143);
    // a batch of 500 at 5 calls a second would hold the reads ~100 s: a stop that waits for them is not prompt
    expect(stopped.stoppedInMs).not.toBeNull();
    expect(stopped.stoppedInMs!).toBeLessThan(10_000);
    expect(stopped.log).toContain('stopped before catching up');
    expect(stopped.log).not.toMatch(/transactions could not be read/); // the reads a stop cut short are not the RPC's failures
    const resumed = await collectOnce({ ...env, RPC_MAX_RPS: '0' });
    expect(resumed.code, resumed.log.slice(-2000)).toBe(0);
  }, 180_000);
});
