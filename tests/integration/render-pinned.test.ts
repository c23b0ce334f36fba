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
 */

const PINNED: [string, string][] = [
  ['records/FINDINGS', '74460857acf1bbbf6bb770aa1d6e12441cfb6c3df97a749753056580681ec384'],
  ['records/FINDINGS-no-transactions', 'df7bcb027bbba06402e0332dc89cf3c5e4e5b3ba80e70f4242de6360836dfe98'],
  ['records/NOTE', '901747fd3dfd983abdbb530ba06dd737425819e217715b35ea77586307bca8f6'],
  ['records/NO_MARKERS', 'f0ddb954afab0b600ccc67d3981e93baa674199e3465856808cc64e13b86d581'],
  ['records/UNKNOWN', 'f8d2a6dded64dc326fc928303be6b1283123fd13c5b31a12d2f3288983eb53d9'],
  ['records/UNKNOWN_NO_CREATION', '3ce508f1d0ee6bfd76b7c42bd633b231df494b7fdf8505ad8c54f83eb725a0a1'],
  ['records/graduated', '060cd1d4b202cfbe2808535d141e2693dcd256de84f6318244e496ace384fe02'],
  ['records/hostile', '5a296a26d7b9058ca6dea9e381c0955ed2a53c364b088cb81a42b84a5291ee14'],
  ['records/hostile-metadata', '896a301f1830a84ddf1960e1dc2e211d974b7aa93600b3c67a26c7b42ffd8d49'],
  ['records/hostile-metadata-demo', '26ccd8314210100c7a4a7e7e22f3124e23f6cc2d45499f4e2b2cd0ed781c6a98'],
  ['records/rebuilt', 'b5cd79fb6d377f340d25974ab584d27bffc303e3fbaf079a75265f7b6fec6ad0'],
  ['records/v3_migration', '57181f03459e2012137ac60afa0819ec2294da01be4fafbec417ebf4a02c802d'],
  ['bench/long-curve', 'b8da84c068fcdccfcb27a491d9cf5ac03fef0576b98f3b9b37c1f5a63ac79957'],
  ['bench/long-curve-hostile', 'ed9d366f91c357971f02e4d1fe08123db19db6ec7d91e9349840e464c4ebe2bc'],
  ['synthetic/events-graduated', 'ec2976cce7ad97a93589a11c64adfd8406c58a5ba9f15ad3291864ddf0172985'],
  ['synthetic/trades-sum', 'c5a67e9067ebb5ea572aac1a6eba54765867f60970e1af9a4ccca8ebbca47035'],
  ['synthetic/usdc-graduated', 'aaeb2c52340949fcdb2f3da4dcf9e37dc15abee560709d10a4216c8b7b2d46d1'],
  ['synthetic/short', 'e4459d5661171382d2771823e8d147baa755586c7e25caf6d6f7ac744dab6226'],
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
