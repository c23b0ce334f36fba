import PQueue from 'p-queue';
import { address, signature as toSignature } from '@solana/kit';
import type { Config } from '../src/config.ts';
import type { Logger } from '../src/log.ts';
import type { PublicStore } from '../src/db/public-store.ts';
import type { CreationAt, DecodedTransaction } from '../src/core/types.ts';
import { PUMP_PROGRAM_ID } from '../src/core/programs.ts';
import { decodeTransaction } from '../src/core/decode/index.ts';
import { mintsOf } from '../src/core/record/mints-of.ts';
import { toPlainJson, type ArchiveRpc } from '../src/chain/rpc.ts';
import { recordLaunch } from './record-launch.ts';
import { writeSiteFiles } from './publish.ts';
import { publishLists } from './publish-lists.ts';
import { removeStaleTemporaryFiles, writeSiteAssets } from './write-site.ts';
import { batchedAccounts, readChainStates, type ChainStateAsk } from '../src/chain/chain-state.ts';
import { bondingCurveAddress } from '../src/chain/pda.ts';
import { CONFIRM_PAGE, confirmCurveHistories } from './history-check.ts';
import type { ChainState } from '../src/core/record/build-launch.ts';
import { completionOf } from './rebuild/rebuild-launch.ts';
import { ensureFunders, FunderBudget, type EnsureFundersDeps } from './funding.ts';
import { gapOnStart, parseUnreachable, UNREACHABLE_META, watchedAt } from '../src/core/coverage.ts';
import { noteReachable, noteUnreachable } from './reachability.ts';
import { redactUrl, redactUrlsIn } from '../src/log.ts';
import { watchProgramLogs } from './live-watch.ts';
import { TransactionCache } from './tx-cache.ts';
import { writeDownloads } from './downloads.ts';
import { readManifest } from '../src/downloads.ts';
import { createTransactionReader, TRANSACTION_CONFIG, type TransactionReader } from '../src/chain/transaction-reader.ts';
import { pageSignatures, signaturePage, type SignatureInfo } from '../src/chain/signatures.ts';
import { sweepBuyoutAfterwards } from './afterwards.ts';
import type { CollectorJobDeps } from './job-deps.ts';
import { refreshPools } from './pool-refresh.ts';
import { creationsIn, fetchedCurveTrade, laterTradeForm, takeFromLogs, type PlainCurveTrade } from '../src/core/record/from-logs.ts';
import { HeardNotifications } from './heard.ts';
import { callFailure, malformedFailure, NOT_FOUND, parseReadFailure, planBatch, READ_FAILURE_META, requestFailure, UNREADABLE_RETRY_BATCH, type ReadFailure } from './unreadable.ts';

/** Cursor name of the pump program's signature history. */
export const PROGRAM_CURSOR = 'program';
/** During a long catch-up, pages and documents are written at most this often (ms); always at its end. */
export const SITE_WRITE_INTERVAL_MS = 30_000;
/**
 * The long-running form writes pages and documents at most this often (ms): a record changed by
 * several catch-ups within it is written once. The JSON API reads the database, so it is not delayed.
 */
export const LIVE_SITE_WRITE_MS = 1_000;
/**
 * The long-running form waits at least this many times as long as its last page-writing pass took
 * before it starts the next one, so page and document writes take at most about 1/(1 + this) of the
 * collector's time however many records change (each changed record costs two file writes and
 * fsyncs, whatever the number of transactions that changed it). Under light load the wait is
 * {@link LIVE_SITE_WRITE_MS}; under heavy load pages lag further, while the database — and so the
 * JSON API and the server's `/t` and `/d`, which yield to it when a file is older — stays current.
 */
export const SITE_WRITE_SPACING = 4;

/** How long after a page-writing pass that took `lastPassMs` the long-running form may start the next (ms). */
export function liveSiteWriteWaitMs(lastPassMs: number): number {
  return Math.max(LIVE_SITE_WRITE_MS, SITE_WRITE_SPACING * lastPassMs);
}
/** Age after which a temporary page file without a process id in its name counts as left behind (removeStaleTemporaryFiles). */
export const STALE_TEMPORARY_FILE_MS = 10 * 60_000;
/** The long-running form reads the chain tip for its after-pass heartbeat at most this often (ms). */
const TIP_READ_MS = 1_000;
/** How often the collector writes its heartbeat (ms). */
export const HEARTBEAT_MS = 15_000;

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

/**
 * Signatures of the pump program newer than the cursor (`until`; null: from the beginning), oldest
 * first, read through the collector's batched reader (plain JSON) when given, else through kit.
 */
export async function fetchNewSignatures(rpc: ArchiveRpc, until: string | null, signal?: AbortSignal, reader?: TransactionReader): Promise<SignatureInfo[]> {
  return (await pageSignatures(rpc, PUMP_PROGRAM_ID, { until, signal, reader })).signatures.reverse();
}

/**
 * Fetch one transaction (getTransaction, `json`, plain JSON). A `null` answer (not yet available at
 * this commitment) is retried a few times; `null` after that, so the caller can stop before it and
 * skip nothing. Errors: the transport's, after its retries.
 */
export async function fetchAnswer(rpc: ArchiveRpc, sig: string, signal?: AbortSignal): Promise<Record<string, unknown> | null> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const res = await rpc
      .getTransaction(toSignature(sig), TRANSACTION_CONFIG)
      .send({ abortSignal: signal });
    if (res) return toPlainJson(res) as Record<string, unknown>;
    await new Promise((r) => setTimeout(r, 200 * 2 ** attempt));
  }
  return null;
}

/**
 * Fetch and decode many transactions through the batched reader, in chunks of its batch size
 * scheduled on `queue` (concurrency = RPC_CONCURRENCY HTTP requests). With RPC_MAX_RPS set, a chunk of
 * n calls takes n of the queue's interval slots, so the limit counts calls, not HTTP requests
 * (providers bill each call of a batch). Returns one entry per signature, in order: the decoded
 * transaction, or `null` when it could not be read (an RPC error — logged — an answer that is not a
 * transaction, or still `null` after 5 attempts 200 ms·2^k apart).
 */
export async function fetchDecodedMany(reader: TransactionReader, queue: PQueue, rateLimited: boolean, signatures: string[], log: Logger, signal?: AbortSignal): Promise<(DecodedTransaction | null)[]> {
  return fetchMany(reader, queue, rateLimited, signatures, log, signal, (a) => decodeTransaction(a));
}

/**
 * {@link fetchDecodedMany} with each answer (plain JSON) turned into what `use` makes of it, as it
 * arrives (`use` throwing: the answer is malformed). `failures` (when given) gets why each `null`
 * entry could not be read, by index (collector/unreadable.ts).
 */
async function fetchMany<T>(reader: TransactionReader, queue: PQueue, rateLimited: boolean, signatures: string[], log: Logger, signal: AbortSignal | undefined, use: (answer: Record<string, unknown>, i: number) => T, failures?: Map<number, ReadFailure>): Promise<(T | null)[]> {
  const out = new Array<T | null>(signatures.length).fill(null);
  const chunks: number[][] = [];
  const size = reader.batchSize;
  for (let i = 0; i < signatures.length; i += size) chunks.push(Array.from({ length: Math.min(size, signatures.length - i) }, (_, k) => i + k));
  await Promise.all(chunks.map(async (chunk) => {
    let pending = chunk;
    for (let attempt = 0; attempt < 5 && pending.length > 0; attempt++) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, 200 * 2 ** (attempt - 1)));
      const ask = pending;
      if (rateLimited) for (let k = 1; k < ask.length; k++) void queue.add(() => undefined);
      let answers;
      try {
        answers = await queue.add(() => reader.getTransactions(ask.map((i) => signatures[i]!), signal));
      } catch (err) {
        log.warn({ signatures: ask.length, first: signatures[ask[0]!], err: String(err) }, 'transactions could not be read');
        for (const i of ask) failures?.set(i, requestFailure(err));
        return;
      }
      pending = [];
      answers.forEach((a, k) => {
        const i = ask[k]!;
        if (a === null) pending.push(i);
        else if (a instanceof Error) {
          log.warn({ signature: signatures[i], err: a.message }, 'transaction could not be read');
          failures?.set(i, callFailure(a));
        } else {
          try {
            out[i] = use(a, i);
          } catch (err) {
            log.warn({ signature: signatures[i], err: String(err) }, 'transaction answer could not be decoded');
            failures?.set(i, malformedFailure(err));
          }
        }
      });
      // an RPC error is final for this catch-up: its batch stops before the first transaction not read
      // (unless collector/unreadable.ts passes it) and the next run asks again
      if (answers.some((a) => a instanceof Error)) break;
    }
    for (const i of pending) failures?.set(i, NOT_FOUND);
  }));
  return out;
}

/**
 * The collector (spec §1, issue "end to end"): reads the pump program's signatures from its
 * cursor, fetches transactions with bounded concurrency, decodes, groups by mint, rebuilds each
 * touched launch's record, and commits each batch in one SQLite transaction together with its
 * cursor — so a kill at any point loses and duplicates nothing. After each commit it writes the
 * changed records' pages and documents atomically.
 */
export async function collect(deps: CollectDeps, opts: CollectOptions): Promise<void> {
  const { store, rpc, log, config } = deps;
  const now = deps.now ?? Date.now;
  // Coverage (methodology "Coverage", issue 24): it begins at the first successful read of the
  // program's history, never before. Until the chain answers there is no run, no coverage and no
  // heartbeat (status: unreachable; the outage counts as downtime); the cron form exits non-zero.
  const reached = await reachChain(deps, opts);
  if (reached === null) return; // stopped before the chain was ever read
  const startSlot = reached.slot;
  const startMs = reached.ms;
  const previous = store.lastRun();
  const gap = gapOnStart(previous, startMs, startSlot, config.COVERAGE_GAP_MS);
  writeSiteAssets(config.siteDir);
  if (previous && previous.stoppedAtMs === null) {
    // the previous run was killed: a page or document it was writing may have left its temporary file
    const removed = removeStaleTemporaryFiles(config.siteDir, STALE_TEMPORARY_FILE_MS, Date.now());
    if (removed > 0) log.info({ removed }, 'temporary files of an interrupted page write removed');
  }
  const runId = store.transaction(() => {
    if (gap) store.addGap(gap);
    if (store.getMeta('coverage_from_ms') === undefined) {
      store.setMeta('coverage_from_ms', String(startMs));
      store.setMeta('coverage_from_slot', String(startSlot));
    }
    return store.startRun(startMs, startSlot);
  });
  if (gap) log.warn({ downFrom: new Date(gap.fromMs).toISOString(), fromSlot: gap.fromSlot, toSlot: gap.toSlot }, 'collector was down; scanning the program history across the gap');
  // A heartbeat is written only when the chain answered: an outage stops the beats (downtime), and
  // one longer than COVERAGE_GAP_MS within this run is a gap once the chain answers again.
  const beatWith = async (signal?: AbortSignal): Promise<boolean> => {
    const slot = await readTipSlot(rpc, signal);
    if (slot instanceof Error) {
      if (!signal?.aborted) onUnreachable(deps, slot);
      return false;
    }
    const was = noteReachable(store);
    const last = store.lastRun();
    if (was && last && now() - last.lastBeatMs > config.COVERAGE_GAP_MS) {
      store.addGap({ fromMs: last.lastBeatMs, toMs: now(), fromSlot: last.tipSlot, toSlot: slot });
      log.warn({ downFrom: new Date(last.lastBeatMs).toISOString(), fromSlot: last.tipSlot, toSlot: slot }, 'RPC reachable again after an outage; scanning the program history across it');
    } else if (was) log.info({ rpc: redactUrl(config.SOLANA_RPC_URL), slot }, 'RPC reachable again');
    store.heartbeat(runId, now(), slot);
    return true;
  };
  const beat = setInterval(() => {
    beatWith().catch((err: unknown) => log.warn({ err: String(err) }, 'heartbeat not written; the next one will be'));
  }, HEARTBEAT_MS);
  beat.unref();
  const reader = deps.reader ?? createTransactionReader({
    url: config.SOLANA_RPC_URL,
    batchSize: config.RPC_BATCH_SIZE,
    onRetry: (i) => log.warn(i, 'RPC call retried'),
    onFallback: (reason) => log.warn({ reason }, 'smaller JSON-RPC batches for this RPC'),
  });
  const creations = new Map<string, CreationAt>();
  const memory: CollectorMemory = { txs: new TransactionCache(config.TX_CACHE_TRANSACTIONS), completed: new Map(), notCompleted: new Set(), heard: new HeardNotifications(creations), creations, siteWrittenMs: now(), sitePassMs: 0, historyCheckedMs: 0, historyPending: new Set() };
  const queue = new PQueue({ concurrency: config.RPC_CONCURRENCY, ...(config.RPC_MAX_RPS > 0 ? { intervalCap: 1, interval: Math.ceil(1000 / config.RPC_MAX_RPS) } : {}) });
  // Live watch: notifications wake the loop at once; the poll interval is the fallback.
  let woken = false;
  let wake: (() => void) | null = null;
  const poke = () => {
    woken = true;
    wake?.();
  };
  const watchStop = new AbortController();
  const stopWatch = () => watchStop.abort();
  opts.signal?.addEventListener('abort', stopWatch, { once: true });
  let downloading: Promise<void> | null = null;
  let tipReadMs = 0;
  const watching = !opts.once && opts.wsUrl
    ? watchProgramLogs(opts.wsUrl, log, { onNotification: (tx) => { memory.heard.add(tx); poke(); }, onConnected: poke }, watchStop.signal)
    : Promise.resolve();
  try {
    writeSiteFiles(store, config, log); // pages left pending by a crash between commit and write
    for (;;) {
      woken = false;
      let passOk = false;
      try {
        await catchUp(deps, queue, reader, memory, opts);
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
        if (opts.once || now() - memory.siteWrittenMs >= liveSiteWriteWaitMs(memory.sitePassMs)) {
          const t0 = performance.now();
          writeSiteFiles(store, config, log);
          memory.sitePassMs = performance.now() - t0;
          memory.siteWrittenMs = now();
        }
      }
      // Periodic jobs, each due on its own interval (kept in meta across cron runs). A failure is
      // logged and the job runs again when next due; records a job changed are written at once.
      const periodic = async (name: string, setting: string, job: () => Promise<number | null>) => {
        try {
          if (!opts.signal?.aborted && ((await job()) ?? 0) > 0) writeSiteFiles(store, config, log);
        } catch (err) {
          if (opts.signal?.aborted) return; // stopping: the loop ends below
          log.warn({ err: String(err) }, `${name} failed; it runs again after ${setting}`);
        }
      };
      const job = jobDeps(deps, queue, opts.signal);
      await periodic('unreadable transactions retry', 'UNREADABLE_RETRY_MS', () => retryUnreadable(deps, queue, reader, memory, opts.signal));
      await periodic('funder sweep', 'FUNDER_SWEEP_MS', () => sweepUnknownCohorts(deps, queue, reader, memory, opts.signal));
      await periodic('afterwards sweep', 'AFTERWARDS_SWEEP_MS', async () => {
        await sweepBuyoutAfterwards({ ...job, config, budget: new FunderBudget(store, config.FUNDER_DAILY_RPC_BUDGET, now), readTransactions: (sigs) => fetchDecodedMany(reader, queue, config.RPC_MAX_RPS > 0, sigs, log, opts.signal) });
        return 0; // wallet priors: no record or page changes
      });
      await periodic('pool refresh', 'POOL_REFRESH_MS', () => refreshPools({ ...job, config, cache: memory.txs }));
      publishLists(store, config, log, now()); // home, list and status pages, at most every LISTS_INTERVAL_MS
      // The bulk downloads take a while on a large archive: the long-running form writes them
      // alongside the next catch-ups (one at a time); the cron form waits for them before it exits.
      if (!opts.signal?.aborted && downloading === null) {
        downloading = refreshDownloads(deps)
          .catch((err: unknown) => log.warn({ err: String(err) }, 'bulk downloads could not be written; the previous ones stay served'))
          .finally(() => (downloading = null));
        if (opts.once) await downloading;
      }
      // Heartbeat after each pass; the long-running form reads the tip for it at most every TIP_READ_MS
      // (its interval beat reads it every HEARTBEAT_MS while a pass runs).
      const readTip = opts.once || now() - tipReadMs >= TIP_READ_MS;
      if (readTip) {
        tipReadMs = now();
        await beatWith(opts.signal);
      } else if (passOk) store.heartbeat(runId, now(), null);
      if (opts.once || opts.signal?.aborted) break;
      if (!woken) {
        const untilSiteWrite = store.hasPendingPages() ? Math.max(0, memory.siteWrittenMs + liveSiteWriteWaitMs(memory.sitePassMs) - now()) : Infinity;
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, Math.min(config.POLL_INTERVAL_MS, untilSiteWrite));
          wake = () => { clearTimeout(t); resolve(); };
          opts.signal?.addEventListener('abort', wake, { once: true });
        });
        wake = null;
      }
      if (opts.signal?.aborted) break;
    }
  } finally {
    if (!opts.once) {
      try {
        writeSiteFiles(store, config, log); // pages still waiting for their LIVE_SITE_WRITE_MS turn
      } catch (err) {
        log.warn({ err: String(err) }, 'pages not written at stop; they are written on the next start');
      }
    }
    watchStop.abort();
    opts.signal?.removeEventListener('abort', stopWatch);
    await watching;
    await downloading;
    clearInterval(beat);
    // a run that ends in an outage stopped watching at its last answered heartbeat
    const outage = parseUnreachable(store.getMeta(UNREACHABLE_META));
    store.stopRun(runId, outage ? Math.min(now(), store.lastRun()?.lastBeatMs ?? now()) : now());
  }
}

async function catchUp(deps: CollectDeps, queue: PQueue, reader: TransactionReader, memory: CollectorMemory, opts: CollectOptions): Promise<void> {
  const { store, rpc, log, config } = deps;
  const now = deps.now ?? Date.now;
  let cursor = store.getCursor(PROGRAM_CURSOR);
  if (!cursor && config.COLLECT_START === 'latest') {
    // Start watching now: the newest signature becomes the cursor; older history is not ours to claim.
    const [newest] = await fetchLatest(rpc, opts.signal);
    store.setCursor(PROGRAM_CURSOR, newest?.signature ?? null, newest?.slot ?? null, now());
    log.info({ cursorSlot: newest?.slot ?? null }, 'collector starts watching from the newest signature');
    return;
  }
  const sigs = await fetchNewSignatures(rpc, cursor?.signature ?? null, opts.signal, reader);
  if (sigs.length === 0) return;
  log.info({ signatures: sigs.length, fromSlot: sigs[0]!.slot, toSlot: sigs[sigs.length - 1]!.slot }, 'catching up');
  let done = 0;
  for (let i = 0; i < sigs.length; i += config.COLLECT_BATCH) {
    if (opts.signal?.aborted) return;
    const batch = sigs.slice(i, i + config.COLLECT_BATCH);
    const { decoded, fromLogs, failures } = await readBatch(deps, queue, reader, memory, batch, opts.signal);
    if (opts.signal?.aborted) return; // reads cut short by the stop are not failures
    // Stop at the first transaction we could not read — the cursor must not pass it — unless it is
    // unreadable (collector/unreadable.ts): a failure that persists is recorded and passed.
    const plan = planBatch(batch.map((s) => s.signature), decoded, failures, parseReadFailure(store.getMeta(READ_FAILURE_META)), config.UNREADABLE_AFTER_FAILURES);
    const stopped = () => {
      const stop = plan.stop!;
      store.setMeta(READ_FAILURE_META, JSON.stringify({ signature: batch[stop.index]!.signature, failures: stop.failures }));
      return new Error(`transaction ${batch[stop.index]!.signature} could not be read (${stop.failure.reason}, ${stop.failures} of ${config.UNREADABLE_AFTER_FAILURES} catch-ups); will retry from the cursor`);
    };
    if (plan.upTo === 0) throw stopped();
    const usable = decoded.slice(0, plan.upTo).filter((d): d is DecodedTransaction => d !== null);
    const last = batch[plan.upTo - 1]!;
    const byMint = groupByMint(usable);
    // the history check only once the catch-up has read the program's history to its listing (the
    // last batch): mid-way, every curve is ahead of the history held and nothing could be confirmed
    // The history check once the catch-up has read the program's history to its listing (its last
    // batch: mid-way every curve is ahead of the history held), at most every HISTORY_CHECK_MS, over
    // every launch touched since the last check (a hot launch touched by many live batches is read
    // and compared once; HISTORY_CHECK_MAX at a time, the rest at the next check).
    const lastBatch = i + config.COLLECT_BATCH >= sigs.length;
    const check = lastBatch && now() - memory.historyCheckedMs >= HISTORY_CHECK_MS;
    if (memory.historyPending.size > MEMORY_MINTS) memory.historyPending.clear();
    const asked = new Map(byMint);
    if (check) {
      for (const mint of memory.historyPending) {
        if (asked.size >= HISTORY_CHECK_MAX) break;
        if (!asked.has(mint)) asked.set(mint, []);
        memory.historyPending.delete(mint);
      }
      memory.historyCheckedMs = now();
    } else for (const mint of byMint.keys()) memory.historyPending.add(mint);
    let states: Map<string, ChainState>;
    try {
      states = await launchStates(deps, queue, reader, memory, asked, opts.signal, check);
      await ensureFunders(
        funderDeps(deps, queue, reader, memory, opts.signal),
        byMint,
      );
    } catch (e) {
      if (opts.signal?.aborted) return; // account reads and lookups cut short by the stop: nothing is committed, the next start reads again
      throw e;
    }
    const committed = store.transaction(() => {
      let changed = recordTransactions(store, memory, usable, states, now(), log);
      // launches checked now but not in this batch, whose history the check showed incomplete
      for (const [mint, state] of states) {
        if (byMint.has(mint) || !state.curve?.listedAllHeld) continue;
        const held = store.getOrigin(mint);
        if (held && recordLaunch(store, mint, { origin: held.origin, observedAtLaunch: held.observedAtLaunch, nowMs: now(), state, cache: memory.txs }).changed) changed++;
      }
      for (const u of plan.unreadable) {
        const s = batch[u.index]!;
        // the launches it may belong to: those its logs notification names, when one was heard
        const heard = memory.heard.get(s.signature);
        store.putUnreadable({ signature: s.signature, slot: s.slot, reason: u.failure.reason, detail: u.failure.detail, failures: u.failures, mints: heard ? [...mintsOf(heard)] : [] }, now());
        // the held records of those launches become UNKNOWN (the drift guard: unrecognised_program_data)
        for (const mint of heard ? mintsOf(heard) : []) {
          const held = store.getOrigin(mint);
          if (held && recordLaunch(store, mint, { origin: held.origin, observedAtLaunch: held.observedAtLaunch, nowMs: now(), state: states.get(mint), cache: memory.txs }).changed) changed++;
        }
      }
      store.setCursor(PROGRAM_CURSOR, last.signature, last.slot, now());
      return changed;
    });
    for (const u of plan.unreadable) {
      log.warn({ signature: batch[u.index]!.signature, reason: u.failure.reason, detail: u.failure.detail, failures: u.failures }, 'transaction recorded as unreadable; the catch-up moves past it and reads it again later');
    }
    memory.heard.committed(batch.slice(0, plan.upTo).map((s) => s.signature), last.slot); // those after one not read stay for the retry
    // Pages and documents: at most every SITE_WRITE_INTERVAL_MS during a long catch-up (a launch touched
    // by many batches is written once, not once per batch), and always when the catch-up ends.
    if (now() - memory.siteWrittenMs >= SITE_WRITE_INTERVAL_MS) {
      writeSiteFiles(store, config, log);
      memory.siteWrittenMs = now();
    }
    done += usable.length;
    opts.onBatch?.({ transactions: usable.length, fromLogs, records: committed, cursorSlot: last.slot });
    log.info({ done, total: sigs.length, cursorSlot: last.slot, fromLogs, recordsChanged: committed, ...(plan.unreadable.length ? { unreadable: plan.unreadable.length } : {}) }, 'batch committed');
    if (plan.stop) throw stopped();
  }
}

/**
 * Keep decoded transactions under the mints they touch and rebuild those launches' records, inside
 * the caller's SQLite transaction; returns how many records changed. A creation read while the
 * collector was watching is observed at launch; one created before coverage began or inside a gap
 * was found later from chain: scanned.
 */
function recordTransactions(store: PublicStore, memory: CollectorMemory, txs: readonly DecodedTransaction[], states: Map<string, ChainState>, nowMs: number, log: Logger): number {
  const fromRaw = store.getMeta('coverage_from_slot');
  const coverageFromSlot = fromRaw === undefined ? null : Number(fromRaw);
  const gaps = store.gaps();
  // mint → the slot of its creation transaction among these (null: not created here)
  const touched = new Map<string, number | null>();
  for (const tx of txs) {
    if (tx.skipped.length > 0) {
      for (const d of store.noteUnrecognised(tx, nowMs)) log.warn({ ...d, signature: tx.signature }, 'program data the decoder does not know: the launches of this transaction are UNKNOWN (update the IDLs)');
    }
    for (const mint of mintsOf(tx)) {
      if (store.addTransaction(mint, tx)) memory.txs.added(store, mint, tx);
      const creates = tx.err === null && tx.events.some((e) => e.name === 'CreateEvent' && e.fields.mint === mint);
      touched.set(mint, touched.get(mint) ?? (creates ? (tx.slot ?? 0) : null));
    }
  }
  let changed = 0;
  for (const [mint, creationSlot] of touched) {
    const createdHere = creationSlot !== null;
    const watched = createdHere && watchedAt(creationSlot, coverageFromSlot, gaps);
    const origin = createdHere && !watched ? 'scanned' : 'observed';
    const r = recordLaunch(store, mint, { origin, observedAtLaunch: createdHere && watched, nowMs, state: states.get(mint), cache: memory.txs });
    if (r.changed) changed++;
    if (r.doc.launch?.completed) memory.completed.set(mint, r.doc.launch.quoteMint);
  }
  return changed;
}

/**
 * Read again the unreadable transactions last tried UNREADABLE_RETRY_MS ago or more (up to
 * UNREADABLE_RETRY_BATCH, least recently tried first; collector/unreadable.ts). One read now is
 * kept under its launches, whose records are rebuilt, and leaves the list; one still not read
 * counts one more failure and waits again. Returns how many records changed.
 */
async function retryUnreadable(deps: CollectDeps, queue: PQueue, reader: TransactionReader, memory: CollectorMemory, signal?: AbortSignal): Promise<number> {
  const { store, config, log } = deps;
  const now = deps.now ?? Date.now;
  const due = store.unreadableDue(now() - config.UNREADABLE_RETRY_MS, UNREADABLE_RETRY_BATCH);
  if (due.length === 0) return 0;
  const failures = new Map<number, ReadFailure>();
  const decoded = await fetchMany(reader, queue, config.RPC_MAX_RPS > 0, due.map((d) => d.signature), log, signal, (a) => decodeTransaction(a), failures);
  const read = decoded.filter((d): d is DecodedTransaction => d !== null);
  const byMint = groupByMint(read);
  const states = await launchStates(deps, queue, reader, memory, byMint, signal);
  if (read.length > 0) await ensureFunders(funderDeps(deps, queue, reader, memory, signal), byMint);
  const changed = store.transaction(() => {
    const n = recordTransactions(store, memory, read, states, now(), log);
    due.forEach((d, i) => {
      if (decoded[i]) store.clearUnreadable(d.signature);
      else {
        const f = failures.get(i) ?? NOT_FOUND;
        store.putUnreadable({ signature: d.signature, slot: d.slot, reason: f.reason, detail: f.detail, failures: 1, mints: [] }, now());
      }
    });
    return n;
  });
  log.info({ retried: due.length, read: read.length, stillUnreadable: due.length - read.length, recordsChanged: changed }, 'unreadable transactions read again');
  return changed;
}

/**
 * The decoded transactions of one batch, in order: a notification heard for a signature is taken
 * from its logs when `takeFromLogs` allows (a later curve trade), every other transaction is
 * fetched (`null` where it could not be read) and kept in the form `keptFromLogs` gives: its logs
 * form when it is a later curve trade, else decoded whole. `fromLogs` counts the notifications taken;
 * `failures` says why each `null` entry could not be read, by its index in the batch.
 */
async function readBatch(deps: CollectDeps, queue: PQueue, reader: TransactionReader, memory: CollectorMemory, batch: SignatureInfo[], signal?: AbortSignal): Promise<{ decoded: (DecodedTransaction | null)[]; fromLogs: number; failures: Map<number, ReadFailure> }> {
  const decoded = new Array<DecodedTransaction | null>(batch.length).fill(null);
  const fetch: number[] = [];
  const creationOf = (mint: string) => creationAt(deps.store, memory, mint);
  batch.forEach((s, i) => {
    const heard = memory.heard.get(s.signature);
    const taken = heard ? takeFromLogs(heard, s, creationOf) : null;
    if (taken) decoded[i] = taken;
    else fetch.push(i);
  });
  // A fetched later curve trade is kept in its logs form too (keptFromLogs). As answers arrive, one
  // whose launch's creation is already known is decided then, without decoding it whole; the others
  // wait for the batch order below, where the creations of this batch are known before its later trades.
  const fetchFailures = new Map<number, ReadFailure>();
  const fetched = fetch.length === 0 ? [] : await fetchMany<FetchedForBatch>(reader, queue, deps.config.RPC_MAX_RPS > 0, fetch.map((i) => batch[i]!.signature), deps.log, signal, (a, k) => {
    const listed = batch[fetch[k]!]!;
    const f = fetchedCurveTrade(a, listed);
    if (!f) {
      const whole = decodeTransaction(a);
      // a creation is known from here on, so the later trades arriving after it are decided at once
      for (const [mint, at] of creationsIn(whole)) memory.creations.set(mint, at);
      return { whole };
    }
    const kept = laterTradeForm(f, creationOf);
    return kept ? { kept } : { ...f, answer: a };
  }, fetchFailures);
  // (a creation is never a plain curve trade: every one was decoded whole above and is known already)
  fetch.forEach((i, k) => {
    const f = fetched[k];
    if (!f) return;
    if ('whole' in f) decoded[i] = f.whole;
    else if ('kept' in f) decoded[i] = f.kept;
    else decoded[i] = laterTradeForm(f, creationOf) ?? decodeTransaction(f.answer);
  });
  // why each fetched transaction not read failed, by its index in the batch
  const failures = new Map([...fetchFailures].map(([k, f]) => [fetch[k]!, f]));
  return { decoded, fromLogs: batch.length - fetch.length, failures };
}

/**
 * A fetched answer of a batch: decoded whole, kept in its logs form, or — a plain curve trade whose
 * launch's creation was not known when it arrived — its logs form and the answer, decided in batch order.
 */
type FetchedForBatch =
  | { whole: DecodedTransaction }
  | { kept: DecodedTransaction }
  | { logs: DecodedTransaction; trade: PlainCurveTrade; answer: Record<string, unknown> };

/** A launch's creation slot and blockTime: remembered from this run, else the held record's; undefined when not held. */
function creationAt(store: PublicStore, memory: CollectorMemory, mint: string): CreationAt | undefined {
  let at = memory.creations.get(mint);
  if (at === undefined) {
    at = store.creationAt(mint);
    if (!at) return undefined;
    if (memory.creations.size > MEMORY_MINTS) memory.creations.clear();
    memory.creations.set(mint, at);
  }
  return at;
}

/**
 * Rewrite the bulk downloads (spec §4; collector/downloads.ts) when none exist yet or the last were
 * written DOWNLOADS_INTERVAL_MS ago or more (kept in meta across cron runs).
 */
async function refreshDownloads(deps: CollectDeps): Promise<void> {
  const { store, config, log } = deps;
  const now = deps.now ?? Date.now;
  const last = Number(store.getMeta('downloads_written_ms') ?? 0);
  if (readManifest(config.dataDir) !== null && now() - last < config.DOWNLOADS_INTERVAL_MS) return;
  const t0 = Date.now();
  const m = await writeDownloads(store, config.dataDir, now());
  store.setMeta('downloads_written_ms', String(now()));
  log.info({ ms: Date.now() - t0, recordDbBytes: m.files['record.db']?.bytes, documentsBytes: m.files['documents.ndjson.gz']?.bytes }, 'bulk downloads written');
}

/** The history completeness check runs at most this often in the long-running form (collector/history-check.ts). */
const HISTORY_CHECK_MS = 10_000;
/** Launches one check reads at most (20 getMultipleAccounts calls); the rest wait for the next check. */
const HISTORY_CHECK_MAX = 2_000;

/** Mints the collector remembers as completed / not completed before it starts over (see launchStates). */
const MEMORY_MINTS = 200_000;

/** What the funder lookups of a batch or a sweep run with: the collector's RPC, reader and queue, and today's budget. */
function funderDeps(deps: CollectDeps, queue: PQueue, reader: TransactionReader, memory: CollectorMemory, signal?: AbortSignal): EnsureFundersDeps {
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

/** What every periodic job runs with: the collector's store, RPC, logger, clock, RPC queue and stop signal. */
function jobDeps(deps: CollectDeps, queue: PQueue, signal?: AbortSignal): CollectorJobDeps {
  return { store: deps.store, rpc: deps.rpc, log: deps.log, now: deps.now ?? Date.now, schedule: (fn) => queue.add(fn) as Promise<never>, signal };
}

/** Records the funder sweep takes up per run. */
export const SWEEP_RECORDS = 100;

/**
 * The funder sweep (methodology "Shared funder"): a cohort left unknown when its launch was
 * recorded (budget spent, RPC failure) is otherwise never asked again — the cohort's transactions
 * are all in the launch's first 30 s. At most every FUNDER_SWEEP_MS (kept in meta across cron runs),
 * it takes the next SWEEP_RECORDS records with `cohort_unknown` (mint order, wrapping around), looks
 * up the funders still unknown — except wallets stopped by a cap not raised since — and rebuilds
 * those records. Returns how many records changed.
 */
async function sweepUnknownCohorts(deps: CollectDeps, queue: PQueue, reader: TransactionReader, memory: CollectorMemory, signal?: AbortSignal): Promise<number> {
  const { store, config, log } = deps;
  const now = deps.now ?? Date.now;
  if (now() - Number(store.getMeta('funder_sweep_at_ms') ?? 0) < config.FUNDER_SWEEP_MS) return 0;
  store.setMeta('funder_sweep_at_ms', String(now()));
  const after = store.getMeta('funder_sweep_after') ?? '';
  let mints = store.cohortUnknownMints(after, SWEEP_RECORDS);
  if (mints.length === 0 && after !== '') mints = store.cohortUnknownMints('', SWEEP_RECORDS);
  if (mints.length === 0) return 0;
  const funders = await ensureFunders(
    funderDeps(deps, queue, reader, memory, signal),
    new Map(mints.map((m) => [m, memory.txs.transactionsFor(store, m)])),
  );
  const states = await launchStates(deps, queue, reader, memory, new Map(mints.map((m) => [m, []])), signal);
  const changed = store.transaction(() => {
    let n = 0;
    for (const mint of mints) {
      // origin and observedAtLaunch stay as first recorded (recordLaunch keeps them for a record with its creation)
      if (recordLaunch(store, mint, { origin: 'observed', observedAtLaunch: false, nowMs: now(), state: states.get(mint), cache: memory.txs }).changed) n++;
    }
    store.setMeta('funder_sweep_after', mints[mints.length - 1]!);
    return n;
  });
  log.info({ records: mints.length, walletsLooked: funders.looked, stillUnknown: funders.unknown, recordsChanged: changed }, 'funder sweep');
  return changed;
}

/**
 * The chain state of a batch's launches: every completed launch's curve and canonical pool (and its
 * vaults), and — with `historyCheck`, the last batch of a catch-up — every other launch with a held
 * creation its curve alone, for the history completeness check (collector/history-check.ts), whose
 * disagreements are then confirmed against the curve's signature list. Two getMultipleAccounts
 * rounds however many launches, plus at most MAX_CONFIRMATIONS getSignaturesForAddress calls.
 */
async function launchStates(deps: CollectDeps, queue: PQueue, reader: TransactionReader, memory: CollectorMemory, byMint: Map<string, DecodedTransaction[]>, signal?: AbortSignal, historyCheck = true): Promise<Map<string, ChainState>> {
  // Bounded for a collector that runs for months: forgetting only costs one held-document read.
  if (memory.completed.size > MEMORY_MINTS) memory.completed.clear();
  if (memory.notCompleted.size > MEMORY_MINTS) memory.notCompleted.clear();
  const asks: ChainStateAsk[] = [];
  for (const [mint, mintTxs] of byMint) {
    const inBatch = completionOf(mint, mintTxs);
    // An earlier completion is in the held record (remembered from this run, or read once from the store).
    let earlier = memory.completed.get(mint);
    if (earlier === undefined && !inBatch.completed && !memory.notCompleted.has(mint)) {
      const held = deps.store.getLaunch(mint);
      const heldDoc = held ? (JSON.parse(held.document) as { launch?: { completed?: boolean; quoteMint?: string } | null }) : null;
      if (heldDoc?.launch?.completed) memory.completed.set(mint, (earlier = heldDoc.launch.quoteMint ?? null));
      else memory.notCompleted.add(mint); // not completed before this run: only a batch's CompleteEvent changes that
    }
    const completed = earlier !== undefined || inBatch.completed;
    // a launch without its creation has no history to check
    if (!completed && (!historyCheck || (!creationIn(mint, mintTxs) && !creationAt(deps.store, memory, mint)))) continue;
    asks.push({ mint, quoteMint: earlier ?? inBatch.quoteMint, pool: completed });
  }
  if (asks.length === 0) return new Map();
  // every launch of the batch in two getMultipleAccounts rounds (curves and pools, then vaults)
  const schedule = <T>(fn: () => Promise<T>) => queue.add(fn) as Promise<T>;
  const accounts = batchedAccounts(reader, { rateLimited: deps.config.RPC_MAX_RPS > 0, schedule, signal });
  const states = await readChainStates(accounts, asks, (deps.now ?? Date.now)());
  const heldOf = (mint: string) => [...memory.txs.transactionsFor(deps.store, mint), ...(byMint.get(mint) ?? [])];
  const listCurve = async (curve: string) =>
    signaturePage((await schedule(() => reader.call('getSignaturesForAddress', [[curve, { limit: CONFIRM_PAGE, commitment: 'confirmed' }]], signal)))[0]);
  const checked = historyCheck ? await confirmCurveHistories(states, heldOf, listCurve, bondingCurveAddress) : { asked: 0, incomplete: 0 };
  if (checked.incomplete > 0) deps.log.warn({ launches: checked.incomplete }, 'curve accounts disagree with the held history: records marked history_incomplete');
  return states;
}

/** Whether `txs` hold the successful creation of `mint`. */
function creationIn(mint: string, txs: DecodedTransaction[]): boolean {
  return txs.some((t) => t.err === null && t.events.some((e) => e.name === 'CreateEvent' && e.fields.mint === mint));
}

/**
 * What the collector remembers across batches of one run: decoded transactions per mint, which
 * launches have completed (mint → quote mint), which were seen not completed in the store, the
 * notifications not yet caught up, creations seen, and when it last wrote site files.
 */
interface CollectorMemory {
  txs: TransactionCache;
  completed: Map<string, string | null>;
  notCompleted: Set<string>;
  /** notifications heard by the live watch, until a catch-up reaches them */
  heard: HeardNotifications;
  /** creation slot and blockTime of launches seen (mint → when) */
  creations: Map<string, CreationAt>;
  siteWrittenMs: number;
  /** when the history completeness check last ran (collector/history-check.ts), and the launches touched since */
  historyCheckedMs: number;
  historyPending: Set<string>;
  /** how long the long-running form's last page-writing pass took (ms, wall time) */
  sitePassMs: number;
}

/** The chain tip (getSlot), or the error when it cannot be read. */
async function readTipSlot(rpc: ArchiveRpc, signal?: AbortSignal): Promise<number | Error> {
  try {
    return Number(await rpc.getSlot({ commitment: 'confirmed' }).send({ abortSignal: signal }));
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

/** Record and log (folded: one line, then a count at most once a minute) that the chain could not be read. */
function onUnreachable(deps: CollectDeps, err: Error): void {
  const u = noteUnreachable(deps.store, err, (deps.now ?? Date.now)());
  deps.log.warn({ since: new Date(u.sinceMs).toISOString() }, `cannot reach ${redactUrl(deps.config.SOLANA_RPC_URL)} (${u.error.slice(0, 160)}): set SOLANA_RPC_URL`);
}

/**
 * Wait for the first successful read of the chain (the tip and the newest page of the program's
 * signatures): coverage begins then. Until then every failure is recorded (status: unreachable) and
 * retried every POLL_INTERVAL_MS; the cron form throws instead (exit code 1). Null: stopped first.
 */
async function reachChain(deps: CollectDeps, opts: CollectOptions): Promise<{ slot: number; ms: number } | null> {
  const { rpc, store } = deps;
  const now = deps.now ?? Date.now;
  for (;;) {
    if (opts.signal?.aborted) return null;
    const ms = now();
    const slot = await readTipSlot(rpc, opts.signal);
    let err: Error | null = slot instanceof Error ? slot : null;
    if (!err) {
      try {
        await fetchLatest(rpc, opts.signal);
      } catch (e) {
        err = e instanceof Error ? e : new Error(String(e));
      }
    }
    if (!err && typeof slot === 'number') {
      noteReachable(store);
      deps.log.info(`RPC ${redactUrl(deps.config.SOLANA_RPC_URL)}: reachable, slot ${slot}`);
      return { slot, ms };
    }
    if (opts.signal?.aborted) return null;
    onUnreachable(deps, err!);
    if (opts.once) throw new Error(`cannot reach ${redactUrl(deps.config.SOLANA_RPC_URL)} (${redactUrlsIn(err!.message)}): set SOLANA_RPC_URL; no coverage is recorded until the chain is read`);
    await new Promise<void>((resolve) => {
      const t = setTimeout(done, deps.config.POLL_INTERVAL_MS);
      function done() {
        clearTimeout(t);
        opts.signal?.removeEventListener('abort', done);
        resolve();
      }
      opts.signal?.addEventListener('abort', done, { once: true });
    });
  }
}

/** The transactions of a batch by the mints they touch. */
export function groupByMint(txs: DecodedTransaction[]): Map<string, DecodedTransaction[]> {
  const byMint = new Map<string, DecodedTransaction[]>();
  for (const tx of txs) {
    for (const mint of mintsOf(tx)) {
      const list = byMint.get(mint);
      if (list) list.push(tx);
      else byMint.set(mint, [tx]);
    }
  }
  return byMint;
}

async function fetchLatest(rpc: ArchiveRpc, signal?: AbortSignal): Promise<SignatureInfo[]> {
  const page = signaturePage(await rpc.getSignaturesForAddress(address(PUMP_PROGRAM_ID), { limit: 1, commitment: 'confirmed' }).send({ abortSignal: signal }));
  if (page instanceof Error) throw page;
  return page;
}
