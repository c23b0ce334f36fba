import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LAUNCH_MEMO_MAX, PublicStore } from '../../src/db/public-store.ts';
import { canonicalJson, sha256Hex } from '../../src/core/canonical.ts';
import { launchDoc, randomAddress } from '../helpers/launch-doc.ts';
import { coverageOf } from '../../src/facts/coverage.ts';

/**
 * PublicStore.coverageReads keeps the rows the `coverage` object is computed from until something
 * may have changed them: a write of its own connection (seen at once), a commit of another
 * connection (seen from the next event-loop turn: `PRAGMA data_version` is read once per turn), a
 * rollback. Every answer's coverage is what reading the rows afresh would give.
 */

const nextTurn = () => new Promise<void>((r) => setImmediate(r));
const MINUTE = 60_000;

// two connections to one public.db: the collector's, and the server's that keeps what it read
let dir: string;
let server: PublicStore;
let collector: PublicStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lpa-coverage-reads-'));
  collector = new PublicStore(join(dir, 'public.db'));
  server = new PublicStore(join(dir, 'public.db'));
});

afterEach(() => {
  server.close();
  collector.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('PublicStore.coverageReads', () => {
  it('gives the same reads while nothing changed', async () => {
    collector.setMetaOnce('coverage_from_ms', '1000');
    await nextTurn();
    const a = server.coverageReads();
    expect(server.coverageReads()).toBe(a);
    await nextTurn();
    expect(server.coverageReads()).toBe(a);
    expect(a).toEqual({ coverageFromMs: '1000', unreachable: undefined, gapTotalMs: 0, lastBeatMs: null });
  });

  it("sees another connection's commit from the next turn on", async () => {
    expect(server.coverageReads().lastBeatMs).toBeNull();
    const run = collector.startRun(5 * MINUTE);
    collector.addGap({ fromMs: 0, toMs: 3 * MINUTE, fromSlot: null, toSlot: null });
    await nextTurn();
    expect(server.coverageReads()).toMatchObject({ lastBeatMs: 5 * MINUTE, gapTotalMs: 3 * MINUTE });
    collector.heartbeat(run, 9 * MINUTE);
    await nextTurn();
    expect(server.coverageReads().lastBeatMs).toBe(9 * MINUTE);
    expect(coverageOf(server, 20 * MINUTE, MINUTE).downtimeMinutes).toBe(coverageOfFresh(20 * MINUTE));
  });

  it('sees its own writes at once, and a rolled-back write is not kept', () => {
    server.setMetaOnce('coverage_from_ms', '7');
    expect(server.coverageReads().coverageFromMs).toBe('7');
    const run = server.startRun(MINUTE);
    expect(server.coverageReads().lastBeatMs).toBe(MINUTE);
    expect(() =>
      server.transaction(() => {
        server.heartbeat(run, 2 * MINUTE);
        expect(server.coverageReads().lastBeatMs).toBe(2 * MINUTE); // inside: read as written
        throw new Error('roll back');
      }),
    ).toThrow('roll back');
    expect(server.coverageReads().lastBeatMs).toBe(MINUTE);
  });

  /** The downtime a store opened now computes (no kept reads). */
  function coverageOfFresh(nowMs: number): number {
    const fresh = new PublicStore(join(dir, 'public.db'));
    try {
      return coverageOf(fresh, nowMs, MINUTE).downtimeMinutes;
    } finally {
      fresh.close();
    }
  }
});

/**
 * PublicStore.getLaunchBytes keeps the rows it read (held or not) under the same marks: a commit of
 * another connection is seen from the next turn, a write of its own connection at once, and inside
 * a transaction the row is read as written. Each answer equals a fresh read of the row.
 */
describe('PublicStore.getLaunchBytes kept rows', () => {
  const mint = randomAddress();
  const put = (store: PublicStore, name: string) => {
    const text = canonicalJson(launchDoc(mint, 1_000, { name }));
    store.putLaunch(launchDoc(mint, 1_000, { name }), null, text, sha256Hex(text), 2_000);
  };
  const nameOf = (store: PublicStore) => {
    const row = store.getLaunchBytes(mint);
    return row && (JSON.parse(row.document.toString('utf8')) as { name: string }).name;
  };

  it('gives the same row while nothing changed, and a row not held stays not held only until one is written', async () => {
    expect(server.getLaunchBytes(mint)).toBeUndefined();
    put(collector, 'first');
    expect(server.getLaunchBytes(mint)).toBeUndefined(); // this turn's data_version: not seen yet
    await nextTurn();
    const a = server.getLaunchBytes(mint);
    expect(nameOf(server)).toBe('first');
    expect(server.getLaunchBytes(mint)).toBe(a);
    await nextTurn();
    expect(server.getLaunchBytes(mint)).toBe(a);
  });

  it("sees another connection's commit from the next turn on", async () => {
    put(collector, 'first');
    await nextTurn();
    expect(nameOf(server)).toBe('first');
    put(collector, 'second');
    await nextTurn();
    expect(nameOf(server)).toBe('second');
    expect(server.getLaunchBytes(mint)!.document.equals(collector.getLaunchBytes(mint)!.document)).toBe(true);
  });

  it('sees its own writes at once, as written inside a transaction, and a rolled-back write is not kept', () => {
    put(server, 'mine');
    expect(nameOf(server)).toBe('mine');
    put(server, 'again');
    expect(nameOf(server)).toBe('again');
    expect(() =>
      server.transaction(() => {
        put(server, 'undone');
        expect(nameOf(server)).toBe('undone');
        throw new Error('roll back');
      }),
    ).toThrow('roll back');
    expect(nameOf(server)).toBe('again');
  });

  it('getLaunchesBytes gives what fresh reads give, whether each mint was kept or not, and keeps what it read', async () => {
    const other = randomAddress();
    const unheld = randomAddress();
    const text = canonicalJson(launchDoc(other, 1_000, { name: 'other' }));
    collector.putLaunch(launchDoc(other, 1_000, { name: 'other' }), null, text, sha256Hex(text), 2_000);
    put(collector, 'first');
    await nextTurn();
    const kept = server.getLaunchBytes(mint); // kept before the batch read
    const rows = server.getLaunchesBytes([mint, other, unheld, other]);
    expect([...rows.keys()].sort()).toEqual([mint, other].sort());
    expect(rows.get(mint)).toBe(kept);
    const fresh = new PublicStore(join(dir, 'public.db'));
    try {
      for (const m of [mint, other]) expect(rows.get(m)).toEqual(fresh.getLaunchesBytes([m]).get(m));
    } finally {
      fresh.close();
    }
    expect(server.getLaunchBytes(other)).toBe(rows.get(other)); // kept by the batch read
    expect(server.getLaunchBytes(unheld)).toBeUndefined();
    put(collector, 'second');
    await nextTurn();
    expect(JSON.parse(server.getLaunchesBytes([mint, other]).get(mint)!.document.toString('utf8')).name).toBe('second');
  });

  it(`keeps at most ${LAUNCH_MEMO_MAX} rows, dropping the oldest read first`, () => {
    const mints = Array.from({ length: LAUNCH_MEMO_MAX + 1 }, () => randomAddress());
    const first = server.getLaunchBytes(mints[0]!);
    expect(first).toBeUndefined();
    for (const m of mints) server.getLaunchBytes(m);
    const kept = (server as unknown as { launchMemo: Map<string, unknown> }).launchMemo;
    expect(kept.size).toBe(LAUNCH_MEMO_MAX);
    expect(kept.has(mints[0]!)).toBe(false);
    expect(kept.has(mints.at(-1)!)).toBe(true);
  });
});
