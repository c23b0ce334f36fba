import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { loadConfig } from '../../src/config.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { PrivateStore } from '../../src/db/private-store.ts';
import { KeyService, loadKeySecret } from '../../src/access/keys.ts';
import { canonicalJson, sha256Hex } from '../../src/core/canonical.ts';
import { ArchiveClient, FeedNotInPlanError, type FeedEvent } from '../../client/src/index.ts';
import { SseParser } from '../../client/src/sse.ts';
import { freePort, sleep } from '../helpers/net.ts';
import { launchDoc, randomAddress } from '../helpers/launch-doc.ts';

/**
 * The creation feed (`GET /api/v1/stream`) over the built server, fed by another process's writes to
 * public.db (this test's process writes through the project's PublicStore while the server streams):
 * a stream cut mid-way and resumed with Last-Event-ID misses no record (counted against the records
 * committed), the typed client resumes by itself after a drop, a key without the entitlement gets
 * 403 feed_not_in_plan, a third stream of a key 429, the heartbeat arrives, a stream whose key is
 * revoked (`lpa keys revoke`), or loses the entitlement, ends within STREAM_KEY_CHECK_MS, and SIGTERM ends
 * streams cleanly. Prints the delay from commit to event.
 */

const ROOT = resolve(import.meta.dirname, '../..');
const ENTRY = join(ROOT, 'dist/server/entry.mjs');
const LPA = join(ROOT, 'bin/lpa.mjs');
const run = promisify(execFile);
const T0 = Date.parse('2026-11-20T12:00:00.000Z');
/** STREAM_KEY_CHECK_MS of the server under test: an open stream of a revoked key ends within it. */
const KEY_CHECK_MS = 1_000;

let tmp: string;
let base: string;
let server: ChildProcess;
let serverLog = '';
let store: PublicStore;
let feedKey: string;
let otherFeedKey: string;
let plainKey: string;
let env: Record<string, string | undefined>;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'lpa-stream-'));
  const dataDir = join(tmp, 'data');
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  env = { ...process.env, DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', PUBLIC_BASE_URL: base, KEY_SECRET: 'k'.repeat(40), STREAM_HEARTBEAT_MS: '300', STREAM_POLL_MS: '100', STREAM_KEY_CHECK_MS: String(KEY_CHECK_MS), CONTACT_EMAIL: 'feeds@archive.example' };
  const config = loadConfig(env);
  store = new PublicStore(config.publicDbPath);
  for (let i = 0; i < 20; i++) write(randomAddress()); // held before any stream
  const priv = new PrivateStore(config.privateDbPath);
  const keys = new KeyService(priv, loadKeySecret(config));
  const feed = await keys.create('feed holder');
  const other = await keys.create('second feed holder');
  plainKey = (await keys.create('plan only')).key;
  priv.close();
  feedKey = feed.key;
  otherFeedKey = other.key;
  // the operator's command, as documented
  const granted = await run(process.execPath, [LPA, 'keys', 'grant', '--feed', String(feed.id)], { env, cwd: ROOT });
  expect(granted.stdout).toMatch(/may open the creation feed/);
  await run(process.execPath, [LPA, 'keys', 'grant', '--feed', String(other.id)], { env, cwd: ROOT });
  server = spawn(process.execPath, [ENTRY], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout!.on('data', (d) => (serverLog += d));
  server.stderr!.on('data', (d) => (serverLog += d));
  const until = Date.now() + 30_000;
  for (;;) {
    try {
      await fetch(`${base}/api/v1/status`);
      break;
    } catch {
      if (Date.now() > until) throw new Error(`server did not start:\n${serverLog}`);
      await sleep(100);
    }
  }
}, 60_000);

afterAll(async () => {
  if (server && server.exitCode === null) server.kill('SIGKILL');
  store?.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** Commit times of each version written, by sha256 (ms, this process's clock). */
const committedAt = new Map<string, number>();
/** Write (or rewrite: a new document) one record through the project's store; returns its sha256. */
function write(mint: string): string {
  const doc = launchDoc(mint, T0);
  const text = canonicalJson(doc);
  const sha = sha256Hex(text);
  store.putLaunch(doc, null, text, sha, T0);
  committedAt.set(sha, Date.now());
  return sha;
}

/** The latest sha256 of every record, from public.db. */
const latestInDb = () => new Map((store.db.prepare('SELECT mint, sha256 FROM launch').all() as { mint: string; sha256: string }[]).map((r) => [r.mint, r.sha256]));

/** An open stream read by a raw fetch and the client's SSE parser. */
function openRaw(key: string, headers: Record<string, string> = {}) {
  const ctl = new AbortController();
  const events: (FeedEvent & { at: number })[] = [];
  const comments: number[] = [];
  let bytes = 0;
  const done = (async () => {
    const res = await fetch(`${base}/api/v1/stream`, { headers: { Authorization: `Bearer ${key}`, ...headers }, signal: ctl.signal });
    if (res.status !== 200) return { status: res.status, body: await res.json(), ended: false };
    const parser = new SseParser();
    const reader = res.body!.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return { status: 200, body: null, ended: true };
        bytes += value.length;
        if (new TextDecoder().decode(value).includes(': heartbeat')) comments.push(Date.now());
        const at = Date.now();
        for (const e of parser.push(value)) if (e.data) events.push({ id: Number(e.id), ...JSON.parse(e.data), at });
      }
    } catch {
      return { status: 200, body: null, ended: false };
    }
  })();
  return { ctl, events, comments, done, bytes: () => bytes };
}

/**
 * A stream of `key` once the server has freed the slots of the streams earlier tests closed: a
 * client's close reaches the server's count asynchronously, so right after a test aborted both of a
 * key's streams the next one may still get 429 too_many_streams for a moment (the client would
 * retry; so does this, for up to 5 s).
 */
async function openFree(key: string) {
  let s = openRaw(key);
  const deadline = Date.now() + 5_000;
  while ((await Promise.race([s.done, sleep(300).then(() => null)]))?.status === 429) {
    if (Date.now() > deadline) throw new Error('the slots of the streams closed before were not freed');
    s = openRaw(key);
  }
  return s;
}

const until = async (cond: () => boolean, ms: number, what: string) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}\n${serverLog}`);
    await sleep(20);
  }
};

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;

describe('GET /api/v1/stream over the built server', () => {
  it('a key without the feed entitlement gets 403 feed_not_in_plan, naming whom to ask', async () => {
    const s = openRaw(plainKey);
    const r = await s.done;
    expect(r.status).toBe(403);
    expect(r.body.error).toBe('feed_not_in_plan');
    expect(r.body.message).toContain('feeds@archive.example');
    expect(r.body.finding.class).toBe('UNKNOWN');
    // the client's typed error
    const client = new ArchiveClient({ baseUrl: base, key: plainKey });
    await expect(client.stream().next()).rejects.toBeInstanceOf(FeedNotInPlanError);
  });

  it('sends the heartbeat (STREAM_HEARTBEAT_MS=300 here)', async () => {
    const s = openRaw(feedKey);
    await until(() => s.comments.length >= 2, 5_000, 'two heartbeats');
    s.ctl.abort();
    await s.done;
  });

  it('a third stream of a key gets 429 too_many_streams; closing one frees its slot', async () => {
    const a = openRaw(feedKey);
    const b = openRaw(feedKey);
    await until(() => a.bytes() > 0 && b.bytes() > 0, 5_000, 'two streams open');
    const third = await openRaw(feedKey).done;
    expect(third.status).toBe(429);
    expect(third.body.error).toBe('too_many_streams');
    a.ctl.abort();
    await a.done;
    let again = openRaw(feedKey);
    const deadline = Date.now() + 5_000;
    while ((await Promise.race([again.done, sleep(300).then(() => null)]))?.status === 429) {
      if (Date.now() > deadline) throw new Error('the slot of the closed stream was not freed');
      again = openRaw(feedKey);
    }
    again.ctl.abort();
    b.ctl.abort();
    await Promise.all([again.done, b.done]);
  });

  it('a stream cut mid-way and resumed with Last-Event-ID misses no record committed meanwhile; prints the delay from commit to event', async () => {
    const startedSeqs = latestInDb();
    const s1 = await openFree(feedKey);
    await until(() => s1.bytes() > 0, 5_000, 'the stream to open');
    const mints: string[] = [];
    let writing = true;
    const writer = (async () => {
      // 60 rounds of 5 records in one transaction every 25 ms; a quarter of them rewrite an earlier record
      for (let round = 0; round < 60; round++) {
        store.db.transaction(() => {
          for (let i = 0; i < 5; i++) {
            const rewrite = mints.length > 10 && (round * 5 + i) % 4 === 0;
            const mint = rewrite ? mints[(round * 7 + i) % mints.length]! : randomAddress();
            if (!rewrite) mints.push(mint);
            write(mint);
          }
        })();
        await sleep(25);
      }
      writing = false;
    })();
    await until(() => s1.events.length >= 80, 15_000, '80 events before the cut');
    s1.ctl.abort(); // the connection is cut
    await s1.done;
    const lastId = s1.events.at(-1)!.id;
    await sleep(400); // records keep being committed while the client is away
    const s2 = openRaw(feedKey, { 'Last-Event-ID': String(lastId) });
    await writer;
    expect(writing).toBe(false);
    const want = latestInDb();
    const changedDuringTest = [...want].filter(([mint, sha]) => startedSeqs.get(mint) !== sha);
    const received = () => {
      const latest = new Map<string, string>();
      for (const e of [...s1.events, ...s2.events]) latest.set(e.mint, e.sha256);
      return latest;
    };
    await until(() => changedDuringTest.every(([mint, sha]) => received().get(mint) === sha), 15_000, 'every record committed to arrive');
    s2.ctl.abort();
    await s2.done;
    // every record written during the test arrived, at its latest version; ids increase along each connection
    expect(changedDuringTest.length).toBe(mints.length);
    for (const [mint, sha] of changedDuringTest) expect(received().get(mint), mint).toBe(sha);
    for (const s of [s1, s2]) expect(s.events.map((e) => e.id)).toEqual([...s.events.map((e) => e.id)].sort((x, y) => x - y));
    expect(s2.events[0]!.id).toBeGreaterThan(lastId);
    // changed: false on a record's first write, true on a later version
    const firstSeen = new Map<string, boolean>();
    for (const e of [...s1.events, ...s2.events]) if (!firstSeen.has(e.mint)) firstSeen.set(e.mint, e.changed);
    expect([...s1.events, ...s2.events].filter((e) => e.changed).length).toBeGreaterThan(0);
    expect(s1.events.slice(0, 5).every((e) => e.changed === false)).toBe(true);
    // delay from commit to event: the first stream was open before every write, so all its events came live
    const delays = s1.events.map((e) => e.at - committedAt.get(e.sha256)!);
    console.log(`stream: commit→event delay over ${delays.length} events (STREAM_POLL_MS=100): p50 ${pct(delays, 50)} ms, p99 ${pct(delays, 99)} ms, max ${Math.max(...delays)} ms`);
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(0);
  }, 60_000);

  it('the typed client resumes by itself after its connection drops, and misses nothing', async () => {
    let connections = 0;
    const reconnects: (number | null)[] = [];
    // a fetch whose first stream breaks after its third chunk: a network drop, as the client sees it
    const dropping: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if (++connections > 1 || !res.body) return res;
      let chunks = 0;
      const reader = res.body.getReader();
      const body = new ReadableStream<Uint8Array>({
        async pull(c) {
          const r = await reader.read();
          if (r.done) return c.close();
          if (++chunks > 3) {
            await reader.cancel();
            return c.error(new TypeError('terminated'));
          }
          c.enqueue(r.value);
        },
      });
      return new Response(body, { status: res.status, headers: res.headers });
    };
    const client = new ArchiveClient({ baseUrl: base, key: otherFeedKey, fetch: dropping, sleep: (ms) => sleep(Math.min(ms, 200)) });
    const stop = new AbortController();
    const got = new Map<string, string>();
    const mints = Array.from({ length: 40 }, () => randomAddress());
    const reading = (async () => {
      for await (const e of client.stream({ signal: stop.signal, onReconnect: (i) => reconnects.push(i.after) })) got.set(e.mint, e.sha256);
    })();
    await sleep(300); // the stream is open (from now on)
    const shas = new Map<string, string>();
    for (const m of mints) {
      shas.set(m, write(m));
      await sleep(10);
    }
    await until(() => mints.every((m) => got.get(m) === shas.get(m)), 15_000, 'the client to receive every record');
    stop.abort();
    await reading;
    expect(connections).toBeGreaterThanOrEqual(2);
    expect(reconnects.length).toBeGreaterThanOrEqual(1);
  }, 30_000);

  it.each([
    ['revoked (lpa keys revoke ID)', [] as string[]],
    ['stripped of the entitlement (lpa keys revoke --feed ID)', ['--feed']],
  ])('a stream of a key %s by another process ends within STREAM_KEY_CHECK_MS; other streams go on', async (_what, flags) => {
    const priv = new PrivateStore(loadConfig(env).privateDbPath);
    const created = await new KeyService(priv, loadKeySecret(loadConfig(env))).create('to be cut');
    priv.close();
    await run(process.execPath, [LPA, 'keys', 'grant', '--feed', String(created.id)], { env, cwd: ROOT });
    const doomed = openRaw(created.key);
    const other = openRaw(otherFeedKey);
    await until(() => doomed.bytes() > 0 && other.bytes() > 0, 5_000, 'both streams to open');
    await run(process.execPath, [LPA, 'keys', 'revoke', ...flags, String(created.id)], { env, cwd: ROOT });
    const cutAt = Date.now();
    const r = await Promise.race([doomed.done, sleep(KEY_CHECK_MS + 4_000).then(() => null)]);
    expect(r, 'the stream of the revoked key is still open').not.toBeNull();
    expect(r!.ended).toBe(true);
    expect(Date.now() - cutAt).toBeLessThan(KEY_CHECK_MS + 1_500); // the bound, plus this machine's slack
    // the other key's stream still delivers
    const sha = write(randomAddress());
    await until(() => other.events.some((e) => e.sha256 === sha), 5_000, 'the other stream to deliver');
    other.ctl.abort();
    await other.done;
    // and the key is refused on a new connection
    expect((await openRaw(created.key).done).status).toBe(flags.length ? 403 : 401);
  }, 20_000);

  it('SIGTERM ends open streams cleanly (the response ends; no reset) and the server exits', async () => {
    const s = await openFree(feedKey);
    await until(() => s.bytes() > 0, 5_000, 'the stream to open');
    const exited = new Promise<void>((r) => server.once('exit', () => r()));
    server.kill('SIGTERM');
    const r = await s.done;
    expect(r.ended).toBe(true);
    await exited;
  }, 15_000);
});
