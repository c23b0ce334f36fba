/**
 * A local PostgreSQL cluster for `lpa cluster` and the tests: `initdb` in a folder, the server
 * listening on a unix socket in that folder only (no TCP: `listen_addresses=''`), trust
 * authentication for the `postgres` role. Works with Debian's `postgresql` package (binaries in
 * /usr/lib/postgresql/<major>/bin; the package's own default cluster is not touched).
 * PostgreSQL refuses to run as root: when started as root the cluster is owned by and run as the
 * `postgres` system user (created by the Debian package), through `runuser`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';

/** PostgreSQL or one of its commands is missing or failed; the message says what to install or what it printed. */
export class PostgresError extends Error {
  override name = 'PostgresError';
}

/** Directory of the newest installed PostgreSQL's binaries under `root` (Debian's layout), or null when none is installed. */
export function postgresBinDir(root = '/usr/lib/postgresql'): string | null {
  if (!existsSync(root)) return null;
  const majors = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return majors.length ? join(root, majors[0]!, 'bin') : null;
}

/** A running local cluster. */
export interface LocalPostgres {
  /** `postgres://postgres@localhost:<port>/postgres?host=<socket dir>` (the socket, not TCP) */
  url: string;
  /** the cluster's folder (socket, `data/`, `log`) */
  dir: string;
  /** Stop the server (fast shutdown, waits for it); the data stays. Errors: PostgresError with pg_ctl's output. */
  stop(): void;
  /** Start it again after {@link stop}. Errors: PostgresError with pg_ctl's output. */
  start(): void;
  /** Stop it (if running) and remove its folder. */
  destroy(): void;
}

const asRoot = () => userInfo().uid === 0;

function run(bin: string, args: string[]): void {
  const [cmd, argv] = asRoot() ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  const r = spawnSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.error) throw new PostgresError(`${cmd} could not run: ${r.error.message}`);
  if (r.status !== 0) throw new PostgresError(`${bin} ${args.join(' ')} failed (${r.status}): ${r.stderr || r.stdout}`);
}

/** The installed binaries' folder (under `root`, Debian's layout). Errors: PostgresError naming the Debian package when PostgreSQL is not installed. */
export function requirePostgres(root = '/usr/lib/postgresql'): string {
  const bin = postgresBinDir(root);
  if (!bin) throw new PostgresError(`PostgreSQL is not installed: ${root}/*/bin/initdb is missing (Debian: apt-get install postgresql)`);
  if (asRoot()) {
    const r = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    if (r.status !== 0) throw new PostgresError('running as root needs the `postgres` system user to run PostgreSQL (Debian: apt-get install postgresql creates it)');
  }
  return bin;
}

/**
 * Start a cluster in `opts.dir` (created; `initdb` only when it holds no `data/` yet, so a second
 * start reuses the data), or in a new temporary folder when `dir` is absent. The socket's port
 * number is `opts.port` or a random one (20000–59999). As root, the folder is given to the
 * `postgres` user (its parents must be enterable by it). Errors: PostgresError when PostgreSQL is
 * not installed or a command fails (its output in the message).
 */
export function startPostgres(opts: { dir?: string; port?: number } = {}): LocalPostgres {
  const bin = requirePostgres();
  const dir = opts.dir === undefined ? mkdtempSync(join(tmpdir(), 'lpa-pg-')) : resolve(opts.dir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (asRoot()) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const port = opts.port ?? 20_000 + Math.floor(Math.random() * 40_000);
  if (!existsSync(join(data, 'PG_VERSION'))) run(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const start = () =>
    run(join(bin, 'pg_ctl'), ['-D', data, '-l', join(dir, 'log'), '-w', '-o', `-k ${dir} -p ${port} -c listen_addresses='' -c fsync=off -c max_connections=200`, 'start']);
  const stop = () => run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
  start();
  return {
    url: `postgres://postgres@localhost:${port}/postgres?host=${encodeURIComponent(dir)}`,
    dir,
    stop,
    start,
    destroy() {
      try {
        stop();
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
