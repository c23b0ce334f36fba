/**
 * One collector per DATA_DIR (an operator audit: a cron `lpa collect --once` beside `lpa start`
 * ran two collectors on one archive, both advancing the same cursor and writing the same
 * launches). The lock is the operating system's, so a collector killed with -9 leaves none behind.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { CollectorRunningError, HOLDER_FILE, holdCollectorLock } from '../../collector/run/collector-lock.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const LPA = join(ROOT, 'bin/lpa.mjs');
const run = promisify(execFile);
const tmp = mkdtempSync(join(tmpdir(), 'lpa-lock-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const lpa = (args: string[], dataDir: string) =>
  run(process.execPath, [LPA, ...args], { env: { ...process.env, DATA_DIR: dataDir, LOG_FORMAT: 'pretty', SOLANA_RPC_URL: 'http://127.0.0.1:9' }, timeout: 60_000 }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  );

/** A separate process holding the lock of `dataDir` until it is killed; resolves once it holds it. */
function holderProcess(dataDir: string): Promise<ChildProcess> {
  const script = join(tmp, 'hold.mts');
  writeFileSync(script, `import { holdCollectorLock } from ${JSON.stringify(join(ROOT, 'collector/run/collector-lock.ts'))};\nholdCollectorLock(process.argv[2]); // the handle dropped: the lock must hold all the same\nglobalThis.gc?.();\nconsole.log('held');\nsetInterval(() => {}, 1000);\n`);
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', script, dataDir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((ok, fail) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('held') && ok(child));
    child.once('exit', (code) => fail(new Error(`holder exited with ${code}`)));
  });
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

describe('one collector per DATA_DIR', () => {
  it('in one process: a second hold is refused naming the holder; after release it is held again', () => {
    const dir = join(tmp, 'same-process');
    const first = holdCollectorLock(dir);
    expect(JSON.parse(readFileSync(join(dir, HOLDER_FILE), 'utf8'))).toMatchObject({ pid: process.pid });
    expect(() => holdCollectorLock(dir)).toThrow(CollectorRunningError);
    expect(() => holdCollectorLock(dir)).toThrow(`another collector is already running on DATA_DIR=${dir} (pid ${process.pid} on `);
    first.release();
    expect(existsSync(join(dir, HOLDER_FILE))).toBe(false);
    holdCollectorLock(dir).release();
  });

  it('lpa collect --once and lpa start beside a running collector: exit 1, one line naming its pid, nothing read or written; kill -9 of the holder frees the lock', async () => {
    const dir = join(tmp, 'two-processes');
    const holder = await holderProcess(dir);
    children.push(holder);
    for (const args of [['collect', '--once'], ['start']]) {
      const r = await lpa(args, dir);
      expect(r.code).toBe(1);
      expect(r.stderr.trim().split('\n')).toEqual([
        `lpa: another collector is already running on DATA_DIR=${dir} (pid ${holder.pid} on ${JSON.parse(readFileSync(join(dir, HOLDER_FILE), 'utf8')).host}, since ${JSON.parse(readFileSync(join(dir, HOLDER_FILE), 'utf8')).since}); stop it first (one collector per data folder: they would write the same launches and cursor), or give this one another DATA_DIR`,
      ]);
    }
    expect(existsSync(join(dir, 'public.db'))).toBe(false);
    holder.kill('SIGKILL');
    await new Promise((ok) => holder.once('exit', ok));
    // no stale lock: the operating system released it with the process
    holdCollectorLock(dir).release();
  }, 120_000);

  it('a DATA_DIR that cannot be made is refused naming the setting and the path', () => {
    const file = join(tmp, 'a-file');
    writeFileSync(file, '');
    expect(() => holdCollectorLock(join(file, 'data'))).toThrow(`DATA_DIR=${join(file, 'data')}: cannot create or open ${join(file, 'data', 'collector.lock')} (ENOTDIR)`);
  });
});
