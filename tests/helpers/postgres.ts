/**
 * A throwaway PostgreSQL cluster for tests: `initdb` in a temporary directory, the server listening
 * on a unix socket in that directory only (no TCP: `listen_addresses=''`), trust authentication for
 * the `postgres` role. Works with Debian's `postgresql` package (binaries in
 * /usr/lib/postgresql/<major>/bin; the package's own default cluster is not touched).
 * PostgreSQL refuses to run as root: when the tests run as root the cluster is owned by and run as
 * the `postgres` system user (created by the Debian package), through `runuser`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

/** Directory of the newest installed PostgreSQL's binaries, or null when none is installed. */
export function postgresBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const majors = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return majors.length ? join(root, majors[0]!, 'bin') : null;
}

/** A running throwaway cluster. */
export interface TestPostgres {
  /** `postgres://postgres@localhost:<port>/postgres?host=<socket dir>` (the socket, not TCP) */
  url: string;
  /** the cluster's directory (socket, data, log) */
  dir: string;
  /** Stop the server (fast shutdown); the data stays. */
  stop(): void;
  /** Start it again after {@link stop}. */
  start(): void;
  /** Stop it and remove its directory. */
  destroy(): void;
}

const asRoot = userInfo().uid === 0;

function run(bin: string, args: string[]): void {
  const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  const r = spawnSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) throw new Error(`${bin} ${args.join(' ')} failed (${r.status}): ${r.stderr || r.stdout}`);
}

/**
 * Create and start a cluster. Errors: throws when PostgreSQL is not installed (see `.ci/run`) or a
 * command fails (its stderr in the message).
 */
export function startPostgres(): TestPostgres {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL is not installed (apt-get install postgresql): /usr/lib/postgresql/*/bin/initdb missing');
  const dir = mkdtempSync(join(tmpdir(), 'lpa-pg-'));
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const port = 20_000 + Math.floor(Math.random() * 40_000);
  run(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
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
