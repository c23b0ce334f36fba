/**
 * A review of markers-v12's first cut (62ff8e8), whose cases failed on it: who paid for a buy the
 * holder rule gives to another wallet (the signer, now), and a program's round trip (its own, now).
 * The shapes: tests/helpers/router-shapes.ts.
 */
import { describe, expect, it } from 'vitest';
import { address, getProgramDerivedAddress } from '@solana/kit';
import { A, OKX, T0, bal, codes, create, createIx, ix, laterBuy, own, record, trade, tx, wallet } from '../helpers/router-shapes.ts';

const CA = wallet();
const W = wallet();
const [BOT] = await getProgramDerivedAddress({ programAddress: address('SQDS4ep65T869zMMBKyuUq6aD6EgTu8psMjkvj52pCf'), seeds: ['volume-bot'] });
const later = laterBuy(W);

describe('review v12: the wallet that paid a routed buy the holder rule gives to the creator', () => {
  const dev = 10n ** 13n;
  const x = 3n * 10n ** 13n;
  const creation = tx('c1', 100, T0, [create(CA), trade(CA, true, dev, 1)], {
    signers: [CA], instructions: [createIx(CA), ix('buy_v3', false, '1', CA, 'CA-ata')], postTokenBalances: [bal('CA-ata', CA, dev)],
  });
  // W and the creator were first funded by the same wallet
  const funderOf = (w: string) => (w === W || w === CA ? { state: 'found' as const, funder: 'SharedFunderSharedFunderSharedFunder1111111', signature: `funding-of-${w}`, slot: 1 } : own(w));

  it('paid at top level by W into the creator\'s account (markers-v9/v11): W is in the cohort — shared funder', () => {
    const paid = tx('p1', 100, T0, [trade(W, true, x, 0)], {
      signers: [W], instructions: [ix('buy_v3', false, '0', W, 'CA-ata')],
      preTokenBalances: [bal('CA-ata', CA, dev)], postTokenBalances: [bal('CA-ata', CA, dev + x)],
    });
    expect(codes(record([creation, paid, later], funderOf))).toContain('shared_funder');
  });

  it('the same buy signed and paid by W through a router whose authority is the user: W is still the payer (the signer), in the cohort', () => {
    const routed = tx('p2', 100, T0, [trade(OKX, true, x, 0)], {
      signers: [W], instructions: [ix('buy_v3', true, '0.0', OKX, 'okx-ata')],
      preTokenBalances: [bal('okx-ata', OKX, 0n), bal('CA-ata', CA, dev)],
      postTokenBalances: [bal('okx-ata', OKX, 0n), bal('CA-ata', CA, dev + x)],
    });
    const d = record([creation, routed, later], funderOf);
    expect({ creatorTokensRaw: d.launch!.creatorTokensRaw, class: d.finding.class, codes: codes(d) }).toMatchObject({ creatorTokensRaw: String(dev + x), class: 'FINDINGS' });
  });
});

describe('review v12: a program\'s round trip (a volume bot buying and selling through its own PDA in one transaction)', () => {
  it('is no trade of any wallet, not an unreadable transaction: the record is not UNKNOWN', () => {
    const creation = tx('c3', 300, T0, [create(CA), trade(CA, true, 10n ** 13n, 1)], {
      signers: [CA], instructions: [createIx(CA), ix('buy_v3', false, '1', CA, 'CA-ata')], postTokenBalances: [bal('CA-ata', CA, 10n ** 13n)],
    });
    const x = 5n * 10n ** 12n;
    const bump = tx('b3', 310, T0 + 6, [trade(BOT, true, x, 0), trade(BOT, false, x, 0)], {
      signers: [W],
      instructions: [ix('buy_v3', true, '0.0', BOT, 'bot-ata'), ix('sell_v3', true, '0.1', BOT, 'bot-ata')],
      preTokenBalances: [bal('bot-ata', BOT, 0n), bal('curve-ata', 'curve-owner', 10n ** 15n)],
      postTokenBalances: [bal('bot-ata', BOT, 0n), bal('curve-ata', 'curve-owner', 10n ** 15n)],
    });
    const d = record([creation, bump, later]);
    expect(d.finding.class, codes(d).join()).not.toBe('UNKNOWN');
  });
});
