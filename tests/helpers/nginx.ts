/**
 * nginx as the static tier in tests and benchmarks (issue 26): the configuration of
 * collector/cluster/nginx-config.ts, run unprivileged in the foreground from a temporary folder
 * (pid, logs, temporary files) on a free port. Needs /usr/sbin/nginx (Debian `nginx-light`; `.ci/run`
 * installs it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeNginxConfig, type NginxOptions } from '../../collector/cluster/nginx-config.ts';
import { freePort, sleep } from './net.ts';

export const NGINX = '/usr/sbin/nginx';

export interface RunningNginx {
  base: string;
  port: number;
  runDir: string;
  /** The configuration written. */
  config: string;
  /** Its error log so far. */
  errorLog: () => string;
  /** Stop it (SIGTERM: fast shutdown) and remove its folder. */
  stop: () => Promise<void>;
}

const accepts = (port: number) =>
  new Promise<boolean>((ok) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => (s.destroy(), ok(true)));
    s.once('error', () => ok(false));
  });

/**
 * Start nginx in front of `nodes` (`host:port` each) serving `siteDir`. Resolves when it accepts
 * connections. Errors: rejects with its error log when it exits or does not listen within 10 s.
 */
export async function startNginx(opts: Pick<NginxOptions, 'siteDir' | 'nodes'> & Partial<Pick<NginxOptions, 'workers' | 'accessLog'>>): Promise<RunningNginx> {
  const runDir = mkdtempSync(join(tmpdir(), 'lpa-nginx-'));
  const port = await freePort();
  const confPath = join(runDir, 'nginx.conf');
  const config = writeNginxConfig(confPath, { ...opts, listen: `127.0.0.1:${port}`, runDir, workers: opts.workers ?? 1 });
  const errorLogPath = join(runDir, 'error.log');
  const errorLog = () => (existsSync(errorLogPath) ? readFileSync(errorLogPath, 'utf8') : '');
  let output = '';
  // started as root (CI containers), nginx would run its workers as `nobody`, who cannot enter the
  // tests' private (0700) folders: they run as root too; otherwise as the user who started it
  const globals = `daemon off;${process.getuid?.() === 0 ? ' user root root;' : ''}`;
  const proc: ChildProcess = spawn(NGINX, ['-p', runDir, '-e', errorLogPath, '-c', confPath, '-g', globals], { stdio: ['ignore', 'pipe', 'pipe'] });
  proc.stdout!.on('data', (d) => (output += d));
  proc.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  for (let i = 0; !(await accepts(port)); i++) {
    if (proc.exitCode !== null || i > 100) {
      proc.kill('SIGKILL');
      throw new Error(`nginx did not start:\n${output}\n${errorLog()}`);
    }
    await sleep(100);
  }
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    runDir,
    config,
    errorLog,
    stop: async () => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
      await exited;
      rmSync(runDir, { recursive: true, force: true });
    },
  };
}
