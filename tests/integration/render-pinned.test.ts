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
 * Regenerated for markers-v5 and the demo banner worded for every page (version 2): a line diff
 * against the pages before showed only the methodVersion text, the document's sha256 and the banner.
 * Regenerated for markers-v6 (version 3: the quote's own decimals): a line diff against the pages
 * before showed only the methodVersion text and the document's sha256 (none of these pages is quoted
 * in a mint other than SOL or USDC; tests/unit/quote-decimals.test.ts renders such pages).
 * Regenerated for `history.rebuiltAt` (version 4): only records/rebuilt changed, its History row
 * ("; rebuilt from the curve’s complete chain history …") and its document's sha256.
 * Regenerated for version 5 (a walkthrough's findings): a line diff showed only the page of a record
 * without its creation transaction (named "Token FttD…pump", its name, symbol and URI "unknown — the
 * creation transaction is not held", where it said "Unnamed token" and "none in the metadata") and
 * the first-30-s heading of two launches without bundled buyers ("(4)", not "(4 besides the bundled)").
 */

const PINNED: [string, string][] = [
  ['records/FINDINGS', '39c8a12746ab429ee72d382930743b89edbf02d19462fee3f805bb6e652a3139'],
  ['records/FINDINGS-no-transactions', '0665a3803d428fa9f37fa4ed214d3de5a97f9231e927b29ea9f900fabecceca6'],
  ['records/NOTE', '0ffe1f479e3164551e3c574f21c301b725d5f0a790e7b02714071b70f90bf27e'],
  ['records/NO_MARKERS', '670f4708b9bbc25fb455d840d89181c93d705c40f9b0e4d823278de7a4d1a0b0'],
  ['records/UNKNOWN', '2ec6334a86ec99bd265809fd6f72a2d2ebab73dda31fa6e36017309ae3f21072'],
  ['records/UNKNOWN_NO_CREATION', '956fd95c4a11301f7e514779a712810ead0227bfbdb58a89f434573d81105c85'],
  ['records/graduated', 'ad1a53bd2b6b5fb7db5cfef9be4fdc04b4988d9a3d63cfa874a526b25f5d6013'],
  ['records/hostile', '2f7e898efe5dbdfab395d7e98c17f75ad9b6774d99054f23104eb07b63e6d959'],
  ['records/hostile-metadata', '304f06d0b2935eb4bd39f7c6f3a85b4e18d4447b5baa5ab0a21c5f47be9a5943'],
  ['records/hostile-metadata-demo', '2c0a7b619eb0f4c1554463c0667ca9a94573b079f29e32c4180b909871c7cab6'],
  ['records/rebuilt', '090f94955a8245b1ee00df1d8bfbc5d10f217a9f8564f16c8f166f4ab5e503a5'],
  ['records/v3_migration', '26f728a6a58be55eee0437b7598d5ac9b34c92dbefcff1daa267468caefaf007'],
  ['bench/long-curve', 'b5c57f3556946dfd8d7abbebda051a5e39a1bae532a9198dd66a985666a505db'],
  ['bench/long-curve-hostile', 'a230db6eb45b0fdd7aff6f0ca0df391e1f02188926a0fd0575ce26d81088ce8a'],
  ['synthetic/events-graduated', '50caceb0ac04d60511b34d84f82349eca1d69c50b1008afb900fadbe963ae5ff'],
  ['synthetic/trades-sum', '75a653787c2f9ba52a10232fb0ff94691b2245f024e80e8c70d7c881e665848a'],
  ['synthetic/usdc-graduated', '2543daa73c6e73a9dc36c24d168c173d87181021256166e9c7363555d15852e0'],
  ['synthetic/short', 'f61e393346e731309bd5af0a0bb940aa9b40fe82031135748c1beaf47be22657'],
  ['doc/no-markers', 'c2712cf26d8cf52234f1d88a9acc6cf2a4069d119cd2c5079837a41ac2d334a0'],
  ['doc/hostile', 'a81e4e0ae132ddce25c83e7305e75c0bafb6565bbc187c66143743143eb5a28d'],
  ['doc/unknown-no-launch', '6b7e6bf1c061a5b72b866caa73a0873449bcb8d7a7b3fcb6e72c72bd84445249'],
  ['doc/graduated-pool', '1352bf87fa10f95bffa21f054c8655a295b4c5b2844dd003a2c2c6e94721887a'],
  ['creator/FINDINGS-creator', '75423f082301fec8dadedad519ae69f38b825a70d680e1d7d485bd0ab8c8623e'],
  ['creator/FINDINGS-bundled-buyer', 'ef44f41fccda2e8e3895ebf59c757c8b0dd9b3e42da3d39b5ecc5c9d976d4397'],
  ['creator/FINDINGS-creator-demo', '1e793041d2a24c812d5bd98679737819d5f70c8a8ab24feb4053191e44929479'],
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
