import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PublicStore } from '../../src/db/public-store.ts';
import { coverageOf } from '../../src/facts/coverage.ts';

/**
 * PublicStore.coverageReads keeps the rows the `coverage` object is computed from until something
 * may have changed them: a write of its own connection (seen at once), a commit of another
 * connection (seen from the next event-loop turn: `PRAGMA data_version` is read once per turn), a
 * rollback. Every answer's coverage is what reading the rows afresh would give.
 */

const nextTurn = () => new Promise<void>((r) => setImmediate(r));
const MINUTE = 60_000;

describe('PublicStore.coverageReads', () => {
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
