/**
 * The afterwards sweep (wallet priors, spec §2.4; docs/methodology.md "Buyout afterwards"): for
 * each buyout due, reads the new signatures of the token account that received the completing
 * buy's tokens, reads those transactions, and folds them (src/core/afterwards.ts) into the stored
 * state. Pool sales never touch the pump program, so the live watch cannot see them: this sweep is
 * how the archive learns them.
 */
import { pageSignatures } from '../../src/chain/signatures.ts';
import type { Config } from '../../src/config.ts';
import type { CollectorJobDeps } from './job-deps.ts';
import type { DecodedTransaction } from '../../src/core/types.ts';
import { afterwardsStart, foldAfterwards, type AfterwardsState } from '../../src/core/afterwards.ts';
import type { FunderBudget } from '../../src/ingest/funding.ts';

/** Buyouts the sweep reads per run, least recently checked first. */
export const AFTERWARDS_RECORDS = 200;

export interface AfterwardsDeps extends CollectorJobDeps {
  config: Pick<Config, 'AFTERWARDS_SWEEP_MS'>;
  /** the daily lookup budget shared with funder lookups (FUNDER_DAILY_RPC_BUDGET): one call per page and per transaction */
  budget: FunderBudget;
  /** reads and decodes transactions, one entry per signature in order; null where one could not be read */
  readTransactions: (signatures: string[]) => Promise<(DecodedTransaction | null)[]>;
}

/** What one sweep did. */
export interface AfterwardsSweep {
  buyouts: number;
  /** buyouts whose reading stopped early (budget, RPC): read again first next time */
  unfinished: number;
  /** sales found by this sweep */
  sales: number;
}

/**
 * Run the sweep when AFTERWARDS_SWEEP_MS has passed since the last one (kept in meta
 * `afterwards_sweep_at_ms`, across cron runs). The due buyouts are read concurrently (bounded by
 * the collector's RPC queue) and each is committed on its own; a read that
 * stops early (budget spent, an RPC error, a transaction not yet available) keeps what was folded
 * so far and is marked to be read again first. Returns null when the sweep was not due.
 */
export async function sweepBuyoutAfterwards(deps: AfterwardsDeps): Promise<AfterwardsSweep | null> {
  const { store, config, now } = deps;
  if (now() - Number(store.getMeta('afterwards_sweep_at_ms') ?? 0) < config.AFTERWARDS_SWEEP_MS) return null;
  const startMs = now();
  store.setMeta('afterwards_sweep_at_ms', String(startMs));
  const due = store.dueBuyouts(startMs - config.AFTERWARDS_SWEEP_MS, AFTERWARDS_RECORDS);
  const out: AfterwardsSweep = { buyouts: due.length, unfinished: 0, sales: 0 };
  // All due buyouts at once: their RPC calls go through `schedule` / `readTransactions`, which bound
  // the concurrency (RPC_CONCURRENCY) and the rate (RPC_MAX_RPS); each buyout is stored on its own.
  try {
    await Promise.all(due.map(async (b) => {
      if (deps.signal?.aborted) return;
      let state = b.state;
      if (state === null) {
        const completing = store.transactionOf(b.mint, b.signature);
        state = completing ? afterwardsStart(completing, b.wallet, b.mint) : null;
        if (state === null) {
          store.putAfterwards(b.mint, b.wallet, null, 'no_token_account', now());
          return;
        }
      }
      const before = state.sales.length;
      const read = await readAfterwards(deps, state, b.wallet, b.mint);
      store.putAfterwards(b.mint, b.wallet, read.state, null, read.finished ? now() : 0);
      if (!read.finished) out.unfinished++;
      out.sales += read.state.sales.length - before;
    }));
  } finally {
    deps.budget.flush();
  }
  if (due.length > 0) deps.log.info(out, 'afterwards sweep');
  return out;
}

/** Read the account's signatures newer than the state's, oldest first, and fold what could be read. */
async function readAfterwards(deps: AfterwardsDeps, state: AfterwardsState, wallet: string, mint: string): Promise<{ state: AfterwardsState; finished: boolean }> {
  let sigs: string[];
  try {
    const history = await pageSignatures(deps.rpc, state.tokenAccount, { until: state.throughSignature, takePage: () => deps.budget.take(1), schedule: deps.schedule, signal: deps.signal });
    if (history.stopped) return { state, finished: false };
    sigs = history.signatures.map((s) => s.signature);
  } catch (err) {
    deps.log.warn({ mint, wallet, err: String(err) }, 'buyout token account history could not be read');
    return { state, finished: false };
  }
  if (sigs.length === 0) return { state, finished: true };
  sigs.reverse();
  if (!deps.budget.take(sigs.length)) return { state, finished: false };
  const txs = await deps.readTransactions(sigs);
  const firstMissing = txs.findIndex((t) => t === null);
  const usable = (firstMissing === -1 ? txs : txs.slice(0, firstMissing)) as DecodedTransaction[];
  return { state: foldAfterwards(state, usable, wallet, mint), finished: firstMissing === -1 };
}
