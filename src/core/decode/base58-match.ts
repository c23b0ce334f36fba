/**
 * Whether a base58 string encodes given bytes, without decoding it. Pure.
 *
 * Why: a pump self-CPI event's data arrives as base58 (~370 characters for a TradeEvent), and
 * decoding base58 is quadratic: it was about 40 % of the decoder's time on the collector's hot path
 * (docs/benchmarks.md). The same event's bytes are in the `Program data:` log line as base64, which
 * decodes in linear time. The decoder reads the event from the log line and uses this function to
 * check that the self-CPI carries those same bytes (reference.md §1.6: the CPI is the source).
 *
 * How: both sides are read as one big number, N (base58: the digits after the leading '1's; bytes:
 * big-endian after the leading zeros), and their residues are compared modulo 58³ and two primes
 * below 2²³ — linear work in small-integer arithmetic. Leading '1's must equal leading zero bytes.
 * Equal numbers give equal residues, so a true match is never rejected. Unequal numbers pass only
 * when they agree modulo all three, about 1 in 1.4 × 10¹⁹; every pump event in both places is
 * written by the program itself (reference.md §1.6), so the check guards against pairing the wrong
 * line, not against forgery.
 */

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** char code → base58 digit, or -1 */
const DIGIT = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DIGIT[ALPHABET.charCodeAt(i)] = i;

/** Moduli: 58³ (the last three base58 digits) and the two largest primes below 2²³. r·256 + 255 stays below 2³¹. */
const M0 = 58 * 58 * 58;
const M1 = 8_388_593;
const M2 = 8_388_587;

/**
 * True when `s` is the base58 encoding of `prefix ‖ bytes` (with the chance of a false match
 * above). False for any character outside the base58 alphabet. Never throws.
 * @example base58Matches('2g', new Uint8Array([]), new Uint8Array([0x61])) // true: base58('a') = '2g'
 */
export function base58Matches(s: string, prefix: Uint8Array, bytes: Uint8Array): boolean {
  // leading zero bytes ↔ leading '1's
  const total = prefix.length + bytes.length;
  let zeros = 0;
  while (zeros < total && (zeros < prefix.length ? prefix[zeros] : bytes[zeros - prefix.length]) === 0) zeros++;
  let ones = 0;
  while (ones < s.length && s.charCodeAt(ones) === 49) ones++;
  if (ones !== zeros) return false;

  let a0 = 0;
  let a1 = 0;
  let a2 = 0;
  for (let i = ones; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const d = c < 128 ? DIGIT[c]! : -1;
    if (d < 0) return false;
    a0 = (a0 * 58 + d) % M0;
    a1 = (a1 * 58 + d) % M1;
    a2 = (a2 * 58 + d) % M2;
  }
  let b0 = 0;
  let b1 = 0;
  let b2 = 0;
  for (let i = zeros; i < total; i++) {
    const v = i < prefix.length ? prefix[i]! : bytes[i - prefix.length]!;
    b0 = (b0 * 256 + v) % M0;
    b1 = (b1 * 256 + v) % M1;
    b2 = (b2 * 256 + v) % M2;
  }
  return a0 === b0 && a1 === b1 && a2 === b2;
}
