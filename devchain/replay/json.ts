/**
 * Lossless JSON for the replay RPC. Chain files carry u64 values beyond 2^53 (e.g. an account's
 * `rentEpoch` of 18446744073709551615); mainnet prints them exactly, so they are kept as bigint
 * when read and printed as bare integers when written.
 */

type Reviver = (this: unknown, key: string, value: unknown, context?: { source?: string }) => unknown;

const keepBigIntegers: Reviver = (_key, value, context) => {
  if (typeof value === 'number' && !Number.isSafeInteger(value) && context?.source && /^-?\d+$/.test(context.source)) {
    return BigInt(context.source);
  }
  return value;
};

/**
 * Parse JSON text; integers that do not fit a double exactly become bigint (needs Node ≥ 21's
 * reviver `context.source`; on older engines they stay rounded numbers).
 * Errors: throws SyntaxError on malformed text.
 */
export function parseJsonLossless(text: string): unknown {
  // Fast path: no JSON number of 16+ digits (a number follows `:`, `,` or `[`) means none exceeds 2^53.
  if (!/[:,[]\s*-?\d{16,}/.test(text)) return JSON.parse(text);
  return JSON.parse(text, keepBigIntegers as (key: string, value: unknown) => unknown);
}

const BIG = '\u0000big:';
const BIG_RE = /"\\u0000big:(-?\d+)"/g;

/** JSON.stringify that prints bigint values as bare JSON integers. */
export function stringifyJson(value: unknown): string {
  let sawBig = false;
  const text = JSON.stringify(value, (_k, v: unknown) => {
    if (typeof v === 'bigint') {
      sawBig = true;
      return BIG + v.toString();
    }
    return v;
  });
  return sawBig ? text.replace(BIG_RE, '$1') : text;
}
