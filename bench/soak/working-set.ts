/**
 * The soak chain's working set over time, and when it settles: the warm-up after which the
 * collector's RSS is judged flat (issue 24).
 *
 * The collector keeps in memory the whole held history of every launch used in the last
 * TX_CACHE_IDLE_S (src/ingest/tx-cache.ts), so what it must hold at a moment is set by the chain: the
 * transactions so far of each launch that had one within the idle window. At the soak's start that
 * set is empty and grows as launches arrive and their trades accumulate; once launches leave it as
 * fast as others enter, it stops growing. RSS growing with it until then is the working set being
 * established, not a leak; growth after it has settled is what "flat" is about. Pure.
 */

/** A transaction of the chain: its slot and the launches (mints) it touches. */
export interface SlotMints {
  slot: number;
  mints: readonly string[];
}

/**
 * Transactions in the working set at each step: element `i` is, at `i × stepMs` after `firstSlot`
 * landed (a slot every `slotMs`), the count of transactions so far of the launches whose latest
 * transaction landed within `idleMs` before. `txs` in any order; `steps` elements.
 * @example workingSetSeries([{ slot: 0, mints: ['a'] }], 0, { slotMs: 400, idleMs: 1000, stepMs: 1000, steps: 3 }) // [1, 1, 0]
 */
export function workingSetSeries(txs: readonly SlotMints[], firstSlot: number, o: { slotMs: number; idleMs: number; stepMs: number; steps: number }): number[] {
  const sorted = [...txs].sort((a, b) => a.slot - b.slot);
  const count = new Map<string, number>();
  const lastAt = new Map<string, number>();
  const out: number[] = [];
  let k = 0;
  for (let i = 0; i < o.steps; i++) {
    const t = i * o.stepMs;
    for (; k < sorted.length && (sorted[k]!.slot - firstSlot) * o.slotMs <= t; k++) {
      const at = (sorted[k]!.slot - firstSlot) * o.slotMs;
      for (const m of sorted[k]!.mints) {
        count.set(m, (count.get(m) ?? 0) + 1);
        lastAt.set(m, at);
      }
    }
    let w = 0;
    for (const [m, at] of lastAt) if (t - at <= o.idleMs) w += count.get(m)!;
    out.push(w);
  }
  return out;
}

/**
 * When `series` settles: the first step from which it never again exceeds its value there by more
 * than `1 / share − 1` (share 0.9: 11 %), as ms (`index × stepMs`), capped at `capMs` (a series still
 * growing at the cap has not settled: the caller says so). 0 for an empty series.
 * @example settledAtMs([1, 5, 9, 10, 10, 10], 1000, 0.9, 10_000) // 2000
 */
export function settledAtMs(series: readonly number[], stepMs: number, share: number, capMs: number): number {
  let suffixMax = -Infinity;
  const max: number[] = new Array(series.length);
  for (let i = series.length - 1; i >= 0; i--) max[i] = suffixMax = Math.max(suffixMax, series[i]!);
  for (let i = 0; i < series.length; i++) {
    if (i * stepMs >= capMs) return capMs;
    if (series[i]! > 0 && series[i]! >= share * max[i]!) return i * stepMs;
  }
  return Math.min(capMs, series.length * stepMs);
}
