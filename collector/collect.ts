import PQueue from 'p-queue';
import { redactUrlsIn } from '../src/log.ts';
import { createTransactionReader } from '../src/chain/transaction-reader.ts';
import { writeSiteFiles } from '../src/ingest/publish.ts';
import { refreshSiteTemplate } from '../src/ingest/page-backlog.ts';
import { newMemory, type CollectDeps, type CollectOptions } from './context.ts';
import { reachChain } from './run/reach-chain.ts';
import { beginRun, Heartbeat } from './run/heartbeat.ts';
import { watchProgramLogs } from './source/live-watch.ts';
import { catchUp } from './catch-up.ts';
import { rpcPacing } from './read/rpc-pacing.ts';
import { recordHeardCreation } from './record/record-heard-creation.ts';
import { CREATION_SCAN_MS, scanCreationsEvery } from './source/creation-scan.ts';
import { Scheduler } from './scheduler.ts';
import { collectorJobs } from './jobs.ts';
import { LIVE_SITE_WRITE_BUDGET_MS, pagesDue, untilPagesDue, writePagesTimed } from './publish/pacing.ts';
import { creationsIn } from '../src/core/record/from-logs.ts';

// The names other modules and tests import from here, kept where each stage now lives.
export type { CollectDeps, CollectOptions } from './context.ts';
export { fetchNewSignatures, PROGRAM_CURSOR } from './source/signatures.ts';
export { fetchDecodedMany } from './read/fetch-many.ts';
export { groupByMint } from './record/record-batch.ts';
export { SWEEP_RECORDS } from './enrich/funder-sweep.ts';
export { LIVE_SITE_WRITE_MS, liveSiteWriteWaitMs, SITE_WRITE_INTERVAL_MS, SITE_WRITE_SPACING } from './publish/pacing.ts';
export { HEARTBEAT_MS, STALE_TEMPORARY_FILE_MS } from './run/heartbeat.ts';

/**
 * The collector (spec §1, issue "end to end"), stage by stage (docs/architecture.md):
 *   run      reach the chain, begin the run (coverage, gaps), heartbeat       run/
 *   source   the program's signature history from the cursor; the live watch;  source/
 *            the creation scan (launches found ahead of the catch-up)
 *   read     batched getTransaction, the cache, the logs form                 read/
 *   record   decode → build → classify → persist (src/ingest/record-launch)   record/, catch-up.ts
 *   enrich   funders, afterwards, pool refresh, history check: scheduled jobs enrich/, jobs.ts
 *   publish  pages and documents (paced), bulk downloads                      publish/
 * Each pass catches up (catch-up.ts: every batch committed in one SQLite transaction with its
 * cursor, so a kill at any point loses and duplicates nothing), writes the changed records' pages and
 * documents atomically, runs the periodic jobs that are due (scheduler.ts), and beats. The cron form
 * (`once`) makes one pass; the long-running form waits for a notification or the poll interval.
 */
export async function collect(deps: CollectDeps, opts: CollectOptions): Promise<void> {
  const { store, log, config } = deps;
  const now = deps.now ?? Date.now;
  // Coverage (methodology "Coverage", issue 24): it begins at the first successful read of the
  // program's history, never before. Until the chain answers there is no run, no coverage and no
  // heartbeat (status: unreachable; the outage counts as downtime); the cron form exits non-zero.
  const reached = await reachChain(deps, opts);
  if (reached === null) return; // stopped before the chain was ever read
  const runId = beginRun(deps, reached);
  const heartbeat = new Heartbeat(deps, runId);
  const reader = deps.reader ?? createTransactionReader({
    url: config.SOLANA_RPC_URL,
    batchSize: config.RPC_BATCH_SIZE,
    onRetry: (i) => log.warn(i, 'RPC call retried'),
    onFallback: (reason) => log.warn({ reason }, 'smaller JSON-RPC batches for this RPC'),
  });
  const memory = newMemory(config, now());
  const queue = new PQueue({ concurrency: config.RPC_CONCURRENCY, ...rpcPacing(config.RPC_MAX_RPS) });
  const scheduler = new Scheduler({ store, log, now, writePages: () => writeSiteFiles(store, config, log, { untilMs: opts.once ? Infinity : performance.now() + LIVE_SITE_WRITE_BUDGET_MS, txs: memory.txs }) }, collectorJobs(deps, queue, reader, memory, opts.signal));

  // Live watch: notifications wake the loop at once; the poll interval is the fallback.
  let woken = false;
  let wake: (() => void) | null = null;
  const poke = () => {
    woken = true;
    wake?.();
  };
  const watchStop = new AbortController();
  const creating = new Set<Promise<unknown>>();
  const stopWatch = () => watchStop.abort();
  opts.signal?.addEventListener('abort', stopWatch, { once: true });
  const watching = !opts.once && opts.wsUrl
    ? watchProgramLogs(opts.wsUrl, log, { onNotification: (tx) => {
        memory.heard.add(tx);
        const created = creationsIn(tx);
        if (created.length > 0) {
          if (log.isLevelEnabled('debug')) {
            if (memory.creationHeardMs.size > 10_000) memory.creationHeardMs.clear();
            for (const [mint] of created) memory.creationHeardMs.set(mint, Date.now());
          }
          // a launch heard being created is recorded at once, not at the catch-up that reaches it
          const p = recordHeardCreation(deps, queue, reader, memory, tx, watchStop.signal)
            .catch((err: unknown) => { if (!watchStop.signal.aborted) log.warn({ err: redactUrlsIn(String(err)) }, 'a heard creation could not be recorded at once; the catch-up records it'); })
            .finally(() => creating.delete(p));
          creating.add(p);
        }
        poke();
      }, onConnected: poke }, watchStop.signal)
    : Promise.resolve();
  // Creations the live watch missed (a dropped notification, a reconnect) are found by listing the
  // mint authority's history, not by waiting for a catch-up that may be minutes behind.
  const scanning = opts.once ? Promise.resolve() : scanCreationsEvery(deps, queue, reader, memory, CREATION_SCAN_MS, watchStop.signal);
  try {
    refreshSiteTemplate(store, log); // pages written by another template: listed to be written again (src/ingest/page-backlog.ts)
    writeSiteFiles(store, config, log, { txs: memory.txs }); // pages left pending by a crash between commit and write
    for (;;) {
      woken = false;
      let passOk = false;
      try {
        await memory.trace.time('catchUp', () => catchUp(deps, queue, reader, memory, opts));
        passOk = true;
      } catch (err) {
        // The cron form reports failure through its exit code; the long-running form waits and retries.
        if (opts.once) throw err;
        if (opts.signal?.aborted) break; // a stop (SIGINT/SIGTERM) is not a failure of the long-running form
        log.error({ err: redactUrlsIn(String(err)) }, 'catch-up failed; retrying after the poll interval');
      } finally {
        // what the catch-up committed since the last write: at once in the cron form; in the
        // long-running form at most every LIVE_SITE_WRITE_MS, or SITE_WRITE_SPACING × the last
        // pass's time when that is longer (the wait below wakes for the rest)
        if (pagesDue(opts.once, memory, now())) memory.trace.timeSync('pagesAfter', () => writePagesTimed(store, config, log, memory, now, !opts.once));
      }
      // Periodic jobs, each due on its own interval (kept in meta across cron runs).
      await memory.trace.time('jobs', () => scheduler.runDue(opts.signal, opts.once));
      // the cron form's last chance: the pages the jobs marked (a wallet's afterwards read by the sweep,
      // a pool refreshed) are written before it exits, not left contradicting the API until the next run
      if (opts.once && !opts.signal?.aborted) memory.trace.timeSync('pagesAfterJobs', () => writeSiteFiles(store, config, log, { txs: memory.txs }));
      await memory.trace.time('heartbeat', () => heartbeat.afterPass(opts.once, passOk, opts.signal));
      if (opts.once || opts.signal?.aborted) break;
      // what the process holds (debug only: reading RSS costs a syscall): the transaction cache beside the heap and RSS
      if (log.isLevelEnabled('debug')) {
        const mb = (n: number) => Math.round(n / 2 ** 20);
        const m = process.memoryUsage();
        memory.trace.flush(log, { woken, heard: memory.heard.size, txCache: { transactions: memory.txs.size, mints: memory.txs.mints, mb: mb(memory.txs.bytes) }, heapMb: mb(m.heapUsed), heapTotalMb: mb(m.heapTotal), externalMb: mb(m.external), rssMb: mb(m.rss) });
      } else memory.trace.flush(log);
      if (!woken) {
        const untilSiteWrite = untilPagesDue(store, memory, now());
        await memory.trace.time('wait', () => new Promise<void>((resolve) => {
          const t = setTimeout(resolve, Math.min(config.POLL_INTERVAL_MS, untilSiteWrite));
          wake = () => { clearTimeout(t); resolve(); };
          opts.signal?.addEventListener('abort', wake, { once: true });
        }));
        wake = null;
      }
      if (opts.signal?.aborted) break;
    }
  } finally {
    if (!opts.once) {
      try {
        writeSiteFiles(store, config, log, { txs: memory.txs }); // pages still waiting for their LIVE_SITE_WRITE_MS turn
      } catch (err) {
        log.warn({ err: String(err) }, 'pages not written at stop; they are written on the next start');
      }
    }
    watchStop.abort();
    opts.signal?.removeEventListener('abort', stopWatch);
    await watching;
    await scanning;
    await Promise.all(creating);
    await scheduler.settle();
    heartbeat.end();
  }
}
