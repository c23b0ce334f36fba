/**
 * A review of markers-v12's first cut (62ff8e8), whose cases failed on it: who paid for a buy the
 * holder rule gives to another wallet (the signer, now), and a program's round trip (its own, now).
 * Self-contained, so it runs against markers-v11 too.
 */
import { describe, expect, it } from 'vitest';
import { address, getProgramDerivedAddress, getBase58Decoder } from '@solana/kit';
import { createPrivateKey, createPublicKey, randomBytes } from 'node:crypto';
import { analyzeLaunch } from '../../src/core/record/build-launch.ts';
import { classifyLaunch } from '../../src/core/record/classify.ts';
import type { DecodedEvent, DecodedTransaction, LaunchDocument } from '../../src/core/types.ts';

const b58 = getBase58Decoder();
const PKCS8 = Buffer.from('302e020100300506032b657004220420', 'hex');
const wallet = () => {
  const spki = createPublicKey(createPrivateKey({ key: Buffer.concat([PKCS8, randomBytes(32)]), format: 'der', type: 'pkcs8' })).export({ format: 'der', type: 'spki' });
  return b58.decode(new Uint8Array(spki.subarray(spki.length - 32)));
};
const A = 'AAAAcoinAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAApump';
const CA = wallet();
const W = wallet();
const SOL = '11111111111111111111111111111111';
const T0 = 1_792_000_000;
const OKX = 'ARu4n5mFdZogZAravu7CcizaojWnS6oqka37gdLT5SZn';
const [BOT] = await getProgramDerivedAddress({ programAddress: address('SQDS4ep65T869zMMBKyuUq6aD6EgTu8psMjkvj52pCf'), seeds: ['volume-bot'] });
const own = (w: string) => ({ state: 'found' as const, funder: `funder-of-${w}`, signature: `funding-of-${w}`, slot: 1 });

const ev = (name: string, fields: Record<string, unknown>, outerIndex = 0): DecodedEvent => ({ program: 'pump', name, fields: fields as DecodedEvent['fields'], outerIndex, source: 'cpi' });
const tx = (signature: string, slot: number, blockTime: number | null, events: DecodedEvent[], extra: Partial<DecodedTransaction> = {}): DecodedTransaction => ({
  signature, slot, blockTime, err: null, accountKeys: [], signers: [], instructions: [], events, preTokenBalances: [], postTokenBalances: [],
  logsTruncated: false, fromLogsOnly: false, jitoTipLamports: '0', skipped: [], ...extra,
});
const create = (creator: string) =>
  ev('CreateEvent', { name: 'T', symbol: 'T', uri: 'u', mint: A, bonding_curve: 'c', user: creator, creator, token_total_supply: '1000000000000000', quote_mint: SOL, timestamp: String(T0) });
const trade = (user: string, isBuy: boolean, tokens: bigint, outerIndex: number) =>
  ev('TradeEvent', { mint: A, user, is_buy: isBuy, token_amount: String(tokens), sol_amount: '100000000', quote_amount: '100000000', quote_mint: SOL, fee: '0', creator_fee: '0', ix_name: isBuy ? 'buy_v3' : 'sell_v3' }, outerIndex);
const bal = (account: string, owner: string, amount: bigint) => ({ accountIndex: 1, account, mint: A, owner, amount: String(amount), decimals: 6 });
const ix = (name: string, inner: boolean, path: string, user: string, ata: string): DecodedTransaction['instructions'][number] => ({ program: 'pump', name, inner, path, accounts: { base_mint: A, user, associated_base_user: ata }, args: {} });
const createIx = (creator: string): DecodedTransaction['instructions'][number] => ({ program: 'pump', name: 'create_v2', inner: false, path: '0', accounts: { mint: A, user: creator }, args: {} });
const later = tx('later', 9000, T0 + 3600, [trade(W, true, 10n ** 12n, 0)], { signers: [W] });
const record = (txs: DecodedTransaction[], funderOf: (w: string) => ReturnType<typeof own> | undefined = own): LaunchDocument =>
  classifyLaunch(analyzeLaunch(A, txs, true, { funderOf }), { origin: 'observed', observedAtLaunch: true, asOfMs: (T0 + 3600) * 1000 });
const codes = (d: LaunchDocument) => d.flags.map((f) => f.code);

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
