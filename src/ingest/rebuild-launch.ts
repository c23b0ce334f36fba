import PQueue from 'p-queue';
import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import type { PublicStore } from '../db/public-store.ts';
import type { DecodedTransaction, LaunchDocument } from '../core/types.ts';
import type { ArchiveRpc } from '../chain/rpc.ts';
import { pageSignatures, SIGNATURE_PAGE } from '../chain/signatures.ts';
import { bondingCurveAddress } from '../chain/pda.ts';
import { kitAccounts, readChainState, readChainStates } from '../chain/chain-state.ts';
import type { ChainState } from '../core/record/build-launch.ts';
import { unrecognisedOf } from '../core/decode/unrecognised.ts';
import { mintsOf } from '../core/record/mints-of.ts';
import { fetchAnswer } from '../chain/fetch-answer.ts';
import { decodeTransaction, incompleteAnswer } from '../core/decode/index.ts';
import { creationsIn, fetchedCurveTrade, laterTradeForm } from '../core/record/from-logs.ts';
import { recordLaunch } from './record-launch.ts';
import { writeSiteFiles } from './publish.ts';
import { ensureFunders, FunderBudget } from './funding.ts';


/** Progress of one rebuild: signatures listed so far, transactions fetched so far. */
export interface RebuildProgress {
  signatures: number;
  transactions: number;
  /** true once paging reached the curve's first signature */
  signaturesComplete: boolean;
}

/**
 * The curve's history holds more transactions than a rebuild reads (`REBUILD_MAX_TRANSACTIONS`):
 * the rebuild fails (404 `rebuild_failed`) after reading at most that many signatures, none of its
 * transactions.
 */
export class RebuildTooLongError extends Error {
  constructor(readonly max: number) {
    super(`the curve's history holds more than ${max} transactions (REBUILD_MAX_TRANSACTIONS): not rebuilt here`);
    this.name = 'RebuildTooLongError';
  }
}

/** A chain read failed after the transport's retries: the service's failure (404 `rebuild_failed`). */
export class RebuildReadError extends Error {
  override name = 'RebuildReadError';
}

/**
 * The chain serves no transaction of the mint's bonding curve: there is nothing to rebuild from, and
 * nothing is written (a record built from no history would claim a launch that may not exist). With
 * no curve account either, the mint is no curve launch (the server's 404 `not_a_curve_launch`);
 * with an account, the RPC does not serve the curve's history (not an archival node).
 */
export class NoCurveHistoryError extends Error {
  override name = 'NoCurveHistoryError';
  /** `curveAccount`: whether the curve account exists (null: its read failed) */
  constructor(readonly curveAccount: boolean | null) {
    super(
      curveAccount === true
        ? 'the RPC lists no transaction of its bonding curve although the curve account exists: it does not serve that history (use an archival RPC); nothing was written'
        : curveAccount === false
          ? 'not a curve launch: the chain has no bonding curve account and no transaction history for this mint; nothing was written'
          : 'the RPC lists no transaction of its bonding curve (its account could not be read): nothing to rebuild from; nothing was written',
    );
  }
}

export interface RebuildDeps {
  config: Config;
  store: PublicStore;
  rpc: ArchiveRpc;
  log: Logger;
  now?: () => number;
}

export interface RebuildOptions {
  onProgress?: (p: RebuildProgress) => void;
  signal?: AbortSignal;
  /** transactions fetched at once (default config.RPC_CONCURRENCY) */
  concurrency?: number;
  /** RPC requests per second at most (default config.REBUILD_RPC_MAX_RPS; 0 = no limit) */
  maxRps?: number;
}

/**
 * Rebuild one launch from its complete chain history (spec §3; issue "rebuild on request"):
 * every signature of its bonding-curve address back to creation (getSignaturesForAddress, 1,000 a
 * page, paging with `before`), every transaction (getTransaction, `json`, v0), decoded and stored
 * in launch_tx, the record built by the same builder as the live collector (recordLaunch) with
 * `origin: "rebuilt"`, `observedAtLaunch: false`, the curve and pool read now when the curve
 * completed (readChainState), all in one SQLite transaction; then the page and document are
 * written. RPC calls: 1 curve read (before the history, for the completeness check) + ⌈signatures/1000⌉
 * (+1 when the count is a multiple of 1,000) + transactions + 0, 2 or 3 account reads.
 * Errors: RebuildReadError when a chain read fails after retries (nothing is written then).
 */
export async function rebuildLaunch(deps: RebuildDeps, mint: string, opts: RebuildOptions = {}): Promise<{ doc: LaunchDocument; progress: RebuildProgress }> {
  const { config, store, rpc, log } = deps;
  const now = deps.now ?? Date.now;
  const curve = await bondingCurveAddress(mint);
  const progress: RebuildProgress = { signatures: 0, transactions: 0, signaturesComplete: false };
  const report = () => opts.onProgress?.({ ...progress });
  const read = async <T>(what: string, fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (e) {
      if (opts.signal?.aborted) throw e;
      throw new RebuildReadError(`${what}: ${e instanceof Error ? e.message : String(e)}`);
    }
  };

  // The curve account first: every signature listed after this read that is at or before its slot is
  // fetched below, so a disagreement with the rebuilt history is evidence of missing trades
  // (methodology markers-v2 "History completeness").
  const curveRead = (await readChainStates(kitAccounts(rpc, { signal: opts.signal }), [{ mint, quoteMint: '', pool: false }], now())).get(mint)?.curve;
  const maxRps = opts.maxRps ?? config.REBUILD_RPC_MAX_RPS;
  // Paced evenly (one start per 1000/maxRps ms), so no sliding second ever holds more than maxRps: the signature pages too.
  const queue = new PQueue({ concurrency: opts.concurrency ?? config.RPC_CONCURRENCY, ...(maxRps > 0 ? { intervalCap: 1, interval: Math.ceil(1000 / maxRps) } : {}) });
  // a history longer than REBUILD_MAX_TRANSACTIONS is not read (every decoded transaction is held at once: a security
  // review's curve of 2,000,000 signatures took one server to 3.2 GB and out of memory)
  const maxPages = Math.ceil(config.REBUILD_MAX_TRANSACTIONS / SIGNATURE_PAGE);
  const history = await read('getSignaturesForAddress', () =>
    pageSignatures(rpc, curve, {
      signal: opts.signal,
      maxPages,
      schedule: <T>(fn: () => Promise<T>) => queue.add(fn, { signal: opts.signal }) as Promise<T>,
      onPage: (n) => {
        progress.signatures = n;
        report();
      },
    }),
  );
  if (history.stopped === 'page_cap' || history.signatures.length > config.REBUILD_MAX_TRANSACTIONS) {
    throw new RebuildTooLongError(config.REBUILD_MAX_TRANSACTIONS);
  }
  const signatures = history.signatures.map((s) => s.signature);
  if (signatures.length === 0) throw new NoCurveHistoryError(curveRead ? curveRead.read.exists ?? null : null);
  progress.signaturesComplete = true;
  report();

  const listed = new Map(history.signatures.map((s) => [s.signature, s]));
  const fetched = await Promise.all(
    signatures.map((sig) =>
      queue.add(async () => {
        const answer = await read(`getTransaction ${sig}`, () => fetchAnswer(rpc, sig, opts.signal));
        if (!answer) throw new RebuildReadError(`getTransaction ${sig}: not available`);
        // an answer that cannot show what the transaction did: the rebuild fails rather than build a history without it
        const incomplete = incompleteAnswer(answer);
        if (incomplete) throw new RebuildReadError(`getTransaction ${sig}: ${incomplete}`);
        progress.transactions++;
        if (progress.transactions % 50 === 0) report();
        // decoded whole, and its logs form when it is a plain curve trade (kept so once the creation is known)
        return { whole: decodeTransaction(answer), trade: fetchedCurveTrade(answer, listed.get(sig)!) };
      }),
    ),
  ).catch((e: unknown) => {
    queue.clear();
    throw e;
  });
  report();

  // Only transactions that touch this launch by its events or accounts are kept for it (the same rule
  // as the collector); a later curve trade in its logs form, as the collector keeps it (keptFromLogs).
  // A transaction of the curve's history holding program data the decoder does not know is kept too,
  // whatever it names: the drift guard then makes the record UNKNOWN rather than build it without it.
  const creations = new Map(fetched.flatMap((f) => creationsIn(f.whole)));
  const creationOf = (m: string) => creations.get(m) ?? store.creationAt(m);
  const own = fetched
    .filter((f) => mintsOf(f.whole).includes(mint) || unrecognisedOf(f.whole).length > 0)
    // (a transaction the decoder cannot fully read is kept whole, never in its logs form: the drift guard reads it)
    .map(({ whole, trade }) => (trade && unrecognisedOf(whole).length === 0 ? laterTradeForm(trade, creationOf) : null) ?? whole);
  const provisional = completionOf(mint, own);
  const state: ChainState = provisional.completed ? await readChainState(rpc, mint, provisional.quoteMint, now(), opts.signal) : {};
  if (curveRead) state.curve = { read: curveRead.read, listedAllHeld: true };
  await ensureFunders(
    { rpc, store, log, now, config, budget: new FunderBudget(store, config.FUNDER_DAILY_RPC_BUDGET, now), schedule: (fn) => queue.add(fn, { signal: opts.signal }) as Promise<never>, signal: opts.signal },
    new Map([[mint, own]]),
  );

  const result = store.transaction(() => {
    for (const tx of own) store.addTransaction(mint, tx);
    return recordLaunch(store, mint, { origin: 'rebuilt', observedAtLaunch: false, nowMs: now(), bondingCurve: curve, state });
  });
  writeSiteFiles(store, config, log);
  log.info({ mint, signatures: progress.signatures, transactions: progress.transactions, class: result.doc.finding.class }, 'launch rebuilt');
  return { doc: result.doc, progress };
}

/**
 * Whether these transactions show the launch's curve completing (CompleteEvent), and its quote mint:
 * the CreateEvent's, else one a CompleteEvent or TradeEvent of the mint names (2026-10 layouts),
 * else SOL (WSOL). The raw value is returned (SOL may be the default key; canonicalPoolAddress maps
 * it to WSOL). A completed curve is the one whose pool is read (methodology "graduation").
 */
export function completionOf(mint: string, txs: DecodedTransaction[]): { completed: boolean; quoteMint: string } {
  let completed = false;
  let created: string | undefined;
  // since 2026-10 a CompleteEvent (and a TradeEvent) names the quote too: a completion whose creation
  // is not among `txs` (the collector's batch) still derives the right pool for a USDC or pump-coin quote
  let named: string | undefined;
  for (const tx of txs) {
    if (tx.err !== null) continue;
    for (const e of tx.events) {
      if (e.fields.mint !== mint) continue;
      if (e.name === 'CompleteEvent') completed = true;
      const q = e.fields.quote_mint;
      if (typeof q !== 'string') continue;
      if (e.name === 'CreateEvent') created = q;
      else if (e.name === 'CompleteEvent' || e.name === 'TradeEvent') named ??= q;
    }
  }
  return { completed, quoteMint: created ?? named ?? 'So11111111111111111111111111111111111111112' };
}
