import { describe, expect, it } from 'vitest';
import { settledAtMs, workingSetSeries } from '../../bench/soak/working-set.ts';

describe('the soak chain working set', () => {
  const o = { slotMs: 400, idleMs: 1_000, stepMs: 1_000, steps: 6 };

  it('counts the held history of launches used within the idle window, and drops idle ones', () => {
    // launch a: slots 0, 1, 2 (0, 400, 800 ms); b: slots 5 and 10 (2 s, 4 s)
    const txs = [
      { slot: 100, mints: ['a'] },
      { slot: 101, mints: ['a'] },
      { slot: 102, mints: ['a', 'b'] },
      { slot: 105, mints: ['b'] },
      { slot: 110, mints: ['b'] },
    ];
    // t=0: a(1); t=1s: a(3)+b(1); t=2s: b(2) (a idle since 800 ms: 1.2 s); t=3s: b(2); t=4s: b(3); t=5s: b(3)
    expect(workingSetSeries(txs, 100, o)).toEqual([1, 4, 2, 2, 3, 3]);
    // order of the input does not matter
    expect(workingSetSeries([...txs].reverse(), 100, o)).toEqual([1, 4, 2, 2, 3, 3]);
  });

  it('settles where no later value exceeds it by more than 1/share', () => {
    expect(settledAtMs([1, 5, 9, 10, 10, 10], 1000, 0.9, 10_000)).toBe(2000);
    expect(settledAtMs([0, 0, 3, 3, 3], 1000, 0.9, 10_000)).toBe(2000);
    // a dip then a return to the level: settled at the first point within 11 % of every later one
    expect(settledAtMs([10, 4, 10, 10], 1000, 0.9, 10_000)).toBe(0);
  });

  it('a series still growing is capped, not called settled early', () => {
    const linear = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(settledAtMs(linear, 1000, 0.9, 50_000)).toBe(50_000);
  });
});
