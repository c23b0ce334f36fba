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
 * Regenerated for version 6: the footer's links (API → /api.html, Keys → /pricing, where one link
 * "API and keys" went to /pricing) on every page, and "Markers at birth: unknown — not established"
 * for two UNKNOWN records the archive did not call unobserved; nothing else.
 * Version 7: the buyout table of a wallet's page has an Afterwards column (what the wallet did with
 * the curve it took, with the sales' signatures) under a line saying what it is; the graduated
 * record's buyout wallet was added to the pins (creator/graduated-buyout-wallet), since no pinned
 * page had a buyout. The other pins did not change.
 */

const PINNED: [string, string][] = [
  ['records/FINDINGS', '36b3d41d9db28f1e7b143438f98a3245488c510bae5e8367a70ac044c3c86db3'],
  ['records/FINDINGS-no-transactions', '2b43db394723f5408beeadcb08c48df79051523611657d07bf59cf0aefb91376'],
  ['records/NOTE', '037ec31153c3126a26a1cdcc33fcc35ecc14b31a14ae5e04e11975a6861646cb'],
  ['records/NO_MARKERS', '2e5aa9ccb42f95b8bce4c16836679f20fd7227ca5014314df8ff91d551e9b59f'],
  ['records/UNKNOWN', 'a9b7bc29c7f6afc4e34add27a476ebbc156e50083a3905822ae45f6328a511f5'],
  ['records/UNKNOWN_NO_CREATION', '11131ddab3a979135473e3574c31bb03a0d2355c9583349b75ba7525efe3983d'],
  ['records/graduated', '47ade9386769c7ade6329bfb5451f05c0f1c2e030cb1edf00ca12b77ab55a1a4'],
  ['records/hostile', '2285f7cbb10623af7c200b7647128110ca0ebe02cf8718c01edadcc36953036f'],
  ['records/hostile-metadata', 'b4ae520021973a28e939154200a4c1cb90b238de7ae5010dd8d553d90ec802ce'],
  ['records/hostile-metadata-demo', '6e2461c89f4123935b1adea768614c193eae0d9fdf4ef2a0c1a1ae09a8339fca'],
  ['records/rebuilt', 'd579ed243c025646be3fb93b2d7aea1fb1de4a4cb33cc386a12225f1c69fd256'],
  ['records/v3_migration', '06ecea3762ef2359ec3a01c75476eb6fc00d265d91068e2c47ea65c502b0222f'],
  ['bench/long-curve', '97ad99cfd034330a68220f9ea5ea2294be725432206a270968dafc447853322c'],
  ['bench/long-curve-hostile', 'c1eb2046fece347429df2bd54eef567fe19b86c378e4a1d45682ab8edbff4c61'],
  ['synthetic/events-graduated', 'cd616e38753c193780f0bd3b4b8bccf43173b5a55584b3923c635470cc6cb568'],
  ['synthetic/trades-sum', 'd1a5baf6400fa643a3df86b60b4f9bdb727aba6ae317f102d0fc144b032c177b'],
  ['synthetic/usdc-graduated', 'ece52c57f339835257b155c58a34db677966c447753bf48b903ad5faa88e7190'],
  ['synthetic/short', 'b9bc4659130bce8cbd9ae4fa34eace7b3d1acaff431ce857885601dd565b5b3d'],
  ['doc/no-markers', '50106f9e46608be6801d72f101eaf76d3ea824f8c8cd98dfd344ffdb48529972'],
  ['doc/hostile', '5efcd72849e25974cefa90b8b92337f083851dcc4b77a9768c1d804ec426b195'],
  ['doc/unknown-no-launch', 'd59c68faed81e990a8ad6fa5db78048a0bead3c3ef915a013582c5150f8d69a6'],
  ['doc/graduated-pool', 'd01d7a9c62a3ebb4d8ebf4ba21912b6a84b8ccc0d69062647a7e89155b45e08f'],
  ['creator/FINDINGS-creator', 'ca8c20be822ac30f68d9c60b235143cf65a830831d29542b2292d3098c426bdd'],
  ['creator/FINDINGS-bundled-buyer', '14b023c4427cf3258969c09f74c08584d9f633b78c7b545004cabeede905eb9a'],
  ['creator/FINDINGS-creator-demo', '7d013a3283a308c546436d633337741063ae74ce17f268274e655f7dfd54ad5e'],
  ['creator/graduated-buyout-wallet', '35d071125bdfab098aeca0fae14cc03ba9fc260e338ecc09f0c21e97a2f264d8'],
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
