import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createServer } from 'node:net';
import { startReplayRpc, type ReplayRpc } from '../../devchain/replay/server.ts';
import { PrivateStore } from '../../src/db/private-store.ts';
import { KeyService } from '../../src/access/keys.ts';
import { redactIn, redactUrl } from '../../src/log.ts';
import { freePort } from '../helpers/net.ts';

/**
 * Issue 21 item 7 (secrets in logs) and the CLI's EPIPE: `lpa start` and the live watch logged the
 * RPC and WebSocket URLs whole, with a provider key in the path or the query; `lpa keys list | head`
 * crashed with a stack trace.
 */

const ROOT = resolve(import.meta.dirname, '../..');
const LPA = join(ROOT, 'bin/lpa.mjs');
const SECRET = 'KEYinPATH7x9';
const QSECRET = 'KEYinQUERY4q2';

let dataDir: string;
let replay: ReplayRpc;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'lpa-cli-'));
  replay = await startReplayRpc({ chainDir: join(ROOT, 'tests/fixtures/chains/mainnet') });
});
afterAll(async () => {
  await replay?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('redactUrl', () => {
  it('keeps scheme://host[:port] only', () => {
    expect(redactUrl(`https://user:pw@rpc.example.com:8443/v2/${SECRET}?api-key=${QSECRET}`)).toBe('https://rpc.example.com:8443');
    expect(redactUrl(`wss://ws.example.com/${SECRET}`)).toBe('wss://ws.example.com');
    expect(redactUrl('not a url')).toBe('(not a URL)');
    expect(redactIn(`Error: failed to connect to wss://h/${SECRET}`, `wss://h/${SECRET}`)).toBe('Error: failed to connect to wss://h');
  });
});

describe('lpa start logs the RPC and WebSocket URLs as scheme://host only', () => {
  it.skipIf(!existsSync(join(ROOT, 'dist/server/entry.mjs')))('no key from the path or the query reaches the log (start line, live watch)', async () => {
    const port = await freePort();
    const rpcHost = new URL(replay.url).host;
    const env = {
      ...process.env,
      SOLANA_RPC_URL: `${replay.url}/v2/${SECRET}?api-key=${QSECRET}`,
      SOLANA_WS_URL: `${replay.wsUrl}/ws/${SECRET}?api-key=${QSECRET}`,
      DATA_DIR: join(dataDir, 'start'),
      HOST: '127.0.0.1',
      PORT: String(port),
      COLLECT_START: 'earliest',
      LOG_LEVEL: 'info',
    };
    const child = spawn(process.execPath, [LPA, 'start'], { env, cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    const until = Date.now() + 45_000;
    while (!out.includes('subscribed to the pump program logs') && Date.now() < until && child.exitCode === null) await new Promise((r) => setTimeout(r, 200));
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    expect(out).toContain('archive starting');
    expect(out).toContain('subscribed to the pump program logs');
    expect(out).toContain(`"rpc":"http://${rpcHost}"`);
    expect(out).toContain(`"wsUrl":"ws://${rpcHost}"`);
    expect(out).not.toContain(SECRET);
    expect(out).not.toContain(QSECRET);
  }, 60_000);
});

describe('lpa start on a port another process holds', () => {
  it.skipIf(!existsSync(join(ROOT, 'dist/server/entry.mjs')))('stops with one line and exit 1 before the collector reads the chain or begins coverage (it crashed with a stack after coverage began)', async () => {
    const port = await freePort();
    const holder = createServer().listen(port, '127.0.0.1');
    await new Promise((r) => holder.once('listening', r));
    const data = join(dataDir, 'port-taken');
    const env = { ...process.env, SOLANA_RPC_URL: replay.url, DATA_DIR: data, HOST: '127.0.0.1', PORT: String(port), COLLECT_START: 'earliest', LOG_LEVEL: 'info' };
    try {
      const child = spawn(process.execPath, [LPA, 'start'], { env, cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout!.on('data', (d) => (out += d));
      child.stderr!.on('data', (d) => (out += d));
      const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
      expect(code).toBe(1);
      expect(out).toContain(`The server cannot start: it cannot listen on 127.0.0.1:${port} (EADDRINUSE: another process listens there: stop it, or set PORT).`);
      expect(out).toContain('the collector was not started, and nothing was read or written');
      expect(out).not.toMatch(/^\s+at /m); // no stack
      expect(existsSync(join(data, 'public.db'))).toBe(false); // no run, no coverage begun
    } finally {
      holder.close();
    }
  }, 60_000);
});

describe('lpa keys list | head -1', () => {
  it('ends quietly when the reader closes the pipe (no EPIPE stack trace, exit 0)', async () => {
    const env = { ...process.env, DATA_DIR: join(dataDir, 'keys'), KEY_SECRET: 'z'.repeat(32), LOG_LEVEL: 'info' };
    const store = new PrivateStore(join(dataDir, 'keys', 'private.db'));
    const keys = new KeyService(store, 'z'.repeat(32));
    // enough lines (≈ 250 KB) that the writer is still writing when the reader has gone
    store.transaction(() => {
      for (let i = 0; i < 4000; i++) keys.create(`label ${i} ${'x'.repeat(20)}`);
    });
    store.close();
    const child = spawn(process.execPath, [LPA, 'keys', 'list'], { env, cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr!.on('data', (d) => (err += d));
    const first = await new Promise<string>((resolveLine) => {
      let got = '';
      child.stdout!.on('data', (d) => {
        got += d;
        if (got.includes('\n')) {
          child.stdout!.destroy(); // what `head -1` does after its line
          resolveLine(got.split('\n')[0]);
        }
      });
    });
    const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    expect(first).toBe('id\tlabel\tprefix\tcreated\trevoked\tfeed');
    expect(err).not.toMatch(/EPIPE|Error|at /);
    expect(code).toBe(0);
  }, 60_000);
});
