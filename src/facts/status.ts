/**
 * The status facts (docs/api.md "Status"): what the archive holds and what the collector was awake
 * for, read from the public database. Used by the server (`GET /api/v1/status`, src/server/status.ts)
 * and by the collector's status and home pages (collector/publish/lists.ts), so it lives where both
 * processes may import it.
 */
import { instant } from '../core/canonical.ts';
import type { Instant } from '../core/types.ts';
import type { ArchiveCounts, UnreadableCounts } from '../db/public-store.ts';
import type { Config } from '../config.ts';
import type { PublicStore } from '../db/public-store.ts';
import { METHOD_VERSION } from '../core/record/classify.ts';
import { collectorStateOf, coverageOf, gapsOf, type CollectorState, type Coverage } from './coverage.ts';

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
  /**
   * Records whose funding cohort is not established yet (public.db `launch.cohort_unknown`: UNKNOWN
   * "Funding not checked" until then, docs/methodology.md "Shared funder"), which the collector's
   * funder sweep takes 100 at a time every `FUNDER_SWEEP_MS`; `olderMethod`: those of them made under
   * an earlier method than this release's (queued by an upgrade's migration to be recorded again).
   */
  fundingChecks: { waiting: number; olderMethod: number };
  generatedAt: Instant;
}

/** What the status is read from: the public database, two settings, and (in the server) the rebuild queue's counts, read beforehand (null: not read, or the private database unreachable). */
export interface StatusSources {
  publicStore: PublicStore;
  config: Pick<Config, 'DEMO' | 'COVERAGE_GAP_MS'>;
  rebuildCounts?: { queued: number; running: number } | null;
}

/** The status body at `nowMs`. */
export function statusBody(deps: StatusSources, nowMs: number): StatusBody {
  return {
    apiVersion: 'v1',
    demo: deps.config.DEMO,
    counts: deps.publicStore.counts(),
    coverage: { ...coverageOf(deps.publicStore, nowMs, deps.config.COVERAGE_GAP_MS), gaps: gapsOf(deps.publicStore) },
    collector: collectorStateOf(deps.publicStore, nowMs, deps.config.COVERAGE_GAP_MS),
    unrecognisedProgramData: deps.publicStore.unrecognisedSince(nowMs - DAY_MS).map(({ firstSeenMs, lastSeenMs, ...r }) => ({ ...r, firstSeen: instant(firstSeenMs), lastSeen: instant(lastSeenMs) })),
    unreadable: deps.publicStore.unreadableCounts(),
    rebuilds: deps.rebuildCounts ?? null,
    fundingChecks: fundingChecksOf(deps.publicStore),
    generatedAt: instant(nowMs),
  };
}


/** {@link StatusBody.fundingChecks} from the public database (PublicStore.sweepQueue under this release's method). */
function fundingChecksOf(store: PublicStore): StatusBody['fundingChecks'] {
  const q = store.sweepQueue(METHOD_VERSION);
  return { waiting: q.records, olderMethod: q.olderMethod };
}
