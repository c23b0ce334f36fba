/**
 * The operator's log says when the collector starts and stops falling behind the chain — once per
 * change, not at every beat: at info while the lag is a few slots, a warning once an episode's lag
 * reaches the status's catching_up (CATCHING_UP_LAG_SLOTS). A quiet chain (the listing found
 * nothing newer) is never falling behind (catch-up.ts, PublicStore.programCurrentSlot).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { Heartbeat } from '../../collector/run/heartbeat.ts';
import type { CollectDeps } from '../../collector/context.ts';

let dir: string;
let store: PublicStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lpa-heartbeat-log-'));
  store = new PublicStore(join(dir, 'public.db'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A heartbeat over a chain whose tip is `tip()`, at the clock `now()`, logging into `lines`. */
function heartbeat(tip: () => number, now: () => number, lines: { level: string; msg: string; lagSlots?: number }[]) {
  const record = (level: string) => (o: Record<string, unknown>, msg: string) => void lines.push({ level, msg, lagSlots: o.lagSlots as number | undefined });
  const log = { info: record('info'), warn: record('warn'), error: record('error'), debug: () => {} };
  const rpc = { getSlot: () => ({ send: async () => BigInt(tip()) }) };
  const config = loadConfig({ DATA_DIR: dir, SOLANA_RPC_URL: 'http://127.0.0.1:9' });
  const deps = { store, rpc, log, config, now } as unknown as CollectDeps;
  const runId = store.startRun(now(), tip());
  return new Heartbeat(deps, runId);
}

describe('falling behind, in the log', () => {
  it('once when it starts (info at a few slots, a warning when the lag reaches catching_up), once when it stops', async () => {
    const lines: { level: string; msg: string; lagSlots?: number }[] = [];
    let t = Date.parse('2026-11-27T10:00:00Z');
    let tipSlot = 1000;
    let cursor = 1000;
    const hb = heartbeat(() => tipSlot, () => t, lines);
    try {
      // the tip runs at 2.5 slots/s, the cursor at 0.5: the lag grows 2 slots a second
      for (let s = 0; s < 150; s++, t += 1000) {
        tipSlot = 1000 + Math.floor(s * 2.5);
        cursor = 1000 + Math.floor(s * 0.5);
        store.setCursor('program', 'sig', cursor, t);
        await hb.beat();
      }
      const behind = lines.filter((l) => l.msg.startsWith('collector falling behind'));
      expect(behind.map((l) => l.level)).toEqual(['info', 'warn']); // noted at a small lag, warned once at 150+
      expect(behind[1]!.lagSlots).toBeGreaterThanOrEqual(150);
      // the cursor catches up and holds: no longer falling behind, said once
      for (let s = 150; s < 240; s++, t += 1000) {
        tipSlot = 1000 + Math.floor(s * 2.5);
        store.setCursor('program', 'sig', tipSlot - 1, t);
        await hb.beat();
      }
      expect(lines.filter((l) => l.msg === 'collector no longer falling behind the chain')).toHaveLength(1);
      expect(lines.filter((l) => l.msg.startsWith('collector falling behind'))).toHaveLength(2);
    } finally {
      hb.end();
    }
  });

  it('a quiet chain (each listing found nothing newer than the cursor) logs nothing', async () => {
    const lines: { level: string; msg: string }[] = [];
    let t = Date.parse('2026-11-27T10:00:00Z');
    let tipSlot = 1000;
    const hb = heartbeat(() => tipSlot, () => t, lines);
    try {
      store.setCursor('program', 'sig', 1000, t);
      for (let s = 0; s < 150; s++, t += 1000) {
        tipSlot = 1000 + Math.floor(s * 2.5);
        await hb.beat();
        store.setProgramCaughtUp(tipSlot); // the pass's listing after this beat's tip read: nothing newer
      }
      expect(lines.filter((l) => /falling behind/.test(l.msg))).toEqual([]);
    } finally {
      hb.end();
    }
  });

  it('a beat still reading the tip when the run ends (a cron run that failed) writes and logs nothing (it logged a TypeError on the closed database)', async () => {
    const lines: { level: string; msg: string }[] = [];
    let answer!: (slot: bigint) => void;
    const record = (level: string) => (_o: unknown, msg: string) => void lines.push({ level, msg });
    const log = { info: record('info'), warn: record('warn'), error: record('error'), debug: () => {} };
    const rpc = { getSlot: () => ({ send: () => new Promise<bigint>((ok) => (answer = ok)) }) };
    const config = loadConfig({ DATA_DIR: dir, SOLANA_RPC_URL: 'http://127.0.0.1:9' });
    const hb = new Heartbeat({ store, rpc, log, config } as unknown as CollectDeps, store.startRun(Date.now(), 1000));
    const beat = hb.beat();
    hb.end();
    store.close(); // as runCollect does after a failed run
    answer(1234n);
    await expect(beat).resolves.toBe(false);
    expect(lines).toEqual([]);
    store = new PublicStore(join(dir, 'public.db')); // for afterEach
  });
});

describe('a run after one that did not stop cleanly', () => {
  it('says so once at its start (the previous run killed: no stop written); a run after a clean stop says nothing of it', async () => {
    const { beginRun } = await import('../../collector/run/heartbeat.ts');
    const lines: { level: string; msg: string }[] = [];
    const record = (level: string) => (_o: Record<string, unknown>, msg: string) => void lines.push({ level, msg });
    const log = { info: record('info'), warn: record('warn'), error: record('error'), debug: () => {} };
    const config = loadConfig({ DATA_DIR: dir, SOLANA_RPC_URL: 'http://127.0.0.1:9' });
    const deps = { store, log, config } as unknown as CollectDeps;
    const t = Date.now();
    const killed = /^the previous run did not stop cleanly/;
    const first = beginRun(deps, { slot: 100, ms: t });
    expect(lines.filter((l) => killed.test(l.msg))).toHaveLength(0); // no previous run
    // the first run is killed: its row has no stop; the next run says so
    beginRun(deps, { slot: 110, ms: t + 1000 });
    expect(lines.filter((l) => killed.test(l.msg)).map((l) => l.level)).toEqual(['info']);
    expect(first).toBeGreaterThan(0);
    lines.length = 0;
    store.stopRun(store.lastRun()!.id, t + 2000);
    beginRun(deps, { slot: 120, ms: t + 3000 });
    expect(lines.filter((l) => killed.test(l.msg))).toHaveLength(0);
  });
});
