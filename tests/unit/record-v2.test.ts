/**
 * The markers-v2 definitions (docs/methodology.md "markers-v2"), on launches constructed in the test
 * whose truth the test states: the synthetic-migration buyout (TradeEvent + PostCompleteBuyEvent),
 * bundle evidence, sales at birth, the drift guard, the history completeness check, unknown times and
 * unknown pools. Constructed decoded transactions, not captured from chain.
 */
import { describe, expect, it } from 'vitest';
import { analyzeLaunch, type ChainState } from '../../src/core/record/build-launch.ts';
import { classifyLaunch } from '../../src/core/record/classify.ts';
import { absentCurveRead, compareCurveHistory, curveReadOf, type CurveRead } from '../../src/core/record/curve-history.ts';
import { listedAllHeld } from '../../collector/enrich/history-check.ts';
import type { DecodedEvent, DecodedTransaction, PoolNow } from '../../src/core/types.ts';
import { complete, createEvent, migration, trade, tx } from '../helpers/synthetic-launch.ts';
import { OWN_FUNDERS } from '../helpers/synthetic-launch.ts';

const MINT = 'MintBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBpump';
const CREATOR = 'Creator2222222222222222222222222222222222';
const A = 'WalletA222222222222222222222222222222222222';
const B = 'WalletB222222222222222222222222222222222222';
const T0 = 1_791_000_000;
const NO_FUNDER = OWN_FUNDERS;
const ctx = { origin: 'observed' as const, observedAtLaunch: true, asOfMs: (T0 + 5000) * 1000 };
const doc = (txs: DecodedTransaction[], state: ChainState = {}) => classifyLaunch(analyzeLaunch(MINT, txs, true, { ...NO_FUNDER, ...state }), ctx);
const codes = (d: ReturnType<typeof doc>) => d.flags.map((f) => f.code);

const postComplete = (user: string, f: Record<string, string>): DecodedEvent => ({
  program: 'pump',
  name: 'PostCompleteBuyEvent',
  fields: { user, mint: MINT, bonding_curve: 'curve', quote_mint: '11111111111111111111111111111111', timestamp: String(T0), ...f },
  outerIndex: 0,
  source: 'cpi',
});

/** A creation with starting reserves (2025+ CreateEvent layout), and an outside buy later. */
const creation = () =>
  tx({
    slot: 1000,
    blockTime: T0,
    events: [createEvent(MINT, CREATOR, { virtual_token_reserves: '1073000000000000', virtual_sol_reserves: '30000000000', real_token_reserves: '793100000000000' })],
  });
const reserves = (vT: bigint, vQ: bigint, rT: bigint, rQ: bigint) => ({
  virtual_token_reserves: vT.toString(),
  virtual_sol_reserves: vQ.toString(),
  real_token_reserves: rT.toString(),
  real_sol_reserves: rQ.toString(),
});

describe('curve buyout with a synthetic migration (pump 2026-10: PostCompleteBuyEvent)', () => {
  it('the buyer total is the TradeEvent plus the PostCompleteBuyEvent, with both parts shown', () => {
    const c = creation();
    // buyback_fee is the part of fee the buyback recipient gets (half here, as on mainnet): not added again (markers-v5)
    const fees = { fee: '10000000', creator_fee: '3000000', buyback_fee: '5000000' };
    const taker = tx({
      slot: 2000,
      blockTime: T0 + 600,
      events: [
        trade(MINT, A, true, 700_000_000_000_000n, 80_000_000_000n, fees),
        complete(MINT, A),
        postComplete(A, {
          base_out: '20000000000000',
          quote_in: '6000000000',
          fee: '600000',
          creator_fee: '180000',
          buyback_fee: '300000',
          pool_base_reserves_before: '206900000000000',
          pool_quote_reserves_before: '79000000000',
          pool_base_reserves_after: '186900000000000',
          pool_quote_reserves_after: '85000000000',
        }),
      ],
    });
    const d = doc([c, taker]);
    expect(d.methodVersion).toBe('markers-v12');
    expect(d.curveBuyout).toMatchObject({
      wallet: A,
      signature: taker.signature,
      tokens: '720000000000000', // 700e12 + 20e12
      quoteSpent: '86000000000', // 80 SOL + 6 SOL
      fees: '13780000', // 13,000,000 on the curve part + 780,000 on the pool part (fee + creator_fee each; the buyback inside fee)
      curvePart: { tokens: '700000000000000', quoteSpent: '80000000000', fees: '13000000' },
      poolPart: {
        tokens: '20000000000000',
        quoteSpent: '6000000000',
        fees: '780000',
        poolReservesBefore: { base: '206900000000000', quote: '79000000000' },
        poolReservesAfter: { base: '186900000000000', quote: '85000000000' },
      },
    });
  });

  it('the creator taking the curve in the creation slot keeps the pool part too (creatorTokensRaw)', () => {
    const c = creation();
    const taker = tx({
      slot: 1000,
      blockTime: T0,
      events: [trade(MINT, CREATOR, true, 793_100_000_000_000n, 85_000_000_000n), complete(MINT, CREATOR), postComplete(CREATOR, { base_out: '6900000000000', quote_in: '2000000000' })],
    });
    const d = doc([c, taker]);
    expect(d.launch!.creatorTokensRaw).toBe('800000000000000');
    expect(d.launch!.creatorSupplyPct).toBeCloseTo(80, 10);
  });

  it('a PostCompleteBuyEvent of another mint is not added; one naming another user is the pool part of the buy it follows (markers-v10: it was dropped)', () => {
    const c = creation();
    const otherMint = tx({
      slot: 2000,
      blockTime: T0 + 600,
      events: [trade(MINT, A, true, 793_100_000_000_000n, 85_000_000_000n), complete(MINT, A), postComplete(A, { mint: 'OtherMint1111111111111111111111111111111pump', base_out: '1', quote_in: '1' })],
    });
    expect(doc([c, otherMint]).curveBuyout).toMatchObject({ tokens: '793100000000000', quoteSpent: '85000000000', poolPart: null });
    const otherUser = tx({
      slot: 2000,
      blockTime: T0 + 600,
      events: [trade(MINT, A, true, 793_100_000_000_000n, 85_000_000_000n), complete(MINT, A), postComplete(B, { base_out: '1', quote_in: '1' })],
    });
    expect(doc([c, otherUser]).curveBuyout).toMatchObject({ wallet: A, tokens: '793100000000001', quoteSpent: '85000000001', poolPart: { tokens: '1' } });
  });

  it('an old-style completing buy has no pool part', () => {
    const c = creation();
    const taker = tx({ slot: 2000, blockTime: T0 + 600, events: [trade(MINT, A, true, 793_100_000_000_000n, 85_000_000_000n), complete(MINT, A)] });
    expect(doc([c, taker]).curveBuyout).toMatchObject({ tokens: '793100000000000', quoteSpent: '85000000000', poolPart: null });
  });

  it('a multi-hop curve hop (TradeEvent ix_name "multi_hop_swap") is a curve trade like any other', () => {
    const c = creation();
    const hop = tx({ slot: 1100, blockTime: T0 + 40, events: [trade(MINT, A, true, 10n ** 12n, 10n ** 8n, { ix_name: 'multi_hop_swap' })] });
    expect(doc([c, hop]).launch).toMatchObject({ curveBuyers: 1, buyersFirst30s: 0 });
  });
});

describe('bundle evidence (markers-v2)', () => {
  it('each creation-slot buyer: with the creation or not, and the Jito tip its transaction paid', () => {
    const c = tx({ slot: 1000, blockTime: T0, events: [createEvent(MINT, CREATOR), trade(MINT, A, true, 10n ** 12n, 10n ** 8n)] });
    c.jitoTipLamports = '0';
    const other = tx({ slot: 1000, blockTime: T0, events: [trade(MINT, B, true, 2n * 10n ** 12n, 3n * 10n ** 8n)] });
    other.jitoTipLamports = '1000000';
    const d = doc([c, other]);
    expect(d.launch!.bundledBuyers).toBe(2);
    expect(d.launch!.bundle).toEqual([
      { wallet: A, signatures: [c.signature], tokens: '1000000000000', quoteSpent: '100000000', withCreation: true, jitoTipLamports: '0' },
      { wallet: B, signatures: [other.signature], tokens: '2000000000000', quoteSpent: '300000000', withCreation: false, jitoTipLamports: '1000000' },
    ]);
    expect(codes(d)).toContain('bundled_buyers');
  });

  it('a tip the stored transaction cannot tell is null (unknown), never 0', () => {
    const c = creation();
    const other = tx({ slot: 1000, blockTime: T0, events: [trade(MINT, B, true, 10n ** 12n, 10n ** 8n)] });
    expect(doc([c, other]).launch!.bundle[0]!.jitoTipLamports).toBeNull();
  });
});

describe('sales at birth (markers-v2; methodology "creator_sold_at_birth")', () => {
  it('a creator sell within 30 s is a FINDINGS marker; cleanAtBirth false', () => {
    const c = tx({ slot: 1000, blockTime: T0, events: [createEvent(MINT, CREATOR), trade(MINT, CREATOR, true, 10n ** 13n, 10n ** 9n)] });
    const sell = tx({ slot: 1050, blockTime: T0 + 30, events: [trade(MINT, CREATOR, false, 10n ** 13n, 10n ** 9n)] });
    const buy = tx({ slot: 1200, blockTime: T0 + 90, events: [trade(MINT, A, true, 10n ** 12n, 10n ** 8n)] });
    const d = doc([c, sell, buy]);
    expect(d.flags.find((f) => f.code === 'creator_sold_at_birth')).toMatchObject({ class: 'FINDINGS', evidence: [sell.signature] });
    expect(d.finding.class).toBe('FINDINGS');
    expect(d.cleanAtBirth).toBe(false);
  });

  it('a creator sell at 31 s is only the NOTE creator_sold; cleanAtBirth stays true', () => {
    const c = tx({ slot: 1000, blockTime: T0, events: [createEvent(MINT, CREATOR), trade(MINT, CREATOR, true, 10n ** 13n, 10n ** 9n)] });
    const buy = tx({ slot: 1010, blockTime: T0 + 5, events: [trade(MINT, A, true, 10n ** 12n, 10n ** 8n)] });
    const sell = tx({ slot: 1080, blockTime: T0 + 31, events: [trade(MINT, CREATOR, false, 10n ** 13n, 10n ** 9n)] });
    const d = doc([c, buy, sell]);
    expect(codes(d)).toEqual(['creator_sold']);
    expect(d.finding.class).toBe('NOTE');
    expect(d.cleanAtBirth).toBe(true);
  });
});

describe('drift guard: unreadable program data makes the record UNKNOWN, never clean', () => {
  it('an unknown event discriminator in a launch transaction → UNKNOWN unrecognised_program_data citing it', () => {
    const c = creation();
    const buy = tx({ slot: 1200, blockTime: T0 + 90, events: [trade(MINT, A, true, 10n ** 12n, 10n ** 8n)] });
    // what the decoder reports for an event whose discriminator it does not know (a mutated PostCompleteBuyEvent)
    buy.skipped.push({ where: 'inner 0.3', reason: 'unknown event discriminator', program: 'pump', kind: 'event', discriminator: '6fb06d8b316cd5fc' });
    const clean = doc([c, tx({ slot: 1200, blockTime: T0 + 90, events: [trade(MINT, A, true, 10n ** 12n, 10n ** 8n)] })]);
    expect(clean.finding.class).toBe('NO_MARKERS');
    const d = doc([c, buy]);
    expect(d.finding.class).toBe('UNKNOWN');
    expect(d.cleanAtBirth).toBeNull();
    expect(d.flags.find((f) => f.code === 'unrecognised_program_data')).toMatchObject({ class: 'UNKNOWN', evidence: [buy.signature] });
    expect(d.finding.why).toContain('pump event 6fb06d8b316cd5fc');
  });

  it('an unreadable transaction of the launch → UNKNOWN even when findings exist; a failed transaction does not count', () => {
    const c = creation(); // no outside buyer: FINDINGS on its own
    expect(doc([c]).finding.class).toBe('FINDINGS');
    const d = doc([c], { unreadable: ['UnreadableSig111'] });
    expect(d.finding.class).toBe('UNKNOWN');
    expect(d.flags.find((f) => f.code === 'unrecognised_program_data')!.evidence).toEqual(['UnreadableSig111']);
    const failed = tx({ slot: 1200, blockTime: T0 + 90, err: { InstructionError: [0, { Custom: 1 }] } });
    failed.skipped.push({ where: 'ix 0', reason: 'unknown instruction', program: 'pump', kind: 'instruction', discriminator: '0000000000000000' });
    expect(doc([c, failed]).finding.class).toBe('FINDINGS');
  });
});

describe('history completeness (curve account against held events)', () => {
  const c = creation();
  const buy = tx({ slot: 1200, blockTime: T0 + 90, events: [trade(MINT, A, true, 10n ** 13n, 3n * 10n ** 8n, reserves(1_063_000_000_000_000n, 30_300_000_000n, 783_100_000_000_000n, 300_000_000n))] });
  const read = (over: Partial<CurveRead> = {}): CurveRead => ({
    slot: 5000,
    virtualTokenReserves: '1063000000000000',
    virtualQuoteReserves: '30300000000',
    realTokenReserves: '783100000000000',
    realQuoteReserves: '300000000',
    complete: false,
    ...over,
  });

  it('an account that equals the held state agrees; the record stays as it was', () => {
    expect(compareCurveHistory(MINT, [c, buy], read()).agrees).toBe(true);
    const d = doc([c, buy], { curve: { read: read(), listedAllHeld: true } });
    expect(d.finding.class).toBe('NO_MARKERS');
    expect(d.history.complete).toBe(true);
  });

  it('more tokens sold than the held trades give → history_incomplete, UNKNOWN, never FINDINGS, history.complete false', () => {
    const missing = read({ realTokenReserves: '700000000000000', virtualTokenReserves: '979900000000000' });
    expect(compareCurveHistory(MINT, [c], missing).agrees).toBe(false);
    const d = doc([c], { curve: { read: missing, listedAllHeld: true } }); // alone, [c] would be FINDINGS no_outside_curve_buyer
    expect(d.finding.class).toBe('UNKNOWN');
    expect(d.cleanAtBirth).toBeNull();
    expect(d.history.complete).toBe(false);
    expect(d.settled).toBe(false);
    const f = d.flags.find((x) => x.code === 'history_incomplete')!;
    expect(f.class).toBe('UNKNOWN');
    expect(f.summary).toContain('slot 5000'); // both states shown
    // each state's reserves in their units, exactly (raw 700000000000000 and 793100000000000 tokens of 6 decimals)
    expect(f.summary).toMatch(/^Trades are missing from the archive's history of this launch: /);
    expect(f.summary).toContain('(real reserves 0.3 SOL and 700,000,000 tokens, virtual token reserves 979,900,000 tokens, not complete)'); // the account's
    expect(f.summary).toContain('793,100,000 tokens');
    expect(f.summary).not.toMatch(/\d{10}/); // no raw amount: a person reads it on the token page
  });

  it('markers-v4: on a partial history no marker rests on an absence; markers shown by held transactions stay', () => {
    const missing = read({ realTokenReserves: '700000000000000', virtualTokenReserves: '979900000000000' });
    // complete, [c] alone is FINDINGS no_outside_curve_buyer: that is an absence, which missing trades can undo
    expect(codes(doc([c]))).toContain('no_outside_curve_buyer');
    const partial = doc([c], { curve: { read: missing, listedAllHeld: true } });
    expect(codes(partial)).toEqual(['history_incomplete']);
    expect(partial.launch!.curveBuyers).toBe(0); // the count of the held history is still shown, as such
    // the creator's share at the end of the creation slot is an absence claim too (no missing sell in that slot)
    const majority = tx({ slot: 1000, blockTime: T0, events: [trade(MINT, CREATOR, true, 600_000_000_000_000n, 20n * 10n ** 9n)] });
    expect(codes(doc([c, majority]))).toContain('creator_kept_majority');
    const notHeld = classifyLaunch(analyzeLaunch(MINT, [c, majority], false, NO_FUNDER), ctx);
    expect(notHeld.finding.class).toBe('UNKNOWN');
    expect(codes(notHeld)).not.toContain('creator_kept_majority');
    expect(codes(notHeld)).not.toContain('no_outside_curve_buyer');
    // a bundled buy is shown by its own transaction: it stays, with its evidence, on a partial history
    const bundled = tx({ slot: 1000, blockTime: T0, events: [trade(MINT, A, true, 10n ** 13n, 3n * 10n ** 8n, reserves(1_063_000_000_000_000n, 30_300_000_000n, 783_100_000_000_000n, 300_000_000n))] });
    const withBundle = doc([c, bundled], { curve: { read: missing, listedAllHeld: true } });
    expect(withBundle.finding.class).toBe('UNKNOWN');
    expect(codes(withBundle)).toEqual(['bundled_buyers', 'history_incomplete']);
    expect(withBundle.flags.find((f) => f.code === 'bundled_buyers')!.evidence).toEqual([bundled.signature]);
  });

  it('no curve account at all while the creation is held disagrees too (curves are never closed)', () => {
    const absent = absentCurveRead(5000);
    expect(compareCurveHistory(MINT, [c, buy], absent).agrees).toBe(false);
    const d = doc([c, buy], { curve: { read: absent, listedAllHeld: true } });
    expect(d.finding.class).toBe('UNKNOWN');
    expect(d.flags.find((f) => f.code === 'history_incomplete')!.summary).toContain('no bonding curve account');
  });

  it('a disagreement the signature list does not confirm (trades not yet read) is no flag', () => {
    const d = doc([c], { curve: { read: read(), listedAllHeld: false } });
    expect(codes(d)).not.toContain('history_incomplete');
  });

  it('the account is compared at its own slot: later held trades are not counted', () => {
    const later = tx({ slot: 6000, blockTime: T0 + 2000, events: [trade(MINT, B, true, 1n, 1n, reserves(1n, 1n, 1n, 1n))] });
    expect(compareCurveHistory(MINT, [c, buy, later], read()).agrees).toBe(true);
  });

  it('complete and migrated: the account must say complete with no real reserves left', () => {
    const done = tx({ slot: 3000, blockTime: T0 + 900, events: [trade(MINT, A, true, 783_100_000_000_000n, 80n * 10n ** 9n, reserves(279_900_000_000_000n, 110n * 10n ** 9n, 0n, 80_300_000_000n)), complete(MINT, A)] });
    const mig = tx({ slot: 3100, blockTime: T0 + 960, events: migration(MINT, 'Pool1111111111111111111111111111111111111111') });
    const zero = read({ virtualTokenReserves: '0', virtualQuoteReserves: '0', realTokenReserves: '0', realQuoteReserves: '0', complete: true });
    expect(compareCurveHistory(MINT, [c, buy, done, mig], zero).agrees).toBe(true);
    expect(compareCurveHistory(MINT, [c, buy, done], zero).agrees).toBe(false); // migration not held
    expect(compareCurveHistory(MINT, [c, buy], read({ complete: true })).agrees).toBe(false); // completion not held
  });

  it('curveReadOf reads the decoded BondingCurve fields (2024 accounts name the quote reserves virtual_sol_reserves)', () => {
    expect(curveReadOf({ virtual_token_reserves: '5', virtual_sol_reserves: '6', real_token_reserves: '7', real_sol_reserves: '8', complete: false }, 9)).toEqual({
      slot: 9, virtualTokenReserves: '5', virtualQuoteReserves: '6', realTokenReserves: '7', realQuoteReserves: '8', complete: false,
    });
  });

  it('the signature list confirms only when it reaches the read slot and every listed signature up to it is held', () => {
    const held = new Set(['a', 'b']);
    const at = (signature: string, slot: number) => ({ signature, slot, err: null });
    expect(listedAllHeld([at('x', 6000), at('b', 1200), at('a', 1000)], held, 5000, 100)).toBe(true);
    expect(listedAllHeld([at('y', 4000), at('b', 1200), at('a', 1000)], held, 5000, 100)).toBe(false);
    expect(listedAllHeld([at('x', 6000), at('z', 5500)], held, 5000, 2)).toBe(false); // a full page that never reaches slot 5000
    expect(listedAllHeld([], held, 5000, 100)).toBe(true); // nothing listed at all: the whole history is held
    // a failed transaction not held (another program's swap that failed) changes no account: it explains nothing
    expect(listedAllHeld([{ signature: 'f', slot: 4000, err: { InstructionError: [2, { Custom: 6003 }] } }, at('b', 1200), at('a', 1000)], held, 5000, 100)).toBe(true);
  });

  it('a signature not held before the slot the catch-up has read the program through is no trade to come: it does not block the confirmation', () => {
    const held = new Set(['a', 'b']);
    const at = (signature: string, slot: number) => ({ signature, slot, err: null });
    // 'y' (a transfer to the curve, another program reading it) at slot 4000, not held
    const listed = [at('y', 4000), at('b', 1200), at('a', 1000)];
    expect(listedAllHeld(listed, held, 5000, 100)).toBe(false); // read through nothing: it might be a trade still to read
    expect(listedAllHeld(listed, held, 5000, 100, 4001)).toBe(true); // the program's list read through slot 4001: it is none
    expect(listedAllHeld(listed, held, 5000, 100, 4000)).toBe(false); // its own slot is not read through yet
    // a full page that never reaches the read slot stays unconfirmed whatever was read
    expect(listedAllHeld([at('x', 6000), at('z', 5500)], held, 5000, 2, 7000)).toBe(false);
  });
});

describe('unknown is never a value', () => {
  it('a creation without blockTime gives createdAt null, not 1970', () => {
    const c = tx({ slot: 1000, blockTime: T0, events: [createEvent(MINT, CREATOR)] });
    (c as { blockTime: number | null }).blockTime = null;
    expect(doc([c]).launch!.createdAt).toBeNull();
  });

  it('a graduated launch whose pool reads as absent, or is not read, is UNKNOWN with cleanAtBirth false; curveComplete null when the curve is unreadable', () => {
    const c = creation();
    const buy = tx({ slot: 1200, blockTime: T0 + 90, events: [trade(MINT, A, true, 10n ** 12n, 10n ** 8n)] });
    const done = tx({ slot: 3000, blockTime: T0 + 900, events: [trade(MINT, B, true, 783_100_000_000_000n, 80n * 10n ** 9n), complete(MINT, B)] });
    const mig = tx({ slot: 3100, blockTime: T0 + 960, events: migration(MINT, 'Pool1111111111111111111111111111111111111111') });
    const pool: PoolNow = { address: 'Pool1111111111111111111111111111111111111111', program: 'pAMM', baseMint: MINT, quoteMint: 'So11111111111111111111111111111111111111112', baseReserves: '1', quoteReserves: '1', price: 1, lpSupply: '1', asOf: { ms: 0, iso: '1970-01-01T00:00:00.000Z' } };
    expect(doc([c, buy, done, mig], { pool, curveComplete: true, checkedAtMs: 1 }).finding.class).toBe('NO_MARKERS');
    for (const state of [{ pool: null, curveComplete: true, checkedAtMs: 1 }, {}, { pool: 'unreadable' as const, curveComplete: true, checkedAtMs: 1 }]) {
      const d = doc([c, buy, done, mig], state);
      expect(d.finding.class).toBe('UNKNOWN');
      expect(d.cleanAtBirth).toBe(false);
    }
    const unreadCurve = doc([c, buy, done, mig], { pool, curveComplete: null, checkedAtMs: 1 });
    expect(unreadCurve.finding.class).toBe('UNKNOWN');
    expect(unreadCurve.launch!.graduationCheck!.curveComplete).toBeNull();
  });
});
