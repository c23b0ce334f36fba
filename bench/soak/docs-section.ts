/**
 * The soak's section of docs/benchmarks.md: `npm run soak` writes it, `npm run bench` (which writes
 * the rest of the file) keeps it. Pure.
 */

/** The heading the soak's section starts with; it runs to the end of the file. */
export const SOAK_HEADING = '## Soak:';

/**
 * The soak section of `doc` (from {@link SOAK_HEADING} to the end), or '' when it has none.
 *
 * @example
 * soakSectionOf('# B\n\n## Soak: x\n\ny\n'); // '## Soak: x\n\ny\n'
 */
export function soakSectionOf(doc: string): string {
  const i = doc.startsWith(SOAK_HEADING) ? 0 : doc.indexOf(`\n${SOAK_HEADING}`);
  return i < 0 ? '' : doc.slice(i === 0 ? 0 : i + 1);
}

/**
 * `doc` with its soak section replaced by `section` (appended after a blank line when it has none).
 *
 * @example
 * withSoakSection('# B\n\n## Soak: old\n', '## Soak: new\n'); // '# B\n\n## Soak: new\n'
 */
export function withSoakSection(doc: string, section: string): string {
  const old = soakSectionOf(doc);
  const head = old ? doc.slice(0, doc.length - old.length) : doc.replace(/\n*$/, '\n\n');
  return head + section.replace(/\n*$/, '\n');
}
