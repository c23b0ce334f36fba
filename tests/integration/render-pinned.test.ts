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
 */

const PINNED: [string, string][] = [
  ['records/FINDINGS', '0a70cdcb14d922ca54e10b94458788888888b9fa6766ac8dc4fbf4e6c54bde3d'],
  ['records/FINDINGS-no-transactions', 'abf1f7d6384f2b9c02802b0b4d7d3b5d936eb2c067105965a7d41cfec538c6b1'],
  ['records/NOTE', '249391523d7294d5edc219087b4eb256e02f37a87c2148e15ccdf60352aa314b'],
  ['records/NO_MARKERS', 'ea3900d780ae83b58e0cc6cfd75ab0faf599fc21a4da75c50f333ba61c8b3453'],
  ['records/UNKNOWN', 'c5c418789530cda04e69eb9efd950d2984070f0123e72e05d5da59a271053b96'],
  ['records/UNKNOWN_NO_CREATION', '0966e8031f53049c65fa37e69310b374a1ebfe2bbf1f3ad86b707c13059fbe07'],
  ['records/graduated', '8c38df719ce96b2852663ff1b78cf214a600e37e340552aadf6d497aff1b1118'],
  ['records/hostile', '09327632421a64991428a55ec1b3099b7547f6bb61559d491c79ca3f8e5bd929'],
  ['records/hostile-metadata', '3228603291ebc0bf0dc86bee2b406c93d86055f700480f5c790c5b7e467668fb'],
  ['records/hostile-metadata-demo', '5b22c7f3b02dfe148388a462507d3471ee435bde0dd856713e1d90dcec819ed4'],
  ['records/rebuilt', '96118c9f19f92bd4471abbad6bc4f526e947254e17fbea9ee41fe377e92a35d3'],
  ['records/v3_migration', 'b467d10429797c78f79de4571d31d61171363a0d2b9f763b032a6659328d6aff'],
  ['bench/long-curve', 'd6e6798210d8790b3088be88d05d32155c260f3b3978f29a2ee920ee09c6f558'],
  ['bench/long-curve-hostile', '373f1bbbe13ce41bd4bb2519950e0e7265af95779fe1d19b9834108fd1967f29'],
  ['synthetic/events-graduated', '558b59a3e538c8c55d60b501f27bfbe3bfbaf0b59d4179dde171fd6bf80c2d90'],
  ['synthetic/trades-sum', 'b0ac2a8796881eb167e4dec066f46d9c4847842b812ea1dbc60756adaf6b7a57'],
  ['synthetic/usdc-graduated', 'e741b8f722984fcf84fe424f0fbc951f4dcbf97f195009b7bf8e2bd8eb1893d1'],
  ['synthetic/short', 'd9def951eb8f0a159f88241780cf80ad0fd7ec3b8c23fabcdbebeac9c62f2864'],
  ['doc/no-markers', '1882d050a51c0c1f4087316274f96493c50b39079bdbb984b7e23b59d57dcad7'],
  ['doc/hostile', 'e575d19d9402e0f15c87a175557861a9eedc73f6dd4de19b5b2a10c8d9a75fc3'],
  ['doc/unknown-no-launch', 'a7cdf0c924207d4b09a02c12440b4bc7201db946097f371c384f45950a5196e2'],
  ['doc/graduated-pool', 'f736d5b6deae6b76a6e475e8193e315e166dde3586928d876eab751c193060ce'],
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
