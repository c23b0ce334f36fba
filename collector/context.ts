import type PQueue from 'p-queue';
import type { Config } from '../src/config.ts';
import type { Logger } from '../src/log.ts';
import type { PublicStore } from '../src/db/public-store.ts';
import type { CreationAt, DecodedTransaction } from '../src/core/types.ts';
import type { ArchiveRpc } from '../src/chain/rpc.ts';
import type { TransactionReader } from '../src/chain/transaction-reader.ts';
import { TransactionCache } from '../src/ingest/tx-cache.ts';
import { newBacklogProgress, type BacklogProgress } from '../src/ingest/page-backlog.ts';
import { FunderBudget, type EnsureFundersDeps } from '../src/ingest/funding.ts';
import { HeardNotifications } from './source/heard.ts';
import type { CollectorJobDeps } from './enrich/job-deps.ts';
import { PassTrace } from './run/pass-trace.ts';

/** What the collector runs with (the stages take it whole). */
export interface CollectDeps {
  config: Config;
  store: PublicStore;
  rpc: ArchiveRpc;
  log: Logger;
  now?: () => number;
  /** the batched transaction reader (default: one for config.SOLANA_RPC_URL, RPC_BATCH_SIZE calls per request) */
  reader?: TransactionReader;
}

export interface CollectOptions {
  /** catch up and exit (the cron form) */
  once: boolean;
  /** long-running form: WebSocket URL of the live watch (logsSubscribe); without it the collector only polls */
  wsUrl?: string;
  signal?: AbortSignal;
  /** called after each committed batch (tests, progress); `fromLogs`: how many of its transactions were taken from their logs */
  onBatch?: (info: { transactions: number; fromLogs: number; records: number; cursorSlot: number | null }) => void;
}

/** Mints the collector remembers as completed / not completed before it starts over (see launchStates). */
export const MEMORY_MINTS = 200_000;

/**
 * What the collector remembers across batches of one run: decoded transactions per mint, which
 * launches have completed (mint → quote mint), which were seen not completed in the store, the
 * notifications not yet caught up, creations seen, and when it last wrote site files.
 */
export interface CollectorMemory {
  txs: TransactionCache;
  completed: Map<string, string | null>;
  notCompleted: Set<string>;
  /** notifications heard by the live watch, until a catch-up reaches them */
  heard: HeardNotifications;
  /** creation slot and blockTime of launches seen (mint → when) */
  creations: Map<string, CreationAt>;
  siteWrittenMs: number;
  /** when the history completeness check last ran (collector/enrich/history-check.ts), and the launches touched since */
  historyCheckedMs: number;
  historyPending: Set<string>;
  /** how long the long-running form's last page-writing pass took (ms, wall time) */
  sitePassMs: number;
  /** where each pass's time goes (debug log "pass timings") */
  trace: PassTrace;
  /** creation transactions read as soon as heard (record/record-heard-creation.ts), by signature, until a catch-up reaches them */
  prefetched: Map<string, DecodedTransaction>;
  /** wall time (epoch ms) the live watch heard each launch's creation, until it is committed (debug log "launch committed") */
  creationHeardMs: Map<string, number>;
  /** the newest creation the creation scan has reached (source/creation-scan.ts); null before its first scan */
  creationScan: { signature: string; slot: number } | null;
  /** the page template backlog's progress, for its log lines (src/ingest/page-backlog.ts noteBacklogProgress) */
  backlog: BacklogProgress;
  /** the long-running form's small passes, summed for its one info line a minute (catch-up.ts noteLive) */
  live: { transactions: number; records: number; passes: number; sinceMs: number };
}

/** A run's empty memory (`nowMs`: the run's start, as if pages had just been written). */
export function newMemory(config: Config, nowMs: number): CollectorMemory {
  const creations = new Map<string, CreationAt>();
  return { txs: new TransactionCache(config.TX_CACHE_MB * 2 ** 20, config.TX_CACHE_IDLE_S * 1000), completed: new Map(), notCompleted: new Set(), heard: new HeardNotifications(creations), creations, siteWrittenMs: nowMs, sitePassMs: 0, historyCheckedMs: 0, historyPending: new Set(), trace: new PassTrace(), creationHeardMs: new Map(), prefetched: new Map(), creationScan: null, backlog: newBacklogProgress(), live: { transactions: 0, records: 0, passes: 0, sinceMs: 0 } };
}

/** A launch's creation slot and blockTime: remembered from this run, else the held record's; undefined when not held. */
export function creationAt(store: PublicStore, memory: CollectorMemory, mint: string): CreationAt | undefined {
  let at = memory.creations.get(mint);
  if (at === undefined) {
    at = store.creationAt(mint);
    if (!at) return undefined;
    if (memory.creations.size > MEMORY_MINTS) memory.creations.clear();
    memory.creations.set(mint, at);
  }
  return at;
}

/** What every periodic job runs with: the collector's store, RPC, logger, clock, RPC queue and stop signal. */
export function jobDeps(deps: CollectDeps, queue: PQueue, signal?: AbortSignal): CollectorJobDeps {
  return { store: deps.store, rpc: deps.rpc, log: deps.log, now: deps.now ?? Date.now, schedule: (fn) => queue.add(fn, { signal }) as Promise<never>, signal };
}

/** What the funder lookups of a batch or a sweep run with: the collector's RPC, reader and queue, and today's budget. */
export function funderDeps(deps: CollectDeps, queue: PQueue, reader: TransactionReader, memory: CollectorMemory, signal?: AbortSignal): EnsureFundersDeps {
  const job = jobDeps(deps, queue, signal);
  return {
    ...job,
    config: deps.config,
    budget: new FunderBudget(deps.store, deps.config.FUNDER_DAILY_RPC_BUDGET, job.now),
    reader,
    rateLimited: deps.config.RPC_MAX_RPS > 0,
    creationOf: (mint) => creationAt(deps.store, memory, mint),
  };
}
