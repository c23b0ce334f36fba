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
 * report no fee: "+ fees 0 SOL" → "+ fees not known" with its reason. Then (same version, not yet
 * released) a phone reader's review: every UNKNOWN why opens with "Unknown, not clean:", a FINDINGS
 * why with its findings, the NO_MARKERS why without the version; the pills "Creator kept at creation"
 * and "First-30-s buyers N (incl. the M bundled)"; an incomplete history's bundled count and its
 * empty tables said of the history held; "1 transaction"; the timeline's square-root scale named; the
 * creator page's note on partial histories reworded. A line diff showed those lines and the sha256.
 * Then a FINDINGS why no longer repeats, as "Also noted", a note whose transactions a finding cites
 * (the creator's sale at birth): four synthetic pages' why and sha256.
 */

const PINNED: [string, string][] = [
  ['records/FINDINGS', '0ef6a5a818bb9ae3d104ab8a3d4cb16b0692e3d28efb37953209cf356fdeb133'],
  ['records/FINDINGS-no-transactions', 'f6222d3dd0c4af5993b09df66df35f1dabbf5734736f795c1d1e23efb21de477'],
  ['records/NOTE', '3194c55c3c27f2af34d3fcfc41485f5dc5b75b4e69620697e0eadf390c591a92'],
  ['records/NO_MARKERS', '04917f67b0f2686db99434183167e9216af64f6b7e31999aaed7e0385534aa0b'],
  ['records/UNKNOWN', '4c3c61f206b63a3ea72e2986a62c27956a67ae71f8c8738a4d59a8811777d917'],
  ['records/UNKNOWN_NO_CREATION', '1c035fb7956d8b580968879ecdeaa78dfcaf82703dd05c3ff6dc5a58ae93f332'],
  ['records/graduated', 'eed888935141c422e6575392da0a16f9f1c42548ab3bd57867fb787af58ff893'],
  ['records/hostile', '63a800ce5140e702ae3256466dc2bbcffc63e899438c6b4aacd01b5756f52950'],
  ['records/hostile-metadata', '3aedd13059e159caa19494455ad478416e852d8c3e47da3555a01b90d33d1aee'],
  ['records/hostile-metadata-demo', 'd4c1c3f92f73174f58889486c9035c661f5ef3281810ecdbc845acc50d692731'],
  ['records/rebuilt', '8469bf42de5c76f67a7d04465be7d81400a3dbf8ec0461d7cfdd80c396debd06'],
  ['records/v3_migration', '6706e0dac09f70195a764a8dabcad5383165b6bef11be5169da616fc04b435a3'],
  ['bench/long-curve', '12b486106056c7e91b71a18efee4d2311facaee5711fcfdbc00c336d500a1766'],
  ['bench/long-curve-hostile', 'cbbb77e1c1d20a2ea7ddfec4c8126afebb29eeee81598155d1b8c63a5267c077'],
  ['synthetic/events-graduated', 'ba316b83f8e3bb15581fa943d11d4375c9ef1fe1444ab8047433dd78e82212b8'],
  ['synthetic/trades-sum', '0924f8fa54e137382c241c91250ae32f3dacba16280497193a43a380cf24ed62'],
  ['synthetic/usdc-graduated', '8ba8dc50dc2d19fd5200266ff412af969dde7c8aa40f704ac691ee332a57dff4'],
  ['synthetic/short', '0bffabd1079c1a2e0fcb1dd9af08738452f946830066e72b7475ede6fb2e4787'],
  ['doc/no-markers', '22245a2a5e96c703da1a24e134e0d7dd396a7a06bea07d96c52cf321be9e2bbc'],
  ['doc/hostile', 'c3c06ea809cfe5de686aaee18bd312b2cddfbd2cf70ccff3f00897c74e64ff30'],
  ['doc/unknown-no-launch', 'd59c68faed81e990a8ad6fa5db78048a0bead3c3ef915a013582c5150f8d69a6'],
  ['doc/graduated-pool', '8dc4ea0252fdd7065a2aff98592f2940ca804f2be566cfe1fef2600cb45215d2'],
  ['creator/FINDINGS-creator', '7f1477cdaf6cf59fcf1f939c03e4474d8a79fd6ee3041023a49abbd3232fb78f'],
  ['creator/FINDINGS-bundled-buyer', 'cf04f051f2fddb858ead787c19a74dade4d5ea12325198f5f797900ed96a6053'],
  ['creator/FINDINGS-creator-demo', 'a72d58b38fe8ddea3cf59256cee8a3ef067a6782ff615c757d9ef27a59275713'],
  ['creator/graduated-buyout-wallet', 'deb0ce40715859cfed0a473d2137fa4ce90fbad5d5ed1c08b6cf6214f6c4bbbb'],
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
