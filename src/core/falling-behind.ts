/**
 * Whether the collector is falling behind the chain (issue 24: "status shows falling behind when
 * lag grows for more than a minute"; `/api/v1/status` `collector.fallingBehind`). The heartbeat
 * keeps a short history of the lag — the chain tip minus the collector's cursor, in slots — and the
 * rule reads it. Pure.
 */

/** One lag reading: at a heartbeat, how many slots the cursor trailed the tip. */
export interface LagSample {
  /** epoch ms */
  atMs: number;
  lagSlots: number;
}

/** Meta key of the kept samples (JSON `[[atMs, lagSlots], …]`, oldest first). */
export const LAG_SAMPLES_META = 'collector_lag_samples';
/** At most one sample per this many ms (heartbeats come every second or so while live). */
export const LAG_SAMPLE_SPACING_MS = 5_000;
/** Samples older than this (before the newest) are dropped: the rule needs a minute and some. */
export const LAG_SAMPLES_KEPT_MS = 3 * 60_000;
/** How long the lag has to keep growing. */
export const FALLING_BEHIND_MS = 60_000;
/** Growth that counts, in slots (5 slots ≈ 2 s, the lag the soak holds a deployment to); less is noise. */
export const FALLING_BEHIND_GROWTH_SLOTS = 5;

/**
 * The samples after a heartbeat read `s`: appended when the newest kept one is at least
 * {@link LAG_SAMPLE_SPACING_MS} older (else returned unchanged, the same array), trimmed to
 * {@link LAG_SAMPLES_KEPT_MS} before `s`.
 *
 * @example
 * keepLagSample([], { atMs: 0, lagSlots: 3 }); // [{ atMs: 0, lagSlots: 3 }]
 */
export function keepLagSample(samples: readonly LagSample[], s: LagSample): LagSample[] {
  const last = samples.at(-1);
  if (last && s.atMs - last.atMs < LAG_SAMPLE_SPACING_MS) return samples as LagSample[];
  return [...samples.filter((x) => s.atMs - x.atMs <= LAG_SAMPLES_KEPT_MS), s];
}

/**
 * Falling behind: over at least the last {@link FALLING_BEHIND_MS} of samples the lag grew by
 * {@link FALLING_BEHIND_GROWTH_SLOTS} or more and never went back below where it was a minute
 * before. Compared with the newest sample taken at least a minute before the newest; false with
 * less than a minute of samples, and false when the lag holds steady however large (that is
 * `catching_up` without losing ground; see `lagSlots`).
 *
 * @example
 * fallingBehind([{ atMs: 0, lagSlots: 10 }, { atMs: 30_000, lagSlots: 40 }, { atMs: 60_000, lagSlots: 80 }]); // true
 */
export function fallingBehind(samples: readonly LagSample[]): boolean {
  const newest = samples.at(-1);
  const i = baseIndex(samples);
  if (!newest || i < 0) return false;
  const start = samples[i]!.lagSlots;
  if (newest.lagSlots - start < FALLING_BEHIND_GROWTH_SLOTS) return false;
  return samples.slice(i + 1).every((s) => s.lagSlots >= start);
}

/** The index of the newest sample taken at least {@link FALLING_BEHIND_MS} before the newest (-1: none). */
function baseIndex(samples: readonly LagSample[]): number {
  const newest = samples.at(-1);
  if (!newest) return -1;
  for (let k = samples.length - 1; k >= 0; k--) if (newest.atMs - samples[k]!.atMs >= FALLING_BEHIND_MS) return k;
  return -1;
}

/**
 * The lag {@link fallingBehind} compares the newest with: the newest sample taken at least a minute
 * before it (null: less than a minute of samples). What a log line about falling behind names as
 * "a minute ago", so its numbers are the rule's (an operator read `lagSlots` 6 beside
 * `lagSlotsAMinuteAgo` 11 under "the lag has grown": the line took another sample).
 * @example lagAMinuteBefore([{ atMs: 0, lagSlots: 10 }, { atMs: 30_000, lagSlots: 40 }, { atMs: 60_000, lagSlots: 80 }]) // 10
 */
export function lagAMinuteBefore(samples: readonly LagSample[]): number | null {
  const i = baseIndex(samples);
  return i < 0 ? null : samples[i]!.lagSlots;
}

/** The kept samples from their meta text; [] when absent or unreadable. */
export function parseLagSamples(raw: string | undefined): LagSample[] {
  if (!raw) return [];
  try {
    const v = JSON.parse(raw) as unknown;
    if (!Array.isArray(v)) return [];
    return v.filter((p): p is [number, number] => Array.isArray(p) && Number.isFinite(p[0]) && Number.isFinite(p[1])).map(([atMs, lagSlots]) => ({ atMs, lagSlots }));
  } catch {
    return [];
  }
}

/** The meta text of `samples`. */
export const formatLagSamples = (samples: readonly LagSample[]): string => JSON.stringify(samples.map((s) => [s.atMs, s.lagSlots]));
