import { describe, expect, it } from 'vitest';
import { analyzeLaunch } from '../../src/core/record/build-launch.ts';
import { classifyLaunch } from '../../src/core/record/classify.ts';
import { mintsOf } from '../../src/core/record/mints-of.ts';
import { complete, createEvent, migration, tx, trade } from '../helpers/synthetic-launch.ts';
import { OWN_FUNDERS } from '../helpers/synthetic-launch.ts';

const MINT = 'MintAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAApump';
const CREATOR = 'Creator1111111111111111111111111111111111';
const A = 'WalletA111111111111111111111111111111111111';
const B = 'WalletB111111111111111111111111111111111111';
const C = 'WalletC111111111111111111111111111111111111';
const FEE = '62qc2CNXwrYqQScmEdiZFFAnJR262PxWEuNQtxfafNgV';
const MAYHEM = 'BwWK17cbHxwWBKZkUYvzxLcNQ1YVyaFezduWbtm2de6s';
const T0 = 1_785_000_000;
const ctx = { origin: 'observed' as const, observedAtLaunch: true, asOfMs: (T0 + 1000) * 1000 };

/** Every wallet's funding established, none shared (the funder rule has its own tests below). */
const NO_FUNDER = OWN_FUNDERS;
const classify = (txs: Parameters<typeof analyzeLaunch>[1], complete = true) => classifyLaunch(analyzeLaunch(MINT, txs, complete, NO_FUNDER), ctx);
const codes = (d: ReturnType<typeof classify>) => d.flags.map((f) => f.code);

describe('record builder (markers-v2) on simulated launches with known truth', () => {
  it('a clean launch: creator buys a little, outside buyers later → NO_MARKERS, cleanAtBirth true', () => {
    const create = tx({ slot: 100, blockTime: T0, events: [createEvent(MINT, CREATOR), trade(MINT, CREATOR, true, 30_000_000_000_000n, 1_000_000_000n)] });
    const b1 = tx({ slot: 200, blockTime: T0 + 40, events: [trade(MINT, A, true, 10n ** 12n, 10n ** 8n)] });
    const b2 = tx({ slot: 300, blockTime: T0 + 80, events: [trade(MINT, B, true, 10n ** 12n, 10n ** 8n)] });
    const d = classify([b2, create, b1]);
    expect(d.finding.class).toBe('NO_MARKERS');
    expect(d.cleanAtBirth).toBe(true);
    expect(d.flags).toEqual([]);
    expect(d.launch).toMatchObject({ creator: CREATOR, curveBuyers: 2, buyersFirst30s: 0, bundledBuyers: 0, creatorSold: false, graduated: false, creatorTokensRaw: '30000000000000' });
    expect(d.launch!.creatorSupplyPct).toBeCloseTo(3, 10);
    expect(d.launch!.transaction).toEqual({ signature: create.signature, slot: 100 });
    expect(d.launch!.createdAt).toEqual({ ms: T0 * 1000, iso: new Date(T0 * 1000).toISOString() });
    expect(d.methodVersion).toBe('markers-v12');
  });

  it('creator kept more than 50% at the end of the creation slot → FINDINGS creator_kept_majority with the creation-slot trades as evidence', () => {
    const create = tx({ slot: 100, blockTime: T0, events: [createEvent(MINT, CREATOR), trade(MINT, CREATOR, true, 600_000_000_000_000n, 80n * 10n ** 9n)] });
    const sameSlotSell = tx({ slot: 100, blockTime: T0, events: [trade(MINT, CREATOR, false, 50_000_000_000_000n, 10n ** 9n)] });
    const later = tx({ slot: 500, blockTime: T0 + 200, events: [trade(MINT, A, true, 10n ** 12n, 10n ** 8n)] });
    const d = classify([create, sameSlotSell, later]);
    expect(d.launch!.creatorTokensRaw).toBe('550000000000000');
    expect(d.launch!.creatorSupplyPct).toBeCloseTo(55, 10);
    const f = d.flags.find((x) => x.code === 'creator_kept_majority')!;
    expect(f.class).toBe('FINDINGS');
    expect(f.evidence).toEqual([create.signature, sameSlotSell.signature].sort());
    expect(d.finding.class).toBe('FINDINGS');
    expect(d.cleanAtBirth).toBe(false);
    // the same-slot sell is a sale at birth (markers-v2: FINDINGS) and a creator sale (NOTE)
    expect(codes(d)).toEqual(['creator_kept_majority', 'creator_sold', 'creator_sold_at_birth']);
    expect(d.flags.find((x) => x.code === 'creator_sold_at_birth')).toMatchObject({ class: 'FINDINGS', evidence: [sameSlotSell.signature] });
  });

  it('exactly 50% is not "more than 50%"', () => {
    const create = tx({ slot: 100, blockTime: T0, events: [createEvent(MINT, CREATOR), trade(MINT, CREATOR, true, 500_000_000_000_000n, 1n)] });
    const later = tx({ slot: 500, blockTime: T0 + 200, events: [trade(MINT, A, true, 1n, 1n)] });
    expect(codes(classify([create, later]))).not.toContain('creator_kept_majority');
  });

  it('no outside wallet bought → FINDINGS no_outside_curve_buyer; protocol wallets and failed txs do not count', () => {
    const create = tx({ slot: 100, blockTime: T0, events: [createEvent(MINT, CREATOR)] });
    const fee = tx({ slot: 110, blockTime: T0 + 4, events: [trade(MINT, FEE, true, 1n, 1n)] });
    const mayhem = tx({ slot: 120, blockTime: T0 + 8, events: [trade(MINT, MAYHEM, true, 1n, 1n)] });
    const failed = tx({ slot: 130, blockTime: T0 + 12, err: { InstructionError: [2, { Custom: 6002 }] }, events: [trade(MINT, A, true, 1n, 1n)] });
    const d = classify([create, fee, mayhem, failed]);
    expect(d.launch!.curveBuyers).toBe(0);
    expect(d.flags.find((f) => f.code === 'no_outside_curve_buyer')).toEqual({
      code: 'no_outside_curve_buyer',
      class: 'FINDINGS',
      summary: 'No outside wallet bought on the bonding curve: every buy was the creator’s (or the protocol’s own).',
      evidence: [create.signature],
    });
    expect(d.history.failedTransactions).toBe(1);
  });

  it('outside buys in the creation slot → bundled_buyers with their signatures; buyersFirst30s counts ≤ 30 s', () => {
    const create = tx({ slot: 100, blockTime: T0, events: [createEvent(MINT, CREATOR)] });
    const bundle1 = tx({ slot: 100, blockTime: T0, events: [trade(MINT, A, true, 10n ** 12n, 10n ** 9n)] });
    const bundle2 = tx({ slot: 100, blockTime: T0, events: [trade(MINT, B, true, 10n ** 12n, 10n ** 9n), trade(MINT, A, true, 1n, 1n)] });
    const at30 = tx({ slot: 175, blockTime: T0 + 30, events: [trade(MINT, C, true, 1n, 1n)] });
    const at31 = tx({ slot: 178, blockTime: T0 + 31, events: [trade(MINT, 'WalletD111111111111111111111111111111111111', true, 1n, 1n)] });
    const d = classify([create, bundle1, bundle2, at30, at31]);
    expect(d.launch).toMatchObject({ bundledBuyers: 2, buyersFirst30s: 3, curveBuyers: 4 });
    expect(d.flags.find((f) => f.code === 'bundled_buyers')!.evidence).toEqual([bundle1.signature, bundle2.signature].sort());
    expect(d.finding.class).toBe('FINDINGS');
  });

  it('curve taken in the creation slot → curve_taken_in_creation_slot; curveBuyout with sameBatchAsLaunch and hoursAfterLaunch null (never 0)', () => {
    const create = tx({ slot: 100, blockTime: T0, events: [createEvent(MINT, CREATOR)] });
    const taker = tx({ slot: 100, blockTime: T0, events: [trade(MINT, A, true, 793_100_000_000_000n, 85_005_359_118n), complete(MINT, A)] });
    const d = classify([create, taker]);
    expect(d.curveBuyout).toEqual({
      wallet: A,
      signature: taker.signature,
      slot: 100,
      sameBatchAsLaunch: true,
      hoursAfterLaunch: null,
      quoteSpent: '85005359118',
      quoteMint: 'So11111111111111111111111111111111111111112', // the event's default key, spelled as the wrapped SOL mint (markers-v3)
      tokens: '793100000000000',
      // markers-v2: the parts (no PostCompleteBuyEvent here, so no pool part); fees null: this synthetic
      // event has no `fee` field, as the 2024 layout (markers-v8: not reported, so unknown; v7 wrote '0')
      fees: null,
      curvePart: { tokens: '793100000000000', quoteSpent: '85005359118', fees: null },
      poolPart: null,
    });
    expect(codes(d)).toContain('curve_taken_in_creation_slot');
    expect(d.flags.find((f) => f.code === 'curve_taken_in_creation_slot')!.evidence).toEqual([taker.signature]);
    expect(d.launch!.completed).toBe(true);
  });

  it('curve taken later: hoursAfterLaunch from blockTimes, no creation-slot marker; USDC quote read from quote_amount', () => {
    const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
    const create = tx({ slot: 100, blockTime: T0, events: [createEvent(MINT, CREATOR, { quote_mint: USDC })] });
    const early = tx({ slot: 200, blockTime: T0 + 50, events: [trade(MINT, B, true, 10n ** 12n, 0n, { quote_mint: USDC, quote_amount: '5000000' })] });
    const taker = tx({ slot: 9100, blockTime: T0 + 7200, events: [trade(MINT, A, true, 10n ** 14n, 0n, { quote_mint: USDC, quote_amount: '12000000000' }), complete(MINT, A)] });
    const d = classify([create, early, taker]);
    expect(d.curveBuyout).toMatchObject({ wallet: A, sameBatchAsLaunch: false, hoursAfterLaunch: 2, quoteSpent: '12000000000', quoteMint: USDC });
    expect(codes(d)).not.toContain('curve_taken_in_creation_slot');
  });

  it('creator sold → NOTE (cleanAtBirth true: a note is not a birth marker)', () => {
    const create = tx({ slot: 100, blockTime: T0, events: [createEvent(MINT, CREATOR), trade(MINT, CREATOR, true, 10n ** 13n, 10n ** 9n)] });
    const buy = tx({ slot: 300, blockTime: T0 + 100, events: [trade(MINT, A, true, 10n ** 12n, 10n ** 8n)] });
    const sell = tx({ slot: 400, blockTime: T0 + 140, events: [trade(MINT, CREATOR, false, 10n ** 13n, 10n ** 9n)] });
    const d = classify([create, buy, sell]);
    expect(d.finding.class).toBe('NOTE');
    expect(d.cleanAtBirth).toBe(true);
    expect(d.launch!.creatorSold).toBe(true);
    expect(d.flags).toEqual([expect.objectContaining({ code: 'creator_sold', class: 'NOTE', evidence: [sell.signature] })]);
  });

  it('incomplete history (creation not held) → UNKNOWN with cleanAtBirth null, never NO_MARKERS', () => {
    const buy = tx({ slot: 300, blockTime: T0 + 100, events: [trade(MINT, A, true, 10n ** 12n, 10n ** 8n)] });
    const d = classify([buy]);
    expect(d.finding.class).toBe('UNKNOWN');
    expect(d.cleanAtBirth).toBeNull();
    expect(d.launch).toBeNull();
    expect(d.history.complete).toBe(false);
  });

  it('creation held but the caller says history is incomplete → UNKNOWN/null', () => {
    const create = tx({ slot: 100, blockTime: T0, events: [createEvent(MINT, CREATOR)] });
    const buy = tx({ slot: 300, blockTime: T0 + 100, events: [trade(MINT, A, true, 1n, 1n)] });
    const d = classify([create, buy], false);
    expect(d.finding.class).toBe('UNKNOWN');
    expect(d.cleanAtBirth).toBeNull();
  });

  it('graduation only on migration events; a no-op migrate (no event) does not count; settled once graduated', () => {
    const create = tx({ slot: 100, blockTime: T0, events: [createEvent(MINT, CREATOR)] });
    const buy = tx({ slot: 300, blockTime: T0 + 100, events: [trade(MINT, A, true, 793_100_000_000_000n, 85n * 10n ** 9n), complete(MINT, A)] });
    const noop = tx({ slot: 301, blockTime: T0 + 101, instructions: [{ program: 'pump', name: 'migrate', inner: false, path: '0', accounts: { mint: MINT }, args: {} }] });
    expect(classify([create, buy, noop]).launch).toMatchObject({ graduated: false, completed: true });
    expect(classify([create, buy, noop]).settled).toBe(false);
    const mig = tx({ slot: 302, blockTime: T0 + 130, events: migration(MINT, 'PoolAddr') });
    const d = classify([create, buy, noop, mig]);
    expect(d.launch).toMatchObject({ graduated: true, graduationObserved: true, graduationConfirmedBy: 'migration_event', secondsToGraduate: 130 });
    expect(d.launch!.graduatedAt!.ms).toBe((T0 + 130) * 1000);
    // its pool not read: UNKNOWN "Pool not readable", not settled (markers-v7); read: settled
    expect([d.finding.class, d.settled]).toEqual(['UNKNOWN', false]);
    const pool = { address: 'PoolAddr', program: 'pAMM', quoteMint: 'So11111111111111111111111111111111111111112' } as never;
    const read = classifyLaunch(analyzeLaunch(MINT, [create, buy, noop, mig], true, { ...NO_FUNDER, curveComplete: true, pool, checkedAtMs: (T0 + 200) * 1000 }), ctx);
    expect([read.finding.class, read.settled]).toEqual(['NO_MARKERS', true]);
  });

  it('Raydium era: withdraw by the keeper is graduation (confirmedBy withdraw, no pool)', () => {
    const create = tx({ slot: 100, blockTime: T0, events: [createEvent(MINT, CREATOR)] });
    const buy = tx({ slot: 300, blockTime: T0 + 100, events: [trade(MINT, A, true, 1n, 1n), complete(MINT, A)] });
    const wd = tx({ slot: 400, blockTime: T0 + 200, instructions: [{ program: 'pump', name: 'withdraw', inner: false, path: '0', accounts: { mint: MINT, user: '39azUYFWPz3VHgKCf3VChUwbpURdCHRxjWVowf5jUJjg' }, args: {} }] });
    const d = classify([create, buy, wd]);
    expect(d.launch).toMatchObject({ graduated: true, graduationConfirmedBy: 'withdraw', graduation: { venue: 'raydium', pool: null, signature: wd.signature } });
  });

  it('a graduated PumpSwap launch whose pool cannot be read → UNKNOWN with cleanAtBirth false (spec §2.3)', () => {
    const create = tx({ slot: 100, blockTime: T0, events: [createEvent(MINT, CREATOR)] });
    const buy = tx({ slot: 300, blockTime: T0 + 100, events: [trade(MINT, A, true, 1n, 1n), complete(MINT, A)] });
    const mig = tx({ slot: 302, blockTime: T0 + 130, events: migration(MINT, 'PoolAddr') });
    const d = classifyLaunch(analyzeLaunch(MINT, [create, buy, mig], true, { pool: 'unreadable', checkedAtMs: T0 * 1000, ...NO_FUNDER }), ctx);
    expect(d.finding.class).toBe('UNKNOWN');
    expect(d.cleanAtBirth).toBe(false);
  });

  it('mintsOf names the launch mints of a transaction', () => {
    const t = tx({ slot: 1, blockTime: T0, events: [trade(MINT, A, true, 1n, 1n)] });
    expect(mintsOf(t)).toEqual([MINT]);
    const f = tx({ slot: 1, blockTime: T0, err: { x: 1 }, instructions: [{ program: 'pump', name: 'buy', inner: false, path: '0', accounts: { mint: MINT }, args: {} }] });
    expect(mintsOf(f)).toEqual([MINT]);
  });
});

describe('a long curve', () => {
  it('analyses a history of 300,000 transactions (the slot range did overflow the call stack)', () => {
    const creator = 'C'.repeat(43) + 'r';
    const txs = [tx({ slot: 5000, blockTime: 1_790_000_000, events: [createEvent(MINT, creator)] })];
    for (let i = 0; i < 300_000; i++) txs.push(tx({ slot: 5001 + i, blockTime: 1_790_000_001 + i, err: { InstructionError: [0, 'Custom'] } }));
    const a = analyzeLaunch(MINT, txs, true, NO_FUNDER);
    expect([a.firstSlot, a.lastSlot, a.transactions]).toEqual([5000, 305_000, 300_001]);
  });
});
