import { instant } from '../core/canonical.ts';
import type { Instant } from '../core/types.ts';
import type { CollectorRun, PublicStore } from '../db/public-store.ts';

/** A heartbeat newer than this means the collector is running. */
export const RUNNING_WITHIN_MS = 2 * 60_000;

/** Spec §2.1 `coverage.note`. */
export const COVERAGE_NOTE =
  'Launches outside the observed windows were not observed; until a rebuild succeeds their provenance is unknown, not clean. ' +
  'Coverage is read by comparing launches (observed at the creation transaction) with records (every row held), both in ' +
  '/api/v1/status under counts; the difference was found later from chain by a scanner. downtimeMinutes counts minutes the ' +
  'collector process was not running between its runs; it measures process downtime only and is not a measure of coverage.';

/** The `coverage` object of token and status responses. */
export interface Coverage {
  /** Start of the observed window (meta `coverage_from_ms`); null before the collector first ran. */
  from: Instant | null;
  downtimeMinutes: number;
  note: string;
}

/**
 * Whole minutes the collector was not running: the sum over consecutive runs of
 * `next.startedAtMs − prev.lastBeatMs` (negative gaps, from overlapping runs, count as 0).
 */
export function downtimeMinutes(runs: CollectorRun[]): number {
  const sorted = [...runs].sort((a, b) => a.startedAtMs - b.startedAtMs || a.id - b.id);
  let ms = 0;
  for (let i = 1; i < sorted.length; i++) ms += Math.max(0, sorted[i].startedAtMs - sorted[i - 1].lastBeatMs);
  return Math.floor(ms / 60_000);
}

/** The coverage object from the public store. */
export function coverageOf(store: PublicStore): Coverage {
  const raw = store.getMeta('coverage_from_ms');
  const fromMs = raw === undefined ? NaN : Number(raw);
  return {
    from: Number.isFinite(fromMs) ? instant(fromMs) : null,
    downtimeMinutes: downtimeMinutes(store.runs()),
    note: COVERAGE_NOTE,
  };
}

/** The `collector` object of the status response. */
export interface CollectorState {
  lastHeartbeat: Instant | null;
  cursorSlot: number | null;
  running: boolean;
}

/** Collector state: last heartbeat of the newest run, the program cursor's slot, and whether it beat within 2 minutes. */
export function collectorStateOf(store: PublicStore, nowMs: number): CollectorState {
  const runs = store.runs();
  const last = runs.reduce<CollectorRun | undefined>((a, r) => (!a || r.lastBeatMs >= a.lastBeatMs ? r : a), undefined);
  return {
    lastHeartbeat: last ? instant(last.lastBeatMs) : null,
    cursorSlot: store.getCursor('program')?.slot ?? null,
    running: last !== undefined && last.stoppedAtMs === null && nowMs - last.lastBeatMs < RUNNING_WITHIN_MS,
  };
}
