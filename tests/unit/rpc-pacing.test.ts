/**
 * The collector's RPC pacing (collector/read/rpc-pacing.ts): never more than RPC_MAX_RPS calls in
 * any sliding second, however the windows fall; from 110 a second on, 100 ms windows (a timer ten
 * times a second, not one per call) carrying at least 90 % of the rate.
 */
import { describe, expect, it } from 'vitest';
import { PACING_WINDOWED_FROM, rpcPacing } from '../../collector/read/rpc-pacing.ts';

/** The most calls any sliding 1,000 ms holds when every window of `interval` ms starts `cap` calls, over 10 s (times in 1 ms steps). */
function worstSlidingSecond(interval: number, cap: number): number {
  const starts: number[] = [];
  for (let t = 0; t < 10_000; t += interval) for (let k = 0; k < cap; k++) starts.push(t + (k === cap - 1 ? interval - 1 : 0));
  let worst = 0;
  for (let from = 0; from < 9_000; from++) worst = Math.max(worst, starts.filter((s) => s >= from && s < from + 1000).length);
  return worst;
}

describe('RPC pacing', () => {
  it('no limit: no pacing', () => {
    expect(rpcPacing(0)).toBeNull();
  });

  it('below 110 calls a second: one call per ceil(1000 / rps) ms, as the public RPC profile is set (4)', () => {
    expect(rpcPacing(4)).toEqual({ interval: 250, intervalCap: 1 });
    expect(rpcPacing(10)).toEqual({ interval: 100, intervalCap: 1 });
    expect(rpcPacing(PACING_WINDOWED_FROM - 1)).toEqual({ interval: 10, intervalCap: 1 });
  });

  it('from 110 a second: 100 ms windows of floor(rps / 11) calls, at least 83 % of the rate (10/11 less the rounding down)', () => {
    expect(rpcPacing(200)).toEqual({ interval: 100, intervalCap: 18 });
    for (let rps = 110; rps <= 1000; rps++) {
      const p = rpcPacing(rps)!;
      expect(p.interval).toBe(100);
      expect(p.intervalCap * 10).toBeGreaterThanOrEqual(0.83 * rps);
    }
  });

  it('never more than rps calls in any sliding second', () => {
    for (const rps of [4, 10, 50, 110, 200, 333]) {
      const p = rpcPacing(rps)!;
      expect(worstSlidingSecond(p.interval, p.intervalCap), String(rps)).toBeLessThanOrEqual(rps);
    }
  });
});
