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
 * Regenerated for markers-v8 (version 10): a line diff against version 9 showed only `markers-v7` →
 * `markers-v8` (the NO_MARKERS why, the method row), the documents' sha256, and a buyout whose events
 * report no fee: "+ fees 0 SOL" → "+ fees not known" with its reason.
 */

const PINNED: [string, string][] = [
  ['records/FINDINGS', '192faf30ec4aef9eefd646cea5a4848c74b42817a55b58d17d2f9556c6c2d959'],
  ['records/FINDINGS-no-transactions', '78cf171246fab8f5b18198b2dc41948be486fff8987fc7db6ef3ceb47d0c98bc'],
  ['records/NOTE', 'b80d2134edea6f6e217bbf6a0cec15c641aa567e93e9ddb39660a253060aba30'],
  ['records/NO_MARKERS', '842ae0adffbeb9fdb2ba694f61be7c0d3cbfd510f07967ea5a755b2239d30ed9'],
  ['records/UNKNOWN', '19fe24cf0fa7ba66cb5e64ead581f4b250ef4b8850c1710949b04510024d52af'],
  ['records/UNKNOWN_NO_CREATION', '71a0b36059a1afc28761a8e4410440bc12700b6b229bf9ab95669f52f782f162'],
  ['records/graduated', 'f68bc8c6f6a0a34dcde3e1fd1212e5b7ebe92747f7ab4e25f3cc473006be3814'],
  ['records/hostile', '1b1270f6b1c0ebcc97dcb53d3fa7f6909de70969f5a99e346e8e35adf761f2e5'],
  ['records/hostile-metadata', 'e7373515f04788702e6d121fc3569ed411a750a60bc26762d9592a83d122ddf8'],
  ['records/hostile-metadata-demo', 'd7f2366f8b2b5d2a14cd8f3a54dddfea5c05b17b720a2181e31442e2bf3cf7f6'],
  ['records/rebuilt', '494f78b7cd88f2da2fc4ad0814d197125bbcd1c4842f0891f2fa277b0d2624b0'],
  ['records/v3_migration', '4d724ebc1ca8e13517b3df0997b47462e6062d8472e1c2abc5c1830e3464dbe0'],
  ['bench/long-curve', 'c557635f6d21a439bcd77b5122ce1de3358edd7a662a6a30602adb67429b245b'],
  ['bench/long-curve-hostile', 'b81c5af455aa2436e6833db0975557463b37c778f260fab8d2fd4fdd1959f6d1'],
  ['synthetic/events-graduated', '49fb86535013578253044f39b8fe97d67ea7473fa8ef114d18d9d7ec290c1e3d'],
  ['synthetic/trades-sum', '1cd2ab4fcd844c713bceed877b528d45e46255f76fc5f40e9e851282d6fc41d0'],
  ['synthetic/usdc-graduated', '42c4b8e524b3072705c4e4cc601fcb408c7e5531a19b4c2027d1183bf8939136'],
  ['synthetic/short', '06549ad6b62a340ebf19883656df12ff54d468aac74fd5def29e3b4d16a63814'],
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
