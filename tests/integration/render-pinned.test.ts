import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pinnedPages } from '../helpers/pinned-pages.ts';
import { SITE_TEMPLATE_PINNED, SITE_TEMPLATE_VERSION } from '../../src/render/site-template.ts';

/**
 * The static pages' bytes, pinned (issue 23, page speed): the pages of tests/helpers/pinned-pages.ts
 * (every collected record kind, hostile metadata, the benchmark's 2,000-trade curve, synthetic
 * 2,000-trade curves, documents without transactions, creator pages) hashed and compared with the sha256 the
 * template gave before its render was optimised. An optimisation must not change a byte; a
 * deliberate change of the page updates this table in its own commit, saying why, and raises
 * SITE_TEMPLATE_VERSION (src/render/site-template.ts: the collector then writes every page on disk
 * again; the first test below holds the version to this table).
 *
 * The table was generated once from the template as it was, by rendering pinnedPages and printing
 * `[name, sha256(html)]` for each. Regenerated for markers-v4 (methodVersion in the text and the
 * document's sha256 on the page): a line diff against the markers-v3 pages showed nothing else changed.
 * Regenerated for the search box's shorter placeholder ("Mint, name or symbol"): every page with the
 * old placeholder put back hashed to its old pin.
 * The creator pages (creator/*: the collected records' wallets, as the collector writes their pages)
 * were added later, as the template rendered them then (no byte of any page changed, so the version
 * stayed): until then a change to the creator page alone changed no pin, and the pages on disk kept
 * the old one unless someone raised the version by hand.
 */

const PINNED: [string, string][] = [
  ['records/FINDINGS', '74e2f699ff11c2bf74c3f9c4cf151d28230209fcde3d62bed8032429e47cc262'],
  ['records/FINDINGS-no-transactions', '86a843b2dd8aaeddcd79030c7cf52049d5839a171dd967f831e161e02cfa49e6'],
  ['records/NOTE', '0b69e28eb610ffec932b0d62536657c6eb147dbb47fcd70f81829b99ca942686'],
  ['records/NO_MARKERS', '385cf51c8c2c32c88a71703bc72f863ae61fb1994998c39cbea48fffe47746b2'],
  ['records/UNKNOWN', '432a3db60be462b2a8e31b831259d262cf668a15b52cae65fa9a40b962ec612f'],
  ['records/UNKNOWN_NO_CREATION', 'a05fdb685f46cf1e161c4ece4b0fbc805c22831e77003b9f3dfd7c7c4bdccfba'],
  ['records/graduated', '82f56e07ae01d805a93d87066481c038ce58fb217c1e8fd1698ff9b941aa6bed'],
  ['records/hostile', '600e47ea8c6861d17a245ed279dde984de9b9b88ed2affbeacee39411c4f906d'],
  ['records/hostile-metadata', '672f6fe4e80d9bef1558a3047047d4d9901196d8be8811042112ab4b7d3d3872'],
  ['records/hostile-metadata-demo', 'e0920800aefd99a3d118fb8affc9af0cca518e4943622643382dbb28513ea5c2'],
  ['records/rebuilt', '6efdf1eeb3e401da6547d6dea911b9deb71dae05aea771e33d7ad1cf6989fc8f'],
  ['records/v3_migration', '20fcc16dd0f12e87b5e13511b561c94e3959fc4748ed9219f8b505bc5635b387'],
  ['bench/long-curve', '631826c026f1ba6c969a812b959ac6997375b0dff155b136eea231d342df2d54'],
  ['bench/long-curve-hostile', '0812f75be45f8e4676befb7383aab3da6113cc63530685354dd5c5750cd4f69e'],
  ['synthetic/events-graduated', '6efd3cef76a6998bdc05fadc48376482d050eecd064e2378d6f08ef99a204dbd'],
  ['synthetic/trades-sum', 'c6b079bdd726d4ac8b5fd0a452582de8118b174448f4d1e67f9a5f2bc35ddc10'],
  ['synthetic/usdc-graduated', 'f150c15358ced8c3da37ea8a11105f2d85350e46eef42e4e2910c7d5d8df20ef'],
  ['synthetic/short', '1fb2d0f472eb1e3b6f72656e8c580f224d91f3e2ff56c395cf13e6208309ac06'],
  ['doc/no-markers', 'c2712cf26d8cf52234f1d88a9acc6cf2a4069d119cd2c5079837a41ac2d334a0'],
  ['doc/hostile', 'a81e4e0ae132ddce25c83e7305e75c0bafb6565bbc187c66143743143eb5a28d'],
  ['doc/unknown-no-launch', '6b7e6bf1c061a5b72b866caa73a0873449bcb8d7a7b3fcb6e72c72bd84445249'],
  ['doc/graduated-pool', '1352bf87fa10f95bffa21f054c8655a295b4c5b2844dd003a2c2c6e94721887a'],
  ['creator/FINDINGS-creator', '75423f082301fec8dadedad519ae69f38b825a70d680e1d7d485bd0ab8c8623e'],
  ['creator/FINDINGS-bundled-buyer', 'ef44f41fccda2e8e3895ebf59c757c8b0dd9b3e42da3d39b5ecc5c9d976d4397'],
  ['creator/FINDINGS-creator-demo', 'a9e919af9a184eeea22f97c6a72cff7dc118095120683d917913aa67cfe70207'],
];

let tmp: string;
let pages: [string, string][];

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'lpa-pinned-'));
  pages = await pinnedPages(tmp);
}, 300_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the page template\'s version (src/render/site-template.ts)', () => {
  it('names this table of pinned pages: a change of the pages\' bytes raises SITE_TEMPLATE_VERSION, so the collector writes every page on disk again', () => {
    const tableSha = createHash('sha256').update(PINNED.map(([n, h]) => `${n} ${h}\n`).join('')).digest('hex');
    expect(
      SITE_TEMPLATE_PINNED,
      `the pinned pages changed: raise SITE_TEMPLATE_VERSION (now ${SITE_TEMPLATE_VERSION}) in src/render/site-template.ts and set SITE_TEMPLATE_PINNED to '${tableSha}'`,
    ).toBe(tableSha);
  });
});

describe('the token and creator page templates render the pinned bytes', () => {
  it('renders every pinned page, in order', () => {
    expect(pages.map(([n]) => n)).toEqual(PINNED.map(([n]) => n));
  });

  it.each(PINNED)('%s', (name, sha256) => {
    const html = pages.find(([n]) => n === name)?.[1];
    expect(html, `no page ${name}`).toBeDefined();
    expect(createHash('sha256').update(html!).digest('hex')).toBe(sha256);
  });

  it('the pinned pages are distinct (a page the inputs did not reach would hash like another)', () => {
    expect(new Set(PINNED.map(([, h]) => h)).size).toBe(PINNED.length);
  });
});
