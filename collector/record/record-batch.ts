import type { Logger } from '../../src/log.ts';
import type { PublicStore } from '../../src/db/public-store.ts';
import type { DecodedTransaction } from '../../src/core/types.ts';
import type { ChainState } from '../../src/core/record/build-launch.ts';
import { mintsOf } from '../../src/core/record/mints-of.ts';
import { unrecognisedOf } from '../../src/core/decode/unrecognised.ts';
import { creationsIn } from '../../src/core/record/from-logs.ts';
import { watchedAt } from '../../src/core/coverage.ts';
import { recordLaunch } from '../../src/ingest/record-launch.ts';
import type { CollectorMemory } from '../context.ts';

/**
 * Keep decoded transactions under the mints they touch and rebuild those launches' records, inside
 * the caller's SQLite transaction; returns how many records changed. A creation read while the
 * collector was watching is observed at launch; one created before coverage began or inside a gap
 * was found later from chain: scanned. `aheadOfCursor`: the transactions were read ahead of the
 * catch-up (a creation heard or found by the creation scan), so the history held for their launches
 * is not complete (the trades between the cursor and now are not read): only the launches they
 * create that are not held with their creation yet are kept and recorded, UNKNOWN until the catch-up
 * records them again. Any other launch they touch (one traded in the same transaction, one whose
 * creation is held) keeps its record as the catch-up built it from its complete history — a build
 * from a history known to be incomplete would turn an established record UNKNOWN — until the
 * catch-up reaches the transaction and records it with the history before it.
 */
export function recordTransactions(store: PublicStore, memory: CollectorMemory, txs: readonly DecodedTransaction[], states: Map<string, ChainState>, nowMs: number, log: Logger, aheadOfCursor = false): number {
  const fromRaw = store.getMeta('coverage_from_slot');
  const coverageFromSlot = fromRaw === undefined ? null : Number(fromRaw);
  const gaps = store.gaps();
  // mint → the slot of its creation transaction among these (null: not created here)
  const touched = new Map<string, number | null>();
  const createdAhead = aheadOfCursor ? new Set(txs.flatMap((tx) => creationsIn(tx).map(([m]) => m)).filter((m) => store.getOrigin(m)?.hasCreation !== true)) : null;
  for (const tx of txs) {
    if (tx.skipped.length > 0) {
      for (const d of store.noteUnrecognised(tx, nowMs)) log.warn({ ...d, signature: tx.signature }, 'program data the decoder does not know: the launches of this transaction are UNKNOWN (update the IDLs)');
    }
    let text: string | undefined; // its JSON once, however many mints it touches
    for (const mint of launchMintsOf(store, tx)) {
      if (createdAhead && !createdAhead.has(mint)) continue;
      text ??= JSON.stringify(tx);
      if (store.addTransaction(mint, tx, text)) memory.txs.added(store, mint, tx, text.length);
      const creates = tx.err === null && tx.events.some((e) => e.name === 'CreateEvent' && e.fields.mint === mint);
      touched.set(mint, touched.get(mint) ?? (creates ? (tx.slot ?? 0) : null));
    }
  }
  let changed = 0;
  for (const [mint, creationSlot] of touched) {
    const createdHere = creationSlot !== null;
    const watched = createdHere && watchedAt(creationSlot, coverageFromSlot, gaps);
    const origin = createdHere && !watched ? 'scanned' : 'observed';
    const r = recordLaunch(store, mint, { origin, observedAtLaunch: createdHere && watched, nowMs, state: states.get(mint), cache: memory.txs, historyComplete: !aheadOfCursor });
    if (r.changed) changed++;
    if (r.doc.launch?.completed) memory.completed.set(mint, r.doc.launch.quoteMint);
  }
  return changed;
}

/**
 * The launches a transaction is kept under: {@link mintsOf}; and when that names none but the
 * transaction holds pump, PumpSwap or Pump Fees program data the decoder does not know (a new
 * instruction or event after a redeploy names its mint in no way the decoder can read), the held
 * launches whose mint its token balances name, so the drift guard makes them UNKNOWN
 * (methodology "unrecognised_program_data") instead of building them without it. Mints not held
 * (quote mints, other tokens) are not made records.
 */
export function launchMintsOf(store: Pick<PublicStore, 'getOrigin'>, tx: DecodedTransaction): string[] {
  const named = mintsOf(tx);
  if (named.length > 0 || unrecognisedOf(tx).length === 0) return named;
  const held = new Set<string>();
  for (const b of [...tx.preTokenBalances, ...tx.postTokenBalances]) if (!held.has(b.mint) && store.getOrigin(b.mint) !== undefined) held.add(b.mint);
  return [...held];
}

/** The transactions of a batch by the mints they touch. */
export function groupByMint(txs: DecodedTransaction[]): Map<string, DecodedTransaction[]> {
  const byMint = new Map<string, DecodedTransaction[]>();
  for (const tx of txs) {
    for (const mint of mintsOf(tx)) {
      const list = byMint.get(mint);
      if (list) list.push(tx);
      else byMint.set(mint, [tx]);
    }
  }
  return byMint;
}

/**
 * Record a held launch again with its origin as held (a launch a check or an unreadable transaction
 * concerns, outside the batch's own): whether its record changed; false when it is not held.
 */
export function recordHeldLaunch(store: PublicStore, memory: CollectorMemory, mint: string, nowMs: number, state: ChainState | undefined): boolean {
  const held = store.getOrigin(mint);
  return held !== undefined && recordLaunch(store, mint, { origin: held.origin, observedAtLaunch: held.observedAtLaunch, nowMs, state, cache: memory.txs }).changed;
}
