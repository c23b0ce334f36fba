/**
 * The collector's side of the history completeness check (methodology markers-v2 "History
 * completeness"; the comparison is src/core/record/curve-history.ts): after the chain-state read of a
 * batch, a launch whose bonding curve account disagrees with its held history is checked against the
 * chain's signature list of the curve. The disagreement is evidence of missing trades
 * (`listedAllHeld`, so the record becomes UNKNOWN `history_incomplete`) only when every signature the
 * chain lists for the curve up to the account read's slot is held: otherwise the trades not yet read
 * explain it, and the catch-up will read them.
 */
import type { ChainState } from '../../src/core/record/build-launch.ts';
import { compareCurveHistory } from '../../src/core/record/curve-history.ts';
import type { DecodedTransaction } from '../../src/core/types.ts';
import type { SignatureInfo } from '../../src/chain/signatures.ts';

/** Signatures asked of a curve to confirm a disagreement (one getSignaturesForAddress call, newest first). */
export const CONFIRM_PAGE = 100;
/**
 * A launch whose newest held transaction is fewer slots than this (≈60 s) before the account read is
 * trading now: its disagreement is likely the trades of the last seconds, not a gap, and is not
 * confirmed in this batch (a curve with no account at all is confirmed anyway).
 */
export const QUIET_SLOTS = 150;
/**
 * Confirmations (RPC calls) per batch at most; the rest are returned `unresolved`, and the caller
 * keeps them pending for a later check (collector/catch-up.ts).
 */
export const MAX_CONFIRMATIONS = 20;

/**
 * Whether a curve's newest signatures (newest first, at most `limit`) show the held history reaching
 * `slot`: the list reaches down to `slot` (or is the whole history) and every listed signature at or
 * before `slot` that succeeded is held (a failed transaction changes no account: it explains no
 * disagreement, and the collector holds none of another program's, e.g. a router swap that failed),
 * or lies before `readThrough`: the slot through which the catch-up has read the pump program's own
 * signature list (every slot before it completely). A transaction there that the launch's history
 * does not hold is not a trade still to be read — it is another program's naming the curve (a
 * transfer to it, a bot reading it), a pump transaction held under another launch, or one the
 * collector could not read — so it cannot explain the disagreement away; before, one such signature
 * among the newest `limit` kept the launch from ever being confirmed. `readThrough` absent: every
 * listed signature must be held. Pure.
 */
export function listedAllHeld(listed: readonly SignatureInfo[], held: ReadonlySet<string>, slot: number, limit: number, readThrough = -Infinity): boolean {
  const upTo = listed.filter((s) => s.slot <= slot);
  if (upTo.length === 0 && listed.length >= limit) return false; // the page does not reach the read's slot
  return upTo.every((s) => s.err !== null || held.has(s.signature) || s.slot < readThrough);
}

/**
 * Confirm the disagreements of a batch's chain states in place (`state.curve.listedAllHeld`).
 * @param states mint → state from readChainStates (those with `curve` are checked)
 * @param heldOf mint → every transaction held for it, the batch's included
 * @param listCurve the curve's newest {@link CONFIRM_PAGE} signatures (getSignaturesForAddress), or an Error
 * @param curveOf mint → its bonding curve address
 * @param readThrough the slot through which the catch-up has read the program's signature list (see {@link listedAllHeld}); absent: none
 * @returns how many were confirmed with an RPC call, how many of those showed the history incomplete,
 * and the disagreeing launches left `unresolved`: not quiet yet, over the {@link MAX_CONFIRMATIONS}
 * cap, or whose listing did not show the held history reaching the read (a signature not held, a
 * page not reaching it, an RPC error). A launch that agrees, or is shown incomplete, is resolved.
 */
export async function confirmCurveHistories(
  states: Map<string, ChainState>,
  heldOf: (mint: string) => DecodedTransaction[],
  listCurve: (curve: string) => Promise<SignatureInfo[] | Error>,
  curveOf: (mint: string) => Promise<string>,
  readThrough?: number,
): Promise<{ asked: number; incomplete: number; incompleteMints: string[]; unresolved: string[] }> {
  const todo: { mint: string; state: ChainState; held: DecodedTransaction[] }[] = [];
  const unresolved: string[] = [];
  for (const [mint, state] of states) {
    if (!state.curve) continue;
    const held = heldOf(mint);
    const read = state.curve.read;
    if (compareCurveHistory(mint, held, read).agrees) continue;
    const newest = held.reduce((m, t) => Math.max(m, t.slot ?? 0), 0);
    // an absent curve is no trade of the last seconds: it is confirmed however recent the launch is
    if ((read.exists !== false && read.slot - newest < QUIET_SLOTS) || todo.length >= MAX_CONFIRMATIONS) unresolved.push(mint);
    else todo.push({ mint, state, held });
  }
  const incompleteMints: string[] = [];
  await Promise.all(
    todo.map(async ({ mint, state, held }) => {
      const listed = await listCurve(await curveOf(mint));
      if (!(listed instanceof Error) && listedAllHeld(listed, new Set(held.map((t) => t.signature)), state.curve!.read.slot, CONFIRM_PAGE, readThrough)) {
        state.curve!.listedAllHeld = true;
        incompleteMints.push(mint);
      } else unresolved.push(mint);
    }),
  );
  return { asked: todo.length, incomplete: incompleteMints.length, incompleteMints: incompleteMints.sort(), unresolved };
}
