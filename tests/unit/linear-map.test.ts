import { describe, expect, it } from 'vitest';
import { scaleLinear } from 'd3-scale';
import { linearMap } from '../../src/render/linear-map.ts';

/** src/render/linear-map.ts against d3-scale's own linear scale. */

describe('linearMap', () => {
  it('gives the number d3-scale gives, for plain, nice, descending and empty domains', () => {
    let seed = 17;
    const r = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648);
    for (let i = 0; i < 2000; i++) {
      const d0 = i % 5 === 0 ? 0 : (r() - 0.3) * 10 ** Math.floor(r() * 12 - 3);
      const d1 = i % 9 === 0 ? d0 : i % 4 === 0 ? d0 - r() * 1e4 : d0 + r() * 10 ** Math.floor(r() * 12 - 3);
      const s = scaleLinear().domain([d0, d1]).range(i % 3 ? [72, 628] : [206, 30]);
      if (i % 2) s.nice();
      const f = linearMap(s);
      for (let k = 0; k < 20; k++) {
        const v = d0 + (d1 - d0 || 1) * (r() * 1.4 - 0.2);
        expect(f(v)).toBe(s(v));
      }
      expect(f(s.domain()[0]!)).toBe(s(s.domain()[0]!));
    }
  });

  it('defers to the scale itself when clamped or piecewise', () => {
    const clamped = scaleLinear().domain([0, 10]).range([0, 100]).clamp(true);
    expect(linearMap(clamped)(20)).toBe(100);
    const piecewise = scaleLinear().domain([0, 5, 10]).range([0, 10, 100]);
    expect(linearMap(piecewise)(7.5)).toBe(piecewise(7.5));
  });
});
