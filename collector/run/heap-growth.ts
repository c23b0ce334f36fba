import { setFlagsFromString } from 'node:v8';

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
