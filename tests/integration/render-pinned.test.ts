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
 * ends at the right edge. A line diff against version 7 showed only those <text> elements. Then (same
 * version, not yet released) links lost their `title` (the full signature or address it repeated is
 * in the href), and past 25 first-30-s buyers the folded list holds only those not in the table (no
 * pinned page has that many): a line diff showed only the `title` attributes of links gone.
 */

const PINNED: [string, string][] = [
  ['records/FINDINGS', 'a8dce242dca769f30a4637ea9432973c8af006b2f22675ac3f1aacfec621f436'],
  ['records/FINDINGS-no-transactions', '2c85f23a29a5b2d6b043a042e6021794fd4964833c6b0c865eed51a37c26ac42'],
  ['records/NOTE', 'c19a2b80f6dd0349644405c71568ff4adeb4ab435e2ff625a04a328fd9329677'],
  ['records/NO_MARKERS', '80e718da9998250d834954c99e7c221591196a596aa08046c9383ea33bc34ded'],
  ['records/UNKNOWN', '4ade7a871776e9845216f9b877ea386a7fd2d73b6ec285c650328725dc33e969'],
  ['records/UNKNOWN_NO_CREATION', '13d780cf0ad0c1d9715ec08d8674d5c999edff067186b1be15e7b5f40f82eecf'],
  ['records/graduated', '484412c23db6b57a37708ee04284bf0797177107ff6b81d524081c665077efb5'],
  ['records/hostile', '9917aaf87d66f4118dd97b56843cf058107e2d8e193cff4950f005bfbbaaf8ab'],
  ['records/hostile-metadata', '8ba8bb6668fe2973562720d7433c5867e62314ae48d0deadbdba2058602b439f'],
  ['records/hostile-metadata-demo', 'a07a3f95a2732d6d7485bdc20c41372b7282ea03a47a8498daec04add9997ff3'],
  ['records/rebuilt', 'ba05c05884403bad242d12429aed99c0d56171239bf721f49d856c5be809db54'],
  ['records/v3_migration', '42e399f142af104a45b07467d09511f69155b25a5b2fffcf55a6a6b136cf727c'],
  ['bench/long-curve', '5bfd006104732b7fafa6ac062f14cdffb76a2050e325f5ac92e7dd75f05ab963'],
  ['bench/long-curve-hostile', 'ff136a91103b2ba80da7540f54769c8a33351d75e0887277b4157514b08d80cf'],
  ['synthetic/events-graduated', 'ba72dd5cb2057f280c7dc943bb52700dff83854de7b0291b30bcf93174dd5484'],
  ['synthetic/trades-sum', 'fc55a5729ddb2fc08e69fd794b03fe7f8eb2cd53837aa7acd33c2947a5f9b906'],
  ['synthetic/usdc-graduated', 'e1d1efa325f857af980d7f484e1970a580aa479b9684688572b27fc693be2165'],
  ['synthetic/short', '6b5d59b0bdb116bc6bb560285dfdb75c9771addfdf7c0b50e4cdca43dab5d9be'],
  ['doc/no-markers', '98f20876ffda96cc2d7c525d6de85f5becde101b200134b51ee24ff309728b3f'],
  ['doc/hostile', 'ddf951f2ad9c02d2b35eb4f830801d5c0c2780ab401ea193c8ba6cbbfa4e487f'],
  ['doc/unknown-no-launch', 'd59c68faed81e990a8ad6fa5db78048a0bead3c3ef915a013582c5150f8d69a6'],
  ['doc/graduated-pool', 'ef57a020545b9a14e72f96621852db92f4411278d74eee935c47a20a35dc6b79'],
  ['creator/FINDINGS-creator', '748f2af315a8357cfeb6a5845256cb276bbcac4525901745efcce4dfb1b128ed'],
  ['creator/FINDINGS-bundled-buyer', '0e9b547aad9a60775aa2783a14480dff34412b99117576a3e1bbdd3332c5319f'],
  ['creator/FINDINGS-creator-demo', 'f65e6072b8fc65dea70e43694164b8b2b2161236c96d4242315049d9cabb1132'],
  ['creator/graduated-buyout-wallet', 'c834b944d82edc9f4ca6c6341769674394bcfe42e662d353de8c5f31993373e7'],
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
