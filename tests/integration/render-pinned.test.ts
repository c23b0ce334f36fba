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
 * Version 13: the flags with their transactions stand right under the verdict (a phone reader met
 * them 12 screens down on a hyped launch's page), a flag's evidence past its first six folded in a
 * `<details>`; a diff against version 12 showed only the section moved (now `id="flags"`) on the
 * token pages; the creator pages are unchanged. Then (same version, not yet released) markers-v10: a
 * diff showed only the method row (`markers-v9` → `markers-v10`) and the documents' sha256. Then
 * (same version) "Markers at birth: no recorded marker at birth" without "(not an endorsement)",
 * which the NO_MARKERS verdict box said three times (an operator's review; its why and the class's
 * line still say it): a line diff showed only those lines (verdict, description, share meta).
 * Then (version 13 released; records made again by a new method are written again whatever the
 * template) markers-v11: a line diff showed only the method row (`markers-v10` → `markers-v11`) and
 * the documents' sha256; then its review's fifth correction: the shared-funder flag names the cohort
 * "(creator, creation-slot and first-30-second buyers, and who paid for their buys)" (a line diff
 * showed only that flag's lines: the flag, the why, the share meta).
 */

const PINNED: [string, string][] = [
  ['records/FINDINGS', '02e8b1a3dd68d445718c462ee474ec831b242bd8c26f2a07e7c1832ae4881f1d'],
  ['records/FINDINGS-no-transactions', 'd941eb03669b0b483fb2d7f1c8019f4482928a5f4ca6449d970c8c5b8bfae715'],
  ['records/NOTE', '0e88b8d9f4bdcf5c51855beccd50072d90909c4d972af97c8dac2c8c3461598c'],
  ['records/NO_MARKERS', '99d5767233d9a8b69fac9f5a2c93d18fd1b412f1eb32470afbc654fb665100c8'],
  ['records/UNKNOWN', 'c1d52e267b29e5a87d036baefd7065057905dd01e1f3301bb7717100ed2398bf'],
  ['records/UNKNOWN_NO_CREATION', '735426848f607589a0623737da1e79f2f299fc46a8ad3d56cee9765e45f9e999'],
  ['records/graduated', '2b2b48c905b6e8d306d2de62c30e33b087e4510b30aff9939fbccbcf8b5bad69'],
  ['records/hostile', 'c6f312dfd72fabcf7168e535196a865b73e429fad4ab438e9764a14d43a49e84'],
  ['records/hostile-metadata', '804c6712ddf037366770912ed2a8d8e3714792ad8c5ecd066d19edbabe905b09'],
  ['records/hostile-metadata-demo', '17bea4ff0d7f293e1e8d5e1eed53572067dc1bda02d583825f6cebc24f2dc6b8'],
  ['records/rebuilt', '1ad967a1ea4639bceb842a24c258bea51aad11b6cb9ecc93df166cd90e5784c7'],
  ['records/v3_migration', '45abac94c94630a9fa8b028cbd667dca96d52a91ce9936b18bdcfdeaba7c7bd2'],
  ['bench/long-curve', '0004ced33aaa79f6e6d212dcd09d245f8e347bdeb0d5974c3cc35c03d402f1bf'],
  ['bench/long-curve-hostile', '766d5545b3ad7d8d050c9257af53b6236fb0ef008b2af9aff1921aa0604c07bd'],
  ['synthetic/events-graduated', '52f7e255d9b41fd85d33e7d8ecb3bfbb04dcd029d9afb2b7e891e0c1034284f6'],
  ['synthetic/trades-sum', '5ca8d86c0e5c6149ffbef7e7bad14150b12b57640d5c9697ea8a66ad754e8a4a'],
  ['synthetic/usdc-graduated', '2cacf08575c55f0b9985567b874d376952f9e4bd13ff79ea78ed502e0a1b6cf6'],
  ['synthetic/short', '0d938e74c7ac944507beb6c6105df37fb516beaca79eadd460c539e4033f722f'],
  ['doc/no-markers', '669c25f38236ca977d442402d802861c9942dc952635996c483077391c723592'],
  ['doc/hostile', 'adbc9588e89666a8018989fbc509ab0882cbc644e7a33812ec20f90eea9224d5'],
  ['doc/unknown-no-launch', '07917290f6918871704c46db828ce62a712a7382516311cca102d21a66b5b428'],
  ['doc/graduated-pool', 'bd78bbd91d47af473f7c21d75825d7c5a891fd3ac9747e3fca8ed42df23e2bcf'],
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
