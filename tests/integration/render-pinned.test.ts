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
 * Version 14: a consistency review of every surface — the line under the verdict says "Facts as of
 * <time>, the newest transaction or account read the record reflects" (asOf is the later of the two;
 * a graduated record's pool read showed as "its newest transaction"), and a rebuild that left the
 * history incomplete says it was "read again … and is still incomplete", not "read to the end"; the
 * creator page's first-30-s section is "Other first-30-s buys" (after the creation slot: the token
 * page's count includes the bundled buyers, which this page lists apart). A line diff against
 * version 13 showed only those lines (and the creator pages' summary in their meta).
 */

const PINNED: [string, string][] = [
  ['records/FINDINGS', '7bcd0e7bfe51f6bb673dcb4bcc2a9abe291d0e90ca887bc8b68209830e27df8f'],
  ['records/FINDINGS-no-transactions', '7fc912463b0f7a742c03cb90908ce2f75b01adb71d36363a87d65bcc3cbd0798'],
  ['records/NOTE', 'caa826604e12e1e4d908b03b197c3955732e55c28f7a7c55857015269248ee05'],
  ['records/NO_MARKERS', 'a06c6f6b43f6dea0a86912b56332524b55823dadc3d1061acb7f2fc9cebe51b3'],
  ['records/UNKNOWN', '4bda14032b2fd200d1f8f6b98cc97d9b400b7db0818fcbd5924f2fef4c48ab5f'],
  ['records/UNKNOWN_NO_CREATION', '4540fbcafb465c973c273e63187f790f4bf5ecd5b991aaab913052fc6d00aeae'],
  ['records/graduated', '50939924f0fd9974c5b848937df851abe1553e82e0381b2e6375048a1a5a57ae'],
  ['records/hostile', '5cc2b50a8fd2eae2c62cde89b140a02860f887c56c29654e27b54de458ec1cf7'],
  ['records/hostile-metadata', '525f25763be3152da53383511722225f2273edfc7363f7e8ff790ab6c43d741a'],
  ['records/hostile-metadata-demo', '7ee7bfc32f431bd1a9e3b17f5f925dbfaaf291b4ffc1d77eca8cfdc2971028f8'],
  ['records/rebuilt', '4f1c2d1358c18a09b33ad6f5f566d8890618ffb949c16d3a5202456cc55ee7c3'],
  ['records/v3_migration', '32d929da370dddeb79fc3e5accb6aee0e3bfda347ba4ca79f4e9beb5dbd809c6'],
  ['bench/long-curve', 'b697ef5090502e1a8c26e4a76af08e34f40618f387a7b935a8a322569d63f639'],
  ['bench/long-curve-hostile', 'a6222761df58fd28426ac921af489145bc36c1548bbcdd76f997d3578ca4bb70'],
  ['synthetic/events-graduated', 'd525873faa86ff3d256c304d0a56c828fc69fcedff8a0726049312edd2b528ff'],
  ['synthetic/trades-sum', '40ac4597c4660b976144fa1f2e15068da261c26ca2a24fda6a34465cb82657aa'],
  ['synthetic/usdc-graduated', 'fa4703092c0366bceaf4f0530c44934f9d9717029fccd76377b22d955a642613'],
  ['synthetic/short', '5a9a267456efba014c553aa9eff9b7b93dde18d51105aa89c8e317fb77a9dd8a'],
  ['doc/no-markers', '4604c0e7b01c49d1b1ecf86a4f98bff1c5910f20c1763cede4ad49af57435af4'],
  ['doc/hostile', '10cb9f600b3437d8ff59683cb486f48153039b4885bd548edf76c1f9aa2467f1'],
  ['doc/unknown-no-launch', '413dc88bc6495a3152d216d3c299cbb4c59705769d472c6656035ab522011084'],
  ['doc/graduated-pool', '6f954ab172594be2bb4dc84ee7ee3ed406604f7755f20eec00708c1713b10cdc'],
  ['creator/FINDINGS-creator', 'a6ca271fd6a60eb190d53e20a1f49186b80fa7ba5a3ad5ddbe735a2399a2b8c8'],
  ['creator/FINDINGS-bundled-buyer', 'fd5d71930666f938a6831d84fa726a38934622a43371101c31dc3159298ac976'],
  ['creator/FINDINGS-creator-demo', 'dae8ae92052bfbcca9e63386c70bb1c2ed4755c8880de41e511849237c1c09dc'],
  ['creator/graduated-buyout-wallet', '362f95c21ccfde58f626c64f6caa1090c0f57c28c9b0c5d4d4bd46c71da2a2d3'],
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
