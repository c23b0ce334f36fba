/**
 * `npm run demo` (issue 24 item 1): the demo's server reads the demo's replay RPC (a launch not
 * held is rebuilt, 202 then 200; the wrapped SOL mint is 404 `not_a_curve_launch`), says it is demo
 * data (`"demo": true` in status, a banner on token pages), launches keep arriving, a normal stop
 * exits 0; a second demo on a busy port exits non-zero with "in use" and deletes nothing.
 * Needs the built server (dist/server/entry.mjs; `npm test` builds it).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join, resolve } from 'node:path';
import { freePort, sleep } from '../helpers/net.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const LPA = join(ROOT, 'bin/lpa.mjs');
const procs: ChildProcess[] = [];
const dirs: string[] = [];

function demo(port: number, extra: string[] = []): { proc: ChildProcess; out: () => string; exit: Promise<number | null> } {
  let out = '';
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_FORMAT: 'json' };
  delete env.PORT;
  const proc = spawn(process.execPath, [LPA, 'demo', '--port', String(port), ...extra], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  procs.push(proc);
  dirs.push(join(ROOT, `data/demo-${port}`));
  return { proc, out: () => out, exit: new Promise((r) => proc.once('exit', (code) => r(code))) };
}

afterAll(async () => {
  // a failed test leaves its demo running: stop it as a user would (Ctrl-C), so that it stops its own
  // server and replay; SIGKILL at once would leave the server it started running, orphaned
  await Promise.all(
    procs
      .filter((p) => p.exitCode === null && p.signalCode === null)
      .map(async (p) => {
        const exited = new Promise((r) => p.once('exit', r));
        p.kill('SIGINT');
        if ((await Promise.race([exited.then(() => true), sleep(20_000).then(() => false)])) === false) p.kill('SIGKILL');
      }),
  );
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}, 30_000);

describe('npm run demo', () => {
  it('a busy port: a clear error, a non-zero exit, and the data directory of that port left as it was', async () => {
    const busy: Server = createServer();
    const port = await new Promise<number>((ok) => busy.listen(0, '127.0.0.1', () => ok((busy.address() as { port: number }).port)));
    const dir = join(ROOT, `data/demo-${port}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'public.db'), 'the running demo\'s data');
    const d = demo(port);
    const code = await d.exit;
    busy.close();
    expect(code).not.toBe(0);
    expect(d.out()).toContain(`port ${port} on 127.0.0.1 is in use`);
    expect(existsSync(join(dir, 'public.db'))).toBe(true);
    // the replayed chain's port, when asked for one (--rpc-port), is checked the same way, before anything is touched
    const busyRpc: Server = createServer();
    const rpcPort = await new Promise<number>((ok) => busyRpc.listen(0, '127.0.0.1', () => ok((busyRpc.address() as { port: number }).port)));
    const free = await freePort();
    const r = demo(free, ['--rpc-port', String(rpcPort)]);
    const rcode = await r.exit;
    busyRpc.close();
    expect(rcode).not.toBe(0);
    expect(r.out()).toContain(`port ${rpcPort} on 127.0.0.1 is in use (another demo or server?): stop it, or run the demo with --rpc-port N`);
  });

  it('serves demo data from its own replay: status says demo, pages carry the banner, rebuilds and not_a_curve_launch work, launches keep arriving', async () => {
    const port = await freePort();
    const rpcPort = await freePort();
    const d = demo(port, ['--rpc-port', String(rpcPort)]);
    const until = Date.now() + 120_000;
    while (!/Demo API key \(shown once\):\n(lpa_\S+)/.test(d.out())) {
      if (Date.now() > until || d.proc.exitCode !== null) throw new Error(`demo did not start:\n${d.out().slice(-3000)}`);
      await sleep(200);
    }
    const key = /Demo API key \(shown once\):\n(lpa_\S+)/.exec(d.out())![1]!;
    const base = `http://127.0.0.1:${port}`;
    const auth = { Authorization: `Bearer ${key}` };
    const status = async () => (await (await fetch(`${base}/api/v1/status`)).json()) as { demo: boolean; counts: { records: number } };
    const first = await status();
    expect(first.demo).toBe(true);
    // the chain on the port asked for (--rpc-port), as printed
    expect(d.out()).toContain(`replay:   http://127.0.0.1:${rpcPort}`);

    const page = /FINDINGS: (\S+\.html)/.exec(d.out())![1]!;
    const html = await (await fetch(page)).text();
    expect(html).toContain('id="demo"');
    expect(html).toContain('Demo data');

    let home = await (await fetch(`${base}/`)).text();
    expect(home).toContain('id="demo"');
    // the status page says why launches dated before the coverage start read "observed live" here
    expect(await (await fetch(`${base}/status.html`)).text()).toMatch(/id="demo-dates">In this demo the launches carry the replayed chain’s dates/);
    // the home page lists launches (issue 23; rewritten every LISTS_INTERVAL_MS as they land), and its search finds one by its symbol
    const rowOf = (page: string) => /<a class="tok" href="\/t\/(\w+)\.html"><span class="name">[^<]*<\/span> <span class="sym">(\w+)<\/span>/.exec(page);
    for (let i = 0; i < 100 && !rowOf(home); i++) {
      await sleep(200);
      home = await (await fetch(`${base}/`)).text();
    }
    const row = rowOf(home);
    expect(row).not.toBeNull();
    const found = await (await fetch(`${base}/search?q=${encodeURIComponent(row![2]!)}`)).text();
    expect(found).toContain(`href="/t/${row![1]}.html"`);
    expect((await fetch(`${base}/search?q=${row![1]}`, { redirect: 'manual' })).headers.get('location')).toBe(`/t/${row![1]}.html`);

    const sol = await fetch(`${base}/api/v1/token/So11111111111111111111111111111111111111112`, { headers: auth });
    expect(sol.status).toBe(404);
    expect(((await sol.json()) as { error: string }).error).toBe('not_a_curve_launch');

    const rebuildUrl = /202, then 200\): curl -H "[^"]+" (\S+)/.exec(d.out())![1]!;
    const r1 = await fetch(rebuildUrl, { headers: auth });
    expect(r1.status).toBe(202);
    let r2 = r1;
    for (let i = 0; i < 150 && r2.status === 202; i++) {
      await sleep(200);
      r2 = await fetch(rebuildUrl, { headers: auth });
    }
    expect(r2.status).toBe(200);
    expect(((await r2.json()) as { origin: string }).origin).toBe('rebuilt');

    // the live part lands a step every 3 s: more records within a few steps
    let later = first.counts.records;
    for (let i = 0; i < 100 && later <= first.counts.records + 1; i++) {
      await sleep(200);
      later = (await status()).counts.records;
    }
    expect(later).toBeGreaterThan(first.counts.records + 1);

    // the printed feed line works with the demo key: an event with an id and a record arrives
    const streamUrl = /the creation feed [^\n]*curl -N -H "[^"]+" "(\S+)"/.exec(d.out())![1]!;
    const ac = new AbortController();
    const feed = await fetch(streamUrl, { headers: auth, signal: ac.signal });
    expect(feed.status).toBe(200);
    expect(feed.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = feed.body!.getReader();
    let text = '';
    while (!/\nid: \d+\ndata: \{/.test(text)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    ac.abort();
    expect(text).toMatch(/\nid: \d+\ndata: \{"mint":"[1-9A-HJ-NP-Za-km-z]{32,44}"/);

    d.proc.kill('SIGINT');
    expect(await d.exit).toBe(0);
    expect(d.out()).not.toMatch(/"level":50/);
  }, 180_000);

  it('run by npm (package.json scripts exec node), stops on a SIGTERM sent to npm: the archive gets it, stops cleanly, and nothing is left serving', async () => {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, LOG_FORMAT: 'json' };
    delete env.PORT;
    // npm as the operator runs it (a container's `npm start`, a supervisor's stop): its own CLI, by the path npm gave this run when there is one
    const npmCli = process.env.npm_execpath;
    const [cmd, args] = npmCli && npmCli.endsWith('.js') ? [process.execPath, [npmCli]] : ['npm', []];
    let out = '';
    const npm = spawn(cmd, [...args, 'run', '--silent', 'lpa', '--', 'demo', '--port', String(port)], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    npm.stdout!.on('data', (d) => (out += d));
    npm.stderr!.on('data', (d) => (out += d));
    procs.push(npm);
    dirs.push(join(ROOT, `data/demo-${port}`));
    const until = Date.now() + 120_000;
    while (!out.includes('Demo API key (shown once)')) {
      if (Date.now() > until || npm.exitCode !== null) throw new Error(`demo did not start under npm:\n${out.slice(-3000)}`);
      await sleep(200);
    }
    const exited = new Promise((r) => npm.once('exit', r));
    npm.kill('SIGTERM');
    await Promise.race([exited, sleep(30_000)]);
    const answers = async () => fetch(`http://127.0.0.1:${port}/api/v1/status`).then(() => true, () => false);
    let stillServing = await answers();
    for (let i = 0; stillServing && i < 20; i++) {
      await sleep(500);
      stillServing = await answers();
    }
    if (stillServing) {
      // the archive was orphaned by npm's exit (a shell between npm and node took the signal): stop it for the next tests
      spawn('pkill', ['-INT', '-f', `demo --port ${port}`]);
      await sleep(5_000);
    }
    expect(stillServing, 'the demo still answered after npm was sent SIGTERM').toBe(false);
    expect(out).toContain('demo stopped');
    // every script that runs the archive hands npm's process to node the same way
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    for (const name of ['start', 'demo', 'cluster', 'lpa']) expect(scripts[name], name).toMatch(/^exec node bin\/lpa\.mjs\b/);
  }, 180_000);
});
