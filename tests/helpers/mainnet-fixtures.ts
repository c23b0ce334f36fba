/**
 * The real mainnet fixtures of tests/fixtures/mainnet (README there): loading and unwrapping.
 * Fixtures 16–34 keep the wrappers they were found in — a one-element list `[result]`, a JSON-RPC
 * envelope, or another project's test case `{description, …, raw}` whose `raw` is the getTransaction
 * result — and tests unwrap in code instead of editing the files.
 */
import { readdirSync, readFileSync } from 'node:fs';

export const MAINNET_DIR = new URL('../fixtures/mainnet/', import.meta.url);

/** The file as stored (parsed JSON). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function loadFixture(file: string): any {
  return JSON.parse(readFileSync(new URL(file, MAINNET_DIR), 'utf8'));
}

/** A whole-transaction fixture as the decoder takes it: `[x]` → x, `{raw}` test case → raw; envelopes are kept (the decoder reads them). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function loadFixtureTransaction(file: string): any {
  let x = loadFixture(file);
  if (Array.isArray(x) && x.length === 1) x = x[0];
  if (x && typeof x === 'object' && !Array.isArray(x) && 'raw' in x && !('transaction' in x)) x = x.raw;
  return x;
}

/**
 * The whole-transaction fixtures (getTransaction / getParsedTransaction results and blockSubscribe
 * elements, fixtures 1–32), excluding account reads, single-instruction Carbon files and the
 * structure-only files 33–34.
 */
export function wholeTransactionFixtures(): string[] {
  return readdirSync(MAINNET_DIR).filter(
    (f) => f.endsWith('.json') && !f.includes('STRUCTURE-ONLY') && !f.startsWith('carbon_') && !/getAccountInfo|accounts/.test(f),
  );
}
