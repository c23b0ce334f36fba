import type PQueue from 'p-queue';
import type { DecodedTransaction } from '../src/core/types.ts';
import type { ChainState } from '../src/core/record/build-launch.ts';
import { mintsOf } from '../src/core/record/mints-of.ts';
import { creationsIn } from '../src/core/record/from-logs.ts';
import type { TransactionReader } from '../src/chain/transaction-reader.ts';
import { ensureFunders } from '../src/ingest/funding.ts';
import { writeSiteFiles } from '../src/ingest/publish.ts';
import { funderDeps, MEMORY_MINTS, type CollectDeps, type CollectOptions, type CollectorMemory } from './context.ts';
import { fetchLatest, fetchNewSignatures, PROGRAM_CURSOR } from './source/signatures.ts';
import { readBatch } from './read/read-batch.ts';
import { parseReadFailure, planBatch, READ_FAILURE_META } from './read/unreadable.ts';
import { groupByMint, recordHeldLaunch, recordTransactions } from './record/record-batch.ts';
import { HISTORY_CHECK_MAX, HISTORY_CHECK_MS, launchStates } from './enrich/launch-states.ts';
import { LIVE_SITE_WRITE_BUDGET_MS, SITE_WRITE_INTERVAL_MS } from './publish/pacing.ts';

/**
 * One catch-up: the batch pipeline the orchestrator (collect.ts) runs each pass. From the program
 * cursor to the newest signature, COLLECT_BATCH signatures at a time: *source* (the signature
 * history page), *read* (heard notifications or batched getTransaction: read/read-batch.ts), the
 * batch's chain state and funders (*enrich*), then *record* — every touched launch rebuilt and
 * committed in one SQLite transaction with the cursor, so a kill loses and duplicates nothing — and
 * *publish* at most every SITE_WRITE_INTERVAL_MS. It stops at the first transaction it could not read
 * (the cursor never passes it) unless read/unreadable.ts records it as unreadable and passes it.
 */
export async function catchUp(deps: CollectDeps, queue: PQueue, reader: TransactionReader, memory: CollectorMemory, opts: CollectOptions): Promise<void> {
  const { store, rpc, log, config } = deps;
  const now = deps.now ?? Date.now;
  let cursor = store.getCursor(PROGRAM_CURSOR);
  if (!cursor && config.COLLECT_START === 'latest') {
    // Start watching now: the newest signature becomes the cursor; older history is not ours to claim.
    const [newest] = await fetchLatest(rpc, opts.signal);
    store.setCursor(PROGRAM_CURSOR, newest?.signature ?? null, newest?.slot ?? null, now());
    log.info(
      { cursorSlot: newest?.slot ?? null },
      "collector starts watching from the newest signature (COLLECT_START=latest): launches created before it are not collected; on a replayed or development chain, COLLECT_START=earliest reads the program's whole history",
    );
    return;
  }
  const trace = memory.trace;
  // the tip read before the listing: a listing that finds nothing newer is current through it
  const tipBefore = store.lastRun()?.tipSlot ?? null;
  const sigs = await trace.time('list', () => fetchNewSignatures(rpc, cursor?.signature ?? null, opts.signal, reader));
  const listedAtMs = now();
  store.setProgramCaughtUp(sigs.length === 0 ? tipBefore : null);
  if (sigs.length === 0) return;
  // the long-running form, level with the chain, reads a few signatures every few seconds: those passes are debug lines, summed
  // in one info line a minute (an operator saw 26 'catching up' lines in 75 s while the status said live); a real catch-up is info
  const quiet = !opts.once && sigs.length < config.COLLECT_BATCH;
  const note = quiet ? log.debug.bind(log) : log.info.bind(log);
  note({ signatures: sigs.length, fromSlot: sigs[0]!.slot, toSlot: sigs[sigs.length - 1]!.slot }, 'catching up');
  let done = 0;
  for (let i = 0; i < sigs.length; i += config.COLLECT_BATCH) {
    if (opts.signal?.aborted) return;
    const batch = sigs.slice(i, i + config.COLLECT_BATCH);
    const { decoded, fromLogs, failures } = await trace.time('read', () => readBatch(deps, queue, reader, memory, batch, opts.signal));
    const readAtMs = now();
    if (opts.signal?.aborted) return; // reads cut short by the stop are not failures
    // Stop at the first transaction we could not read — the cursor must not pass it — unless it is
    // unreadable (collector/read/unreadable.ts): a failure that persists is recorded and passed.
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
    // The history check once the catch-up has read the program's history to its listing (its last
    // batch: mid-way every curve is ahead of the history held), at most every HISTORY_CHECK_MS, over
    // every launch touched since the last check (a hot launch touched by many live batches is read
    // and compared once; HISTORY_CHECK_MAX at a time, the rest at the next check). A launch leaves
    // the pending list when a check resolves it (its curve agrees, or it is shown history_incomplete);
    // launchStates puts a disagreement not resolved back (not quiet yet, over the confirmation cap,
    // not confirmed), so it is checked again at a later check, at most every HISTORY_CHECK_MS.
    // The program's list is read through this batch's last slot (every slot before it completely), which
    // the check is told: a curve's signature before it that the launch does not hold is no trade to come.
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
      states = await trace.time('states', () => launchStates(deps, queue, reader, memory, asked, opts.signal, check, last.slot));
      await trace.time('funders', () => ensureFunders(
        funderDeps(deps, queue, reader, memory, opts.signal),
        byMint,
      ));
    } catch (e) {
      if (opts.signal?.aborted) return; // account reads and lookups cut short by the stop: nothing is committed, the next start reads again
      if (check) for (const mint of asked.keys()) memory.historyPending.add(mint); // not checked: the next check asks again
      throw e;
    }
    const committed = trace.timeSync('commit', () => store.transaction(() => {
      let changed = recordTransactions(store, memory, usable, states, now(), log);
      // launches checked now but not in this batch, whose history the check showed incomplete
      for (const [mint, state] of states) {
        if (byMint.has(mint) || !state.curve?.listedAllHeld) continue;
        if (recordHeldLaunch(store, memory, mint, now(), state)) changed++;
      }
      for (const u of plan.unreadable) {
        const s = batch[u.index]!;
        // the launches it may belong to: those its logs notification names, when one was heard; else the
        // held mints its answer shows (an incomplete answer's account keys), and the launches around it
        // that a missing transaction could change unseen (PublicStore.launchesAround) — never none: a
        // transaction no launch was given to left a launch clean, settled and cached without its bundled buy
        const heard = memory.heard.get(s.signature);
        const mints = heard ? [...mintsOf(heard)] : mayBelongTo(store, s.slot, timeNear(usable, s.slot), u.failure.accounts);
        store.putUnreadable({ signature: s.signature, slot: s.slot, reason: u.failure.reason, detail: u.failure.detail, failures: u.failures, mints, named: heard !== undefined }, now());
        // the held records of those launches become UNKNOWN (the drift guard: unrecognised_program_data)
        for (const mint of mints) {
          if (recordHeldLaunch(store, memory, mint, now(), states.get(mint))) changed++;
        }
      }
      store.setCursor(PROGRAM_CURSOR, last.signature, last.slot, now());
      return changed;
    }));
    traceCreations(deps, memory, usable, { listedAtMs, readAtMs, committedAtMs: now() });
    for (const u of plan.unreadable) {
      log.warn({ signature: batch[u.index]!.signature, reason: u.failure.reason, detail: u.failure.detail, failures: u.failures }, 'transaction recorded as unreadable; the catch-up moves past it and reads it again later');
    }
    memory.heard.committed(batch.slice(0, plan.upTo).map((s) => s.signature), last.slot); // those after one not read stay for the retry
    // Pages and documents: at most every SITE_WRITE_INTERVAL_MS during a long catch-up (a launch touched
    // by many batches is written once, not once per batch), and always when the catch-up ends.
    if (now() - memory.siteWrittenMs >= SITE_WRITE_INTERVAL_MS) {
      trace.timeSync('pages', () => writeSiteFiles(store, config, log, { untilMs: opts.once ? Infinity : performance.now() + LIVE_SITE_WRITE_BUDGET_MS, txs: memory.txs }));
      memory.siteWrittenMs = now();
    }
    done += usable.length;
    opts.onBatch?.({ transactions: usable.length, fromLogs, records: committed, cursorSlot: last.slot });
    note({ done, total: sigs.length, cursorSlot: last.slot, fromLogs, recordsChanged: committed, ...(plan.unreadable.length ? { unreadable: plan.unreadable.length } : {}) }, 'batch committed');
    if (quiet) noteLive(log, memory, usable.length, committed, now());
    if (plan.stop) throw stopped();
  }
}

/**
 * The debug line "launch committed" for each creation among `txs` (their batch just committed):
 * when the live watch heard it, when its pass listed it, when its batch was read and committed
 * (epoch ms), so the soak can tell where a launch waited.
 */
function traceCreations(deps: CollectDeps, memory: CollectorMemory, txs: readonly DecodedTransaction[], at: { listedAtMs: number; readAtMs: number; committedAtMs: number }): void {
  if (!deps.log.isLevelEnabled('debug')) return;
  for (const tx of txs) {
    for (const [mint, c] of creationsIn(tx)) {
      deps.log.debug({ mint, slot: c.slot, heardAtMs: memory.creationHeardMs.get(mint) ?? null, ...at }, 'launch committed');
      memory.creationHeardMs.delete(mint);
    }
  }
}

/** The launches an unreadable transaction nobody named may belong to: held mints among the keys its answer showed, and those around its slot. */
function mayBelongTo(store: CollectDeps['store'], slot: number, timeMs: number | null, accounts: readonly string[] | undefined): string[] {
  const mints = new Set(store.launchesAround(slot, timeMs));
  for (const key of accounts ?? []) if (store.getOrigin(key)) mints.add(key);
  return [...mints].sort();
}

/** The chain time (ms) at `slot`, from the read transaction of the batch nearest to it that has a block time (400 ms a slot between), or null. */
function timeNear(txs: readonly DecodedTransaction[], slot: number): number | null {
  let best: DecodedTransaction | null = null;
  for (const t of txs) {
    if (t.blockTime === null || t.slot === null) continue;
    if (!best || Math.abs(t.slot - slot) < Math.abs(best.slot! - slot)) best = t;
  }
  return best ? best.blockTime! * 1000 + (slot - best.slot!) * 400 : null;
}

/** How often (ms) the long-running form sums its small passes in one info line. */
export const LIVE_SUMMARY_MS = 60_000;

/** Add a small live pass to the minute's sum; log the sum ('live') once a minute. */
function noteLive(log: CollectDeps['log'], memory: CollectorMemory, transactions: number, records: number, nowMs: number): void {
  const l = memory.live;
  l.transactions += transactions;
  l.records += records;
  l.passes++;
  if (l.sinceMs === 0) l.sinceMs = nowMs;
  if (nowMs - l.sinceMs < LIVE_SUMMARY_MS) return;
  log.info({ passes: l.passes, transactions: l.transactions, recordsChanged: l.records, seconds: Math.round((nowMs - l.sinceMs) / 1000) }, 'live: the chain read as it lands');
  Object.assign(l, { transactions: 0, records: 0, passes: 0, sinceMs: nowMs });
}

