import { address, signature as toSignature } from '@solana/kit';
import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import type { PublicStore } from '../db/public-store.ts';
import type { DecodedTransaction } from '../core/types.ts';
import { PROTOCOL_WALLETS } from '../core/programs.ts';
import { inboundTransfer, type FunderFact, type FunderUnknownReason } from '../core/funding.ts';
import { toPlainJson, type ArchiveRpc } from '../chain/rpc.ts';
import { inScheduledRequests, TRANSACTION_CONFIG, type TransactionReader } from '../chain/transaction-reader.ts';
import { SIGNATURE_PAGE, signaturePage, type SignatureInfo } from '../chain/signatures.ts';
import { inFirstWindow } from '../core/record/build-launch.ts';
import { chainTimeOf, isProgramAddress, tradesOf } from '../core/record/launch-events.ts';
import type { CreationAt } from '../core/types.ts';


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
  /** the collector's batched reader: the lookups' calls go many to an HTTP request; without it, one call each through `rpc` */
  reader?: TransactionReader;
  /** one call per HTTP request even with a reader (RPC_MAX_RPS set: the queue's rate slots count calls) */
  rateLimited?: boolean;
  /** runs every RPC request (the collector's p-queue: concurrency and rate limit) */
  schedule?: <T>(fn: () => Promise<T>) => Promise<T>;
  signal?: AbortSignal;
}

/** What a lookup ends with: the funder fact, or unknown (not "none") with the reason. */
export type FunderLookup = FunderFact | { state: 'unknown'; reason: FunderUnknownReason };

/** The reads funder lookups make, many at once; a failed call answers an `Error` in its place. */
interface FunderReads {
  /** one getSignaturesForAddress page (newest first, SIGNATURE_PAGE at most) per ask */
  signaturePages(asks: { wallet: string; before?: string }[]): Promise<(SignatureInfo[] | Error)[]>;
  /** getTransaction (json) per signature: plain JSON, null when not available */
  transactions(signatures: string[]): Promise<(Record<string, unknown> | null | Error)[]>;
}

const asError = (err: unknown) => (err instanceof Error ? err : new Error(String(err)));

function funderReads(deps: FunderLookupDeps): FunderReads {
  const run = deps.schedule ?? (<T>(fn: () => Promise<T>) => fn());
  const signal = deps.signal;
  const pageConfig = (before?: string) => ({ limit: SIGNATURE_PAGE, commitment: 'confirmed' as const, ...(before ? { before } : {}) });
  const reader = deps.reader;
  if (reader) {
    const batched = <I, A>(items: I[], send: (chunk: I[]) => Promise<A[]>) => inScheduledRequests(reader, items, send, { rateLimited: deps.rateLimited, schedule: run, signal });
    return {
      signaturePages: async (asks) =>
        (await batched(asks, (c) => reader.call('getSignaturesForAddress', c.map((a) => [a.wallet, pageConfig(a.before)]), signal))).map(signaturePage),
      transactions: (signatures) => batched(signatures, (c) => reader.getTransactions(c, signal)),
    };
  }
  const each = <I, A>(items: I[], one: (item: I) => Promise<A>): Promise<(A | Error)[]> =>
    Promise.all(items.map((x) => run(() => one(x)).catch((err: unknown) => {
      if (signal?.aborted) throw err;
      return asError(err);
    })));
  return {
    signaturePages: async (asks) =>
      (await each(asks, async (a) => {
        const { before, ...config } = pageConfig(a.before);
        return deps.rpc.getSignaturesForAddress(address(a.wallet), { ...config, ...(before ? { before: toSignature(before) } : {}) }).send({ abortSignal: signal });
      })).map(signaturePage),
    transactions: (signatures) =>
      each(signatures, async (sig) => toPlainJson(await deps.rpc.getTransaction(toSignature(sig), TRANSACTION_CONFIG).send({ abortSignal: signal })) as Record<string, unknown> | null),
  };
}

/**
 * The first funding source of each wallet (methodology "shared funder"): its oldest successful
 * transaction holding an inbound System SOL transfer from another wallet. Pages each wallet's
 * signatures to the beginning (at most `FUNDER_PAGE_CAP` pages), then reads its oldest successful
 * transactions (at most `FUNDER_TX_CAP`), one per wallet per round, every round's calls together
 * (many to an HTTP request through the reader). Each call takes one from the daily budget.
 * A wallet ends `{state: 'unknown', reason}` — unknown, not "none" — when a cap or the budget stops
 * it, or one of its calls fails after the retries. Throws only when `signal` aborts.
 */
export async function lookupFunders(deps: FunderLookupDeps, wallets: readonly string[]): Promise<Map<string, FunderLookup>> {
  const reads = funderReads(deps);
  const out = new Map<string, FunderLookup>();
  const unknown = (reason: FunderUnknownReason) => ({ state: 'unknown' as const, reason });
  const abortCheck = () => {
    if (deps.signal?.aborted) throw deps.signal.reason ?? new Error('aborted');
  };
  // 1. Signature histories: a page per round for every wallet not yet at its beginning.
  // a page shorter than asked is read past (one more, which may go past the cap): only an empty page ends a history —
  // a provider capping pages below 1,000 cut histories short, and a later funder passed for the first (src/chain/signatures.ts)
  const history = new Map(wallets.map((w) => [w, { signatures: [] as SignatureInfo[], before: undefined as string | undefined, pages: 0, short: false }]));
  let paging = [...history.keys()];
  while (paging.length > 0) {
    const asks: string[] = [];
    for (const w of paging) {
      const h = history.get(w)!;
      if (h.pages >= deps.config.FUNDER_PAGE_CAP && !(h.short && h.pages === deps.config.FUNDER_PAGE_CAP)) out.set(w, unknown('page_cap'));
      else if (!deps.budget.take(1)) out.set(w, unknown('budget'));
      else {
        h.pages++;
        asks.push(w);
      }
    }
    const pages = await reads.signaturePages(asks.map((w) => ({ wallet: w, before: history.get(w)!.before })));
    abortCheck();
    paging = [];
    pages.forEach((page, k) => {
      const w = asks[k]!;
      if (page instanceof Error) return void out.set(w, unknown('rpc'));
      const h = history.get(w)!;
      h.signatures.push(...page);
      if (page.length > 0) {
        h.short = page.length < SIGNATURE_PAGE;
        h.before = page[page.length - 1]!.signature;
        paging.push(w);
      }
    });
  }
  // 2. Oldest successful transactions first, round i reading each open wallet's i-th.
  const open = new Map<string, SignatureInfo[]>();
  for (const [w, h] of history) if (!out.has(w)) open.set(w, h.signatures.filter((s) => s.err === null).reverse());
  for (let i = 0; open.size > 0; i++) {
    const asks: string[] = [];
    for (const [w, oldestFirst] of open) {
      if (i >= oldestFirst.length) out.set(w, { state: 'none' });
      else if (i >= deps.config.FUNDER_TX_CAP) out.set(w, unknown('tx_cap'));
      else if (!deps.budget.take(1)) out.set(w, unknown('budget'));
      else {
        asks.push(w);
        continue;
      }
      open.delete(w);
    }
    const txs = await reads.transactions(asks.map((w) => open.get(w)![i]!.signature));
    abortCheck();
    txs.forEach((tx, k) => {
      const w = asks[k]!;
      const s = open.get(w)![i]!;
      // not available yet or failed: unknown, try again later
      if (!tx || tx instanceof Error) out.set(w, unknown('rpc'));
      else {
        const t = inboundTransfer(tx, w);
        if (!t) return;
        out.set(w, { state: 'found', funder: t.from, signature: s.signature, slot: s.slot });
      }
      open.delete(w);
    });
  }
  return out;
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
 * builder picks the cohort. Protocol wallets, and a program's address that paid for a wallet's buy, are never looked up.
 */
export function cohortCandidates(mint: string, txs: DecodedTransaction[], created: CreationAt | null): string[] {
  const out = new Set<string>();
  let c = created;
  for (const tx of txs) {
    if (tx.err !== null) continue;
    for (const e of tx.events) {
      if (e.name === 'CreateEvent' && e.fields.mint === mint) {
        const creator = (e.fields.creator ?? e.fields.user) as string | undefined;
        if (typeof creator === 'string') out.add(creator);
        c = { blockTime: chainTimeOf(tx), slot: tx.slot ?? 0 };
      }
    }
  }
  const lookedUp = (w: string) => !PROTOCOL_WALLETS.has(w);
  if (!c) return [...out].filter(lookedUp);
  for (const tx of txs) {
    if (tx.err !== null) continue;
    if (!inFirstWindow(c, { slot: tx.slot ?? 0, blockTime: chainTimeOf(tx) })) continue;
    // the buys as the builder counts them: the wallet that received each (markers-v9), and its payer
    for (const t of tradesOf(mint, [tx])) {
      // a multi-hop route's middle hop is no wallet's buy (markers-v10): its payer is not in the cohort
      if (!t.isBuy || PROTOCOL_WALLETS.has(t.wallet)) continue;
      out.add(t.wallet);
      // a router's authority that paid is in no cohort (markers-v12: build-launch.ts)
      if (t.payer && !isProgramAddress(t.payer)) out.add(t.payer);
    }
  }
  return [...out].filter(lookedUp);
}

/** Why a first funder was not established, in a log line's words. */
const FUNDER_UNKNOWN_WORDS: Record<FunderUnknownReason, string> = {
  page_cap: 'past FUNDER_PAGE_CAP pages of history',
  tx_cap: 'past FUNDER_TX_CAP transactions',
  budget: 'over the day\'s FUNDER_DAILY_RPC_BUDGET',
  rpc: 'a failed RPC read',
};

export interface EnsureFundersDeps extends FunderLookupDeps {
  store: PublicStore;
  log: Logger;
  now: () => number;
  /** a launch's creation slot and blockTime (default: `store.creationAt`; the collector passes its cache of it) */
  creationOf?: (mint: string) => CreationAt | undefined;
}

/**
 * Look up (and keep in the public store) the first funder of every cohort candidate of these
 * transactions not yet established. Run before the batch's SQLite transaction, so the records built
 * in it see the funders. Returns how many wallets were looked up and how many stayed unknown.
 */
export async function ensureFunders(deps: EnsureFundersDeps, byMint: Map<string, DecodedTransaction[]>): Promise<{ looked: number; unknown: number }> {
  const wallets = new Set<string>();
  const creationOf = deps.creationOf ?? ((mint: string) => deps.store.creationAt(mint));
  for (const [mint, txs] of byMint) {
    for (const w of cohortCandidates(mint, txs, creationOf(mint) ?? null)) if (deps.store.funderOf(w) === undefined && funderLookupDue(deps.store, w, deps.config)) wallets.add(w);
  }
  let unknown = 0;
  const reasons: Partial<Record<FunderUnknownReason, number>> = {};
  const results = await lookupFunders(deps, [...wallets]);
  const caps = { pageCap: deps.config.FUNDER_PAGE_CAP, txCap: deps.config.FUNDER_TX_CAP };
  if (results.size > 0) deps.store.transaction(() => {
    deps.budget.flush();
    for (const [w, fact] of results) {
      if (fact.state !== 'unknown') deps.store.putFunder(w, fact, deps.now());
      else {
        deps.store.putFunderAttempt(w, fact.reason, caps, deps.now());
        unknown++;
        reasons[fact.reason] = (reasons[fact.reason] ?? 0) + 1;
      }
    }
  });
  // the reasons as they are: a provider's failures (rpc) are not caps or the budget (an operator read an outage as a cap)
  if (unknown > 0) deps.log.warn({ wallets: wallets.size, unknown, reasons }, `first funders not established for some wallets (${Object.entries(reasons).map(([r, n]) => `${n} ${FUNDER_UNKNOWN_WORDS[r as FunderUnknownReason]}`).join(', ')}); their cohorts stay unknown until the funder sweep asks again (FUNDER_SWEEP_MS)`);
  return { looked: wallets.size, unknown };
}
