import type { ScaleLinear } from 'd3-scale';

/**
 * A d3-scale linear scale of a two-number domain and range (no clamp), as a plain function that
 * does its arithmetic: d3-scale's `normalize` then `interpolateNumber`, `r0 * (1 - t) + r1 * t`
 * with `t = (v - d0) / (d1 - d0)` (domain and range swapped when the domain descends), so the
 * same number for every finite input, without the scale's per-call wrapping (a 2,000-trade curve
 * calls it for every point; issue 23, page speed). The scale itself stays d3's: its domain, nice
 * domain and ticks. tests/unit/linear-map.test.ts holds it to d3-scale. Pure: no I/O.
 * @example linearMap(scaleLinear().domain([0, 10]).range([0, 100]))(2.5) // 25
 */
export function linearMap(scale: ScaleLinear<number, number>): (v: number) => number {
  const domain = scale.domain();
  const range = scale.range();
  if (domain.length !== 2 || range.length !== 2 || scale.clamp()) return (v) => scale(v)!;
  let [d0, d1] = domain as [number, number];
  let [r0, r1] = range as [number, number];
  if (d1 < d0) [d0, d1, r0, r1] = [d1, d0, r1, r0];
  const b = d1 - d0;
  if (!b) {
    const t = Number.isNaN(b) ? NaN : 0.5;
    const at = r0 * (1 - t) + r1 * t;
    return () => at;
  }
  return (v) => {
    const t = (v - d0) / b;
    return r0 * (1 - t) + r1 * t;
  };
}
