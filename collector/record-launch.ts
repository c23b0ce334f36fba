import type { PublicStore } from '../src/db/public-store.ts';
import type { LaunchDocument, Origin } from '../src/core/types.ts';
import { analyzeLaunch, type ChainState } from '../src/core/record/build-launch.ts';
import { classifyLaunch } from '../src/core/record/classify.ts';
import { canonicalJson, sha256Hex } from '../src/core/canonical.ts';
import type { TransactionCache } from './tx-cache.ts';

/**
 * Rebuild one launch's record from every transaction the store holds for it, through the one
 * builder (analyzeLaunch + classifyLaunch) used by the live collector, the scanner and rebuilds.
 * Must run inside the caller's SQLite transaction. `cache` (the collector's) saves re-reading the
 * history from SQLite. Returns the document and whether it changed.
 */
export function recordLaunch(
  store: PublicStore,
  mint: string,
  opts: { origin: Origin; observedAtLaunch: boolean; nowMs: number; bondingCurve?: string | null; state?: ChainState; cache?: TransactionCache },
): { doc: LaunchDocument; sha256: string; changed: boolean } {
  const txs = opts.cache ? opts.cache.transactionsFor(store, mint) : store.transactionsFor(mint);
  const existing = store.getOrigin(mint);
  // A record's origin is fixed by how the archive first got its creation transaction: observed at
  // launch, scanned or rebuilt stays; only a record still without its creation takes the new origin.
  const origin = existing && (existing.observedAtLaunch || existing.origin !== 'observed') ? existing.origin : opts.origin;
  // TODO(drift guard): add `unreadableFor: () => unreadableSignaturesFor(store, mint)` here once ChainState has it
  const analysis = analyzeLaunch(mint, txs, true, { ...opts.state, funderOf: (w) => store.funderOf(w) });
  const observedAtLaunch = analysis.facts !== null && (existing?.observedAtLaunch || opts.observedAtLaunch);
  const newest = txs.reduce((m, t) => Math.max(m, t.blockTime ?? 0), 0);
  const asOfMs = Math.max(newest * 1000, opts.state?.checkedAtMs ?? 0) || opts.nowMs;
  const doc = classifyLaunch(analysis, { origin, observedAtLaunch, asOfMs });
  const text = canonicalJson(doc);
  const sha256 = sha256Hex(text);
  const changed = store.launchSha256(mint) !== sha256;
  if (changed) {
    store.putLaunch(doc, opts.bondingCurve ?? null, text, sha256, opts.nowMs);
    store.putWalletRoles(mint, complete(doc) ? analysis.roles : []);
  }
  return { doc, sha256, changed };
}

const complete = (doc: LaunchDocument): boolean => doc.history.complete;

/**
 * TODO(drift guard): the hook for the record builder. Signatures of the transactions the collector
 * could not read that may belong to `mint` (public.db unreadable_tx_mint: the mints of the live
 * watch's logs notification for each; collector/unreadable.ts). While any is listed, the launch's
 * history may be missing a transaction, so its record should be UNKNOWN rather than clean; not
 * passed to analyzeLaunch yet because ChainState (src/core/record/build-launch.ts) has no field
 * for it. Empty when none is known — which does not prove the history complete: an unreadable
 * transaction whose notification was not heard names no mint (count: /api/v1/status `unreadable`).
 */
export function unreadableSignaturesFor(store: PublicStore, mint: string): string[] {
  return store.unreadableFor(mint);
}
