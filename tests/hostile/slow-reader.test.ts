/**
 * A download to a client that reads slowly (a phone on a bad link, or an attacker holding many
 * connections open) must not make the server buffer the file: the body is produced as the socket
 * drains (src/server/node-response.ts), so memory stays about the socket buffers, not the file.
 * Before the fix the server read the whole 64 MB record.db into the response's buffer at once
 * (Astro's writeResponse writes without waiting for `drain`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeDownloads } from '../../collector/publish/downloads.ts';
import { loadConfig } from '../../src/config.ts';
import { PrivateStore } from '../../src/db/private-store.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { downloadsDir, readManifest } from '../../src/downloads.ts';
import { KeyService } from '../../src/access/keys.ts';
import { freePort, sleep } from '../helpers/net.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const ENTRY = join(ROOT, 'dist/server/entry.mjs');
const KEY_SECRET = 'slow-reader-suite-secret-'.padEnd(40, 's');
const FILE_MB = 64;

let dataDir: string;
let server: ChildProcess;
let port: number;
let key: string;
let serverLog = '';

const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))![1]) / 1024;

beforeAll(async () => {
  if (!existsSync(ENTRY)) throw new Error('dist/server/entry.mjs missing: run `npx astro build` (npm test does)');
  dataDir = mkdtempSync(join(tmpdir(), 'lpa-slow-reader-'));
  const config = loadConfig({ DATA_DIR: dataDir });
  const store = new PublicStore(config.publicDbPath);
  // incompressible filler, so record.db is about FILE_MB
  store.setMeta('filler', randomBytes((FILE_MB * 1024 * 1024 * 3) / 4).toString('base64'));
  await writeDownloads(store, dataDir, Date.now());
  store.close();
  const priv = new PrivateStore(config.privateDbPath);
  key = (await new KeyService(priv, KEY_SECRET).create('slow reader')).key;
  priv.close();
  port = await freePort();
  server = spawn(process.execPath, [ENTRY], {
    env: { ...process.env, DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), KEY_SECRET, SOLANA_RPC_URL: 'http://127.0.0.1:9', LOG_LEVEL: 'warn', MALLOC_ARENA_MAX: '2' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.on('data', (d) => (serverLog += d));
  server.stderr!.on('data', (d) => (serverLog += d));
  for (let i = 0; ; i++) {
    try {
      await fetch(`http://127.0.0.1:${port}/api/v1/status`);
      break;
    } catch {
      if (i > 300) throw new Error(`server did not start:\n${serverLog}`);
      await sleep(100);
    }
  }
}, 120_000);

afterAll(() => {
  server?.kill('SIGTERM');
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('hostile: a slow reader of a download', () => {
  it(`holds the read, not the ${FILE_MB} MB file in the server's memory, and still gets every byte`, async () => {
    const entry = readManifest(dataDir)!.files['record.db']!;
    expect(entry.bytes).toBeGreaterThan(FILE_MB * 1024 * 1024 * 0.9);
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((ok) => socket.once('connect', () => ok()));
    socket.pause(); // read nothing: only the kernel's socket buffers take bytes
    // a first download fully read warms the server up, so the baseline includes what it keeps anyway
    const warm = await fetch(`http://127.0.0.1:${port}/data/record.db`, { headers: { Authorization: `Bearer ${key}` } });
    expect(warm.status).toBe(200);
    await warm.arrayBuffer();
    await sleep(500);
    const before = rssMb();
    socket.write(`GET /data/record.db HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`);
    let peak = before;
    for (let i = 0; i < 30; i++) {
      await sleep(100);
      peak = Math.max(peak, rssMb());
    }
    // now read it all: the answer is whole and the file's
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.resume();
    await new Promise<void>((ok) => socket.once('end', () => ok()));
    const all = Buffer.concat(chunks);
    const headEnd = all.indexOf('\r\n\r\n');
    const head = all.subarray(0, headEnd).toString('latin1');
    const body = all.subarray(headEnd + 4);
    console.log(`slow reader: server RSS ${before.toFixed(0)} MB → peak ${peak.toFixed(0)} MB while a ${(entry.bytes / 1048576).toFixed(0)} MB download waited 3 s unread`);
    expect(head).toMatch(/^HTTP\/1\.1 200/);
    expect(body.length).toBe(entry.bytes);
    expect(createHash('sha256').update(body).digest('hex')).toBe(entry.sha256);
    expect(readFileSync(join(downloadsDir(dataDir), entry.file)).length).toBe(entry.bytes);
    expect(peak - before).toBeLessThan(FILE_MB / 8); // before the fix: +27 MB in the 3 s
  }, 120_000);
});
