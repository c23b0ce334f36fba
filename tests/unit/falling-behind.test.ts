import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  fallingBehind,
  formatLagSamples,
  lagAMinuteBefore,
  keepLagSample,
  LAG_SAMPLE_SPACING_MS,
  LAG_SAMPLES_KEPT_MS,
  LAG_SAMPLES_META,
  parseLagSamples,
  type LagSample,
} from '../../src/core/falling-behind.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { collectorStateOf } from '../../src/facts/coverage.ts';

/** Samples every 5 s from `lags` (slots), starting at t = 0. */
const every5s = (...lags: number[]): LagSample[] => lags.map((lagSlots, i) => ({ atMs: i * 5_000, lagSlots }));

describe('fallingBehind (the pure rule)', () => {
  it('true when the lag grew over a whole minute and never dipped below its start', () => {
    expect(fallingBehind(every5s(10, 12, 15, 15, 20, 25, 30, 33, 40, 45, 50, 55, 60))).toBe(true);
  });

  it('false with less than a minute of samples, however fast the lag grows', () => {
    expect(fallingBehind(every5s(0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1100))).toBe(false); // 55 s
    expect(fallingBehind([])).toBe(false);
  });

  it('false when the lag holds steady, however large, or only wobbles', () => {
    expect(fallingBehind(every5s(...Array(20).fill(5000)))).toBe(false);
    expect(fallingBehind(every5s(2, 3, 1, 4, 2, 0, 3, 5, 2, 1, 4, 3, 6))).toBe(false); // growth 4 < 5 slots
  });

  it('false when the lag went back below its level of a minute ago (caught up part of the way)', () => {
    expect(fallingBehind(every5s(50, 60, 70, 40, 80, 90, 100, 110, 120, 130, 140, 150, 160))).toBe(false);
  });

  it('the lag "a minute ago" a log line names is the sample the rule compares with', () => {
    const s = every5s(0, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 120);
    expect(lagAMinuteBefore(s)).toBe(100); // t = 5 s, not t = 0 (the oldest within reach) nor t = 10 s
    expect(fallingBehind(s)).toBe(true);
    expect(lagAMinuteBefore(every5s(1, 2, 3))).toBeNull();
  });

  it('compares with the newest sample at least a minute before the newest', () => {
    // a minute before the newest (t = 65 s) is t = 5 s (lag 100); t = 0 (lag 0) is older and ignored
    expect(fallingBehind(every5s(0, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 104))).toBe(false);
    expect(fallingBehind(every5s(0, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 105))).toBe(true);
  });
});

describe('keepLagSample', () => {
  it('keeps one sample per 5 s and the last 3 minutes', () => {
    let kept: LagSample[] = [];
    for (let t = 0; t <= 10 * 60_000; t += 1_000) kept = keepLagSample(kept, { atMs: t, lagSlots: t / 1000 });
    expect(kept.length).toBe(LAG_SAMPLES_KEPT_MS / LAG_SAMPLE_SPACING_MS + 1);
    expect(kept.at(-1)).toEqual({ atMs: 600_000, lagSlots: 600 });
    expect(kept[0]!.atMs).toBe(600_000 - LAG_SAMPLES_KEPT_MS);
    const same = keepLagSample(kept, { atMs: 601_000, lagSlots: 1 });
    expect(same).toBe(kept);
  });

  it('round-trips through its meta text; unreadable text is no samples', () => {
    const s = every5s(1, 2, 3);
    expect(parseLagSamples(formatLagSamples(s))).toEqual(s);
    expect(parseLagSamples('not json')).toEqual([]);
    expect(parseLagSamples(undefined)).toEqual([]);
  });
});

describe('status wiring: heartbeats → collector.fallingBehind', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const storeIn = () => {
    const dir = mkdtempSync(join(tmpdir(), 'lpa-falling-'));
    dirs.push(dir);
    return new PublicStore(join(dir, 'public.db'));
  };

  it('the heartbeat keeps lag samples; a lag growing for over a minute shows, a steady one does not', () => {
    const store = storeIn();
    const t0 = Date.parse('2026-11-25T12:00:00Z');
    const run = store.startRun(t0, 1000);
    store.setCursor('program', 'sig', 1000, t0);
    // the tip runs at 2.5 slots/s; the cursor at half that: the lag grows
    for (let s = 0; s <= 70; s++) {
      store.setCursor('program', 'sig', 1000 + Math.floor(s * 1.25), t0 + s * 1000);
      store.heartbeat(run, t0 + s * 1000, 1000 + Math.floor(s * 2.5));
    }
    expect(parseLagSamples(store.getMeta(LAG_SAMPLES_META)).length).toBe(15); // every 5 s over 70 s
    expect(collectorStateOf(store, t0 + 70_000)).toMatchObject({ state: 'live', fallingBehind: true });
    // the cursor catches up: the lag no longer grows
    for (let s = 71; s <= 150; s++) {
      store.setCursor('program', 'sig', 1000 + Math.floor(s * 2.5) - 2, t0 + s * 1000);
      store.heartbeat(run, t0 + s * 1000, 1000 + Math.floor(s * 2.5));
    }
    expect(collectorStateOf(store, t0 + 150_000)).toMatchObject({ lagSlots: 2, fallingBehind: false });
    // a stopped collector is not falling behind, whatever its last samples said
    store.stopRun(run, t0 + 151_000);
    expect(collectorStateOf(store, t0 + 152_000).fallingBehind).toBe(false);
    store.close();
  });

  it('a quiet chain is not a collector falling behind: a listing that finds nothing newer makes the records current through the tip read before it', () => {
    const store = storeIn();
    const t0 = Date.parse('2026-11-25T12:00:00Z');
    const run = store.startRun(t0, 1000);
    store.setCursor('program', 'sig', 1000, t0);
    // no new pump transaction for 90 s: the cursor stays, the tip runs on at 2.5 slots/s, and every
    // pass's listing (after the tip read) finds nothing newer (catch-up.ts)
    for (let s = 0; s <= 90; s++) {
      const tip = 1000 + Math.floor(s * 2.5);
      store.heartbeat(run, t0 + s * 1000, tip);
      store.setProgramCaughtUp(tip);
    }
    expect(collectorStateOf(store, t0 + 90_000)).toMatchObject({ cursorSlot: 1000, lagSlots: 0, state: 'live', fallingBehind: false });
    // the same quiet chain without that knowledge (a listing that found signatures): the lag shows
    store.setProgramCaughtUp(null);
    store.heartbeat(run, t0 + 91_000, 1230);
    expect(collectorStateOf(store, t0 + 91_000).lagSlots).toBe(230);
    store.close();
  });

  it('heartbeats without a tip read keep no sample', () => {
    const store = storeIn();
    const run = store.startRun(0, null);
    store.setCursor('program', 'sig', 10, 0);
    store.heartbeat(run, 1_000, null);
    expect(store.getMeta(LAG_SAMPLES_META)).toBeUndefined();
    store.close();
  });
});
