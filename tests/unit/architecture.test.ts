/**
 * The import rules (docs/architecture.md "Import rules", .dependency-cruiser.cjs) hold: no import
 * circles, a pure src/core, src/ never importing a process's folder, the collector never importing
 * the web process, devchain/ only for wiring, tests and bench. Checked with dependency-cruiser's API
 * so a violation fails `npm test` with the rule and the import path named.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

const ROOT = resolve(import.meta.dirname, '../..');
/** every folder of code the rules speak about (tests import freely and are not cruised as sources) */
const CRUISED = ['src', 'collector', 'devchain', 'bench', 'bin'];

describe('architecture: the import rules of .dependency-cruiser.cjs', () => {
  it('has no violation (circles, I/O in src/core, src → processes, collector → web process, devchain outside wiring)', async () => {
    const options = await extractDepcruiseOptions(resolve(ROOT, '.dependency-cruiser.cjs'));
    const result = await cruise(CRUISED, { ...options, baseDir: ROOT, validate: true, outputType: 'json' }, {}, { tsConfig: extractTSConfig(resolve(ROOT, 'tsconfig.json')) });
    const output: ICruiseResult = typeof result.output === 'string' ? JSON.parse(result.output) : result.output;
    const violations = output.summary.violations.map((v) =>
      `${v.rule.name}: ${v.from} → ${v.to}${v.cycle?.length ? ` (circle: ${v.cycle.map((c) => (typeof c === 'string' ? c : c.name)).join(' → ')})` : ''}`,
    );
    expect(violations).toEqual([]);
    // the check saw the whole tree, not an empty cruise
    expect(output.summary.totalCruised).toBeGreaterThan(100);
  });
});

describe('docs/architecture.md names only paths that exist', () => {
  const text = readFileSync(resolve(ROOT, 'docs/architecture.md'), 'utf8');
  // every `code` span that is a path of the repository (data paths start with DATA_DIR and are not)
  const paths = [...new Set([...text.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]!).filter((p) => /^(\.dependency-cruiser\.cjs|(src|collector|devchain|tests|bench|bin|docs)\/[\w./[\]-]*)$/.test(p)))];

  it('names the files of each step (more than a handful)', () => {
    expect(paths.length).toBeGreaterThan(30);
  });

  it.each(paths.map((p) => [p]))('%s exists', (p) => {
    expect(existsSync(resolve(ROOT, p))).toBe(true);
  });
});
