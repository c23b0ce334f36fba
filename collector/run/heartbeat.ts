import { redactUrl, settleFolds } from '../../src/log.ts';
import { CATCHING_UP_LAG_SLOTS, gapOnStart, parseUnreachable, UNREACHABLE_META } from '../../src/core/coverage.ts';
import { fallingBehind, lagAMinuteBefore, LAG_SAMPLES_META, parseLagSamples } from '../../src/core/falling-behind.ts';
import { removeStaleTemporaryFiles, writeSiteAssets } from '../../src/ingest/write-site.ts';
import type { CollectDeps } from '../context.ts';
import { noteReachable } from './reachability.ts';
import { onUnreachable, readTipSlot } from './reach-chain.ts';

/** Age after which a temporary page file without a process id in its name counts as left behind (removeStaleTemporaryFiles). */
export const STALE_TEMPORARY_FILE_MS = 10 * 60_000;
/** The long-running form reads the chain tip for its after-pass heartbeat at most this often (ms). */
const TIP_READ_MS = 1_000;
/** How often the collector writes its heartbeat (ms). */
export const HEARTBEAT_MS = 15_000;

/**
 * Start this run's record once the chain answered (methodology "Coverage", issue 24): coverage
 * begins at the first successful read, never before; a pause since the previous run longer than
 * COVERAGE_GAP_MS is a gap (scanned across); the site's assets are copied from public/; a killed
 * previous run's temporary page files are removed. Returns the run's id.
 */
export function beginRun(deps: CollectDeps, reached: { slot: number; ms: number }): number {
  const { store, log, config } = deps;
  const startSlot = reached.slot;
  const startMs = reached.ms;
  const previous = store.lastRun();
  const gap = gapOnStart(previous, startMs, startSlot, config.COVERAGE_GAP_MS);
  writeSiteAssets(config.siteDir); // the pages' stylesheet beside them, as in public/
  if (previous && previous.stoppedAtMs === null) {
    // the previous run was killed (kill -9, a crash, the machine stopping): say so, and that this run goes on from what it committed
    log.info(
      { lastHeartbeat: new Date(previous.lastBeatMs).toISOString() },
      'the previous run did not stop cleanly (killed or crashed); going on from its last commit: what it committed is kept, what it had not committed is read again',
    );
    // a page or document it was writing may have left its temporary file
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
  return runId;
}

/**
 * The run's heartbeat: every HEARTBEAT_MS on a timer while passes run, and after each pass. A beat is
 * written only when the chain answered: an outage stops the beats (downtime), and one longer than
 * COVERAGE_GAP_MS within this run is a gap once the chain answers again.
 */
export class Heartbeat {
  private readonly timer: NodeJS.Timeout;
  private tipReadMs = 0;
  /** whether the last beat found the collector falling behind, and how it was logged: `noted` (info), `warned` */
  private behind: 'no' | 'noted' | 'warned' = 'no';
  private readonly now: () => number;

  /** aborted by {@link end}: a timer's beat still reading the tip then writes nothing (the run, and maybe the database, are closed) */
  private readonly ended = new AbortController();

  constructor(private readonly deps: CollectDeps, private readonly runId: number) {
    this.now = deps.now ?? Date.now;
    this.timer = setInterval(() => {
      this.beat(this.ended.signal).catch((err: unknown) => {
        if (!this.ended.signal.aborted) deps.log.warn({ err: String(err) }, 'heartbeat not written; the next one will be');
      });
    }, HEARTBEAT_MS);
    this.timer.unref();
  }

  /** Read the tip and write a beat; false when the chain could not be read (recorded as unreachable). */
  async beat(signal?: AbortSignal): Promise<boolean> {
    const { store, rpc, log, config } = this.deps;
    const now = this.now;
    const slot = await readTipSlot(rpc, signal);
    if (this.ended.signal.aborted) return false; // the run ended while the tip was read
    if (slot instanceof Error) {
      if (!signal?.aborted) onUnreachable(this.deps, slot);
      return false;
    }
    const was = noteReachable(store);
    if (was) settleFolds(log); // the outage's folded counts before the line that says it ended
    const last = store.lastRun();
    if (was && last && now() - last.lastBeatMs > config.COVERAGE_GAP_MS) {
      store.addGap({ fromMs: last.lastBeatMs, toMs: now(), fromSlot: last.tipSlot, toSlot: slot });
      log.warn({ downFrom: new Date(last.lastBeatMs).toISOString(), fromSlot: last.tipSlot, toSlot: slot }, 'RPC reachable again after an outage; scanning the program history across it');
    } else if (was) log.info({ rpc: redactUrl(config.SOLANA_RPC_URL), slot }, 'RPC reachable again');
    store.heartbeat(this.runId, now(), slot);
    this.noteFallingBehind();
    return true;
  }

  /**
   * Log when the collector starts or stops falling behind the chain (core/falling-behind.ts, the
   * rule `/api/v1/status` reports as `collector.fallingBehind`): once per change, not every beat —
   * at info while the lag is a few slots, and a warning once in an episode when it reaches the
   * status's catching_up lag (CATCHING_UP_LAG_SLOTS, about a minute).
   */
  private noteFallingBehind(): void {
    const samples = parseLagSamples(this.deps.store.getMeta(LAG_SAMPLES_META));
    const behind = fallingBehind(samples);
    const lagSlots = samples.at(-1)?.lagSlots ?? null;
    if (!behind) {
      if (this.behind !== 'no') this.deps.log.info({ lagSlots }, 'collector no longer falling behind the chain');
      this.behind = 'no';
      return;
    }
    const level = (lagSlots ?? 0) >= CATCHING_UP_LAG_SLOTS ? 'warned' : 'noted';
    if (this.behind === 'warned' || this.behind === level) return;
    this.behind = level;
    const minuteAgo = lagAMinuteBefore(samples);
    const msg = 'collector falling behind the chain: the lag has grown for over a minute (the RPC provider or this machine does not keep up with the chain; see RPC_MAX_RPS, RPC_CONCURRENCY)';
    if (level === 'warned') this.deps.log.warn({ lagSlots, lagSlotsAMinuteAgo: minuteAgo }, msg);
    else this.deps.log.info({ lagSlots, lagSlotsAMinuteAgo: minuteAgo }, msg);
  }

  /**
   * The beat after a pass: the cron form reads the tip every time, the long-running form at most
   * every TIP_READ_MS (its timer reads it every HEARTBEAT_MS while a pass runs); between those reads
   * a pass that succeeded beats without a new tip.
   */
  async afterPass(once: boolean, passOk: boolean, signal?: AbortSignal): Promise<void> {
    if (once || this.now() - this.tipReadMs >= TIP_READ_MS) {
      this.tipReadMs = this.now();
      await this.beat(signal);
    } else if (passOk) this.deps.store.heartbeat(this.runId, this.now(), null);
  }

  /** Stop the timer and close the run: a run that ends in an outage stopped watching at its last answered heartbeat. */
  end(): void {
    clearInterval(this.timer);
    this.ended.abort();
    const { store } = this.deps;
    const outage = parseUnreachable(store.getMeta(UNREACHABLE_META));
    store.stopRun(this.runId, outage ? Math.min(this.now(), store.lastRun()?.lastBeatMs ?? this.now()) : this.now());
  }
}
