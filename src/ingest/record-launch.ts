import type { PublicStore } from '../db/public-store.ts';
import type { DecodedTransaction, LaunchDocument, Origin } from '../core/types.ts';
import { analyzeLaunch, migratesMint, type ChainState, type WalletRole } from '../core/record/build-launch.ts';
import { classifyLaunch } from '../core/record/classify.ts';
import { canonicalJson, sha256Hex } from '../core/canonical.ts';
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
  opts: {
    origin: Origin;
    observedAtLaunch: boolean;
    nowMs: number;
    bondingCurve?: string | null;
    state?: ChainState;
    cache?: TransactionCache;
    /** false: the held history is known not to be complete (a creation recorded ahead of the catch-up): the record is UNKNOWN (default true) */
    historyComplete?: boolean;
  },
): { doc: LaunchDocument; sha256: string; changed: boolean } {
  const txs = opts.cache ? opts.cache.transactionsFor(store, mint) : store.transactionsFor(mint);
  const existing = store.getOrigin(mint);
  // A record's origin is fixed by how the archive first got its creation transaction: observed at
  // launch, scanned or rebuilt stays; a record still without its creation takes the new origin.
  // A rebuild replaces a scanned record's history (one held incomplete): it becomes `rebuilt`; a
  // launch observed at its creation stays `observed`.
  const kept = existing && existing.hasCreation && !(opts.origin === 'rebuilt' && !existing.observedAtLaunch) ? existing.origin : opts.origin;
  // a graduated launch's life is closed: an unreadable transaction no notification named, passed inside it
  // before the launch had graduated (launchesAround did not count it then), counts against it now
  const life = lifeSlots(mint, txs);
  if (life) store.claimUnnamedUnreadable(mint, life.from, life.to);
  const analysis = analyzeLaunch(mint, txs, opts.historyComplete ?? true, { ...opts.state, funderOf: (w) => store.funderOf(w), unreadable: store.unreadableFor(mint) });
  const observedAtLaunch = analysis.facts !== null && (existing?.observedAtLaunch || opts.observedAtLaunch);
  // `observed` means observed at launch (methodology "History and origin"): a record held without
  // being watched at its creation (a placeholder of later trades, or a creation read after the fact)
  // is `scanned`, so origin and observedAtLaunch never contradict each other.
  const origin = kept === 'observed' && !observedAtLaunch ? 'scanned' : kept;
  const newest = txs.reduce((m, t) => Math.max(m, t.blockTime ?? 0), 0);
  const asOfMs = Math.max(newest * 1000, opts.state?.checkedAtMs ?? 0) || opts.nowMs;
  // a rebuild (origin asked: rebuilt) says so in the record, whatever origin the record keeps
  const doc = classifyLaunch(analysis, { origin, observedAtLaunch, asOfMs, ...(opts.origin === 'rebuilt' ? { rebuiltAtMs: opts.nowMs } : {}) });
  const text = canonicalJson(doc);
  const sha256 = sha256Hex(text);
  const changed = store.launchSha256(mint) !== sha256;
  if (changed) {
    // the wallets' pages show the launch's name, symbol, class and creation time: marked when those may have moved
    const summaryChanged = store.putLaunch(doc, opts.bondingCurve ?? null, text, sha256, opts.nowMs);
    store.putWalletRoles(mint, rolesToList(doc, analysis.roles), summaryChanged);
  }
  // the funder sweep takes the record up while a lookup may still change its cohort (an unknown one, or a shared funder listed beside a wallet not looked up yet)
  if (doc.launch !== null && doc.history.complete) store.markCohortPending(mint, analysis.cohortPending);
  return { doc, sha256, changed };
}

/**
 * The roles of a launch the wallet endpoint and creator pages list (docs/api.md "Wallet"): every
 * role over a complete history; over an incomplete one, the creator only — a fact of the creation
 * transaction, which the record holds (without the role the creator's wallet answered "never seen"
 * and its page said no launch held names it as creator) — while a buyer's role and tokens could be
 * changed by the trades missing. No role without a creation (the analysis gives none).
 */
function rolesToList(doc: LaunchDocument, roles: WalletRole[]): WalletRole[] {
  return doc.history.complete ? roles : roles.filter((r) => r.role === 'creator');
}

/**
 * The slots of a graduated launch's life on its curve, from its creation to its migration, when the
 * held history has both (successful transactions: the mint's CreateEvent; its migration event or a
 * pump migrate instruction of the mint, as build-launch.ts reads a graduation); else null. Pure.
 */
export function lifeSlots(mint: string, txs: readonly DecodedTransaction[]): { from: number; to: number } | null {
  let from: number | null = null;
  let to: number | null = null;
  for (const tx of txs) {
    if (tx.err !== null || tx.slot === null) continue;
    if (from === null && tx.events.some((e) => e.name === 'CreateEvent' && e.fields.mint === mint)) from = tx.slot;
    if (tx.events.some((e) => e.name === 'CompletePumpAmmMigrationEvent' && e.fields.mint === mint) || tx.instructions.some((i) => migratesMint(i, mint))) to = Math.max(to ?? 0, tx.slot);
  }
  return from !== null && to !== null && to >= from ? { from, to } : null;
}
