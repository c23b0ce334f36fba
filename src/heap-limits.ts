import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/**
 * V8's limits on how far a process's heap grows past its live objects, set at run time (the
 * processes are started as `node <entry>`, without V8 flags): the old generation's growth after a
 * full collection ({@link limitHeapGrowth}: the collector) and the young generation's size
 * ({@link limitYoungGeneration}: the server).
 */

/**
 * Bound how far this process's V8 heap grows past its live objects: after each full garbage
 * collection the next one is due when the heap has grown by `percent` % (V8's
 * `--heap-growing-percent`; 0 leaves V8's own choice). Set by the collector at start
 * (HEAP_GROWTH_PERCENT).
 *
 * Why: V8 picks the factor itself from how fast it collects against how fast the program allocates,
 * up to 4 (300 %) when the heap may take 2 GB or more — any machine with 8 GB of RAM or more. The
 * collector allocates fast (every batch rebuilds each touched launch from its whole history) and
 * keeps a live heap of 0.15–0.3 GB at mainnet's rate, so its heap grew to 0.85 GB before a full
 * collection and its RSS swung between 0.4 and 1 GB, peaks kept for minutes (the soak, issue 24).
 * With the factor fixed the heap stays within 1 + percent/100 of what is live, at the cost of more
 * full collections (docs/operations.md "Sizing" gives both).
 *
 * The flag is read at every collection, so setting it after start takes effect (the process's
 * other V8 settings stay as started).
 *
 * @example
 * limitHeapGrowth(50); // the next full collection when the heap is 1.5 × what the last one kept
 */
export function limitHeapGrowth(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${Math.round(percent)}`);
}

/** V8's own `--semi-space-growth-factor` (`node --v8-options`): the young generation doubles when it grows. */
const V8_SEMI_SPACE_GROWTH_FACTOR = 2;

/** Bytes V8 has reserved for the young generation now (`new_space`: both semi-spaces). */
export function youngGenerationBytes(): number {
  return getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
}

let youngObserver: PerformanceObserver | null = null;

/**
 * Keep V8's young generation (`new_space`, both semi-spaces) at `mb` MB or less from now on
 * (0 leaves V8's own choice). Set by the server when it starts serving (YOUNG_GENERATION_MB).
 *
 * Why: V8 doubles the young generation whenever many objects survived its scavenges since it last
 * grew, up to 128 MB in Node with a 4 GB heap limit (16 GB of RAM or more: two semi-spaces of 64 MB, V8's
 * default derived from the heap limit, doubled without pointer compression), and gives the pages back
 * only when the process is idle. The creation feed (`GET /api/v1/stream`) keeps every poll's events
 * alive until 200 sockets took them, so under the stream bench the server's young generation grew
 * 32 → 64 → 128 MB within 90 s while its old generation stayed at 20–28 MB: up to 96 MB of RSS for
 * a nursery 4–6 × the old generation (docs/operations.md "Sizing").
 *
 * `--max-semi-space-size` is only read when the heap is set up, so it cannot be set from inside a
 * running process; V8's growth factor is read at every growth decision. After every garbage
 * collection this allows growth (V8's factor 2) only while the doubled size would stay within
 * `mb`, and sets the factor to 1 (no growth) otherwise. A young generation already past `mb`
 * stays as it is until V8 shrinks it. The check runs when V8 reports a collection, on the event
 * loop: an event-loop turn that allocates enough for several scavenges can take the young
 * generation a step past `mb` (a test allocating 0.5 MB a turn peaked at 16–16.5 MB for 16; 5 MB a
 * turn reached 24–28 MB). The server calls this when its young generation is already 32 MB (V8
 * grows it that far while the server starts), so with the default it stops growing at once.
 *
 * @example
 * limitYoungGeneration(32); // the young generation grows 1 → 2 → … → 32 MB at most
 */
export function limitYoungGeneration(mb: number): void {
  youngObserver?.disconnect();
  youngObserver = null;
  if (!(mb > 0)) return;
  const cap = mb * 2 ** 20;
  let factor = 0;
  const check = () => {
    const next = youngGenerationBytes() * V8_SEMI_SPACE_GROWTH_FACTOR <= cap ? V8_SEMI_SPACE_GROWTH_FACTOR : 1;
    if (next === factor) return;
    factor = next;
    setFlagsFromString(`--semi-space-growth-factor=${factor}`);
  };
  check();
  youngObserver = new PerformanceObserver(check);
  youngObserver.observe({ entryTypes: ['gc'] });
}
