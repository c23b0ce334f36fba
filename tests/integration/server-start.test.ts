import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, sleep } from '../helpers/net.ts';
import { SERVER_ENTRY, startServerProcess } from '../helpers/processes.ts';
import { PublicStore } from '../../src/db/public-store.ts';

/**
 * The built server's start (src/server/node-entry.ts): its first line is the project logger's
 * (`server listening` with its URL), and a configuration error stops it at start with one clear
 * line and exit code 1, instead of a server that listens and fails every request.
 */
describe('server start (dist/server/entry.mjs)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'lpa-server-start-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const base = { PATH: process.env.PATH, DATA_DIR: dataDir, HOST: '127.0.0.1', KEY_SECRET: 'server-start-secret-0123456789abcdef', LOG_FORMAT: 'json' };

  it('logs "server listening" as a JSON line of the project logger, with the URL it listens on', async () => {
    const port = String(await freePort());
    const s = await startServerProcess({ ...base, PORT: port });
    try {
      // the line is written once listening, and may reach this process after the first answer does (a loaded machine)
      for (const t0 = Date.now(); !s.log().includes('server listening') && Date.now() - t0 < 10_000; ) await sleep(50);
      const lines = s.log().split('\n').filter((l) => l.includes('server listening'));
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({ level: 30, name: 'server', msg: 'server listening', url: `http://127.0.0.1:${port}` });
      expect(s.log()).not.toContain('Server listening on');
    } finally {
      await s.stop();
    }
  });

  /** The server's output (stdout and stderr) once it holds `text` (or after 15 s), then the server stopped. */
  async function outputUntil(env: Record<string, string>, text: string, whileRunning?: () => Promise<void>): Promise<string> {
    const proc = spawn(process.execPath, [SERVER_ENTRY], { env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    proc.stdout!.on('data', (d) => (out += d));
    proc.stderr!.on('data', (d) => (out += d));
    try {
      for (const t0 = Date.now(); !out.includes(text) && Date.now() - t0 < 15_000; ) await sleep(50);
      await whileRunning?.();
      return out;
    } finally {
      proc.kill('SIGTERM');
      await new Promise((done) => proc.once('exit', done));
    }
  }

  it.each(['SIGTERM', 'SIGINT'] as const)('a stop by %s is logged at info (it logged nothing) and ends the process', async (signal) => {
    const port = String(await freePort());
    const proc = spawn(process.execPath, [SERVER_ENTRY], { env: { ...base, PORT: port }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    proc.stdout!.on('data', (d) => (out += d));
    proc.stderr!.on('data', (d) => (out += d));
    for (const t0 = Date.now(); !out.includes('server listening') && Date.now() - t0 < 15_000; ) await sleep(50);
    const exited = new Promise<NodeJS.Signals | null>((done) => proc.once('exit', (_c, s) => done(s)));
    proc.kill(signal);
    expect(await exited).toBe(signal);
    const line = out.split('\n').find((l) => l.includes('server stopping'));
    expect(line, out).toBeDefined();
    expect(JSON.parse(line!)).toMatchObject({ level: 30, msg: 'server stopping', signal });
  });

  it('a HOST that names no machine: one line naming HOST and exit 1 (it was an unhandled getaddrinfo stack)', async () => {
    const port = String(await freePort());
    const { code, out } = await outputToExit({ PORT: port, HOST: 'no.such.host.invalid' });
    expect(code).toBe(1);
    expect(out).toMatch(/The server cannot start: it cannot listen on no\.such\.host\.invalid:\d+ \((ENOTFOUND|EAI_AGAIN): .*set HOST/);
    expect(out).not.toMatch(/^\s+at /m);
  });

  /** A server that is to stop by itself: its exit code (null: killed after 20 s) and its output. */
  async function outputToExit(env: Record<string, string>): Promise<{ code: number | null; out: string }> {
    const proc = spawn(process.execPath, [SERVER_ENTRY], { env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    proc.stdout!.on('data', (d) => (out += d));
    proc.stderr!.on('data', (d) => (out += d));
    const code = await new Promise<number | null>((done) => {
      const t = setTimeout(() => (proc.kill('SIGKILL'), done(null)), 20_000);
      proc.once('exit', (c) => (clearTimeout(t), done(c)));
    });
    return { code, out };
  }

  it('an empty HOST (as an env file leaves it) listens on 127.0.0.1, never on every interface', async () => {
    const port = String(await freePort());
    const out = await outputUntil({ HOST: '', PORT: port }, 'server listening');
    const line = out.split('\n').find((l) => l.includes('server listening'))!;
    expect(JSON.parse(line)).toMatchObject({ url: `http://127.0.0.1:${port}` }); // it was http://[::]:PORT
  });

  it('a DATA_DIR where no database can be made: it listens and says which folder it cannot open (the message named no setting)', async () => {
    const port = String(await freePort());
    const out = await outputUntil({ DATA_DIR: '/proc', PORT: port }, 'cannot open', async () => {
      // meanwhile a request is answered 503 unavailable with Retry-After (it was 500 internal): a state to wait out, which a health check sees
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/status`);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('30');
      expect(await res.json()).toMatchObject({ error: 'unavailable', finding: { class: 'UNKNOWN' } });
    });
    expect(out).toContain(`The server listens on http://127.0.0.1:${port} but cannot open its databases in DATA_DIR=/proc yet (each request tries again)`);
  });

  it.each([
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ PORT: 'abc' }, 'PORT'], // was a RangeError stack from listen
  ])('stops with exit code 2 (as lpa does) and names the bad setting when the configuration is invalid (%j)', async (bad, name) => {
    const port = String(await freePort());
    const { code, out } = await outputToExit({ PORT: port, ...bad });
    expect(code).toBe(2);
    expect(out).toContain('The server cannot start: invalid configuration');
    expect(out).toContain(name);
    expect(out).not.toMatch(/^\s+at /m); // one line, no stack
    await expect(fetch(`http://127.0.0.1:${port}/api/v1/status`)).rejects.toThrow();
  });

  it('a DATA_DIR a newer release migrated: exit 2 naming the migration and what to do (an older release wrote to it and undid part of the upgrade)', async () => {
    const port = String(await freePort());
    const dataDir = mkdtempSync(join(tmpdir(), 'lpa-newer-'));
    try {
      const store = new PublicStore(join(dataDir, 'public.db'));
      store.db.prepare('INSERT INTO schema_migrations (version, name, applied_at_ms) VALUES (?, ?, ?)').run(9999, 'from a newer release', Date.now());
      store.close();
      const { code, out } = await outputToExit({ PORT: port, DATA_DIR: dataDir });
      expect(code).toBe(2);
      expect(out).toContain('The server cannot start: ');
      expect(out).toContain('was migrated by a newer release of the archive (its migration 9999; this release knows up to ');
      expect(out).toContain('restore the backup taken before the upgrade');
      expect(out).not.toMatch(/^\s+at /m);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
