/**
 * What a buyout wallet did afterwards (src/core/afterwards.ts): the fold over its token account's
 * transactions, on a real mainnet sell and on transactions whose truth is set by hand.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterwardsOf, afterwardsStart, foldAfterwards, type AfterwardsState } from '../../src/core/afterwards.ts';
import { decodeTransaction } from '../../src/core/decode/index.ts';
import type { DecodedEvent, DecodedTransaction, TokenBalance } from '../../src/core/types.ts';
import { loadFixtureTransaction } from '../helpers/mainnet-fixtures.ts';

const FIXTURES = join(import.meta.dirname, '../fixtures/mainnet');
const MINT = 'MintAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAApump';
const WALLET = 'WaLLetBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB';
const ACCOUNT = 'AccountCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC';
const POOL_VAULT = 'VauLtDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDD';

const bal = (account: string, owner: string, amount: bigint, accountIndex = 1): TokenBalance => ({ accountIndex, account, mint: MINT, owner, amount: amount.toString(), decimals: 6 });

/** A transaction moving the wallet's account from `before` to `after` (undefined: absent from that side). */
function tx(signature: string, slot: number, before: bigint | undefined, after: bigint | undefined, events: DecodedEvent[] = [], err: unknown = null): DecodedTransaction {
  return {
    signature, slot, blockTime: 1_800_000_000 + slot, err, accountKeys: [], signers: [WALLET], instructions: [], events,
    preTokenBalances: before === undefined ? [] : [bal(ACCOUNT, WALLET, before)],
    postTokenBalances: after === undefined ? [] : [bal(ACCOUNT, WALLET, after)],
    logsTruncated: false, fromLogsOnly: false, jitoTipLamports: null, skipped: [],
  };
}
const poolSell = (account: string, tokens: bigint): DecodedEvent => ({
  program: 'pump_amm', name: 'SellEvent', fields: { base_amount_in: tokens.toString(), user: WALLET, user_base_token_account: account }, outerIndex: 0, source: 'cpi',
});
const start = (balance: bigint): AfterwardsState => ({ tokenAccount: ACCOUNT, balance: balance.toString(), movedOut: '0', sales: [], throughSignature: 'completing', throughSlot: 100 });

describe('afterwards on real chain data', () => {
  it('a mainnet curve sell (2024-09, FIX sell) is a sale on the curve of 94,443,000,000 raw tokens, leaving 393,091', () => {
    const sell = decodeTransaction(JSON.parse(readFileSync(join(FIXTURES, 'pump_2024-09_sell_getParsedTransaction.json'), 'utf8')));
    const wallet = '3P2pmfQAFTwcC1xWtYbVYoRn3hngya8Kd9jMaF5GfnUa';
    const mint = 'FstBRGMkNKf4wNvfieYUPS9YsbNoQJMCh6v89zajpump';
    // values read off the file: the seller's account HhE4… held 94,443,393,091 before and 393,091 after
    const before: AfterwardsState = { tokenAccount: 'HhE4skfuuxsbmhn5fRByP1y8A8tWJwuwHWi4x9UXGC88', balance: '94443393091', movedOut: '0', sales: [], throughSignature: 'x', throughSlot: 1 };
    const s = foldAfterwards(before, [sell], wallet, mint);
    expect(s.sales).toEqual([{ signature: sell.signature, slot: 288224272, blockTime: 1725658406, venue: 'curve', tokens: '94443000000' }]);
    expect(s.balance).toBe('393091');
    expect(s.movedOut).toBe('0');
    expect(s.throughSignature).toBe(sell.signature);
    const view = afterwardsOf(s, 1_800_000_000_000);
    expect(view).toMatchObject({ sold: 'part', soldTokens: '94443000000', venues: ['curve'], balanceTokens: '393091', firstSoldAt: { ms: 1725658406000 } });
    // the same transaction seen for another wallet's account is not that wallet's sale
    expect(foldAfterwards({ ...before, tokenAccount: '8NETDunyVnrNA44qUqUd8Km8XdfYyyujcWWVX7uDs9eE', balance: '851540216228038' }, [sell], wallet, mint).sales).toEqual([]);
  });

  it('a mainnet pool sale through a router (2026-04, OKX, 3vg7eD…): the wallet\'s whole balance, moved to the router\'s account and sold from it in its own transaction, is a sale, not moved out', () => {
    const d = decodeTransaction(loadFixtureTransaction('pumpswap_2026-04_sell_via-okxlabs2_getTransaction_base64_3vg7eD.json'));
    const wallet = '7kKfrMDnunB5eR4n6KW6F8eGcmrVCgS8kLfMxppcCFdn';
    const acct = d.preTokenBalances.find((b) => b.owner === wallet)!;
    // the SellEvent names the router (ARu4n5…) and its account of the mint (Fa1ZHN…), not the wallet's
    const sellEvent = d.events.find((e) => e.name === 'SellEvent')!;
    expect([sellEvent.fields.user, sellEvent.fields.user_base_token_account]).toEqual(['ARu4n5mFdZogZAravu7CcizaojWnS6oqka37gdLT5SZn', 'Fa1ZHNkQzgo6tuJvZC99MnGYhYTLtvcFK5j8BNV641C1']);
    const state: AfterwardsState = { tokenAccount: acct.account, balance: acct.amount, movedOut: '0', sales: [], throughSignature: 'x', throughSlot: 1 };
    const view = afterwardsOf(foldAfterwards(state, [d], wallet, acct.mint), 1_800_000_000_000);
    expect(view).toMatchObject({ sold: 'all', soldTokens: '989935727358', venues: ['pool'], movedOutTokens: '0', balanceTokens: '0', signatures: [d.signature] });
    // the same transaction had another signer: the router's sale is not this wallet's, and what left its account is moved out
    const notSigned = { ...d, signers: ['Someone1111111111111111111111111111111111111'] };
    expect(afterwardsOf(foldAfterwards(state, [notSigned], wallet, acct.mint), 0)).toMatchObject({ sold: 'none', movedOutTokens: '989935727358' });
  });
});

describe('afterwards on transactions whose truth is known', () => {
  it('starts from the wallet’s token account in the completing transaction, or cannot be followed', () => {
    const completing = tx('completing', 100, undefined, 5_000n);
    completing.postTokenBalances.push(bal(POOL_VAULT, 'CurveOwner1111111111111111111111111111111111', 1n, 2));
    expect(afterwardsStart(completing, WALLET, MINT)).toEqual(start(5_000n));
    expect(afterwardsStart(completing, 'SomeoneElse111111111111111111111111111111111', MINT)).toBeNull();
  });

  it('no transaction after the buyout: sold none, the balance it took', () => {
    const view = afterwardsOf(foldAfterwards(start(5_000n), [], WALLET, MINT), 42);
    expect(view).toEqual({
      sold: 'none', soldTokens: '0', venues: [], firstSoldAt: null, lastSoldAt: null, movedOutTokens: '0', balanceTokens: '5000',
      tokenAccount: ACCOUNT, signatures: [], throughSlot: 100, checkedAt: { ms: 42, iso: '1970-01-01T00:00:00.042Z' },
    });
  });

  it('a transfer out is moved, not sold; a pool sale of part; a failed sale counts for nothing; then the rest sold: all', () => {
    const txs = [
      tx('transfer', 110, 5_000n, 4_000n),
      tx('pool1', 120, 4_000n, 1_500n, [poolSell(ACCOUNT, 2_500n)]),
      tx('failed', 125, 1_500n, 1_500n, [], { InstructionError: [0, { Custom: 6004 }] }),
      tx('other-account-sale', 126, 1_500n, 1_500n, [poolSell(POOL_VAULT, 9n)]),
    ];
    const mid = foldAfterwards(start(5_000n), txs, WALLET, MINT);
    expect(afterwardsOf(mid, 1)).toMatchObject({ sold: 'part', soldTokens: '2500', movedOutTokens: '1000', balanceTokens: '1500', signatures: ['pool1'], venues: ['pool'], throughSlot: 126 });
    expect(mid.throughSignature).toBe('other-account-sale');
    // the next sweep continues from the stored state: the account is closed in the same transaction as the last sale
    const end = foldAfterwards(mid, [tx('pool2', 130, 1_500n, undefined, [poolSell(ACCOUNT, 1_500n)])], WALLET, MINT);
    const view = afterwardsOf(end, 1);
    expect(view).toMatchObject({ sold: 'all', soldTokens: '4000', balanceTokens: '0', signatures: ['pool1', 'pool2'], venues: ['pool'] });
    expect(view.firstSoldAt?.ms).toBe((1_800_000_000 + 120) * 1000);
    expect(view.lastSoldAt?.ms).toBe((1_800_000_000 + 130) * 1000);
  });

  it('a sale event larger than the account’s decrease counts only the decrease; buying back makes sold part again', () => {
    const s = foldAfterwards(start(1_000n), [tx('sell', 110, 1_000n, 0n, [poolSell(ACCOUNT, 1_200n)]), tx('buy', 120, 0n, 300n)], WALLET, MINT);
    expect(afterwardsOf(s, 1)).toMatchObject({ sold: 'part', soldTokens: '1000', balanceTokens: '300', movedOutTokens: '0' });
  });
});
