/**
 * Whether a base58 string encodes given bytes, without decoding it. Pure.
 *
 * Why: a pump self-CPI event's data arrives as base58 (~370 characters for a TradeEvent), and
 * decoding base58 is quadratic: in a CPU profile of the collector it was about 40 % of the
 * decoder's time (26–34 µs per TradeEvent with @scure/base). The same event's bytes are in the `Program data:` log line as base64, which
 * decodes in linear time. The decoder reads the event from the log line and uses this function to
 * check that the self-CPI carries those same bytes (reference.md §1.6: the CPI is the source).
 *
 * How: both sides are read as one big number, N (base58: the digits after the leading '1's; bytes:
 * big-endian after the leading zeros), and their residues modulo two primes near 2²⁶ are compared,
 * reading four base58 digits or three bytes per step in exact double arithmetic. Leading '1's must
 * equal leading zero bytes. Equal numbers give equal residues, so a true match is never rejected.
 * Unequal numbers pass only when they agree modulo both, about 1 in 4.5 × 10¹⁵; every pump event in
 * both places is written by the program itself (reference.md §1.6), so the check guards against
 * pairing the wrong line, not against forgery.
 */

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** char code → base58 digit, or -1 */
const DIGIT = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DIGIT[ALPHABET.charCodeAt(i)] = i;

/** The two largest primes below 2²⁶. A residue times 58⁴ or 2²⁴, plus a chunk, stays below 2⁵³: exact in a double. */
const M1 = 67_108_859;
const M2 = 67_108_837;

/** (a · base + chunk) mod m, exactly, for a < m < 2²⁶, base ≤ 2²⁴, chunk < base. */
function step(a: number, base: number, chunk: number, m: number): number {
  const x = a * base + chunk;
  const r = x - Math.floor(x / m) * m;
  return r < 0 ? r + m : r >= m ? r - m : r;
}

/** Byte `i` of `prefix ‖ bytes` (a module function, not a closure per call: the collector calls base58Matches for every self-CPI event). */
function byteAt(prefix: Uint8Array, bytes: Uint8Array, i: number): number {
  return i < prefix.length ? prefix[i]! : bytes[i - prefix.length]!;
}

/**
 * True when `s` is the base58 encoding of `prefix ‖ bytes` (with the chance of a false match
 * above). False for any character outside the base58 alphabet. Never throws.
 * @example base58Matches('2g', new Uint8Array([]), new Uint8Array([0x61])) // true: base58('a') = '2g'
 */
export function base58Matches(s: string, prefix: Uint8Array, bytes: Uint8Array): boolean {
  // leading zero bytes ↔ leading '1's
  const total = prefix.length + bytes.length;
  let zeros = 0;
  while (zeros < total && byteAt(prefix, bytes, zeros) === 0) zeros++;
  let ones = 0;
  while (ones < s.length && s.charCodeAt(ones) === 49) ones++;
  if (ones !== zeros) return false;

  let a1 = 0;
  let a2 = 0;
  for (let i = ones; i < s.length; ) {
    let chunk = 0;
    let base = 1;
    for (const end = Math.min(i + 4, s.length); i < end; i++) {
      const c = s.charCodeAt(i);
      const d = c < 128 ? DIGIT[c]! : -1;
      if (d < 0) return false;
      chunk = chunk * 58 + d;
      base *= 58;
    }
    a1 = step(a1, base, chunk, M1);
    a2 = step(a2, base, chunk, M2);
  }
  let b1 = 0;
  let b2 = 0;
  for (let i = zeros; i < total; ) {
    let chunk = 0;
    let base = 1;
    for (const end = Math.min(i + 3, total); i < end; i++) {
      chunk = chunk * 256 + byteAt(prefix, bytes, i);
      base *= 256;
    }
    b1 = step(b1, base, chunk, M1);
    b2 = step(b2, base, chunk, M2);
  }
  return a1 === b1 && a2 === b2;
}
