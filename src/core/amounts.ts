/**
 * Amounts in their units, exactly: a raw amount (a decimal string of the smallest unit, types.ts)
 * as the decimal text of its mint's units, the unit a quote mint is counted in, and a short form
 * of an address. Pure; bigint and string arithmetic only, so the exact text never goes through a
 * float and never shows exponent notation. Used by the record builder's own texts (a flag's
 * summary) and by the public pages (src/render/units.ts, which re-exports them).
 */
import { USDC_MINT, knownQuoteDecimals } from './programs.ts';

/** Decimals of a pump token (and of a pump coin used as quote). */
export const TOKEN_DECIMALS = 6;

/**
 * A quote mint's unit as the pages show it: `symbol` and the `decimals` amounts are scaled by.
 * SOL (null, the default key or WSOL) is 9 decimals, USDC 6; any other quote (a pump coin, a token
 * listed through QuoteControl such as an xStock) is named by its shortened mint and scaled by the
 * decimals the record carries (`launch.quoteDecimals` or `pool.quoteDecimals`, markers-v6). When
 * the record does not carry them (null, or a document older than markers-v6), `raw` is true and
 * amounts are shown unscaled, as raw units of the mint: never scaled by a guess (6 is right for a
 * pump coin, 100 times off for an 8-decimal xStock).
 * @example quoteUnit('So11111111111111111111111111111111111111112') // {symbol: 'SOL', decimals: 9, sol: true, raw: false}
 */
export function quoteUnit(quoteMint: string | null | undefined, decimals?: number | null): { symbol: string; decimals: number; sol: boolean; raw: boolean } {
  const known = knownQuoteDecimals(quoteMint);
  // SOL (however spelled, or absent) and USDC need no decimals from the record
  if (known !== null || !quoteMint) return quoteMint === USDC_MINT ? { symbol: 'USDC', decimals: known ?? 6, sol: false, raw: false } : { symbol: 'SOL', decimals: known ?? 9, sol: true, raw: false };
  if (typeof decimals === 'number' && Number.isInteger(decimals) && decimals >= 0) return { symbol: shortAddress(quoteMint), decimals, sol: false, raw: false };
  return { symbol: `raw units of ${shortAddress(quoteMint)}`, decimals: 0, sol: false, raw: true };
}

/** `Abcd…wxyz`: the first and last four characters of an address. */
export function shortAddress(a: string): string {
  return a.length > 12 ? `${a.slice(0, 4)}…${a.slice(-4)}` : a;
}

/**
 * The exact decimal text of a raw amount with `decimals` places, trailing zeros cut.
 * @example exactUnits('1500000000', 9) // '1.5'
 */
export function exactUnits(raw: string | bigint, decimals: number): string {
  const [neg, int, frac] = splitUnits(raw, decimals);
  return `${neg ? '-' : ''}${group(int)}${frac ? '.' + frac : ''}`;
}

/** A raw amount's sign, integer digits and fraction digits (trailing zeros cut), ungrouped, and its digits unsplit (no sign). */
export function splitUnits(raw: string | bigint, decimals: number): [boolean, string, string, string] {
  let neg: boolean;
  let digits: string;
  if (typeof raw === 'string' && CANONICAL.test(raw)) {
    // already the text BigInt would print back: no bigint round trip
    neg = raw.charCodeAt(0) === 45;
    digits = neg ? raw.slice(1) : raw;
  } else {
    let v = typeof raw === 'bigint' ? raw : BigInt(raw);
    neg = v < 0n;
    if (neg) v = -v;
    digits = v.toString();
  }
  const s = digits.padStart(decimals + 1, '0');
  const int = s.slice(0, s.length - decimals);
  return [neg, int, decimals ? trimZeros(s.slice(s.length - decimals)) : '', digits];
}

/** A decimal integer as BigInt prints it: no sign but a minus, no leading zero, no "-0". */
const CANONICAL = /^(?:0|-?[1-9]\d*)$/;

/** `s` without its trailing '0's (a loop: the regex /0+$/ showed in the page profile). */
export function trimZeros(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 48) end--;
  return end === s.length ? s : s.slice(0, end);
}

const DIGITS = /^\d+$/;

/** Digits grouped by thousands with commas (`1234567` → `1,234,567`); anything but plain digits (a sign, an exponent) by the regex. */
export function group(int: string): string {
  const n = int.length;
  if (n <= 3) return int;
  if (!DIGITS.test(int)) return int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  let first = n % 3 || 3;
  let out = int.slice(0, first);
  for (; first < n; first += 3) out += ',' + int.slice(first, first + 3);
  return out;
}

