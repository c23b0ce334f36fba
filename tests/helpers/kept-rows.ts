/**
 * launch_tx rows, expected and held: what `keptFromLogs` and `decodeTransaction` give for every
 * pump transaction of a simulated chain (in chain order, so a launch's creation is known before
 * its later trades), and what a public database holds.
 */
import Database from 'better-sqlite3';
import { decodeTransaction } from '../../src/core/decode/index.ts';
import { creationsIn, keptFromLogs } from '../../src/core/record/from-logs.ts';
import { mintsOf } from '../../src/core/record/mints-of.ts';
import type { CreationAt, DecodedTransaction } from '../../src/core/types.ts';

/** mint → signature → decoded row */
export type RowsByMint = Map<string, Map<string, DecodedTransaction>>;

/** The row the rule gives each pump transaction of `transactions` (the chain's getTransaction results, one JSON text each). */
export function expectedRows(transactions: readonly string[]): RowsByMint {
  const out: RowsByMint = new Map();
  const creations = new Map<string, CreationAt>();
  const answers = transactions.map((l) => JSON.parse(l) as { slot: number; meta: { err: unknown } }).sort((a, b) => a.slot - b.slot);
  for (const raw of answers) {
    const whole = decodeTransaction(raw);
    const mints = mintsOf(whole);
    if (mints.length === 0) continue;
    const kept = keptFromLogs(raw, { signature: whole.signature, slot: raw.slot, err: raw.meta.err }, (m) => creations.get(m));
    for (const mint of mints) {
      if (!out.has(mint)) out.set(mint, new Map());
      out.get(mint)!.set(whole.signature, kept ?? whole);
    }
    for (const [m, at] of creationsIn(whole)) creations.set(m, at);
  }
  return out;
}

/** Every launch_tx row of the public database at `dbPath`. */
export function heldRows(dbPath: string): RowsByMint {
  const db = new Database(dbPath, { readonly: true });
  const out: RowsByMint = new Map();
  try {
    for (const r of db.prepare('SELECT mint, signature, decoded FROM launch_tx').all() as { mint: string; signature: string; decoded: string }[]) {
      if (!out.has(r.mint)) out.set(r.mint, new Map());
      out.get(r.mint)!.set(r.signature, JSON.parse(r.decoded) as DecodedTransaction);
    }
  } finally {
    db.close();
  }
  return out;
}
