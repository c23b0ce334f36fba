/**
 * `npm run cluster` (issue 26 item 4): `lpa cluster` with NODES=2 starts a local PostgreSQL, two API
 * nodes over generations, the collector over the demo replay and nginx; through nginx a token page,
 * the status and a keyed record (with X-Archive-Generation) answer; SIGTERM stops it with exit 0
 * and leaves no process behind (its children, nginx's workers, and the PostgreSQL server, which
 * pg_ctl detaches). Needs the built server, postgresql and nginx (`.ci/run` installs them).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort, sleep } from '../helpers/net.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const LPA = join(ROOT, 'bin/lpa.mjs');
const tmp = mkdtempSync(join(tmpdir(), 'lpa-cluster-cmd-'));
chmodSync(tmp, 0o755); // the postgres user enters it when the tests run as root
let proc: ChildProcess | undefined;

afterAll(async () => {
  // a failed test: SIGTERM first, so the cluster stops what it started (PostgreSQL is detached)
  if (proc && proc.exitCode === null && proc.signalCode === null) {
    const gone = new Promise((r) => proc!.once('exit', r));
    proc.kill('SIGTERM');
    await Promise.race([gone, sleep(30_000)]);
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
  }
  rmSync(tmp, { recursive: true, force: true });
}, 40_000);

/** Parent pid of every process now (from /proc). */
function parents(): Map<number, number> {
  const out = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      out.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** Every descendant of `pid` now. */
function descendants(pid: number): number[] {
  const pp = parents();
  const found: number[] = [];
  const walk = (p: number) => {
    for (const [c, parent] of pp) if (parent === p) (found.push(c), walk(c));
  };
  walk(pid);
  return found;
}

/** The command line of `pid` if it runs now (a zombie, already exited, counts as gone), else null. */
function cmdline(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return null;
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
  } catch {
    return null;
  }
}

describe('npm run cluster', () => {
  it('serves through nginx from two API nodes over PostgreSQL and generations, and stops everything on SIGTERM', async () => {
    const port = await freePort();
    const dataDir = join(tmp, 'cluster');
    const env: NodeJS.ProcessEnv = { ...process.env, NODES: '2', PORT: String(port), DATA_DIR: dataDir, LOG_FORMAT: 'json' };
    delete env.PG_URL;
    let out = '';
    proc = spawn(process.execPath, [LPA, 'cluster'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    proc.stdout!.on('data', (d) => (out += d));
    proc.stderr!.on('data', (d) => (out += d));
    const exit = new Promise<number | null>((r) => proc!.once('exit', (code) => r(code)));
    const ready = /Cluster trial \(demo data\) at (http:\/\/\S+)[\s\S]*Cluster API key \(shown once\):\n(lpa_\S+)/;
    for (const until = Date.now() + 150_000; !ready.test(out); await sleep(200)) {
      if (Date.now() > until || proc.exitCode !== null) throw new Error(`cluster did not start:\n${out.slice(-3000)}`);
    }
    const [, base, key] = ready.exec(out)!;
    expect(base).toBe(`http://127.0.0.1:${port}`);
    const mint = /FINDINGS: http:\/\/\S+\/t\/(\S+)\.html/.exec(out)![1]!;

    const page = await fetch(`${base}/t/${mint}.html`);
    expect(page.status).toBe(200);
    expect(page.headers.get('server')).toMatch(/^nginx/);
    expect(await page.text()).toContain(mint);
    const status = await fetch(`${base}/api/v1/status`);
    expect(status.status).toBe(200);
    expect(Number(status.headers.get('x-archive-generation'))).toBeGreaterThan(0);
    expect((await status.json()) as object).toMatchObject({ demo: true });
    const token = await fetch(`${base}/api/v1/token/${mint}`, { headers: { Authorization: `Bearer ${key}` } });
    expect(token.status).toBe(200);
    expect(Number(token.headers.get('x-archive-generation'))).toBeGreaterThan(0);
    expect(((await token.json()) as { mint: string }).mint).toBe(mint);

    const children = descendants(proc.pid!);
    const pgPid = Number(readFileSync(join(dataDir, 'pg', 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
    const started = new Map([...children, pgPid, ...descendants(pgPid)].map((p) => [p, cmdline(p)]));
    expect(children.length).toBeGreaterThanOrEqual(4); // 2 nodes, nginx's master and worker
    expect(started.get(pgPid)).toContain(join(dataDir, 'pg', 'data'));

    proc.kill('SIGTERM');
    expect(await exit).toBe(0);
    await sleep(200);
    // still running with the same command line (a pid reused by another program is not ours)
    const left = [...started].filter(([p, cmd]) => cmd !== null && cmdline(p) === cmd);
    expect(left).toEqual([]);
    expect(existsSync(join(dataDir, 'pg', 'data', 'postmaster.pid'))).toBe(false); // PostgreSQL shut down cleanly
  }, 200_000);
});
