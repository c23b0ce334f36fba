import { describe, expect, it } from 'vitest';
import { curveLinear, curveStepAfter, line } from 'd3-shape';
import { oneDecimal, PathText, roundedText, stepAfterPath } from '../../src/render/svg-text.ts';

/** The charts' number text (src/render/svg-text.ts) against JavaScript's own formatting and d3-path's. */

/** A fixed pseudo-random sequence (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const js = (x: number, d: number) => String(Math.round(x * 10 ** d) / 10 ** d);

describe('roundedText', () => {
  it('writes what String(Math.round(x * 10^d) / 10^d) writes', () => {
    const edge = [0, -0, 0.04, -0.04, 0.05, -0.05, 0.95, 9.95, 99.95, 1e-7, 0.5, -0.5, 1.5, -1.5, 640, 123.45, 1e8, 999_999_999.96, 1e9, -1e9, 1e12, 1e15, 1e21, 2 ** 53, NaN, Infinity, -Infinity, Number.MIN_VALUE, Number.MAX_VALUE];
    for (let d = 0; d <= 8; d++) for (const x of edge) expect(roundedText(x, d), `${x} to ${d}`).toBe(js(x, d));
    const r = random(23);
    for (let i = 0; i < 50_000; i++) {
      const d = i % 8;
      const scale = 10 ** Math.floor(r() * 14 - 4);
      const x = (r() - 0.5) * scale;
      expect(roundedText(x, d)).toBe(js(x, d));
    }
    expect(oneDecimal(12.345)).toBe('12.3');
  });
});

describe('PathText', () => {
  it('gives the same path text as d3-path for d3-shape lines', () => {
    const r = random(5);
    for (let n = 0; n < 300; n++) {
      const pts = Array.from({ length: n % 40 }, () => [r() * 640, r() * 240 - (n % 7 === 0 ? 300 : 0)] as [number, number]);
      for (const curve of [curveStepAfter, curveLinear]) {
        const ctx = new PathText();
        line().curve(curve).context(ctx.asContext())(pts);
        expect(ctx.text).toBe(line().curve(curve)(pts) ?? '');
      }
    }
  });
});

describe('stepAfterPath', () => {
  it("writes what d3-shape's curveStepAfter line writes (through PathText and through d3-path)", () => {
    const r = random(11);
    const odd = [NaN, Infinity, -Infinity, -0, 0];
    for (let n = 0; n < 400; n++) {
      const pts = Array.from({ length: n % 45 }, (_, i) =>
        [n % 11 === 0 && i % 5 === 2 ? odd[i % odd.length]! : Math.round(r() * 6400) / 10, n % 13 === 0 && i % 7 === 3 ? odd[(i + 2) % odd.length]! : Math.round((r() * 240 - (n % 7 === 0 ? 300 : 0)) * 10) / 10] as [number, number],
      );
      const ctx = new PathText();
      line().curve(curveStepAfter).context(ctx.asContext())(pts);
      expect(stepAfterPath(pts)).toBe(ctx.text);
      if (pts.every(([x, y]) => Number.isFinite(x) && Number.isFinite(y))) expect(stepAfterPath(pts)).toBe(line().curve(curveStepAfter)(pts) ?? '');
    }
    expect(stepAfterPath([[0, 10], [5, 20]])).toBe('M0,10L5,10L5,20');
    expect(stepAfterPath([[1.5, 2]])).toBe('M1.5,2Z');
    expect(stepAfterPath([])).toBe('');
  });
});
