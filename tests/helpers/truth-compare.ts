/**
 * Field-by-field comparison of archive records with the simulator's truth.json (issue 3 "ground
 * truth"). Every TruthRecord field except `kind` (a description of the scenario, not a record
 * field) and `buyoutAfterwards` (wallet priors, served by the wallet endpoint and compared there by
 * the ground-truth test) maps to one document path; floats compare to 1e-9 relative, everything else exactly.
 */
import type { LaunchDocument } from '../../src/core/types.ts';
import { documentQuoteMint } from '../../src/core/record/launch-events.ts';
import type { Truth, TruthRecord } from '../../devchain/simulate/truth.ts';

type Getter = (d: LaunchDocument) => unknown;


/** truth field → the same fact in a launch document. */
export const FIELD_MAP: Record<Exclude<keyof TruthRecord, 'kind' | 'buyoutAfterwards'>, Getter> = {
  creator: (d) => d.launch?.creator,
  createdAtMs: (d) => d.launch?.createdAt?.ms,
  creationSignature: (d) => d.launch?.transaction.signature,
  creationSlot: (d) => d.launch?.transaction.slot,
  quoteMint: (d) => d.launch?.quoteMint,
  quoteDecimals: (d) => d.launch?.quoteDecimals,
  tokenProgram: (d) => d.launch?.tokenProgram,
  creatorTokensRaw: (d) => d.launch?.creatorTokensRaw,
  creatorSupplyPct: (d) => d.launch?.creatorSupplyPct,
  creatorSold: (d) => d.launch?.creatorSold,
  curveBuyers: (d) => d.launch?.curveBuyers,
  buyersFirst30s: (d) => d.launch?.buyersFirst30s,
  bundledBuyers: (d) => d.launch?.bundledBuyers,
  completed: (d) => d.launch?.completed,
  completedAtMs: (d) => d.launch?.completedAt?.ms ?? null,
  graduated: (d) => d.launch?.graduated,
  graduationConfirmedBy: (d) => d.launch?.graduationConfirmedBy ?? null,
  graduatedAtMs: (d) => d.launch?.graduatedAt?.ms ?? null,
  secondsToGraduate: (d) => d.launch?.secondsToGraduate ?? null,
  graduationSignature: (d) => d.launch?.graduation?.signature ?? null,
  curveBuyout: (d) =>
    d.curveBuyout && {
      wallet: d.curveBuyout.wallet,
      signature: d.curveBuyout.signature,
      slot: d.curveBuyout.slot,
      sameBatchAsLaunch: d.curveBuyout.sameBatchAsLaunch,
      hoursAfterLaunch: d.curveBuyout.hoursAfterLaunch,
      quoteSpent: d.curveBuyout.quoteSpent,
      tokens: d.curveBuyout.tokens,
      fees: d.curveBuyout.fees,
      curvePart: d.curveBuyout.curvePart,
      poolPart: d.curveBuyout.poolPart,
    },
  poolReserves: (d) => (d.pool ? { base: d.pool.baseReserves, quote: d.pool.quoteReserves } : null),
  bundle: (d) => d.launch?.bundle,
  flags: (d) => d.flags.map((f) => ({ code: f.code, class: f.class, evidence: f.evidence })),
  findingClass: (d) => d.finding.class,
  cleanAtBirth: (d) => d.cleanAtBirth,
  funderSharedCohort: (d) => d.funder.sharedCohort,
};

/** Deep equality with floats equal to 1e-9 relative. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return a === b || Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    return sameValue(ka, kb) && ka.every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return a === b;
}

export interface FieldReport {
  field: string;
  equal: number;
  total: number;
  /** up to 3 examples of a mismatch */
  examples: { mint: string; expected: unknown; actual: unknown }[];
}

/**
 * Compare every truth record with the archive's document of the same mint (a missing document
 * mismatches every field). Returns one report per field, in FIELD_MAP order.
 */
export function compareWithTruth(truth: Truth, docOf: (mint: string) => LaunchDocument | undefined): FieldReport[] {
  const reports = new Map<string, FieldReport>(Object.keys(FIELD_MAP).map((f) => [f, { field: f, equal: 0, total: 0, examples: [] }]));
  for (const [mint, t] of Object.entries(truth.records)) {
    const doc = docOf(mint);
    for (const [field, get] of Object.entries(FIELD_MAP)) {
      const r = reports.get(field)!;
      r.total++;
      // truth states the chain's create event, which names SOL by the default key; documents spell it as the wrapped SOL mint (markers-v3)
      const raw = (t as unknown as Record<string, unknown>)[field];
      const expected = field === 'quoteMint' ? documentQuoteMint(raw as string) : raw;
      const actual = doc ? get(doc) : '(no record)';
      if (sameValue(expected, actual)) r.equal++;
      else if (r.examples.length < 3) r.examples.push({ mint, expected, actual });
    }
  }
  return [...reports.values()];
}

/** One line per field: `field  equal/total  100.00%`. */
export function formatReport(reports: FieldReport[]): string {
  return reports.map((r) => `${r.field.padEnd(22)} ${String(r.equal).padStart(5)}/${r.total}  ${((100 * r.equal) / Math.max(1, r.total)).toFixed(2)}%`).join('\n');
}
