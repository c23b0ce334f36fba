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
 * (the creator's sale at birth): four synthetic pages' why and sha256. Then a second phone review:
 * the Origin row in words ("observed: watched live from its creation transaction"), the curve taken
 * in the creation slot "by the creator (address)" when it was (v3_migration); a line diff showed
 * only those lines and the sha256.
 * Version 11: a third phone review — over an incomplete history a count of wallets is "at least N",
 * or "unknown" for none held (never a bare 0); "Creator sold" became "Creator sold on the curve",
 * with a line under a buyout pointing to the buyer's afterwards on its wallet page; a
 * `history_incomplete` why names the two curve states without their figures (the flag keeps them);
 * "As of" became "Facts as of its newest transaction", and a rebuilt record says when its history
 * was read to the end; the pool-now dot stands after a dashed break in the time axis; chart axes
 * and amounts of a quote other than SOL and USDC are compact ("110.2 M", "20 k"). A line diff against
 * version 10 showed only those lines.
 * Version 12: a launch with more than 25 first-30-s buyers or 20 trades in its buyer timeline has a
 * first-30-seconds page (`t/{mint}.early.html`: every buyer, the timeline's table), which its token
 * page links in place of the folded list and the folded table, so the token page keeps one size.
 * None of the pinned pages has that many: their bytes and the table's sha256 are unchanged (the
 * version is raised for the archive's hyped pages, which the collector writes again). Then (same
 * version, not yet released) markers-v9: a line diff showed only the method row (`markers-v8` →
 * `markers-v9`) and the documents' sha256; the pinned records' classes are unchanged (their test
 * chain state gives every wallet a funder of its own: tests/helpers/synthetic-launch.ts OWN_FUNDERS).
 * Then (same version) a phone reader's review of the first-30-seconds page: the Details row "Buyers
 * in the first 30 seconds" says "(incl. the N bundled)" as the pill does, and the buyer timeline's
 * table names who traded as "bundled buyer", "first-30-s buyer", "other trader"; and the bundled
 * buyers' heading of an incomplete history says "unknown" or "at least N", not "0 in the history
 * held"; a line diff showed only those lines.
 */

const PINNED: [string, string][] = [
  ['records/FINDINGS', '03b89de8bf1f15045ebe72ade3c65f210f5b38ead452a2d43b1d446a1a218a68'],
  ['records/FINDINGS-no-transactions', '49f3f833ae254c89cf3dafdf7cbc3ef1044f512e8c292e1578dbb9460859a507'],
  ['records/NOTE', 'e52d85b2e2e9fcf8518b81a46f2fef012c8b9c5541885b8b0aaec7ea07e034e6'],
  ['records/NO_MARKERS', '271c42f6c59adb3f39fe786022735776ffef7579e3c241e241b62f77b1e32926'],
  ['records/UNKNOWN', 'a0ab2040113d171396b4c7d6b250ab0831c70249f1dbe5b54992551da2f8ba5c'],
  ['records/UNKNOWN_NO_CREATION', '36960417e97130fea9185d60e93182715da3c71fc2077c9b0d0a99042a6bc571'],
  ['records/graduated', 'b9a1a6ee55aba822ee742e3269edad383e64ea700a904689f37d5eecfe6ad447'],
  ['records/hostile', '1f4c8541a1f1e9e01cd8f57ed6b67d8482dc50239a1271d091354bcde7d6b5b8'],
  ['records/hostile-metadata', 'f09c840d546ac74c24070d621cbba42ebd26e6c8f8367fd09e2ed09e8efe588d'],
  ['records/hostile-metadata-demo', 'e1d8d18a4d080fffaac4d7522603599b62e9217977f49706c086e3d90d850bd1'],
  ['records/rebuilt', '993ff637d3751f09f7d69951a0d9cd81de11dc7a93fab2a12c483dd54011f1aa'],
  ['records/v3_migration', '84eb443d15d8921bff728f8ce8d65bbc66529a548064f6487ace310277f516ae'],
  ['bench/long-curve', '802677dccaa742ecd4bb9b1cb633a42f476d0648a48821a884706430ea3b918a'],
  ['bench/long-curve-hostile', '93ce122588ed5fff271aaae8b487abd6d8c95cffb174126cb85cc9ca76a8e40d'],
  ['synthetic/events-graduated', '9f555c78d063b7b322a264fdb61a494aa50935ccc7c4f9ed526d519546eb6b46'],
  ['synthetic/trades-sum', '15fda375a539b55de650962f301b682cc49b08b44371e651c96addb85ae75c28'],
  ['synthetic/usdc-graduated', 'cad97139d82f0ef5e2346d7d4e16d6777230dc83d23016f8da464fe73e4c017f'],
  ['synthetic/short', '218f404427c225d2a3e8ac893a4318ed289f0cec94968e49ccad9d28a254afac'],
  ['doc/no-markers', '2ebd883d4006817d0b08a125401c62e09ce798ee8770f1179d1ff48e25c96dff'],
  ['doc/hostile', '082a244fb7feda1dbda41bd11fd92a9bfce96f616691f4ad4ba5b62ecdfd25a9'],
  ['doc/unknown-no-launch', '388a7fd7deee0d8b064e36b607d7d794e0ff63173f9b40a936ed176cee0ead1d'],
  ['doc/graduated-pool', '3b1d237fdf8c8834a4e953e1e2f019bd037001177636c3c2b6840b6f6831458e'],
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
