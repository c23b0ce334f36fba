import { instant } from '../core/canonical.ts';
import type { Instant } from '../core/types.ts';
import type { CollectorRun, CoverageReads, PublicStore } from '../db/public-store.ts';
import { collectorPhase, downtimeMinutes, parseUnreachable, UNREACHABLE_META, type CollectorPhase } from '../core/coverage.ts';
import { JOBS_META, parseJobs } from '../core/jobs.ts';
import { fallingBehind, LAG_SAMPLES_META, parseLagSamples } from '../core/falling-behind.ts';

/** A heartbeat newer than this means the collector is running. */
export const RUNNING_WITHIN_MS = 2 * 60_000;

/** Spec §2.1 `coverage.note`. */
export const COVERAGE_NOTE =
  'Launches outside the observed windows were not observed; until they are rebuilt from their complete chain history their provenance ' +
  'is unknown, not clean. Coverage is read by comparing launches (observed at the creation transaction) with records (every row held), both in ' +
  '/api/v1/status under counts; the difference was found later from chain by a scanner (origin "scanned": launches created ' +
  'while the collector was down, rebuilt from the complete history of the gap; "rebuilt": launches rebuilt on request). downtimeMinutes counts minutes the collector ' +
  'was not reading the chain (pauses between runs longer than the allowed gap, outages of its RPC provider, and the current one); it measures ' +
  'the collector\'s downtime only and is not a measure of coverage. The intervals are listed in /api/v1/status under coverage.gaps.';

/** The `coverage` object of token and status responses. */
export interface Coverage {
  /** Start of the observed window (meta `coverage_from_ms`); null before the collector first ran. */
  from: Instant | null;
  downtimeMinutes: number;
  note: string;
}

/** The last coverage computed from a store's reads (the same reads and downtime: the same object). */
const lastOfReads = new WeakMap<CoverageReads, Readonly<Coverage>>();

/**
 * The coverage object from the public store at `nowMs`: meta `coverage_from_ms`, the total of the
 * coverage gaps and the newest run's heartbeat, as PublicStore.coverageReads keeps them (read again
 * only after a change). `allowedGapMs` = COVERAGE_GAP_MS. Frozen, and the same object while the
 * reads and the downtime are unchanged (http.ts serialises a frozen field once).
 */
export function coverageOf(store: PublicStore, nowMs: number, allowedGapMs: number): Readonly<Coverage> {
  const reads = store.coverageReads();
  // a collector that never reached the chain has no run: its outage counts from its first failed try
  const minutes = downtimeMinutes(reads.gapTotalMs, reads.lastBeatMs ?? parseUnreachable(reads.unreachable)?.sinceMs ?? null, nowMs, allowedGapMs);
  const last = lastOfReads.get(reads);
  if (last && last.downtimeMinutes === minutes) return last;
  const fromMs = reads.coverageFromMs === undefined ? NaN : Number(reads.coverageFromMs);
  const coverage = Object.freeze({ from: Number.isFinite(fromMs) ? Object.freeze(instant(fromMs)) : null, downtimeMinutes: minutes, note: COVERAGE_NOTE });
  lastOfReads.set(reads, coverage);
  return coverage;
}

/** The coverage gaps for the status response: each interval in time and slots. */
export function gapsOf(store: PublicStore): { from: Instant; to: Instant; fromSlot: number | null; toSlot: number | null; minutes: number }[] {
  return store.gaps().map((g) => ({ from: instant(g.fromMs), to: instant(g.toMs), fromSlot: g.fromSlot, toSlot: g.toSlot, minutes: Math.floor((g.toMs - g.fromMs) / 60_000) }));
}

/** The `collector` object of the status response. */
export interface CollectorState {
  lastHeartbeat: Instant | null;
  cursorSlot: number | null;
  /** chain tip at the latest heartbeat */
  tipSlot: number | null;
  /** how far the records trail the chain at the latest heartbeat: tipSlot − the slot they are current through (the cursor's, or the tip read before a listing that found nothing newer: a quiet chain is no lag) */
  lagSlots: number | null;
  running: boolean;
  /**
   * `live` (running, cursor within CATCHING_UP_LAG_SLOTS of the tip), `catching_up` (running, further
   * behind: see lagSlots), `unreachable` (its latest chain read failed, within the last 2 minutes) or `stopped`.
   */
  state: CollectorPhase;
  /**
   * running, and the lag grew by 5 slots or more over the last minute without going back below
   * where it was a minute before (core/falling-behind.ts): the provider or the machine does not carry
   * the chain's rate. False while the lag holds steady, however large (see lagSlots).
   */
  fallingBehind: boolean;
  /** start of the current RPC outage (state `unreachable`), else null */
  unreachableSince: Instant | null;
  /** the last RPC error of that outage, every URL cut to scheme://host; null when reachable */
  lastRpcError: string | null;
  /** when the collector's periodic jobs last ran (null: never), kept across cron runs */
  periodic: { funderSweep: Instant | null; afterwardsSweep: Instant | null; poolRefresh: Instant | null; downloads: Instant | null };
  /**
   * Every periodic job of the collector's scheduler, in the order it runs them: name, the setting of
   * its interval (null: a constant), the interval (ms) and when it last ran (null: not yet). Absent
   * until a collector of this version has reported its schedule.
   */
  jobs?: { name: string; setting: string | null; intervalMs: number; lastRun: Instant | null }[];
}

/** A time the collector keeps in meta (epoch ms), as an Instant; null when absent. */
function metaInstant(store: PublicStore, key: string): Instant | null {
  const v = store.getMeta(key);
  return v === undefined || !Number.isFinite(Number(v)) ? null : instant(Number(v));
}

/**
 * Collector state: last heartbeat of the newest run, the program cursor's slot, and whether it beat
 * within 2 minutes; `allowedGapMs` (COVERAGE_GAP_MS) tells a run that ended recently enough that
 * the next one leaves no gap (`between_runs`) from a stop.
 */
export function collectorStateOf(store: PublicStore, nowMs: number, allowedGapMs?: number): CollectorState {
  const last: CollectorRun | undefined = store.lastRun();
  const cursorSlot = store.getCursor('program')?.slot ?? null;
  const tipSlot = last?.tipSlot ?? null;
  // the records are current through the cursor, or through the tip of a listing that found nothing newer
  const currentSlot = store.programCurrentSlot();
  const lagSlots = tipSlot !== null && currentSlot !== null ? Math.max(0, tipSlot - currentSlot) : null;
  const unreachable = parseUnreachable(store.getMeta(UNREACHABLE_META));
  const state = collectorPhase({ nowMs, aliveMs: RUNNING_WITHIN_MS, allowedGapMs, lastBeatMs: last?.lastBeatMs ?? null, stopped: last?.stoppedAtMs != null, lagSlots, unreachable });
  return {
    lastHeartbeat: last ? instant(last.lastBeatMs) : null,
    cursorSlot,
    tipSlot,
    lagSlots,
    running: state === 'live' || state === 'catching_up',
    state,
    fallingBehind: (state === 'live' || state === 'catching_up') && fallingBehind(parseLagSamples(store.getMeta(LAG_SAMPLES_META))),
    unreachableSince: state === 'unreachable' ? instant(unreachable!.sinceMs) : null,
    lastRpcError: state === 'unreachable' ? unreachable!.error : null,
    periodic: {
      funderSweep: metaInstant(store, 'funder_sweep_at_ms'),
      afterwardsSweep: metaInstant(store, 'afterwards_sweep_at_ms'),
      poolRefresh: metaInstant(store, 'pool_refresh_at_ms'),
      downloads: metaInstant(store, 'downloads_written_ms'),
    },
    ...jobsOf(store),
  };
}

/** The scheduler's report (collector/scheduler.ts), when a collector wrote one. */
function jobsOf(store: PublicStore): Pick<CollectorState, 'jobs'> {
  const jobs = parseJobs(store.getMeta(JOBS_META));
  return jobs ? { jobs: jobs.map((j) => ({ name: j.name, setting: j.setting, intervalMs: j.intervalMs, lastRun: j.lastRunMs === null ? null : instant(j.lastRunMs) })) } : {};
}
