/**
 * Seeded pseudo-random numbers for the chain simulator (no Math.random anywhere in the output).
 * sfc32 seeded through splitmix32; forks give independent, label-keyed streams so that adding a
 * draw in one launch never shifts the draws of another. Pure apart from the generator's own state.
 */

function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** FNV-1a hash of a string, used to key forked streams. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** A deterministic random stream (sfc32). */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  readonly seed: number;

  /** @param seed any integer; the same seed gives the same stream */
  constructor(seed: number) {
    this.seed = seed >>> 0;
    const sm = splitmix32(this.seed);
    this.a = sm();
    this.b = sm();
    this.c = sm();
    this.d = sm();
    for (let i = 0; i < 12; i++) this.u32();
  }

  /** Next unsigned 32-bit integer. */
  u32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** Uniform float in [0, 1) with 53 bits. */
  float(): number {
    return (this.u32() * 2 ** 21 + (this.u32() >>> 11)) / 2 ** 53;
  }

  /** Uniform integer in [lo, hi] (inclusive). */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.float() * (hi - lo + 1));
  }

  /** Uniform bigint in [lo, hi] (inclusive); fine for ranges below 2^53. */
  bigint(lo: bigint, hi: bigint): bigint {
    return lo + BigInt(Math.floor(this.float() * Number(hi - lo + 1n)));
  }

  /** true with probability p. */
  chance(p: number): boolean {
    return this.float() < p;
  }

  /** One element of a non-empty list. */
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.float() * xs.length)];
  }

  /** Index drawn with the given (unnormalized) weights. */
  weighted(weights: readonly number[]): number {
    const total = weights.reduce((s, w) => s + w, 0);
    let x = this.float() * total;
    for (let i = 0; i < weights.length; i++) {
      x -= weights[i];
      if (x < 0) return i;
    }
    return weights.length - 1;
  }

  /** Exponential variate with the given mean. */
  exp(mean: number): number {
    return -Math.log(1 - this.float()) * mean;
  }

  /** Log-normal variate with the given median and sigma (of the underlying normal). */
  logNormal(median: number, sigma: number): number {
    const u1 = 1 - this.float();
    const u2 = this.float();
    const z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    return median * Math.exp(sigma * z);
  }

  /** n random bytes. */
  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i += 4) {
      const v = this.u32();
      for (let j = 0; j < 4 && i + j < n; j++) out[i + j] = (v >>> (8 * j)) & 0xff;
    }
    return out;
  }

  /** An independent stream keyed by this stream's seed and a label. Does not advance this stream. */
  fork(label: string): Rng {
    return new Rng((this.seed ^ fnv1a(label)) + Math.imul(fnv1a(label + '#'), 0x27d4eb2d));
  }
}
