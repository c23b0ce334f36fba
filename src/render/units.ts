/**
 * Human units for the public pages: quote amounts (SOL, USDC, another quote mint) and token amounts to
 * 3–4 significant digits, shares of supply, durations ("1 h 40 min"), UTC times and prices in quote
 * per million tokens. The raw value always stays available: each formatter that rounds also gives
 * the exact value for a `title` attribute, and the document keeps the raw decimal strings. Pure: no
 * I/O, no clock (ages are relative to a given instant, never to "now": pages are static).
 *
 * Raw amounts are decimal strings (types.ts); they are scaled with bigint arithmetic so the exact
 * text never goes through a float. Never prints exponent notation (no "1e-7").
 */
import { USDC_MINT } from '../core/programs.ts';
import { TOKEN_DECIMALS, exactUnits, group, quoteUnit, shortAddress, splitUnits, trimZeros } from '../core/amounts.ts';

/** USDC (reference.md §1.5: USDC-quoted coins report `quote_amount`); src/core/programs.ts. */
export { USDC_MINT };
/** Exact amounts, quote units and short addresses: src/core/amounts.ts (the records' own texts use them too). */
export { TOKEN_DECIMALS, exactUnits, quoteUnit, shortAddress };
/**
 * The plain number of a raw amount (same value as `Number` of the exact text without its commas).
 * Up to 15 digits and 22 decimals it is one division, `digits / 10^decimals`: both are exact
 * doubles, so the quotient is the exact value correctly rounded, which is what `Number` of the
 * decimal text gives; longer amounts parse that text.
 */
function unitsNumber(neg: boolean, int: string, frac: string, digits: string, decimals: number): number {
  const p = EXACT_POW10[decimals];
  if (digits.length <= 15 && p !== undefined) {
    const v = rawNumber(digits) / p;
    return neg ? -v : v;
  }
  return Number(`${neg ? '-' : ''}${int}${frac ? '.' + frac : ''}`);
}

/** 10^0 … 10^22, every one an exact double (written out, not computed). */
const EXACT_POW10: readonly number[] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];

/**
 * A number to 4 significant digits (3 for ≥ 1,000 … shown whole, grouped), never in exponent
 * notation, trailing zeros cut.
 * @example sig(0.00000012345) // '0.0000001235'; sig(84.98765) // '84.99'; sig(12345.6) // '12,346'
 */
export function sig(x: number, digits = 4): string {
  if (!Number.isFinite(x)) return 'unknown';
  if (x === 0) return '0';
  const a = Math.abs(x);
  if (a >= 10 ** (digits - 1)) return (x < 0 ? '-' : '') + group(Math.round(a).toString());
  const places = Math.min(20, Math.max(0, digits - 1 - Math.floor(Math.log10(a))));
  let t = fixedDigits(a, places);
  if (t === null) {
    t = a.toFixed(places);
    if (t.includes('.')) {
      t = trimZeros(t);
      if (t.endsWith('.')) t = t.slice(0, -1);
    }
  }
  return (x < 0 ? '-' : '') + t;
}

/**
 * `a.toFixed(places)` with its trailing zeros (and a bare '.') cut, for 0 ≤ a·10^places < 10^7,
 * or null when this cannot tell it without `toFixed` (toFixed took most of `sig`'s time, a page
 * calls sig dozens of times). toFixed writes the integer nearest to a·10^places (the exact product,
 * the larger on a tie); the float product is within 1e-9 of it, so unless its fraction is within
 * 1e-6 of one half, `Math.round` of the float product is that integer, written here with its point.
 */
function fixedDigits(a: number, places: number): string | null {
  const k = EXACT_POW10[places];
  if (k === undefined) return null;
  const p = a * k;
  if (!(p >= 0 && p < 1e7)) return null;
  const frac = p - Math.floor(p);
  if (Math.abs(frac - 0.5) < 1e-6) return null;
  // below 10^7: a small integer, which prints faster than the same value as a double
  const n = Math.round(p) | 0;
  if (places === 0) return String(n);
  const s = String(n).padStart(places + 1, '0');
  const cut = s.length - places;
  const f = trimZeros(s.slice(cut));
  return f ? `${s.slice(0, cut)}.${f}` : s.slice(0, cut);
}

/**
 * A raw amount with `decimals` places as a plain number: the same number as `Number` of
 * {@link exactUnits}'s text without its commas, without building that text.
 * @example unitsValue('1500000000', 9) // 1.5
 */
export function unitsValue(raw: string | bigint, decimals: number): number {
  const [neg, int, frac, digits] = splitUnits(raw, decimals);
  return unitsNumber(neg, int, frac, digits, decimals);
}

/**
 * `Number(raw)` of a raw amount's decimal text: 1 to 15 digits (every raw quote amount of a curve)
 * read digit by digit, exact below 2^53 and so the same number `Number` gives; anything else by
 * `Number` itself. Number of a decimal string showed in the page profile (a curve reads hundreds).
 * @example rawNumber('1500000000') // 1500000000
 */
export function rawNumber(raw: string): number {
  const n = raw.length;
  if (n === 0 || n > 15) return Number(raw);
  let v = 0;
  for (let i = 0; i < n; i++) {
    const d = raw.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return Number(raw);
    v = v * 10 + d;
  }
  return v;
}

/** A rounded text with its exact value (for a `title`). */
export interface Shown {
  text: string;
  exact: string;
}

/**
 * A raw quote amount in its unit, rounded: `{text: '84.99 SOL', exact: '84.987654321 SOL (84987654321 raw)'}`.
 * `decimals`: the quote's decimals as the record carries them (quoteUnit); a quote whose decimals
 * are not known is shown exactly, in raw units: `{text: '12,500,000 raw units of Abcd…wxyz', …}`.
 */
export function quoteAmount(raw: string | bigint, quoteMint: string | null | undefined, decimals?: number | null): Shown {
  const u = quoteUnit(quoteMint, decimals);
  const [neg, int, frac, digits] = splitUnits(raw, u.decimals);
  const exact = `${neg ? '-' : ''}${group(int)}${frac ? '.' + frac : ''}`;
  if (u.raw) return { text: `${exact} ${u.symbol}`, exact: `${exact} ${u.symbol} (${quoteMint}; its decimals are not in this record)` };
  // a coin other than SOL or USDC (a pump coin, priced in millions as tokens are): compact, as token amounts
  const n = unitsNumber(neg, int, frac, digits, u.decimals);
  return { text: `${u.sol || u.symbol === 'USDC' ? sig(n) : compact(n)} ${u.symbol}`, exact: `${exact} ${u.symbol} (${raw.toString()} raw)` };
}

/**
 * A number in compact form, as token amounts and chart axes show it: `110 M`, `1.5 B`, `12.5 k`,
 * and below 10,000 its 4 significant digits (sig).
 * @example compact(110239647) // '110.2 M'
 */
export function compact(x: number): string {
  const a = Math.abs(x);
  return a >= 1e9 ? `${sig(x / 1e9)} B` : a >= 1e6 ? `${sig(x / 1e6)} M` : a >= 1e4 ? `${sig(x / 1e3)} k` : sig(x);
}

/**
 * A raw token amount (6 decimals) in compact form: `35.21 M`, `1.234 k`, `950`.
 * @example tokenAmount('35210000000000').text // '35.21 M tokens'
 */
export function tokenAmount(raw: string | bigint): Shown {
  const [neg, int, frac, digits] = splitUnits(raw, TOKEN_DECIMALS);
  const exact = `${neg ? '-' : ''}${group(int)}${frac ? '.' + frac : ''}`;
  return { text: `${compact(unitsNumber(neg, int, frac, digits, TOKEN_DECIMALS))} tokens`, exact: `${exact} tokens (${raw.toString()} raw)` };
}

/**
 * `part ÷ total` as a percentage, 3 significant digits; "< 0.001%" for a tiny nonzero share.
 * @example pctOf('62500000000000', '1000000000000000') // '6.25%'
 */
export function pctOf(part: string | bigint, total: string | bigint): string {
  const t = BigInt(total);
  if (t === 0n) return 'unknown';
  // scaled by 1e18 before the bigint division, so a share of one raw unit is not lost
  const p = Number((BigInt(part) * E20) / t) / 1e18;
  return pct(p);
}

const E20 = 10n ** 20n;

/** A percentage number (0–100) as text, 3 significant digits. */
export function pct(p: number): string {
  if (!Number.isFinite(p)) return 'unknown';
  if (p === 0) return '0%';
  if (Math.abs(p) < 0.001) return p < 0 ? '> -0.001%' : '< 0.001%';
  return `${sig(p, 3)}%`;
}

/**
 * {@link pct}, but never rounded onto a marker's threshold it is not: a share of 50.04% beside the
 * flag "more than 50%" reads "50.04%", not "50%"; 49.996% reads "49.996%". More significant digits
 * (up to 8) until the text is not the threshold; the threshold itself, or any other value, as pct.
 * @example pctBeside(50.04, 50) // '50.04%'
 */
export function pctBeside(p: number, threshold: number): string {
  const shown = pct(p);
  if (p === threshold || shown !== `${sig(threshold, 3)}%`) return shown;
  for (let digits = 4; digits <= 8; digits++) {
    const t = sig(p, digits);
    if (Number(t.replace(/,/g, '')) !== threshold) return `${t}%`;
  }
  return `${sig(p, 8)}%`;
}

/**
 * A duration in words, two units at most: `0 s`, `45 s`, `3 min 5 s`, `1 h 40 min`, `2 d 3 h`.
 * @example duration(6000) // '1 h 40 min'
 */
export function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return 'unknown';
  const neg = seconds < 0;
  let s = Math.round(Math.abs(seconds));
  const d = Math.floor(s / 86400);
  s -= d * 86400;
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  s -= m * 60;
  // the largest unit, then the next one when it is not zero (no array joined per call)
  const text = d ? (h ? `${d} d ${h} h` : `${d} d`) : h ? (m ? `${h} h ${m} min` : `${h} h`) : m ? (s ? `${m} min ${s} s` : `${m} min`) : `${s} s`;
  return neg ? '-' + text : text;
}

/**
 * An epoch-ms time as `2026-10-01 10:00:05 UTC` (second resolution: the chain's blockTime).
 * @example utc(Date.UTC(2026, 9, 1, 10, 0, 5)) // '2026-10-01 10:00:05 UTC'
 */
export function utc(ms: number): string {
  const p = utcParts(ms);
  if (p) return `${p.date} ${TWO[p.hh]}:${TWO[p.mm]}:${TWO[p.s]} UTC`;
  const iso = new Date(ms).toISOString();
  // years 0–9999: `YYYY-MM-DDTHH:mm:ss.sssZ`, cut where the replacements below would cut it
  if (iso.length === 24) return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
  return iso.replace('T', ' ').replace(/\.\d{3}Z$/, ' UTC');
}

/**
 * An epoch-ms time as `Date.prototype.toISOString` writes it (`2026-10-01T10:00:05.000Z`; a
 * RangeError for a time no Date holds), without a Date for the years 1970–9999: the `datetime` of
 * the lists' and the search's 50 rows a page, where two Dates a row showed in the profile.
 * @example isoTime(Date.UTC(2026, 9, 1, 10, 0, 5)) // '2026-10-01T10:00:05.000Z'
 */
export function isoTime(ms: number): string {
  const p = utcParts(ms);
  if (!p) return new Date(ms).toISOString();
  const milli = ms % 1000;
  return `${p.date}T${TWO[p.hh]}:${TWO[p.mm]}:${TWO[p.s]}.${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
}

/**
 * The civil date (`YYYY-MM-DD`) and time of day of an epoch-ms time in 1970-01-01 to 9999-12-31,
 * whole ms; null outside (the callers fall back to a Date). H. Hinnant's days_from_civil inverse:
 * no Date object (toISOString showed in the page profile).
 */
function utcParts(ms: number): { date: string; hh: number; mm: number; s: number } | null {
  if (!(Number.isInteger(ms) && ms >= 0 && ms < MS_10000)) return null;
  const days = Math.floor(ms / 86_400_000);
  let s = Math.floor((ms - days * 86_400_000) / 1000);
  const hh = Math.floor(s / 3600);
  s -= hh * 3600;
  const mm = Math.floor(s / 60);
  s -= mm * 60;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return { date: `${y}-${TWO[m]}-${TWO[d]}`, hh, mm, s };
}

/** 10000-01-01T00:00:00Z in epoch ms: {@link utc}'s arithmetic covers the four-digit years from 1970. */
const MS_10000 = 253_402_300_800_000;
/** `00`…`99`. */
const TWO: string[] = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));

/**
 * How long after `fromMs` a time `ms` is, in words: `1 h 40 min after launch`.
 * @param what the reference's name ("launch", "creation")
 */
export function after(ms: number, fromMs: number, what = 'launch'): string {
  const d = (ms - fromMs) / 1000;
  if (d < 0) return `${duration(-d)} before ${what}`;
  return d < 1 ? `at ${what}` : `${duration(d)} after ${what}`;
}

/**
 * Price in quote per million tokens, from a trade's or pool's quote and token amounts (raw);
 * `decimals` as for {@link quoteAmount}. Null without tokens, or when the quote's decimals are not
 * known (a price in raw units would read as a price).
 * @example pricePerMillion('30000000000', '1073000000000000', WSOL) // {text: '0.02796 SOL per million tokens', …}
 */
export function pricePerMillion(quoteRaw: string | bigint, tokensRaw: string | bigint, quoteMint: string | null | undefined, decimals?: number | null): Shown | null {
  const tokens = BigInt(tokensRaw);
  if (tokens <= 0n) return null;
  const u = quoteUnit(quoteMint, decimals);
  if (u.raw) return null;
  // quote/10^qd per (tokens/10^6) tokens, × 10^6 tokens
  const v = (Number(BigInt(quoteRaw)) / 10 ** u.decimals / (Number(tokens) / 10 ** TOKEN_DECIMALS)) * 1e6;
  return { text: `${sig(v)} ${u.symbol} per million tokens`, exact: `${v} ${u.symbol} per 1,000,000 tokens (quote ${quoteRaw.toString()} raw ÷ tokens ${tokensRaw.toString()} raw)` };
}

/** A count with its noun, singular or plural: `1 wallet`, `3 wallets`. */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${group(String(n))} ${n === 1 ? one : many}`;
}
