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
 * page had a buyout. The other pins did not change. Then markers-v7 (in the same version, not yet
 * released): a line diff showed only the methodVersion text and the documents' sha256, and for the
 * two synthetic graduated pages whose pool is not read (UNKNOWN "Pool not readable") "not settled"
 * where they said "settled"; and records/UNKNOWN (the drift guard's record: history not complete
 * since markers-v7) shows its counts as "of the held history", its graduation as unknown, no charts,
 * and the reason in the not-known line. Then the curve table's "Trades charted" (the points drawn:
 * 117 for the 2,000-trade curve) became "Curve trades" with the trades held and, when thinned, the
 * points drawn; nothing else. And synthetic/usdc-graduated's input was mended (tests/helpers/pinned-pages.ts
 * set every trade's quote_amount to 0): its trades now show their USDC amounts.
 * Version 8: the charts' axis labels for phones (charts.ts axes): every other label is class "alt"
 * (a phone hides them and draws the rest larger, public/site.css), an x label at the left edge starts
 * there and one at the right edge ends there, the unit stands at the plot's left above it, "pool now"
 * ends at the right edge. A line diff against version 7 showed only those <text> elements.
 */

const PINNED: [string, string][] = [
  ['records/FINDINGS', '892b093e1eda3f3cfb6f32aae0bb9b0afbd05e4beff4712df10dadaef4feda61'],
  ['records/FINDINGS-no-transactions', 'dc0eba27928d3afd90a59199c74c743b7763d4c9cbe081ffcbe16f5a9755477b'],
  ['records/NOTE', '4846e75ed99c02ebffd5ad8fb604791251a4067452dfaaf8e5718d13e1bfa74c'],
  ['records/NO_MARKERS', 'f67a16dc4fd85c8f82a434461ae849e049c536c15daee7f3377a77ec668cd712'],
  ['records/UNKNOWN', 'c4d32abc4529362c58ba7fa041b31f61b02d89f931474b07508c61818781761e'],
  ['records/UNKNOWN_NO_CREATION', '13d780cf0ad0c1d9715ec08d8674d5c999edff067186b1be15e7b5f40f82eecf'],
  ['records/graduated', '49ec1c67f3b32e047abe0e48b4076b628a81470a4a0654b3a97720d63f3f14bd'],
  ['records/hostile', '9643543e2add9813b73aafb25763156e289b285ca4a9ada7928cf62ff0d3ba2d'],
  ['records/hostile-metadata', '5a6f1f71a0cf7fa9250104aed87ac2ab5a3c454fa2193ba1a3d0354050484283'],
  ['records/hostile-metadata-demo', '52f9ab0512a22a90fbf528ed79fe76f4c4cb7b5d2d4b7cb585901f19c1985f5f'],
  ['records/rebuilt', '89bcd9390ca441cfb8eb92d5f1ad14287f4e71893c90e496d840b593f7712e0a'],
  ['records/v3_migration', 'a0bdd0f49b4bb6b6c4c31d2b9375ad2aa0a273ea97de1dc5feadc1779cc3ca60'],
  ['bench/long-curve', 'ddaaf0f2bd9414ef00064e8590926c387b48dd93123304be7b01d4c3f00003f5'],
  ['bench/long-curve-hostile', '347f5bf9a66d4ea5caf6572e8965913998d328d2a25b6ae9ab8e1c899babb1ec'],
  ['synthetic/events-graduated', '0c48470615259d3bfc3ab796eda82bcb29fefdf3449f9d1233fb82bad5deb5c7'],
  ['synthetic/trades-sum', '2cedafd9de3bfe619293e8bb9c63f46f235055fb0c98e3f3161432c306bd2040'],
  ['synthetic/usdc-graduated', 'ff63924dbb8ca2c87e86a62d07a2920c680a4ac5d4c39ac26a80959161172490'],
  ['synthetic/short', '618c15c749ea7327952ed7978512c025945366b01c0d4f798803f26a7f2e35dc'],
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
