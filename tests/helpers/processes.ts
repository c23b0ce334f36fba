/** Test helpers about processes. */
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { sleep } from './net.ts';

/** A process id no process has now (signal 0 answers ESRCH). */
export function deadPid(): number {
  for (let pid = 4_000_000; pid > 1000; pid -= 7919) {
    try {
      process.kill(pid, 0);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ESRCH') return pid;
    }
  }
  throw new Error('no free process id found');
}

/** The built server's entry (`npx astro build` first). */
export const SERVER_ENTRY = join(resolve(import.meta.dirname, '../..'), 'dist/server/entry.mjs');

/** A server process started by {@link startServerProcess}. */
export interface ServerProcess {
  proc: ChildProcess;
  base: string;
  /** stdout and stderr so far */
  log(): string;
  /** SIGTERM, and resolve when it has exited. */
  stop(): Promise<void>;
}

/**
 * Start the built server (dist/server/entry.mjs) with `env` (HOST and PORT required) and resolve
 * once `/api/v1/status` answers. Errors: rejects with the server's output when it does not answer
 * within `timeoutMs`.
 */
export async function startServerProcess(env: NodeJS.ProcessEnv, timeoutMs = 30_000): Promise<ServerProcess> {
  let out = '';
  const proc = spawn(process.execPath, [SERVER_ENTRY], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const base = `http://${env.HOST}:${env.PORT}`;
  const stop = () =>
    new Promise<void>((done) => {
      if (proc.exitCode !== null || proc.signalCode !== null) return done();
      proc.once('exit', () => done());
      proc.kill('SIGTERM');
    });
  for (const started = Date.now(); ; ) {
    try {
      await fetch(`${base}/api/v1/status`);
      return { proc, base, log: () => out, stop };
    } catch {
      if (Date.now() - started > timeoutMs || proc.exitCode !== null) {
        await stop();
        throw new Error(`server did not start:\n${out}`);
      }
      await sleep(100);
    }
  }
}
