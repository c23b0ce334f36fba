/**
 * markers-v7 (docs/methodology.md "Absence needs a readable history; a pool is a graduation only
 * inside a migration"): three places where a record said more than the chain showed.
 * 1. the absence markers (no_outside_curve_buyer, creator_kept_majority) are not flagged while a
 *    transaction of the launch could not be read or holds program data the decoder does not know,
 *    and `history.complete` is false while one could not be read;
 * 2. a PumpSwap CreatePoolEvent of the mint is a graduation only inside a migration (the mint's
 *    CompletePumpAmmMigrationEvent, or a pump migrate instruction of the mint) — FIX/24 `5gp7yz…`;
 * 3. `graduationCheck.poolFound` is null when the pool was not read or could not be read.
 */
import { describe, expect, it } from 'vitest';
import { analyzeLaunch, type ChainState } from '../../src/core/record/build-launch.ts';
import { classifyLaunch } from '../../src/core/record/classify.ts';
import { decodeTransaction } from '../../src/core/decode/index.ts';
import type { DecodedTransaction } from '../../src/core/types.ts';
import { loadFixtureTransaction } from '../helpers/mainnet-fixtures.ts';
import { complete, createEvent, migration, trade, tx } from '../helpers/synthetic-launch.ts';
import { OWN_FUNDERS } from '../helpers/synthetic-launch.ts';

const MINT = 'Mint111111111111111111111111111111111111pump';
const CREATOR = 'Creator1111111111111111111111111111111111111';
const BUYER = 'Buyer11111111111111111111111111111111111111';
const T0 = 1_791_000_000;
const FUNDERS: ChainState = OWN_FUNDERS;
const ctx = { origin: 'observed' as const, observedAtLaunch: true, asOfMs: (T0 + 5_000) * 1000 };
const record = (txs: DecodedTransaction[], state: ChainState = {}, mint = MINT) => classifyLaunch(analyzeLaunch(mint, txs, true, { ...FUNDERS, ...state }), ctx);
const codes = (d: ReturnType<typeof record>) => d.flags.map((f) => f.code).sort();

/** A launch whose creator keeps 60 % of supply and no outside wallet buys: both absence markers hold over a readable history. */
const lonely = () => [tx({ slot: 1_000, blockTime: T0, events: [createEvent(MINT, CREATOR), trade(MINT, CREATOR, true, 6n * 10n ** 14n, 10n ** 11n)] })];

describe('markers-v7: absence markers need every transaction read and understood', () => {
  it('over a readable complete history both absence markers are flagged (FINDINGS), history complete', () => {
    const d = record(lonely());
    expect(d.finding.class).toBe('FINDINGS');
    expect(codes(d)).toEqual(['creator_kept_majority', 'no_outside_curve_buyer']);
    expect(d.history.complete).toBe(true);
  });

  it('a transaction of the launch that could not be read: no absence marker, history not complete, UNKNOWN', () => {
    const d = record(lonely(), { unreadable: ['UnreadableSig111'] });
    expect(codes(d)).toEqual(['unrecognised_program_data']);
    expect(d.flags[0]!.evidence).toEqual(['UnreadableSig111']);
    expect(d.history.complete).toBe(false);
    expect(d.finding.class).toBe('UNKNOWN');
    expect(d.cleanAtBirth).toBeNull();
    expect(d.settled).toBe(false);
  });

  it('program data the decoder does not know: no absence marker, and the history is not complete (what was read of it is not all of it)', () => {
    const txs = lonely();
    const odd = tx({ slot: 1_000, blockTime: T0, events: [] });
    odd.skipped = [{ where: 'instruction 2', reason: 'unknown pump instruction discriminator 0102030405060708', program: 'pump', kind: 'instruction', discriminator: '0102030405060708' }];
    const d = record([...txs, odd]);
    expect(codes(d)).toEqual(['unrecognised_program_data']);
    expect(d.finding.class).toBe('UNKNOWN');
    expect(d.history.complete).toBe(false);
  });

  it('a marker shown by held transactions stays: bundled buyers with an unreadable transaction', () => {
    const txs = [...lonely(), tx({ slot: 1_000, blockTime: T0, events: [trade(MINT, BUYER, true, 10n ** 12n, 10n ** 8n)] })];
    expect(codes(record(txs, { unreadable: ['U'] }))).toEqual(['bundled_buyers', 'unrecognised_program_data']);
  });
});

describe('markers-v7: a PumpSwap pool of the mint is a graduation only inside a migration', () => {
  const creation = () => tx({ slot: 1_000, blockTime: T0, events: [createEvent(MINT, CREATOR)] });
  const buy = () => tx({ slot: 1_100, blockTime: T0 + 40, events: [trade(MINT, BUYER, true, 10n ** 12n, 10n ** 8n)] });
  const userPool = (instructions: DecodedTransaction['instructions'] = []) =>
    tx({
      slot: 1_200,
      blockTime: T0 + 80,
      instructions,
      events: [
        trade(MINT, BUYER, true, 10n ** 12n, 10n ** 8n),
        { program: 'pump_amm', name: 'CreatePoolEvent', fields: { base_mint: MINT, quote_mint: 'So11111111111111111111111111111111111111112', index: 7, creator: BUYER, pool: 'UserPool1111111111111111111111111111111111' }, outerIndex: 0, source: 'cpi' } as never,
      ],
    });

  it('a pool a user created for the mint, in a transaction that also trades the curve, is not a graduation', () => {
    const d = record([creation(), buy(), userPool()]);
    expect(d.launch!.graduated).toBe(false);
    expect(d.launch!.graduation).toBeNull();
    expect(d.launch!.graduationConfirmedBy).toBeNull();
    expect(d.launch!.graduatedAt).toBeNull();
    expect(d.finding.class).toBe('NO_MARKERS');
  });

  it("with a pump migrate instruction of the mint, the CreatePoolEvent is the graduation (the pool it names)", () => {
    const migrate: DecodedTransaction['instructions'] = [{ program: 'pump', name: 'migrate', inner: false, path: '0', accounts: { mint: MINT }, args: {} }];
    const d = record([creation(), buy(), userPool(migrate)]);
    expect(d.launch!.graduated).toBe(true);
    expect(d.launch!.graduationConfirmedBy).toBe('migration_event');
    expect(d.launch!.graduation!.pool).toBe('UserPool1111111111111111111111111111111111');
  });

  describe('FIX/24 5gp7yz… (mainnet, 2026-04: pump migrate → PumpSwap create_pool)', () => {
    const real = decodeTransaction(loadFixtureTransaction('pump_2026-04_migrate+pumpswap-create_pool_getTransaction_base64_5gp7yz.json'));
    const pool = real.events.find((e) => e.name === 'CreatePoolEvent')!;
    const mint = pool.fields.base_mint as string;
    const creation = tx({ slot: (real.slot ?? 1) - 1_000, blockTime: (real.blockTime ?? T0) - 3_600, events: [createEvent(mint, CREATOR)] });
    const graduationOf = (t: DecodedTransaction) => record([creation, t], {}, mint).launch!;

    it('as it is: graduated, confirmed by the migration event, the pool its events name', () => {
      const l = graduationOf(real);
      expect(l.graduated).toBe(true);
      expect(l.graduationConfirmedBy).toBe('migration_event');
      expect(l.graduation!.signature).toBe(real.signature);
      expect(l.graduation!.pool).toBe(pool.fields.pool);
    });

    it('without its CompletePumpAmmMigrationEvent: still graduated (the migrate instruction of the mint)', () => {
      const l = graduationOf({ ...real, events: real.events.filter((e) => e.name !== 'CompletePumpAmmMigrationEvent') });
      expect(l.graduated).toBe(true);
      expect(l.graduation!.pool).toBe(pool.fields.pool);
    });

    it('without the migration event and the migrate instruction: its CreatePoolEvent alone is not a graduation', () => {
      const l = graduationOf({
        ...real,
        events: real.events.filter((e) => e.name !== 'CompletePumpAmmMigrationEvent'),
        instructions: real.instructions.filter((i) => !(i.program === 'pump' && i.name === 'migrate')),
      });
      expect(l.graduated).toBe(false);
    });
  });
});

describe('markers-v7: graduationCheck.poolFound is null unless the pool account was read', () => {
  const completed = () => [
    tx({ slot: 1_000, blockTime: T0, events: [createEvent(MINT, CREATOR)] }),
    tx({ slot: 2_000, blockTime: T0 + 100, events: [trade(MINT, BUYER, true, 793n * 10n ** 12n, 85n * 10n ** 9n), complete(MINT, BUYER)] }),
  ];
  const check = (state: ChainState) => record(completed(), { checkedAtMs: (T0 + 200) * 1000, ...state }).launch!.graduationCheck!;

  it('could not be read → null, not read → null', () => {
    expect(check({ curveComplete: true, pool: 'unreadable' }).poolFound).toBeNull();
    expect(check({ curveComplete: true }).poolFound).toBeNull();
  });

  it('read: found → true with its address; absent → false', () => {
    const found = check({ curveComplete: true, pool: { address: 'Pool111111111111111111111111111111111111111', program: 'pAMM', quoteMint: 'So11111111111111111111111111111111111111112' } as never });
    expect(found.poolFound).toBe(true);
    expect(found.pool).toBe('Pool111111111111111111111111111111111111111');
    expect(check({ curveComplete: true, pool: null }).poolFound).toBe(false);
  });
});

describe('markers-v7: a record whose class waits on a pool read is not settled', () => {
  const graduated = () => [
    tx({ slot: 1_000, blockTime: T0, events: [createEvent(MINT, CREATOR)] }),
    tx({ slot: 1_100, blockTime: T0 + 40, events: [trade(MINT, BUYER, true, 10n ** 12n, 10n ** 8n)] }),
    tx({ slot: 2_000, blockTime: T0 + 100, events: [trade(MINT, 'Taker111111111111111111111111111111111111111', true, 793n * 10n ** 12n, 85n * 10n ** 9n), complete(MINT, 'Taker111111111111111111111111111111111111111')] }),
    tx({ slot: 2_010, blockTime: T0 + 105, events: migration(MINT, 'Pool111111111111111111111111111111111111111') }),
  ];
  const pool = { address: 'Pool111111111111111111111111111111111111111', program: 'pAMM', quoteMint: 'So11111111111111111111111111111111111111112' } as never;

  it('pool read: settled; pool unreadable: UNKNOWN "Pool not readable", not settled', () => {
    const ok = record(graduated(), { curveComplete: true, pool, checkedAtMs: (T0 + 200) * 1000 });
    expect([ok.finding.class, ok.settled]).toEqual(['NO_MARKERS', true]);
    const unread = record(graduated(), { curveComplete: true, pool: 'unreadable', checkedAtMs: (T0 + 200) * 1000 });
    expect([unread.finding.class, unread.finding.label, unread.cleanAtBirth, unread.settled]).toEqual(['UNKNOWN', 'Pool not readable', false, false]);
  });
});

describe('markers-v7: an RPC answer without meta is not read as a successful transaction', () => {
  it('FIX/5 (a 2024-09 sell) with meta null: the decoder cannot tell its status; the launch is UNKNOWN, citing it', () => {
    const raw = loadFixtureTransaction('pump_2024-09_sell_getParsedTransaction.json');
    (raw.result ?? raw).meta = null;
    const bare = decodeTransaction(raw);
    expect(bare.err).toBeNull(); // what the decoder reports: no err, because there is no meta to hold one
    expect(bare.skipped.map((x) => x.where)).toContain('meta');
    const mint = bare.instructions.find((i) => i.program === 'pump')!.accounts.mint!;
    const creation = tx({ slot: (bare.slot ?? 10) - 5, blockTime: (bare.blockTime ?? T0) - 5, events: [createEvent(mint, CREATOR), trade(mint, CREATOR, true, 6n * 10n ** 14n, 10n ** 11n)] });
    const d = record([creation, bare], {}, mint);
    expect(d.finding.class).toBe('UNKNOWN');
    const flag = d.flags.find((f) => f.code === 'unrecognised_program_data')!;
    expect(flag.evidence).toEqual([bare.signature]);
    expect(flag.summary).toContain('without status metadata');
    expect(d.flags.map((f) => f.code)).not.toContain('creator_kept_majority');
  });
});
