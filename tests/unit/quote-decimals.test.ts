/**
 * markers-v6: a launch's quote mint carries its own decimals (`launch.quoteDecimals`,
 * `pool.quoteDecimals`), taken from what the chain reported, and the pages scale quote amounts by
 * them — never by a guess (6 is right for a pump coin, 100 times off for an 8-decimal xStock listed
 * through QuoteControl: idl/2026-10 FACTS §6). Real data: FIX/28 rRUVF4… (2026-10-08), a trade of
 * a coin quoted in another pump coin, whose token balances report the quote mint's decimals.
 */
import { describe, expect, it } from 'vitest';
import { decodeTransaction } from '../../src/core/decode/transaction.ts';
import { quoteDecimalsOf } from '../../src/core/record/launch-events.ts';
import { USDC_MINT, WSOL_MINT } from '../../src/core/programs.ts';
import type { DecodedTransaction, LaunchDocument } from '../../src/core/types.ts';
import { pricePerMillion, quoteAmount, quoteUnit, shortAddress } from '../../src/render/units.ts';
import { renderTokenPage } from '../../src/render/token-page.ts';
import { loadFixtureTransaction } from '../helpers/mainnet-fixtures.ts';
import { launchDoc, randomAddress } from '../helpers/launch-doc.ts';

const FIX28 = 'pump_multi_hop_swap_curve_rRUVF4GSZNRA_20261008.json';

function fix28(): { raw: any; d: DecodedTransaction; quoteMint: string } {
  const raw = loadFixtureTransaction(FIX28);
  const tx = raw.result ?? raw;
  const d = decodeTransaction(tx);
  const trade = d.events.find((e) => e.program === 'pump' && e.name === 'TradeEvent')!;
  return { raw: tx, d, quoteMint: trade.fields.quote_mint as string };
}

/** The same transaction with the quote mint's token balances reporting `decimals` (per entry when an array). */
function withQuoteDecimals(d: DecodedTransaction, quoteMint: string, decimals: (number | null)[] | number | null): DecodedTransaction {
  let i = 0;
  const set = (b: DecodedTransaction['postTokenBalances'][number]) =>
    b.mint !== quoteMint ? b : { ...b, decimals: Array.isArray(decimals) ? decimals[i++ % decimals.length]! : decimals };
  return { ...d, preTokenBalances: d.preTokenBalances.map(set), postTokenBalances: d.postTokenBalances.map(set) };
}

describe('launch.quoteDecimals: the quote mint’s decimals as the chain reported them', () => {
  it('FIX/28: a coin quoted in a pump coin — the quote mint’s token balances say 6, and so does the record', () => {
    const { raw, d, quoteMint } = fix28();
    expect(quoteMint).not.toBe(WSOL_MINT);
    expect(quoteMint).not.toBe('11111111111111111111111111111111');
    // the RPC answer itself: the quote mint's balances carry decimals 6
    const reported = [...raw.meta.preTokenBalances, ...raw.meta.postTokenBalances].filter((b: any) => b.mint === quoteMint).map((b: any) => b.uiTokenAmount.decimals);
    expect(reported.length).toBeGreaterThan(0);
    expect(new Set(reported)).toEqual(new Set([6]));
    expect(quoteDecimalsOf(quoteMint, [d])).toBe(6);
  });

  it('an 8-decimal quote (an xStock listed through QuoteControl) is 8, not the 6 of a pump coin', () => {
    const { d, quoteMint } = fix28();
    expect(quoteDecimalsOf(quoteMint, [withQuoteDecimals(d, quoteMint, 8)])).toBe(8);
  });

  it('null when no transaction names the quote mint, when the answers disagree, or when none gave decimals', () => {
    const { d, quoteMint } = fix28();
    expect(quoteDecimalsOf(randomAddress(), [d])).toBeNull();
    expect(quoteDecimalsOf(quoteMint, [])).toBeNull();
    expect(quoteDecimalsOf(quoteMint, [withQuoteDecimals(d, quoteMint, [6, 8])])).toBeNull();
    expect(quoteDecimalsOf(quoteMint, [withQuoteDecimals(d, quoteMint, null)])).toBeNull();
  });

  it('a PumpSwap CreatePoolEvent names the quote’s decimals too', () => {
    const q = randomAddress();
    const tx: DecodedTransaction = {
      ...fix28().d,
      preTokenBalances: [],
      postTokenBalances: [],
      events: [{ program: 'pump_amm', name: 'CreatePoolEvent', fields: { quote_mint: q, quote_mint_decimals: 8 }, outerIndex: 0, source: 'cpi' }],
    };
    expect(quoteDecimalsOf(q, [tx])).toBe(8);
  });

  it('SOL is 9 and USDC 6 without reading anything', () => {
    expect(quoteDecimalsOf(WSOL_MINT, [])).toBe(9);
    expect(quoteDecimalsOf('11111111111111111111111111111111', [])).toBe(9);
    expect(quoteDecimalsOf(USDC_MINT, [])).toBe(6);
  });

  it('the decoder keeps a token balance without decimals as null, not 0', () => {
    const { raw, quoteMint } = fix28();
    const copy = structuredClone(raw);
    for (const b of copy.meta.postTokenBalances) if (b.mint === quoteMint) delete b.uiTokenAmount.decimals;
    const d = decodeTransaction(copy);
    const post = d.postTokenBalances.filter((b) => b.mint === quoteMint);
    expect(post.length).toBeGreaterThan(0);
    expect(post.every((b) => b.decimals === null)).toBe(true);
    expect(d.preTokenBalances.filter((b) => b.mint === quoteMint).every((b) => b.decimals === 6)).toBe(true);
  });
});

describe('pages scale a quote by its own decimals, or show raw units', () => {
  // a quote mint listed through QuoteControl (synthetic address), shown by its shortened form
  const xstock = randomAddress();
  const short = shortAddress(xstock);

  it('units: 8 decimals, 6 decimals, unknown', () => {
    expect(quoteAmount('12500000', xstock, 8).text).toBe(`0.125 ${short}`);
    expect(quoteAmount('12500000', xstock, 6).text).toBe(`12.5 ${short}`);
    const unknown = quoteAmount('12500000', xstock, null);
    expect(unknown.text).toBe(`12,500,000 raw units of ${short}`);
    expect(unknown.exact).toContain('decimals are not in this record');
    expect(quoteUnit(xstock).raw).toBe(true);
    expect(pricePerMillion('12500000', '1000000000000', xstock, null)).toBeNull();
    expect(pricePerMillion('12500000', '1000000000000', xstock, 8)!.text).toBe(`0.125 ${short} per million tokens`);
    // SOL and USDC never depend on the record
    expect(quoteAmount('1500000000', WSOL_MINT, null).text).toBe('1.5 SOL');
    expect(quoteAmount('1500000', USDC_MINT).text).toBe('1.5 USDC');
  });

  function page(over: Partial<NonNullable<LaunchDocument['launch']>>, buyoutSpent: string): string {
    const mint = randomAddress();
    const base = launchDoc(mint, Date.UTC(2026, 9, 20));
    const wallet = randomAddress();
    const doc: LaunchDocument = {
      ...base,
      launch: { ...base.launch!, ...over, completed: true },
      curveBuyout: { wallet, signature: 'b'.repeat(88), slot: base.launch!.transaction.slot + 5, sameBatchAsLaunch: false, hoursAfterLaunch: 1, quoteSpent: buyoutSpent, quoteMint: over.quoteMint!, tokens: '100000000000000', fees: '0', curvePart: { tokens: '100000000000000', quoteSpent: buyoutSpent, fees: '0' }, poolPart: null },
    };
    return renderTokenPage(doc, { explorerTxUrl: 'https://explorer.example/tx/', baseUrl: 'https://archive.example', sha256: 'a'.repeat(64) });
  }

  it('a token page of an 8-decimal quote shows 0.125, says 8 decimals, and never the 6-decimal 12.5', () => {
    const html = page({ quoteMint: xstock, quoteDecimals: 8 }, '12500000');
    expect(html).toContain(`0.125 ${short}`);
    expect(html).toContain('8 decimals, as the chain reported them');
    expect(html).not.toContain(`12.5 ${short}`);
  });

  it('a token page whose record does not carry the decimals (null, or a document before markers-v6) shows raw units, no price', () => {
    for (const over of [{ quoteMint: xstock, quoteDecimals: null }, { quoteMint: xstock }]) {
      const html = page(over, '12500000');
      expect(html).toContain(`12,500,000 raw units of ${short}`);
      expect(html).toContain('its decimals are not in this record');
      expect(html).not.toContain('per million tokens');
    }
  });
});
