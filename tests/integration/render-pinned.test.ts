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
 * version 13 showed only those lines (and the creator pages' summary in their meta). Then (same
 * version, not yet released) markers-v12: the method row (`markers-v11` → `markers-v12`), under the
 * shared-funder flag a line saying a shared first funder may be an exchange's or a service's wallet,
 * with a link to the methodology; and the simulated chains' wallet addresses, now Ed25519 public keys
 * (keys.ts walletAddressOfSeed): a line diff with every address and hash masked showed only those
 * lines and the bundled-buyer rows in another order (they are sorted by wallet). Then (same version)
 * a record made under an earlier method says so under the verdict, naming the current one, with a
 * link to what changed (an operator's upgrade review: a record queued to be recorded again looked
 * final): a diff showed only that paragraph, on the four `doc/` pages (their documents say
 * markers-v2).
 * Version 15 (version 14 released): characters that draw nothing (the zero-width space, the word
 * joiner, the byte order mark, the soft hyphen, the Hangul fillers: display-text.ts) are shown as
 * `[U+XXXX]` in chain text, as bidi controls were; no pinned page holds one, so the table stayed,
 * and the version rises so the pages on disk of names that do are written again.
 */

const PINNED: [string, string][] = [
  ['records/FINDINGS', 'd8cc4f384775300c39f0ab13f488c70198f5b4fffe2a4914a2a2d091e101bc45'],
  ['records/FINDINGS-no-transactions', '6630099be0447d4269c2a6e6674f6408e5d493b83cc6321e3c77978f07285299'],
  ['records/NOTE', '8a280ee39aaba843c22b22d86e099d961d87f1722d3f921c61e11cc555070044'],
  ['records/NO_MARKERS', 'd35776f41b58dd88c3acbed78fff32a25cce4358b24e246f8898d1294c8d4d42'],
  ['records/UNKNOWN', '70c1c3ebef80355b62eb1db01a2e319db224ebbb46b028ec0d84e4abbc20833a'],
  ['records/UNKNOWN_NO_CREATION', '829018c514a3569c9610c4a3dee79f976f8fe5a80c014b0c92b40d3d937c1447'],
  ['records/graduated', '49b96b13a2be5d7304aacb55b249a5a166b2c3113f7fc943745d5e7fb222267b'],
  ['records/hostile', '1e347191641dc02f8704996a4179c198349bcdd2fb149d49c496353374faf00f'],
  ['records/hostile-metadata', 'e432b2e5977fba4da34d0ee6a9695604e11072f340d5c91d2b742ed373939ec3'],
  ['records/hostile-metadata-demo', 'd8974ac66e7015d39b22821bd3f46b2f14e57ab5796697b17ef8ccb8aceb83f5'],
  ['records/rebuilt', '22d20f0b8f8875a9aa230cb8ffba667f47e3bbdda9dc33b54e1ee9206b962d07'],
  ['records/v3_migration', '25e409740fe3cdb9584df02e26c682b20991de9cb1d752310aa1be1bd1cb4aa7'],
  ['bench/long-curve', '5e39ebfd8a0e5b007201971f2c66cbeda63ae1e2189e8f200624593930e24a95'],
  ['bench/long-curve-hostile', '7cacb069e73099336d0bd30fbb5c544957dc86f4a92c6a3caa04ee0a5ea88180'],
  ['synthetic/events-graduated', '33f1fb60164a1785dae7f9a0a998da4d5b3dcdd991c70c0887d59c75f9ba0eb8'],
  ['synthetic/trades-sum', '648e9eda8ed00f74d59935bdea3e81f3c05ca33200f27bcff0469632f0694fd6'],
  ['synthetic/usdc-graduated', '46d420a1f56bd846fa9d8bee8d4fcb7784b1098523e58db7975bfdbdc864da11'],
  ['synthetic/short', 'f51096132b4a5b939a52e68ae378520d16b53c6be0009ef06a4f8c1527ec8656'],
  ['doc/no-markers', 'fa4d1e6ad4463cb206a4db1cd38d765e89f6d35cdbba0022be5d0a432d152dbe'],
  ['doc/hostile', 'fc1585b5228442747a3f8a92722b708f9464334cf33f9b52a6ff33998c73167c'],
  ['doc/unknown-no-launch', 'f2014194e992c030af7f424b6789740320b58bbf854e0547dd9272eaaaad7dd9'],
  ['doc/graduated-pool', 'd37faa5cd06f9b98c2c74eef78325c6a535fec8fbecc630dc3e3e1e9e2d97ee6'],
  ['creator/FINDINGS-creator', '48fc4eb98a2237c4b8ec8beeaa5781d573ebeb362a3a4824b37b0905ed3573dd'],
  ['creator/FINDINGS-bundled-buyer', '866a6acb9c572e61730f942add7ddb4f7141afed19f91dd38eef7e26a55b34ab'],
  ['creator/FINDINGS-creator-demo', 'b3de9066711f365ccdf280ea384b2415c3f7f67bc1bc42f8627d51ea760fcbc7'],
  ['creator/graduated-buyout-wallet', 'e842b844a813cf236ef0e0477d0a873397aaee7dd59a3ad2a7405d406adc43c9'],
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
