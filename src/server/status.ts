import { instant } from '../core/canonical.ts';
import type { Instant } from '../core/types.ts';
import type { ArchiveCounts, UnreadableCounts } from '../db/public-store.ts';
import { collectorStateOf, coverageOf, gapsOf, type CollectorState, type Coverage } from './coverage.ts';
import type { Deps } from './deps.ts';
import { CACHE_NONE, jsonResponse } from './http.ts';

const DAY_MS = 86_400_000;

/** Body of `GET /api/v1/status` (documented in docs/api.md "Status"). */
export interface StatusBody {
  apiVersion: 'v1';
  /** true when the archive is `npm run demo` (config DEMO): its records are of a replayed, mostly simulated chain. */
  demo: boolean;
  /** What the archive holds: `launches` observed at creation, `records` every row held, by origin and class. */
  counts: ArchiveCounts;
  coverage: Coverage & { gaps: ReturnType<typeof gapsOf> };
  collector: CollectorState;
  /**
   * Pump, PumpSwap or fees program data the decoder could not read, last seen in the last 24 h
   * (the drift guard, docs/methodology.md): hex discriminator, times seen since first, first signature.
   */
  unrecognisedProgramData: { program: string; kind: string; discriminator: string; count: number; firstSignature: string; firstSeen: Instant; lastSeen: Instant }[];
  /**
   * Transactions the collector could not read for a reason that persisted: passed by the catch-up,
   * read again later (public.db table unreadable_tx); `byReason` omits reasons with none.
   */
  unreadable: UnreadableCounts;
  /** On-demand rebuilds (spec §3) waiting and running now; null where the status is built without the rebuild queue. */
  rebuilds: { queued: number; running: number } | null;
  generatedAt: Instant;
}

/** The status body at `nowMs`. */
export function statusBody(deps: Pick<Deps, 'publicStore' | 'config'> & Partial<Pick<Deps, 'rebuilds'>>, nowMs: number): StatusBody {
  return {
    apiVersion: 'v1',
    demo: deps.config.DEMO,
    counts: deps.publicStore.counts(),
    coverage: { ...coverageOf(deps.publicStore, nowMs, deps.config.COVERAGE_GAP_MS), gaps: gapsOf(deps.publicStore) },
    collector: collectorStateOf(deps.publicStore, nowMs),
    unrecognisedProgramData: deps.publicStore.unrecognisedSince(nowMs - DAY_MS).map(({ firstSeenMs, lastSeenMs, ...r }) => ({ ...r, firstSeen: instant(firstSeenMs), lastSeen: instant(lastSeenMs) })),
    unreadable: deps.publicStore.unreadableCounts(),
    rebuilds: deps.rebuilds ? deps.rebuilds.jobs.queueCounts() : null,
    generatedAt: instant(nowMs),
  };
}

/**
 * `GET /api/v1/status` (no key): what the archive holds and what it was awake for.
 * Always `no-store`: it changes with every collector batch.
 */
export function handleStatus(_request: Request, deps: Deps): Response {
  return jsonResponse(statusBody(deps, deps.now()), 200, { 'Cache-Control': CACHE_NONE });
}
