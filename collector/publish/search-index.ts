/**
 * The collector's merge of the search index into one segment (src/db/search-index.ts), a job of
 * its scheduler every {@link SEARCH_INDEX_MERGE_MS}: in steps of {@link MERGE_STEP_PAGES} pages,
 * each its own write transaction, the event loop let go between steps so the next pass runs
 * alongside (over 1,000,000 records: ~600 steps of 2-3 ms, ~1.5 s in all).
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { PublicStore } from '../../src/db/public-store.ts';
import { mergeSearchIndexStep, searchIndexSegments, searchIndexShape, worthMerging } from '../../src/db/search-index.ts';

/** How often the index's shape is looked at (and, when worth it, the whole index merged again). */
export const SEARCH_INDEX_MERGE_MS = 3_600_000;
/** Pages of merged index written by one step (one write transaction of a few milliseconds). */
export const MERGE_STEP_PAGES = 16;
/** Where the end of the last merge is kept (meta), so a cron run keeps the interval. */
export const SEARCH_INDEX_MERGED_META = 'search_index_merged_ms';

/** What one merge did: segments before and after, steps taken, whether it reached the end (false: stopped by `signal`). */
export interface SearchIndexMerge {
  segmentsBefore: number;
  segmentsAfter: number;
  steps: number;
  finished: boolean;
}

/**
 * Merge the search index of `store` into one segment, step by step, when that is worth its writes
 * (src/db/search-index.ts `worthMerging`: not for the few small segments since the last merge). Stops between steps when `signal` aborts (the merge begun is kept in the
 * index and goes on at the next run). Records the end in meta {@link SEARCH_INDEX_MERGED_META}
 * (`nowMs()` when it finished).
 * Errors: a step's SQLite error is thrown (that step rolled back; the steps before it stay).
 */
export async function mergeSearchIndex(store: PublicStore, nowMs: () => number, opts: { signal?: AbortSignal; stepPages?: number } = {}): Promise<SearchIndexMerge> {
  const shape = searchIndexShape(store.db);
  const segmentsBefore = shape.segments;
  let steps = 0;
  let finished = !worthMerging(shape);
  while (!finished) {
    if (opts.signal?.aborted) break;
    const worked = mergeSearchIndexStep(store.db, opts.stepPages ?? MERGE_STEP_PAGES, steps === 0);
    steps++;
    if (!worked) finished = true;
    else await yieldToLoop();
  }
  if (finished) store.setMeta(SEARCH_INDEX_MERGED_META, String(nowMs()));
  return { segmentsBefore, segmentsAfter: steps === 0 ? segmentsBefore : searchIndexSegments(store.db), steps, finished };
}
