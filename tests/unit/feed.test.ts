import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { createDeps, type Deps } from '../../src/server/deps.ts';
import { FeedHub, HEARTBEAT, KEY_GONE, STREAMS_PER_KEY, encodeFeedEvent, type ConnectionIo } from '../../src/server/feed-hub.ts';
import { closeFeedOf, createFeedHub, feedOf, handleStream, resumeIdOf } from '../../src/server/stream.ts';
import { feedRowsAfter, latestFeedSeq } from '../../src/db/launch-feed.ts';
import { StreamEvent } from '../../src/server/schemas.ts';
import { PrivateStore } from '../../src/db/private-store.ts';
import { runKeysFeed } from '../../collector/commands/keys.ts';
import { launchDoc, putDoc, randomAddress } from '../helpers/launch-doc.ts';
import { openDatabase } from '../../src/db/open.ts';
import { PUBLIC_MIGRATIONS } from '../../src/db/public-schema.ts';
import { PublicStore } from '../../src/db/public-store.ts';

/**
 * The creation feed's parts in one process: the reads of public.db (first write vs later version),
 * the SSE encoding against the StreamEvent schema, the hub (live events, resume, slots per key,
 * heartbeat, slow readers closed past the buffer, shutdown) and the handler's refusals. The stream
 * over the built server, cut and resumed while a writer commits: tests/integration/stream.test.ts.
 */

const T0 = Date.parse('2026-11-20T12:00:00.000Z');
let dir: string;
let deps: Deps;
const hubs: FeedHub[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lpa-feed-'));
  deps = createDeps(loadConfig({ DATA_DIR: dir, CONTACT_EMAIL: 'feeds@archive.example' }), { now: () => T0, curveStatus: async () => 'never', log: createLogger('silent') });
});
afterEach(() => {
  for (const h of hubs.splice(0)) h.closeAll();
  closeFeedOf(deps);
  deps.publicStore.close();
  rmSync(dir, { recursive: true, force: true });
});

const put = (mint: string, over: Parameters<typeof launchDoc>[2] = {}) => putDoc(deps.publicStore, launchDoc(mint, T0, over), T0);
const noIo: ConnectionIo = { room: async () => undefined, close: () => undefined };
/** A hub whose timers never fire during a test: the test calls poll() and heartbeat() itself. */
const hubOf = (bufferBytes = 1 << 20) => {
  const h = createFeedHub({ ...deps, config: { ...deps.config, STREAM_POLL_MS: 10_000, STREAM_HEARTBEAT_MS: 60_000, STREAM_BUFFER_KB: bufferBytes / 1024 } });
  hubs.push(h);
  return h;
};

interface Sse {
  id: number | null;
  data: string | null;
  comments: string[];
}

/** A stream's reader and the read still outstanding (a read that lost a race keeps its chunk for the next drain). */
interface Tap {
  reader: ReadableStreamDefaultReader<Uint8Array>;
  next: Promise<ReadableStreamReadResult<Uint8Array>> | null;
}
const tap = (stream: ReadableStream<Uint8Array>): Tap => ({ reader: stream.getReader(), next: null });

/** Read what a stream has produced so far (until it has nothing more for `idleMs`), parsed into events. */
async function drain(t: Tap, idleMs = 30): Promise<{ events: Sse[]; done: boolean }> {
  let text = '';
  let done = false;
  for (;;) {
    t.next ??= t.reader.read();
    const r = await Promise.race([t.next, new Promise<'idle'>((res) => setTimeout(() => res('idle'), idleMs))]);
    if (r === 'idle') break;
    t.next = null;
    if (r.done) {
      done = true;
      break;
    }
    text += new TextDecoder().decode(r.value);
  }
  const events: Sse[] = [];
  for (const block of text.split('\n\n').filter(Boolean)) {
    const e: Sse = { id: null, data: null, comments: [] };
    for (const line of block.split('\n')) {
      if (line.startsWith('id: ')) e.id = Number(line.slice(4));
      else if (line.startsWith('data: ')) e.data = line.slice(6);
      else if (line.startsWith(':')) e.comments.push(line);
    }
    events.push(e);
  }
  return { events, done };
}
const records = (events: Sse[]) => events.filter((e) => e.data !== null).map((e) => ({ id: e.id!, ...(JSON.parse(e.data!) as { mint: string; changed: boolean; class: string; sha256: string }) }));

describe('public.db reads (src/db/launch-feed.ts)', () => {
  it('a first write is changed:false, a later version changed:true at a greater seq; a record written twice comes once, at its latest version', () => {
    const [a, b] = [randomAddress(), randomAddress()];
    put(a);
    put(b);
    const first = feedRowsAfter(deps.publicStore.db, 0, 10);
    expect(first.map((r) => [r.mint, r.changed])).toEqual([[a, false], [b, false]]);
    put(a, { finding: { class: 'NOTE', label: 'n', why: 'w' } });
    const last = launchDoc(a, T0, { finding: { class: 'FINDINGS', label: 'f', why: 'w' } });
    putDoc(deps.publicStore, last, T0);
    const later = feedRowsAfter(deps.publicStore.db, first.at(-1)!.seq, 10);
    expect(later).toHaveLength(1);
    expect(later[0]).toMatchObject({ mint: a, changed: true, findingClass: 'FINDINGS' });
    expect(later[0]!.seq).toBeGreaterThan(first.at(-1)!.seq);
    expect(latestFeedSeq(deps.publicStore.db)).toBe(later[0]!.seq);
    // the same document again is no change: nothing new
    putDoc(deps.publicStore, last, T0);
    expect(feedRowsAfter(deps.publicStore.db, later[0]!.seq, 10)).toEqual([]);
  });

  it('migration 13 on a database held before it: its records count as first writes; a later version is changed, a new record is not', () => {
    const path = join(dir, 'old.db');
    const [a, b] = [randomAddress(), randomAddress()];
    // a record written at version 12 (the columns its insert needs)
    const db12 = openDatabase(path, PUBLIC_MIGRATIONS.filter((m) => m.version <= 12));
    db12.prepare("INSERT INTO launch (mint, origin, observed_at_launch, finding_class, settled, method_version, document, sha256, updated_at_ms) VALUES (?, 'observed', 1, 'NO_MARKERS', 0, 'markers-v2', '{}', 'x', 0)").run(a);
    db12.close();
    const store = new PublicStore(path); // applies 13
    try {
      expect(feedRowsAfter(store.db, 0, 10).map((r) => [r.mint, r.changed])).toEqual([[a, false]]);
      const seq = latestFeedSeq(store.db);
      putDoc(store, launchDoc(a, T0), T0);
      putDoc(store, launchDoc(b, T0), T0);
      expect(feedRowsAfter(store.db, seq, 10).map((r) => [r.mint, r.changed])).toEqual([[a, true], [b, false]]);
    } finally {
      store.close();
    }
  });

  it('an event is one id line and one data line of a StreamEvent', () => {
    const mint = randomAddress();
    put(mint);
    const [row] = feedRowsAfter(deps.publicStore.db, 0, 1);
    const text = encodeFeedEvent(row!);
    expect(text).toMatch(/^id: \d+\ndata: [^\n]+\n\n$/);
    const data = JSON.parse(text.split('\n')[1]!.slice(6));
    expect(StreamEvent.safeParse(data).success).toBe(true);
    expect(data).toMatchObject({ mint, class: 'NO_MARKERS', changed: false, sha256: row!.sha256 });
  });
});

describe('the hub', () => {
  it('a stream opened now gets what is written afterwards, not before; a resumed one gets every record changed after its id first', async () => {
    const old = randomAddress();
    put(old);
    const hub = hubOf();
    const live = tap(hub.open(1, null, noIo) as ReadableStream<Uint8Array>);
    const seen = await drain(live);
    expect(records(seen.events)).toEqual([]);
    expect(seen.events[0]!.comments).toEqual([]); // the retry: line
    const fresh = [randomAddress(), randomAddress()];
    for (const m of fresh) put(m);
    put(old, { finding: { class: 'NOTE', label: 'n', why: 'w' } });
    hub.poll();
    const got = records((await drain(live)).events);
    expect(got.map((r) => [r.mint, r.changed])).toEqual([[fresh[0], false], [fresh[1], false], [old, true]]);
    expect(got.map((r) => r.id)).toEqual([...got.map((r) => r.id)].sort((x, y) => x - y));
    // resume after the first fresh record: the second and the changed old one, then live
    const resumed = tap(hub.open(2, got[0]!.id, noIo) as ReadableStream<Uint8Array>);
    const r1 = await drain(resumed);
    expect(records(r1.events).map((r) => r.mint)).toEqual([fresh[1], old]);
    const later = randomAddress();
    put(later);
    hub.poll();
    expect(records((await drain(resumed)).events).map((r) => r.mint)).toEqual([later]);
  });

  it(`a key holds at most ${STREAMS_PER_KEY} streams; a cancelled stream frees its slot`, async () => {
    const hub = hubOf();
    const a = hub.open(7, null, noIo) as ReadableStream<Uint8Array>;
    hub.open(7, null, noIo);
    expect(hub.open(7, null, noIo)).toBe('too_many');
    expect(hub.open(8, null, noIo)).toBeInstanceOf(ReadableStream);
    await a.cancel();
    expect(hub.streamsOf(7)).toBe(1);
    expect(hub.open(7, null, noIo)).toBeInstanceOf(ReadableStream);
  });

  it('sends the heartbeat comment', async () => {
    const hub = hubOf();
    const s = tap(hub.open(1, null, noIo) as ReadableStream<Uint8Array>);
    await drain(s);
    hub.heartbeat();
    const { events } = await drain(s);
    expect(events.map((e) => e.comments)).toEqual([[HEARTBEAT.trim()]]);
  });

  it('closes a connection whose client does not read once its queue passes the bound, and frees its slot; a reading one is unaffected', async () => {
    const hub = hubOf(4 * 1024);
    let closed = 0;
    const stuck: ConnectionIo = { room: () => new Promise<void>(() => undefined), close: () => closed++ };
    const slow = hub.open(1, null, stuck) as ReadableStream<Uint8Array>;
    const fast = tap(hub.open(2, null, noIo) as ReadableStream<Uint8Array>);
    void slow.getReader().read(); // the adapter's first read: it waits for room that never comes
    await drain(fast);
    let received = 0;
    for (let i = 0; i < 20; i++) {
      put(randomAddress()); // about 1.3 KB an event: 20 pass 4 KB
      hub.poll();
      received += records((await drain(fast, 5)).events).length;
    }
    expect(closed).toBe(1);
    expect(hub.slowClosed).toBe(1);
    expect(hub.streamsOf(1)).toBe(0);
    expect(received).toBe(20);
  });

  it('closeAll ends every stream after what was queued, and opens no more', async () => {
    const hub = hubOf();
    const s = tap(hub.open(1, null, noIo) as ReadableStream<Uint8Array>);
    await drain(s);
    put(randomAddress());
    hub.poll();
    hub.closeAll();
    const rest = await drain(s);
    expect(records(rest.events)).toHaveLength(1);
    expect(rest.done).toBe(true);
    expect(hub.open(1, null, noIo)).toBe('stopped');
  });
});

describe('GET /api/v1/stream (handler)', () => {
  const req = (key: string | null, headers: Record<string, string> = {}, query = '') =>
    new Request(`http://x/api/v1/stream${query}`, { headers: { ...(key ? { Authorization: `Bearer ${key}` } : {}), ...headers } });

  it('401 without a key; 403 feed_not_in_plan naming the contact address without the entitlement; 200 event-stream after lpa keys grant --feed; 429 for a third', async () => {
    expect((await (await handleStream(req(null), deps)).json()).error).toBe('missing_key');
    const { key, id } = await deps.keys.create('feed test');
    const refused = await handleStream(req(key), deps);
    expect(refused.status).toBe(403);
    const body = await refused.json();
    expect(body.error).toBe('feed_not_in_plan');
    expect(body.message).toContain('feeds@archive.example');
    expect(body.message).toMatch(/agreement/);
    const lines: string[] = [];
    await runKeysFeed(deps.config, id, true, (l) => lines.push(l));
    expect(lines[0]).toMatch(/may open the creation feed/);
    const ok = [await handleStream(req(key), deps), await handleStream(req(key, {}, '?after=0'), deps)];
    for (const r of ok) {
      expect(r.status).toBe(200);
      expect(r.headers.get('Content-Type')).toBe('text/event-stream; charset=utf-8');
      expect(r.headers.get('Cache-Control')).toBe('no-store');
    }
    const third = await handleStream(req(key), deps);
    expect(third.status).toBe(429);
    expect((await third.json()).error).toBe('too_many_streams');
    expect(third.headers.get('Retry-After')).toBe('15');
    for (const r of ok) await r.body!.cancel();
    // withdrawn: refused again; the count of requests is untouched by streams
    await runKeysFeed(deps.config, id, false, () => undefined);
    expect((await handleStream(req(key), deps)).status).toBe(403);
    const priv = new PrivateStore(deps.config.privateDbPath);
    expect(priv.usage(id, '2026-11-20')).toBe(0);
    priv.close();
  });

  it('400 invalid_query for a resume id that is not a whole number, in the header or the query', async () => {
    const { key, id } = await deps.keys.create('feed test');
    await runKeysFeed(deps.config, id, true, () => undefined);
    for (const r of [await handleStream(req(key, { 'Last-Event-ID': 'abc' }), deps), await handleStream(req(key, {}, '?after=-1'), deps)]) {
      expect(r.status).toBe(400);
      expect((await r.json()).error).toBe('invalid_query');
    }
  });

  describe('an open stream ends when its key may no longer open the feed', () => {
    /** Two feed keys, each with a stream open through the handler; a record written after they opened. */
    const twoStreams = async (checkMs: number) => {
      deps = { ...deps, config: { ...deps.config, STREAM_POLL_MS: 10_000, STREAM_HEARTBEAT_MS: 60_000, STREAM_KEY_CHECK_MS: checkMs } };
      const a = await deps.keys.create('feed a');
      const b = await deps.keys.create('feed b');
      for (const k of [a, b]) await runKeysFeed(deps.config, k.id, true, () => undefined);
      const [ra, rb] = [await handleStream(req(a.key), deps), await handleStream(req(b.key), deps)];
      expect([ra.status, rb.status]).toEqual([200, 200]);
      const [ta, tb] = [tap(ra.body!), tap(rb.body!)];
      await drain(ta);
      await drain(tb);
      return { a, b, ta, tb };
    };
    /** Revoke (lpa keys revoke), rotate (POST /api/v1/keys/rotate) or withdraw the entitlement (lpa keys revoke --feed). */
    const cuts: [string, (k: { id: number; key: string }) => Promise<unknown>][] = [
      ['revoked', (k) => deps.keys.revoke(k.id)],
      ['rotated away', (k) => deps.keys.rotate(k.key)],
      ['stripped of the feed entitlement', (k) => runKeysFeed(deps.config, k.id, false, () => undefined)],
    ];

    it.each(cuts)('%s: its streams end at the next check, after a last comment; another key\'s stream goes on', async (_what, cut) => {
      const { a, ta, tb } = await twoStreams(60_000);
      await cut(a);
      await feedOf(deps).checkKeys();
      const ended = await drain(ta);
      expect(ended.done).toBe(true);
      expect(ended.events.at(-1)!.comments).toEqual([KEY_GONE.trim()]);
      expect(feedOf(deps).streamsOf(a.id)).toBe(0);
      // the other key's stream still takes events
      const mint = randomAddress();
      put(mint);
      feedOf(deps).poll();
      const other = await drain(tb);
      expect(other.done).toBe(false);
      expect(records(other.events).map((r) => r.mint)).toEqual([mint]);
      await tb.reader.cancel();
    });

    it('within STREAM_KEY_CHECK_MS by itself (checked on a timer, no event needed)', async () => {
      const { a, ta, tb } = await twoStreams(100);
      await deps.keys.revoke(a.id);
      const revokedAt = Date.now();
      let done = false;
      while (!done && Date.now() - revokedAt < 2_000) done = (await drain(ta, 20)).done;
      expect(done).toBe(true);
      expect(Date.now() - revokedAt).toBeLessThan(100 + 400); // the bound, plus this machine's slack
      expect((await drain(tb)).done).toBe(false);
      await tb.reader.cancel();
    });

    it('a key check that fails (the private state unreachable) keeps the stream open', async () => {
      const { a, ta, tb } = await twoStreams(60_000);
      const keyById = deps.keys.state.keyById;
      deps.keys.state.keyById = async () => {
        throw new Error('unreachable');
      };
      try {
        await deps.keys.revoke(a.id);
        await feedOf(deps).checkKeys();
        expect((await drain(ta)).done).toBe(false);
      } finally {
        deps.keys.state.keyById = keyById;
      }
      await feedOf(deps).checkKeys();
      expect((await drain(ta)).done).toBe(true);
      await tb.reader.cancel();
    });
  });

  it('rotation carries the entitlement to the new key', async () => {
    const { key, id } = await deps.keys.create('feed test');
    await runKeysFeed(deps.config, id, true, () => undefined);
    const rotated = await deps.keys.rotate(key);
    if (rotated.status !== 'rotated') throw new Error(rotated.status);
    expect(await deps.keys.hasFeed(rotated.id)).toBe(true);
    await expect(runKeysFeed(deps.config, id, true, () => undefined)).rejects.toThrow(/revoked/);
    await expect(runKeysFeed(deps.config, 999, true, () => undefined)).rejects.toThrow(/no key with id 999/);
  });
});

describe('the feed\'s resume id (resumeIdOf)', () => {
  const at = (query: string, headers: Record<string, string> = {}) => resumeIdOf(new Request(`http://archive.test/api/v1/stream${query}`, { headers }));
  it('takes Last-Event-ID, else ?after=; none opens the live feed', () => {
    expect(at('')).toEqual({ after: null });
    expect(at('?after=12')).toEqual({ after: 12 });
    expect(at('?after=12', { 'Last-Event-ID': '40' })).toEqual({ after: 40 });
  });
  it('refuses a parameter it does not take, or after twice, rather than open the feed without the backlog asked for (an API reviewer\'s ?since=0 opened it live)', () => {
    for (const q of ['?since=0', '?Last-Event-ID=0', '?after=1&cursor=2']) expect(at(q)).toEqual({ problem: expect.stringMatching(/^Unknown query parameter "(since|Last-Event-ID|cursor)": the feed takes only after/) });
    expect(at('?after=0&after=400')).toEqual({ problem: expect.stringContaining('"after" is given more than once') });
    expect(at('?after=x')).toEqual({ problem: expect.stringContaining('must be the id of an event this feed sent') });
  });
});
