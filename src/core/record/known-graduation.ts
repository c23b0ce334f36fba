import type { LaunchDocument, LaunchFacts } from '../types.ts';

/**
 * What a record establishes about its launch's graduation, beyond its `launch.graduated` boolean
 * (docs/methodology.md "History and origin"): `false` there is the held history's answer, and over
 * an incomplete history a missing trade may have completed the curve, or a missing migration moved
 * it to a pool. Read by the token page (its "Graduated" and "Curve completed" values) and by the
 * list's `graduated` filter (PublicStore.putLaunch's `graduated` column, public migration 23), so
 * "did not graduate" means the same on both. Pure.
 */

/** Whether the record was issued under `markers-v<n>` or later (methodVersion; an unknown spelling: no). */
export function methodAtLeast(doc: Pick<LaunchDocument, 'methodVersion'>, n: number): boolean {
  const m = /^markers-v(\d+)$/.exec(doc.methodVersion ?? '');
  return m !== null && Number(m[1]) >= n;
}

/**
 * Whether the launch's curve is known not to have completed, though the record says `completed:
 * false`: its history is complete, or the curve account read says so. A partial history's "no" is
 * only the held history's (a missing trade may have completed the curve): unknown, never "no".
 */
export function notCompletedKnown(doc: LaunchDocument, l: LaunchFacts): boolean {
  // markers-v1 wrote false for a curve account it could not read (null since markers-v2)
  return doc.history.complete || (l.graduationCheck?.curveComplete === false && methodAtLeast(doc, 2));
}

/** Whether a completed curve is known not to have migrated: complete history, or the pool account read and not found. */
export function notMigratedKnown(doc: LaunchDocument, l: LaunchFacts): boolean {
  // before markers-v7 `poolFound: false` also meant "not read" or "could not be read" (null since)
  return doc.history.complete || (l.graduationCheck?.poolFound === false && methodAtLeast(doc, 7));
}

/**
 * The launch's graduation as the record establishes it: `graduated`, `not_graduated` (its curve
 * known not to have completed, or completed and known not to have migrated), or `unknown` (no
 * creation held, or the held history's "no" without a curve or pool read to confirm it).
 * @example graduation({ ...doc, launch: null }) // 'unknown'
 */
export function graduation(doc: LaunchDocument): 'graduated' | 'not_graduated' | 'unknown' {
  const l = doc.launch;
  if (!l) return 'unknown';
  if (l.graduated) return 'graduated';
  return (l.completed ? notMigratedKnown(doc, l) : notCompletedKnown(doc, l)) ? 'not_graduated' : 'unknown';
}
