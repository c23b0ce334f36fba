/**
 * nginx as the static tier of `lpa cluster`, the tests and benchmarks (issue 26): the configuration
 * of collector/cluster/nginx-config.ts, run unprivileged in the foreground from a run folder (pid,
 * logs, temporary files). Needs /usr/sbin/nginx (Debian `nginx-light`; `.ci/run` installs it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeNginxConfig, type NginxOptions } from '../../collector/cluster/nginx-config.ts';
import { accepts, freePort, sleep } from './net.ts';

export const NGINX = '/usr/sbin/nginx';

/** nginx is missing or did not start; the message says what to install or holds its error log. */
export class NginxError extends Error {
  override name = 'NginxError';
}

/** Errors: NginxError naming the Debian package when the nginx binary (`path`, default /usr/sbin/nginx) is missing. */
export function requireNginx(path = NGINX): void {
  if (!existsSync(path)) throw new NginxError(`nginx is not installed: ${path} is missing (Debian: apt-get install nginx-light)`);
}

export interface RunningNginx {
  /** `http://127.0.0.1:<port>` */
  base: string;
  port: number;
  runDir: string;
  /** The configuration written. */
  config: string;
  /** Its process (the master). */
  proc: ChildProcess;
  /** Its error log so far. */
  errorLog: () => string;
  /** Stop it (SIGTERM: fast shutdown) and wait for its exit; a temporary run folder is removed. */
  stop: () => Promise<void>;
}

/**
 * Start nginx in front of `nodes` (`host:port` each) serving `siteDir`, listening on 127.0.0.1:`port`
 * (default: a free one), with its pid, logs and temporary files in `runDir` (default: a new
 * temporary folder, removed by stop()). Resolves when it accepts connections. Errors: NginxError
 * when nginx is missing, or with its output and error log when it exits or does not listen within 10 s.
 */
export async function startNginx(
  opts: Pick<NginxOptions, 'siteDir' | 'nodes'> & Partial<Pick<NginxOptions, 'workers' | 'accessLog'>> & { port?: number; runDir?: string },
): Promise<RunningNginx> {
  requireNginx();
  const ownRunDir = opts.runDir === undefined;
  const runDir = ownRunDir ? mkdtempSync(join(tmpdir(), 'lpa-nginx-')) : resolve(opts.runDir!);
  mkdirSync(runDir, { recursive: true });
  const port = opts.port ?? (await freePort());
  const confPath = join(runDir, 'nginx.conf');
  const { port: _p, runDir: _r, ...nginxOpts } = opts;
  const config = writeNginxConfig(confPath, { ...nginxOpts, listen: `127.0.0.1:${port}`, runDir, workers: opts.workers ?? 1 });
  const errorLogPath = join(runDir, 'error.log');
  const errorLog = () => (existsSync(errorLogPath) ? readFileSync(errorLogPath, 'utf8') : '');
  let output = '';
  // started as root (CI containers), nginx would run its workers as `nobody`, who cannot enter
  // private (0700) folders: they run as root too; otherwise as the user who started it
  const globals = `daemon off;${process.getuid?.() === 0 ? ' user root root;' : ''}`;
  const proc: ChildProcess = spawn(NGINX, ['-p', runDir, '-e', errorLogPath, '-c', confPath, '-g', globals], { stdio: ['ignore', 'pipe', 'pipe'] });
  proc.stdout!.on('data', (d) => (output += d));
  proc.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  for (let i = 0; !(await accepts(port)); i++) {
    if (proc.exitCode !== null || i > 100) {
      proc.kill('SIGKILL');
      throw new NginxError(`nginx did not start:\n${output}\n${errorLog()}`);
    }
    await sleep(100);
  }
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    runDir,
    config,
    proc,
    errorLog,
    stop: async () => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
      await exited;
      if (ownRunDir) rmSync(runDir, { recursive: true, force: true });
    },
  };
}
