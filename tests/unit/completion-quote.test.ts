/**
 * The collector reads the canonical PumpSwap pool of every launch whose curve completes in a batch
 * (collector/enrich/launch-states.ts), derived from the launch's quote mint (completionOf). A batch
 * holding the completion without the creation took the quote as SOL, so a USDC- or pump-coin-quoted
 * coin's pool was derived with WSOL: an absent account, the record UNKNOWN until a pool refresh.
 * Since 2026-10 the CompleteEvent (and TradeEvent) names the quote: completionOf takes it.
 */
import { describe, expect, it } from 'vitest';
import { completionOf } from '../../src/ingest/rebuild-launch.ts';
import { canonicalPoolAddress } from '../../src/chain/pda.ts';
import { decodeTransaction } from '../../src/core/decode/index.ts';
import { loadFixtureTransaction } from '../helpers/mainnet-fixtures.ts';
import { complete, createEvent, trade, tx } from '../helpers/synthetic-launch.ts';

const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const MINT = 'Mint111111111111111111111111111111111111pump';

describe('completionOf: the quote of a completion whose creation is not in the batch', () => {
  it('a USDC coin: the CompleteEvent names USDC', () => {
    const done = tx({ slot: 10, blockTime: 1, events: [trade(MINT, 'B', true, 1n, 1n, { quote_mint: USDC }), { ...complete(MINT, 'B'), fields: { ...complete(MINT, 'B').fields, quote_mint: USDC } }] });
    expect(completionOf(MINT, [done])).toEqual({ completed: true, quoteMint: USDC });
  });

  it("the CreateEvent's quote comes first when the creation is there", () => {
    const create = tx({ slot: 1, blockTime: 1, events: [createEvent(MINT, 'C', { quote_mint: USDC })] });
    const done = tx({ slot: 10, blockTime: 1, events: [complete(MINT, 'B')] });
    expect(completionOf(MINT, [create, done]).quoteMint).toBe(USDC);
  });

  it('an event of another mint in the same transaction names nothing for this one', () => {
    const done = tx({ slot: 10, blockTime: 1, events: [complete(MINT, 'B'), trade('Other11111111111111111111111111111111111pump', 'B', true, 1n, 1n, { quote_mint: USDC })] });
    expect(completionOf(MINT, [done]).quoteMint).toBe('So11111111111111111111111111111111111111112');
  });

  it('FIX 3qDvAqx3… (2026-10-08, a buy that completes a SOL curve): the default key, whose pool is the WSOL pool', async () => {
    const d = decodeTransaction(loadFixtureTransaction('pump_buy_curve_complete_3qDvAqx3Ssut_20261008.json'));
    const mint = d.events.find((e) => e.name === 'CompleteEvent')!.fields.mint as string;
    const c = completionOf(mint, [d]);
    expect(c).toEqual({ completed: true, quoteMint: '11111111111111111111111111111111' });
    expect(await canonicalPoolAddress(mint, c.quoteMint)).toBe(await canonicalPoolAddress(mint, 'So11111111111111111111111111111111111111112'));
  });
});
