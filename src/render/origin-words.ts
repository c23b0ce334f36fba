/**
 * What a record's `origin` means, in words, the field's value first as the JSON spells it
 * (docs/methodology.md "Origin"): one map for every page that names an origin — the token page's
 * Origin row and the status page's counts by origin. Pure.
 */
export const ORIGIN_WORDS: Readonly<Record<string, string>> = {
  observed: 'observed: watched live from its creation transaction',
  scanned: 'scanned: not watched at its creation; found later from the chain',
  rebuilt: 'rebuilt: not watched at its creation; reconstructed from chain history on request',
};

/** Why a record is `scanned`, for a page that explains the category rather than one record (the status page). */
export const SCANNED_BECAUSE = 'created before coverage began or while the collector was down, or held without its creation transaction';
