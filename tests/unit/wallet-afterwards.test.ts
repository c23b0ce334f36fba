/**
 * A buyout wallet's page says what the wallet did afterwards with the curve it took (spec §2.4
 * `buyouts[].afterwards`; docs/methodology.md "Buyout afterwards"), with the sales' signatures, and
 * says "not known" — never "no sale" — until its token account is read to the end. The collector's
 * afterwards sweep marks the page to be written again only when what it shows changed.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AfterwardsState } from '../../src/core/afterwards.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { AFTERWARDS_ANCHOR, AFTERWARDS_SALE_LINKS, CREATOR_PAGE_ROWS, creatorPageOptions, renderCreatorPage } from '../../src/render/creator-page.ts';
import { markdownToHtml } from '../../src/render/methodology-page.ts';
import { launchDoc, putDoc, randomAddress } from '../helpers/launch-doc.ts';

let dir: string;
let store: PublicStore;
const wallet = randomAddress();
const mint = randomAddress();
const opts = creatorPageOptions({ EXPLORER_TX_URL: 'https://explorer.example/tx/', baseUrl: 'https://archive.example' });
const CREATED_MS = 1_790_000_000_000;
const SUPPLY = 10n ** 15n; // launchDoc's totalSupplyRaw

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lpa-wallet-afterwards-'));
  store = new PublicStore(join(dir, 'public.db'));
  store.db.transaction(() => {
    putDoc(store, launchDoc(mint, CREATED_MS));
    // the curve taken 2 h after the launch: 40 % of the supply
    store.putWalletRoles(mint, [{ wallet, role: 'buyout', signature: 'BuyoutSig1111111111111111111111111111111111', slot: 5_000, detail: { sameBatchAsLaunch: false, hoursAfterLaunch: 2, tokens: String((SUPPLY * 4n) / 10n), quoteSpent: '85000000000', quoteMint: 'So11111111111111111111111111111111111111112' } }]);
  })();
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const page = () => renderCreatorPage(wallet, store.walletPage(wallet, CREATOR_PAGE_ROWS), opts);
/** The buyout row's Afterwards cell, its text without tags. */
const cell = () => {
  const m = /<td data-label="Afterwards">(.*?)<\/td><\/tr>/s.exec(page());
  expect(m, 'an Afterwards cell').not.toBeNull();
  return m![1]!;
};
const text = (html: string) => html.replace(/<[^>]+>/g, '');
const sale = (i: number, tokens: bigint, hoursAfterBuyout: number) => ({
  signature: `Sale${i}`.padEnd(88, 'x'),
  slot: 6_000 + i,
  blockTime: (CREATED_MS + (2 + hoursAfterBuyout) * 3_600_000) / 1000,
  venue: 'pool' as const,
  tokens: tokens.toString(),
});
const state = (over: Partial<AfterwardsState>): AfterwardsState => ({
  tokenAccount: 'TokenAcct111111111111111111111111111111111',
  balance: String((SUPPLY * 4n) / 10n),
  movedOut: '0',
  sales: [],
  throughSignature: 'BuyoutSig1111111111111111111111111111111111',
  throughSlot: 5_000,
  ...over,
});
const clearMarks = () => store.clearPendingWallets(store.pendingWalletPages());
const marked = () => store.pendingWalletPages().some((p) => p.wallet === wallet);

describe("a buyout wallet's page: what it did afterwards", () => {
  it('is not known until the account is read to the end, and never reads as "no sale" before', () => {
    expect(text(cell())).toBe('not known yet: the wallet’s token account has not been read since the buyout');
    // a read that stopped early (checked_at_ms 0) holds a sale already found: still not a fact
    store.putAfterwards(mint, wallet, state({ sales: [sale(1, 10n ** 14n, 1)], balance: String(3n * 10n ** 14n) }), null, 0);
    expect(text(cell())).toBe('not known yet: the wallet’s token account is still being read');
    expect(page()).not.toContain('no sale');
    expect(page()).not.toContain('Sale1');
  });

  it('says when the tokens did not land in a token account of the wallet', () => {
    store.putAfterwards(mint, wallet, null, 'no_token_account', CREATED_MS + 9e6);
    expect(text(cell())).toBe('cannot be followed: the bought tokens did not land in a token account of this wallet');
  });

  it('gives every sale as evidence: amount, share of supply, venue, timing after the buyout', () => {
    store.putAfterwards(mint, wallet, state({ balance: '0', sales: [sale(1, 10n ** 14n, 0.5), sale(2, 3n * 10n ** 14n, 26)], throughSlot: 6_002 }), null, CREATED_MS + 30 * 3_600_000);
    const c = cell();
    expect(text(c)).toBe(`sold all: 400 M tokens (40%) on the PumpSwap pool in 2 sales, first 30 min after the buyout, last 1 d 2 h after the buyout. Sales: ${'Sale1xxx'.slice(0, 4)}…xxxx ${'Sale2'.slice(0, 4)}…xxxx`);
    expect(c).toContain(`href="https://explorer.example/tx/${sale(1, 0n, 0).signature}"`);
    expect(c).toContain(`href="https://explorer.example/tx/${sale(2, 0n, 0).signature}"`);
  });

  it('a partial sale says what the account still holds, and tokens moved out are not counted as sold', () => {
    store.putAfterwards(mint, wallet, state({ balance: String(2n * 10n ** 14n), movedOut: String(10n ** 14n), sales: [sale(1, 10n ** 14n, 3)], throughSlot: 7_000 }), null, CREATED_MS + 9e6);
    expect(text(cell())).toBe(
      'sold part: 100 M tokens (10%) on the PumpSwap pool in 1 sale, 3 h after the buyout; 100 M tokens (10%) left the account other than by a sale (not counted as sold); the account holds 200 M tokens (20%) (read to slot 7,000). Sales: Sale…xxxx',
    );
  });

  it('no sale, read to the end', () => {
    store.putAfterwards(mint, wallet, state({ throughSlot: 8_000 }), null, CREATED_MS + 9e6);
    expect(text(cell())).toBe('no sale; the account holds 400 M tokens (40%) (read to slot 8,000)');
  });

  it(`links at most ${AFTERWARDS_SALE_LINKS} sales and counts the rest`, () => {
    const sales = Array.from({ length: AFTERWARDS_SALE_LINKS + 3 }, (_, i) => sale(i, 10n ** 12n, i));
    store.putAfterwards(mint, wallet, state({ sales, balance: '1' }), null, CREATED_MS + 9e6);
    const c = cell();
    expect(c.match(/href="https:\/\/explorer\.example\/tx\/Sale/g)).toHaveLength(AFTERWARDS_SALE_LINKS);
    expect(text(c)).toMatch(/…xxxx and 3 more \(every sale is in the API’s wallet record\)$/);
  });

  it('the sweep marks the page to be written again only when what it shows changed', () => {
    clearMarks();
    store.putAfterwards(mint, wallet, state({}), null, 0);
    expect(marked(), 'first read, not finished').toBe(true);
    clearMarks();
    store.putAfterwards(mint, wallet, state({}), null, CREATED_MS + 1e6);
    expect(marked(), 'read to the end: now a fact').toBe(true);
    clearMarks();
    // a later sweep that read newer transactions of the account (a transfer in, say) but nothing the page shows
    store.putAfterwards(mint, wallet, state({ throughSlot: 9_000, throughSignature: 'Other' }), null, CREATED_MS + 2e6);
    expect(marked(), 'nothing shown changed').toBe(false);
    store.putAfterwards(mint, wallet, state({ throughSlot: 9_100, sales: [sale(1, 10n ** 14n, 4)], balance: String(3n * 10n ** 14n) }), null, CREATED_MS + 3e6);
    expect(marked(), 'a sale').toBe(true);
  });

  it("links the methodology's section", () => {
    expect(page()).toContain(`href="/methodology.html#${AFTERWARDS_ANCHOR}"`);
    expect(markdownToHtml(readFileSync(join(import.meta.dirname, '../../docs/methodology.md'), 'utf8'))).toContain(`id="${AFTERWARDS_ANCHOR}"`);
  });
});
