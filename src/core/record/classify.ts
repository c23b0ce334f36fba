import type { FindingClass, LaunchDocument, Origin } from '../types.ts';
import { instant } from '../canonical.ts';
import type { LaunchAnalysis } from './build-launch.ts';

/** Version of the marker definitions (docs/methodology.md). Every record carries it. */
export const METHOD_VERSION = 'markers-v12';

export interface ClassifyContext {
  origin: Origin;
  observedAtLaunch: boolean;
  /** instant the record is current to (epoch ms) */
  asOfMs: number;
  /** when it is being rebuilt from the curve's complete chain history (epoch ms): `history.rebuiltAt` */
  rebuiltAtMs?: number;
}

/**
 * Classify a launch (spec §2.2, §2.3; docs/methodology.md "Classes"):
 * - history not complete from the creation transaction → UNKNOWN, cleanAtBirth null (never NO_MARKERS);
 * - an UNKNOWN flag (markers-v2: `history_incomplete` — the curve account disagrees with the held
 *   history; `unrecognised_program_data` — a launch transaction the archive cannot fully read) →
 *   UNKNOWN, cleanAtBirth null, whatever else was found: no finding is built on a partial history;
 * - any FINDINGS marker → FINDINGS, cleanAtBirth false;
 * - graduated to PumpSwap but the pool could not be read → UNKNOWN, cleanAtBirth false (spec §2.3);
 * - the funding cohort could not be checked (sharedCohort null) → UNKNOWN, cleanAtBirth false;
 * - a NOTE flag only → NOTE, cleanAtBirth true (NOTE facts are about later behaviour, not birth);
 * - otherwise NO_MARKERS, cleanAtBirth true. Not an endorsement.
 * Pure.
 */
export function classifyLaunch(a: LaunchAnalysis, ctx: ClassifyContext): LaunchDocument {
  const findings = a.flags.filter((f) => f.class === 'FINDINGS');
  const notes = a.flags.filter((f) => f.class === 'NOTE');
  const unknowns = a.flags.filter((f) => f.class === 'UNKNOWN');
  let cls: FindingClass;
  let clean: boolean | null;
  let label: string;
  let why: string;
  const held = a.historyComplete && a.facts !== null;
  // `history.complete` is false once the curve account shows trades missing (markers-v2), or while a
  // transaction of the launch could not be read or holds program data the decoder does not know
  // (the drift guard's flag, markers-v7): the launch facts then rest on part of the history only,
  // and are read as such (docs/api.md: read them as unknown unless history.complete is true)
  const complete = held && !a.flags.some((f) => f.code === 'history_incomplete' || f.code === 'unrecognised_program_data');
  if (!held) {
    cls = 'UNKNOWN';
    clean = null;
    label = 'Not established';
    why = a.facts
      ? 'Unknown, not clean: the archive does not hold this launch’s complete history from its creation transaction, so its markers were not checked.'
      : 'Unknown, not clean: the archive holds transactions of this token but not its creation transaction, so nothing about its launch was checked.';
  } else if (unknowns.length > 0) {
    cls = 'UNKNOWN';
    clean = null;
    const incomplete = unknowns.some((f) => f.code === 'history_incomplete');
    label = incomplete ? 'History incomplete' : 'Unreadable chain data';
    why = `Unknown, not clean: its markers were not checked. ${unknowns.map((f) => f.summary).join(' ')}`;
  } else if (findings.length > 0) {
    cls = 'FINDINGS';
    clean = false;
    label = findings.length === 1 ? '1 finding at launch' : `${findings.length} findings at launch`;
    // a note whose transactions a finding already cites (the creator's sale at birth is also "the creator sold") adds nothing to the why
    const cited = new Set(findings.flatMap((f) => f.evidence));
    const more = notes.filter((n) => n.evidence.some((sig) => !cited.has(sig)));
    why = `${findings.map((f) => f.summary).join(' ')}${more.length ? ` Also noted: ${more.map((f) => f.summary).join(' ')}` : ''} Recorded from the launch’s complete history.`;
  } else if (a.poolUnreadable) {
    cls = 'UNKNOWN';
    clean = false;
    label = 'Pool not readable';
    why = 'Unknown, not clean: the curve graduated but its pool (or its curve account) could not be read, so the launch could not be checked against every criterion. Not an accusation.';
  } else if (a.sharedCohort === null) {
    cls = 'UNKNOWN';
    clean = false;
    label = 'Funding not checked';
    why = 'Unknown, not clean: the first funding sources of the creator and the earliest buyers could not all be established (a wallet history too long, the daily lookup budget spent, or a wallet funded by a way the method does not read: no SOL transfer in its history), so the shared-funder marker was not checked. Not an accusation.';
  } else if (notes.length > 0) {
    cls = 'NOTE';
    clean = true;
    label = 'Note';
    why = `No launch marker was present over the launch’s complete history. Noted: ${notes.map((f) => f.summary).join(' ')}`;
  } else {
    cls = 'NO_MARKERS';
    clean = true;
    label = 'No recorded markers';
    why = 'Checked over the launch’s complete history against every marker the archive records; none was present. This is not an endorsement.';
  }
  // markers-v7: not while the class waits on a pool read (rule 4): a cached "Pool not readable" would outlive the next read
  // markers-v9: nor while a lookup may still change the cohort (a shared funder listed beside a wallet not looked up yet)
  const settled = complete && unknowns.length === 0 && a.facts !== null && a.facts.graduated && a.sharedCohort !== null && !a.cohortPending && !a.poolUnreadable;
  return {
    apiVersion: 'v1',
    methodVersion: METHOD_VERSION,
    mint: a.mint,
    symbol: a.symbol,
    name: a.name,
    uri: a.uri,
    venue: 'pump.fun',
    origin: ctx.origin,
    observedAtLaunch: ctx.observedAtLaunch,
    settled,
    asOf: instant(ctx.asOfMs),
    finding: { class: cls, label, why },
    cleanAtBirth: clean,
    launch: a.facts,
    curveBuyout: a.curveBuyout,
    pool: a.pool,
    funder: { sharedCohort: complete ? a.sharedCohort : null },
    flags: a.flags,
    history: {
      complete,
      transactions: a.transactions,
      failedTransactions: a.failedTransactions,
      firstSlot: a.firstSlot,
      lastSlot: a.lastSlot,
      ...(ctx.rebuiltAtMs !== undefined ? { rebuiltAt: instant(ctx.rebuiltAtMs) } : {}),
    },
  };
}

/**
 * Whether a held record is rebuilt on request like a mint not held (issue 20 (d); docs/api.md
 * "Rebuilds"): an UNKNOWN record that is a placeholder without its creation transaction, or whose
 * history is not complete, unless it was already rebuilt from the complete history and not written
 * again since: origin `rebuilt`, or `history.rebuiltAt` (a launch observed at its creation keeps
 * origin `observed` when rebuilt). A rebuilt record that is still incomplete is served as it is,
 * never rebuilt again at every request (each would spend a caller's hourly starts and the
 * service's daily ceiling on the same answer); `lpa rebuild --force` asks again, and so does the
 * next request after the collector writes the record again (new transactions). Pure.
 */
export function needsRebuild(doc: Pick<LaunchDocument, 'launch' | 'history' | 'origin' | 'finding'>): boolean {
  return (
    doc.finding?.class === 'UNKNOWN' &&
    doc.origin !== 'rebuilt' &&
    doc.history?.rebuiltAt === undefined &&
    (doc.launch === null || doc.history?.complete === false)
  );
}
