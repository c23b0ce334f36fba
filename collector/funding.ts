import { signature as toSignature } from '@solana/kit';
import type { Config } from '../src/config.ts';
import type { Logger } from '../src/log.ts';
import type { PublicStore } from '../src/db/public-store.ts';
import type { DecodedTransaction } from '../src/core/types.ts';
import { PROTOCOL_WALLETS } from '../src/core/programs.ts';
import { inboundTransfer, type FunderFact, type FunderUnknownReason } from '../src/core/funding.ts';
import { toPlainJson, type ArchiveRpc } from '../src/chain/rpc.ts';
import type { TransactionReader } from '../src/chain/transaction-reader.ts';
import { pageSignatures } from '../src/chain/signatures.ts';
import { inFirstWindow } from '../src/core/record/build-launch.ts';


/**
 * The daily RPC budget of funder lookups and afterwards reads (`FUNDER_DAILY_RPC_BUDGET`), counted
 * per UTC day in the public store's meta table so restarts, cron runs and the server's rebuilds
 * share it.
 *
 * Calls taken are counted in memory and added to the stored count (one atomic SQL increment, so
 * another process's calls are never overwritten) every {@link FunderBudget.FLUSH_EVERY} calls, on
 * {@link flush}, and when the day changes — not as one SQLite write per call. A crash can leave at
 * most FLUSH_EVERY − 1 calls uncounted.
 */
export class FunderBudget {
  /** Calls taken before the count is written. */
  static readonly FLUSH_EVERY = 32;
  /** the day the in-memory counts are for, the stored count read at its start, calls not yet written */
  private day: string | null = null;
  private stored = 0;
  private pending = 0;

  constructor(private readonly store: PublicStore, private readonly perDay: number, private readonly now: () => number) {}

  private key(day: string): string {
    return `funder_rpc_${day}`;
  }

  /** Take `n` calls from today's budget; false (nothing taken) when it would be exceeded. */
  take(n: number): boolean {
    const day = new Date(this.now()).toISOString().slice(0, 10);
    if (day !== this.day) {
      this.flush();
      this.day = day;
      this.stored = Number(this.store.getMeta(this.key(day)) ?? '0');
    }
    if (this.stored + this.pending + n > this.perDay) return false;
    this.pending += n;
    if (this.pending >= FunderBudget.FLUSH_EVERY) this.flush();
    return true;
  }

  /** Write the calls taken so far to the stored count (and read what other processes added). */
  flush(): void {
    if (this.day === null || this.pending === 0) return;
    this.stored = this.store.addToMeta(this.key(this.day), this.pending);
    this.pending = 0;
  }
}

export interface FunderLookupDeps {
  rpc: ArchiveRpc;
  config: Pick<Config, 'FUNDER_PAGE_CAP' | 'FUNDER_TX_CAP'>;
  budget: FunderBudget;
  /** reads transactions as plain JSON (the collector's batched reader); without it, through `rpc` */
  reader?: TransactionReader;
  /** runs every RPC call (the collector's p-queue: concurrency and rate limit) */
  schedule?: <T>(fn: () => Promise<T>) => Promise<T>;
  signal?: AbortSignal;
}

/**
 * The first funding source of a wallet (methodology "shared funder"): its oldest successful
 * transaction holding an inbound System SOL transfer from another wallet. Pages the wallet's
 * signatures to the beginning (at most `FUNDER_PAGE_CAP` pages), then reads its oldest successful
 * transactions (at most `FUNDER_TX_CAP`). Returns `{state: 'unknown', reason}` — unknown, not
 * "none" — when a cap or the daily budget stops it, or an RPC call fails after its retries.
 */
export async function lookupFunder(deps: FunderLookupDeps, wallet: string): Promise<FunderFact | { state: 'unknown'; reason: FunderUnknownReason }> {
  const run = deps.schedule ?? (<T>(fn: () => Promise<T>) => fn());
  const unknown = (reason: FunderUnknownReason) => ({ state: 'unknown' as const, reason });
  try {
    const history = await pageSignatures(deps.rpc, wallet, { maxPages: deps.config.FUNDER_PAGE_CAP, takePage: () => deps.budget.take(1), schedule: run, signal: deps.signal });
    if (history.stopped) return unknown(history.stopped);
    const oldestFirst = history.signatures.filter((s) => s.err === null).reverse();
    for (let i = 0; i < oldestFirst.length; i++) {
      if (i >= deps.config.FUNDER_TX_CAP) return unknown('tx_cap');
      if (!deps.budget.take(1)) return unknown('budget');
      const s = oldestFirst[i]!;
      const reader = deps.reader;
      const tx = reader
        ? (await run(() => reader.getTransactions([s.signature], deps.signal)))[0]
        : toPlainJson(await run(() => deps.rpc.getTransaction(toSignature(s.signature), { encoding: 'json', maxSupportedTransactionVersion: 0, commitment: 'confirmed' }).send({ abortSignal: deps.signal })));
      if (!tx || tx instanceof Error) return unknown('rpc'); // not available yet or failed: unknown, try again later
      const t = inboundTransfer(tx, wallet);
      if (t) return { state: 'found', funder: t.from, signature: s.signature, slot: s.slot };
    }
    return { state: 'none' };
  } catch (err) {
    if (deps.signal?.aborted) throw err;
    return unknown('rpc');
  }
}

/**
 * Whether a wallet without a known funder is worth looking up now: not when its last lookup
 * stopped at a cap that has not been raised since (it would stop there again and spend the budget).
 */
export function funderLookupDue(store: PublicStore, wallet: string, config: Pick<Config, 'FUNDER_PAGE_CAP' | 'FUNDER_TX_CAP'>): boolean {
  const a = store.funderAttempt(wallet);
  if (!a) return true;
  if (a.reason === 'page_cap') return config.FUNDER_PAGE_CAP > a.pageCap;
  if (a.reason === 'tx_cap') return config.FUNDER_TX_CAP > a.txCap;
  return true;
}

/**
 * Wallets whose first funder the cohort rule may need, from one batch of a launch's transactions:
 * the creator of a CreateEvent, and the buyers whose buy came within the first 30 s of the creation
 * (`createdAt` in unix seconds, from the batch or the held record). A superset is harmless; the
 * builder picks the cohort. Protocol wallets are never looked up.
 */
export function cohortCandidates(mint: string, txs: DecodedTransaction[], created: { blockTime: number | null; slot: number } | null): string[] {
  const out = new Set<string>();
  let c = created;
  for (const tx of txs) {
    if (tx.err !== null) continue;
    for (const e of tx.events) {
      if (e.name === 'CreateEvent' && e.fields.mint === mint) {
        const creator = (e.fields.creator ?? e.fields.user) as string | undefined;
        if (typeof creator === 'string') out.add(creator);
        c = { blockTime: tx.blockTime, slot: tx.slot ?? 0 };
      }
    }
  }
  if (!c) return [...out].filter((w) => !PROTOCOL_WALLETS.has(w));
  for (const tx of txs) {
    if (tx.err !== null) continue;
    if (!inFirstWindow(c, { slot: tx.slot ?? 0, blockTime: tx.blockTime })) continue;
    for (const e of tx.events) {
      if (e.name === 'TradeEvent' && e.fields.mint === mint && e.fields.is_buy === true && typeof e.fields.user === 'string') out.add(e.fields.user);
    }
  }
  return [...out].filter((w) => !PROTOCOL_WALLETS.has(w));
}

export interface EnsureFundersDeps extends FunderLookupDeps {
  store: PublicStore;
  log: Logger;
  now: () => number;
}

/**
 * Look up (and keep in the public store) the first funder of every cohort candidate of these
 * transactions not yet established. Run before the batch's SQLite transaction, so the records built
 * in it see the funders. Returns how many wallets were looked up and how many stayed unknown.
 */
export async function ensureFunders(deps: EnsureFundersDeps, byMint: Map<string, DecodedTransaction[]>): Promise<{ looked: number; unknown: number }> {
  const wallets = new Set<string>();
  for (const [mint, txs] of byMint) {
    const c = deps.store.getCreation(mint);
    const created = c ? { blockTime: Math.floor(c.createdAtMs / 1000), slot: c.slot } : null;
    for (const w of cohortCandidates(mint, txs, created)) if (deps.store.funderOf(w) === undefined && funderLookupDue(deps.store, w, deps.config)) wallets.add(w);
  }
  let unknown = 0;
  const results = await Promise.all([...wallets].map(async (w) => [w, await lookupFunder(deps, w)] as const));
  const caps = { pageCap: deps.config.FUNDER_PAGE_CAP, txCap: deps.config.FUNDER_TX_CAP };
  deps.store.transaction(() => {
    deps.budget.flush();
    for (const [w, fact] of results) {
      if (fact.state !== 'unknown') deps.store.putFunder(w, fact, deps.now());
      else {
        deps.store.putFunderAttempt(w, fact.reason, caps, deps.now());
        unknown++;
      }
    }
  });
  if (unknown > 0) deps.log.warn({ wallets: wallets.size, unknown }, 'first funders not established for some wallets (caps or daily budget); their cohorts stay unknown');
  return { looked: wallets.size, unknown };
}
