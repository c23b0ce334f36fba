import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * The growing factors V8 chose for the main isolate's old generation after limitHeapGrowth(percent)
 * ran in a child process (V8 prints each with --trace-gc-verbose: "[HeapController] factor 1.5 …").
 * The child's heap limit is 4 GB whatever this machine's RAM, so V8's own factor may reach 4.
 */
function factorsAfter(percent: number): number[] {
  const out = execFileSync(process.execPath, ['--initial-old-space-size=4', '--max-old-space-size=4096', '--trace-gc-verbose', '--import', 'tsx', join(ROOT, 'tests/fixtures/heap/grow.ts'), String(percent)], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  const after = out.slice(out.indexOf('limited\n'));
  return [...after.matchAll(/^\[\d+:0x[0-9a-f]+:0\]\s+\d+ ms: \[HeapController\] factor ([\d.]+) /gm)].map((m) => Number(m[1]));
}

describe('limitHeapGrowth (src/heap-limits.ts)', () => {
  it.each([
    [50, 1.5],
    [20, 1.2],
  ])('with %i percent every full collection after the call sets the next limit at %s × what it kept', (percent, factor) => {
    const factors = factorsAfter(percent);
    expect(factors.length).toBeGreaterThan(0);
    expect(new Set(factors)).toEqual(new Set([factor]));
  });

  it('with 0 leaves V8 its own factor (up to 4 with a large heap limit)', () => {
    const factors = factorsAfter(0);
    expect(factors.length).toBeGreaterThan(0);
    expect(factors.some((f) => f > 1.5)).toBe(true);
  });
});

/** The largest young generation (MB) a child process reached after limitYoungGeneration(mb) (tests/fixtures/heap/young.ts). */
function youngPeakAfter(mb: number): number {
  const out = execFileSync(process.execPath, ['--max-old-space-size=4096', '--import', 'tsx', join(ROOT, 'tests/fixtures/heap/young.ts'), String(mb)], { cwd: ROOT, encoding: 'utf8' });
  return Number(/peak ([\d.]+)/.exec(out)![1]);
}

describe('limitYoungGeneration (src/heap-limits.ts)', () => {
  it('keeps the young generation at about the bound V8 would grow it past', () => {
    expect(youngPeakAfter(0)).toBeGreaterThan(32); // V8's own: 64 MB
    // checked once per event-loop turn after a collection, and V8's sizes are not exact: 16–16.5 MB seen
    expect(youngPeakAfter(16)).toBeLessThanOrEqual(20);
  }, 60_000);
});
