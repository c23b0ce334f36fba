import type PQueue from 'p-queue';
import type { TransactionReader } from '../src/chain/transaction-reader.ts';
import { FunderBudget } from '../src/ingest/funding.ts';
import { jobDeps, type CollectDeps, type CollectorMemory } from './context.ts';
import type { Job } from './scheduler.ts';
import { fetchDecodedMany } from './read/fetch-many.ts';
import { retryUnreadable } from './read/retry-unreadable.ts';
import { sweepUnknownCohorts } from './enrich/funder-sweep.ts';
import { sweepBuyoutAfterwards } from './enrich/afterwards.ts';
import { refreshPools } from './enrich/pool-refresh.ts';
import { HISTORY_CHECK_MS } from './enrich/launch-states.ts';
import { downloadsDueNow, refreshDownloads } from './publish/downloads.ts';
import { listsWrittenAtMs, publishLists } from './publish/lists.ts';
import { publishGeneration } from './publish/generations.ts';
import { SEARCH_INDEX_MERGED_META, SEARCH_INDEX_MERGE_MS, mergeSearchIndex } from './publish/search-index.ts';
import { readGenerationManifest } from '../src/generations.ts';

/**
 * The collector's periodic jobs, in the order they run after each pass (collector/scheduler.ts):
 * each with its interval, its own budget (records or buyouts per run, FUNDER_DAILY_RPC_BUDGET), and
 * its last run kept where it survives cron runs (meta), so status can report it.
 */
export function collectorJobs(deps: CollectDeps, queue: PQueue, reader: TransactionReader, memory: CollectorMemory, signal?: AbortSignal): Job[] {
  const { store, config, log } = deps;
  const now = deps.now ?? Date.now;
  const metaMs = (key: string) => () => {
    const v = store.getMeta(key);
    return v === undefined || !Number.isFinite(Number(v)) ? null : Number(v);
  };
  const job = jobDeps(deps, queue, signal);
  let unreadableReadMs: number | null = null;
  // a manifest that cannot be read (damaged by hand, a disk error) is none: the job runs and writes a new one (it was read
  // outside the job's error handling and stopped the collector, at every start: a cluster review)
  const generationMs = () => {
    try {
      const ms = readGenerationManifest(config.generationsDir)?.writtenAt?.ms;
      return typeof ms === 'number' && Number.isFinite(ms) ? ms : null;
    } catch {
      return null;
    }
  };
  const generations: Job[] =
    config.GENERATION_INTERVAL_MS === undefined
      ? []
      : [
          {
            // issue 26: a consistent snapshot of public.db for the API nodes (API_GENERATIONS_DIR), the newest three kept;
            // the online backup steps between the next passes' writes, so it runs alongside them like the downloads
            name: 'public-database generation', setting: 'GENERATION_INTERVAL_MS', intervalMs: config.GENERATION_INTERVAL_MS, lastRunMs: generationMs,
            run: async () => {
              const m = await publishGeneration(store, config.generationsDir, now());
              log.info({ generation: m.generation, records: m.records, bytes: m.bytes }, 'public-database generation published');
              return 0;
            },
            background: true,
            failed: 'a public-database generation could not be published; the previous one stays served',
          },
        ];
  return [
    {
      // every pass: each unreadable transaction carries its own next try (UNREADABLE_RETRY_MS after its last)
      name: 'unreadable transactions retry', setting: 'UNREADABLE_RETRY_MS', intervalMs: config.UNREADABLE_RETRY_MS,
      lastRunMs: () => unreadableReadMs, isDue: () => true,
      run: async () => {
        const changed = await retryUnreadable(deps, queue, reader, memory, signal);
        if (changed !== null) unreadableReadMs = now();
        return changed;
      },
    },
    {
      name: 'funder sweep', setting: 'FUNDER_SWEEP_MS', intervalMs: config.FUNDER_SWEEP_MS, lastRunMs: metaMs('funder_sweep_at_ms'),
      run: () => sweepUnknownCohorts(deps, queue, reader, memory, signal),
    },
    {
      name: 'afterwards sweep', setting: 'AFTERWARDS_SWEEP_MS', intervalMs: config.AFTERWARDS_SWEEP_MS, lastRunMs: metaMs('afterwards_sweep_at_ms'),
      run: async () => {
        await sweepBuyoutAfterwards({ ...job, config, budget: new FunderBudget(store, config.FUNDER_DAILY_RPC_BUDGET, now), readTransactions: (sigs) => fetchDecodedMany(reader, queue, config.RPC_MAX_RPS > 0, sigs, log, signal) });
        return 0; // wallet priors: no record or page changes
      },
    },
    {
      name: 'pool refresh', setting: 'POOL_REFRESH_MS', intervalMs: config.POOL_REFRESH_MS, lastRunMs: metaMs('pool_refresh_at_ms'),
      run: () => refreshPools({ ...job, config, cache: memory.txs }),
    },
    {
      // the history completeness check runs inside a catch-up's last batch (its curve reads share the
      // batch's account rounds: collector/enrich/launch-states.ts); reported here
      name: 'history check', setting: null, intervalMs: HISTORY_CHECK_MS, lastRunMs: () => memory.historyCheckedMs || null,
    },
    {
      // the home page, the list pages, status.html and methodology.html (issue 23): every pass, each
      // write at most every LISTS_INTERVAL_MS, so under load the lists move every few seconds
      name: 'home and list pages', setting: 'LISTS_INTERVAL_MS', intervalMs: config.LISTS_INTERVAL_MS, lastRunMs: () => listsWrittenAtMs(config.siteDir),
      isDue: () => true,
      run: async () => {
        publishLists(store, config, log, now());
        return 0; // pages of their own: no record changed
      },
    },
    {
      // The bulk downloads take a while on a large archive: the long-running form writes them
      // alongside the next catch-ups (one at a time); the cron form waits for them before it exits.
      name: 'downloads', setting: 'DOWNLOADS_INTERVAL_MS', intervalMs: config.DOWNLOADS_INTERVAL_MS, lastRunMs: metaMs('downloads_written_ms'),
      isDue: (nowMs) => downloadsDueNow(store, config.dataDir, config.DOWNLOADS_INTERVAL_MS, nowMs),
      run: async () => {
        await refreshDownloads(deps);
        return 0;
      },
      background: true,
      failed: 'bulk downloads could not be written; the previous ones stay served',
    },
    ...generations,
    {
      // the search index merged into one segment when worth it (src/db/search-index.ts): a search over many
      // large segments costs several times one over a single one; step by step, alongside the next passes; last,
      // so the downloads and generations, one background job at a time like it, are not held back by it
      name: 'search index merge', setting: null, intervalMs: SEARCH_INDEX_MERGE_MS, lastRunMs: metaMs(SEARCH_INDEX_MERGED_META),
      run: async () => {
        const m = await mergeSearchIndex(store, now, { signal });
        if (m.steps > 1) log.info({ segmentsBefore: m.segmentsBefore, segmentsAfter: m.segmentsAfter, steps: m.steps, finished: m.finished }, 'search index merged');
        return 0; // no record changed
      },
      background: true,
      failed: 'the search index could not be merged; searches stay correct, and it is tried again at the next pass',
    },
  ];
}
