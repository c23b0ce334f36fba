import { createHash } from 'node:crypto';

/**
 * Canonical JSON: object keys sorted (code-point order) at every depth, no whitespace,
 * arrays in their given order. `undefined` members are dropped (as JSON.stringify does).
 * The same value always gives the same bytes, so a document's sha256 identifies it.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}

/** Lower-case hex sha256 of a UTF-8 string. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

// the ISO text of the last instant made: the server makes one per answer, several in a millisecond
let lastInstantMs = Number.NaN;
let lastInstantIso = '';

/** Spec §2.1 timestamp object from epoch milliseconds. Errors: RangeError for a time a Date cannot hold. */
export function instant(ms: number): { ms: number; iso: string } {
  if (ms !== lastInstantMs) {
    lastInstantIso = new Date(ms).toISOString();
    lastInstantMs = ms;
  }
  return { ms, iso: lastInstantIso };
}
