/**
 * Numbers as the charts write them into SVG attributes, and a path context for d3-shape's line
 * generator, with the same text as JavaScript's own number formatting but without its cost: a
 * coordinate such as 123.4 went through the shortest-round-trip float printer, which was most of a
 * chart's render time (issue 23, page speed). Pure: no I/O.
 */

/**
 * `String(Math.round(x * 10 ** digits) / 10 ** digits)`, the same characters, built from the
 * rounded integer's digits. Exact because a decimal with at most `digits` (≤ 6) places and a
 * magnitude below 1e9 is the shortest text of the float nearest to it (floats there are closer
 * than 1e-6 apart, so no shorter decimal rounds to the same float); anything else (NaN, ±Infinity,
 * larger magnitudes, more digits) goes through `String`.
 * @example roundedText(123.456, 1) // '123.5'; roundedText(-0.04, 1) // '0'; roundedText(2, 3) // '2'
 */
export function roundedText(x: number, digits: number): string {
  const k = POW10[digits];
  if (k === undefined) return String(Math.round(x * 10 ** digits) / 10 ** digits);
  const m = Math.round(x * k);
  if (m === 0) return '0'; // -0 prints as '0' too
  if (!(m < 1e9 * k && m > -1e9 * k)) return String(m / k);
  const neg = m < 0;
  const a = neg ? -m : m;
  // a / k is within 1e-7 of its value and at least 1/k from the next integer: the floor is exact
  const whole = Math.floor(a / k);
  const rest = a - whole * k;
  const w = whole < INTS.length ? INTS[whole]! : String(whole);
  const text = rest === 0 ? w : w + fraction(digits, rest);
  return neg ? '-' + text : text;
}

const POW10: (number | undefined)[] = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000];

/** `String(i)` for 0 ≤ i < 4096: every whole part of a chart coordinate (the viewBox is 640 wide), from a table. */
const INTS: string[] = Array.from({ length: 4096 }, (_, i) => String(i));

/** `.ddd` of `rest` (1 ≤ rest < 10^digits) without its trailing zeros; tables for up to 3 digits. */
function fraction(digits: number, rest: number): string {
  const table = FRACTIONS[digits];
  if (table) return table[rest]!;
  return fractionText(digits, rest);
}

function fractionText(digits: number, rest: number): string {
  const s = String(rest).padStart(digits, '0');
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 48) end--;
  return '.' + s.slice(0, end);
}

const FRACTIONS: (string[] | undefined)[] = [undefined, 1, 2, 3].map((d) =>
  d === undefined ? undefined : Array.from({ length: 10 ** d }, (_, r) => (r === 0 ? '' : fractionText(d, r))),
);

/** {@link roundedText} with one decimal: the charts' coordinates (`Math.round(x * 10) / 10`). */
export const oneDecimal = (x: number): string => roundedText(x, 1);

/**
 * A d3 path context (moveTo, lineTo, closePath) that writes exactly what d3-path's `path()` writes
 * for d3-shape's generators at their default precision (3 digits: `Math.round(v * 1000) / 1000`,
 * d3-shape `line.digits`): `M{x},{y}`, `L{x},{y}`, `Z` once something is drawn. Pass it as
 * `line().context(ctx)`, then read `ctx.text`.
 */
export class PathText {
  text = '';
  private drawn = false;
  // a step curve repeats each x and y once: the last of each is formatted once
  private lastX = NaN;
  private lastXText = '';
  private lastY = NaN;
  private lastYText = '';

  private xText(x: number): string {
    if (x !== this.lastX) {
      this.lastX = x;
      this.lastXText = roundedText(x, 3);
    }
    return this.lastXText;
  }

  private yText(y: number): string {
    if (y !== this.lastY) {
      this.lastY = y;
      this.lastYText = roundedText(y, 3);
    }
    return this.lastYText;
  }

  moveTo(x: number, y: number): void {
    this.text += `M${this.xText(+x)},${this.yText(+y)}`;
    this.drawn = true;
  }

  lineTo(x: number, y: number): void {
    this.text += `L${this.xText(+x)},${this.yText(+y)}`;
    this.drawn = true;
  }

  closePath(): void {
    if (this.drawn) this.text += 'Z';
  }

  /** This context as d3-shape's `context()` is typed (it accepts any object with these methods). */
  asContext(): CanvasRenderingContext2D {
    return this as unknown as CanvasRenderingContext2D;
  }
}

/**
 * The path text d3-shape's `line().curve(curveStepAfter)` writes through a {@link PathText} for
 * `points` (its default accessors `d[0]`, `d[1]`, every point defined): `M` to the first point,
 * then for each next point a horizontal and a vertical `L` (the step curve's `t = 1`), and `Z` when
 * there is a single point. The same context calls with the same numbers as d3-shape's step curve
 * makes, without its generator's per-point work (tests/unit/svg-text.test.ts checks it against
 * d3-shape itself).
 * @example stepAfterPath([[0, 10], [5, 20]]) // 'M0,10L5,10L5,20'
 */
export function stepAfterPath(points: readonly (readonly [number, number])[]): string {
  const n = points.length;
  if (n === 0) return '';
  // PathText's text written inline: a step repeats each x and y once, so each is formatted once
  let px = +points[0]![0];
  let py = +points[0]![1];
  let yText = roundedText(py, 3);
  let text = `M${roundedText(px, 3)},${yText}`;
  for (let i = 1; i < n; i++) {
    const x = +points[i]![0];
    const y = +points[i]![1];
    // d3's `this._x * (1 - t) + x * t` with t = 1: NaN when the previous x is not finite, as there
    const x1 = px * 0 + x;
    const xText = roundedText(x1, 3);
    text += `L${xText},${yText}`;
    if (y !== py) yText = roundedText(y, 3);
    text += `L${xText},${yText}`;
    px = x;
    py = y;
  }
  return n === 1 ? text + 'Z' : text;
}
