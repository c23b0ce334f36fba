/**
 * Issue 20 item 7: the decoder on real mainnet fixtures 17–34 (tests/fixtures/mainnet/README.md),
 * decoded with the 2026-10 IDLs. Every expected value was read off the fixture file itself (the
 * `Program data:` bytes at the IDL offsets, the token balances, the signers) or off the README, and
 * is cited where it is used; none comes from running the decoder. The v3 transaction at the end is
 * CONSTRUCTED (no whole real v3 transaction is public yet).
 */
import { describe, expect, it } from 'vitest';
import pumpIdl from '../../src/core/idl/pump.json' with { type: 'json' };
import pumpAmmIdl from '../../src/core/idl/pump_amm.json' with { type: 'json' };
import pumpFeesIdl from '../../src/core/idl/pump_fees.json' with { type: 'json' };
import { decodeEventData, decodeInstruction, decodeTransaction, fromBase58, fromBase64, toBase58, toBase64, unrecognisedOf } from '../../src/core/decode/index.ts';
import type { DecodedEvent, DecodedTransaction } from '../../src/core/types.ts';
import { loadFixture, loadFixtureTransaction } from '../helpers/mainnet-fixtures.ts';

const PUMP = '6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P';
const DEFAULT_KEY = '11111111111111111111111111111111';
const EVENT_AUTHORITY = 'Ce6TQqeHC9p8KetsN6JsjHK7UTZk7nasjjnr7XxXp9F1';
const PCB_DISC = '6fb06d8b316cd5fb'; // PostCompleteBuyEvent, shared/chain/idl/2026-10/DIFF.md

const decode = (file: string): DecodedTransaction => {
  const fast = decodeTransaction(loadFixtureTransaction(file));
  expect(decodeTransaction(loadFixtureTransaction(file), { pairLogEvents: false })).toEqual(fast);
  return fast;
};
const named = (d: DecodedTransaction, name: string): DecodedEvent[] => d.events.filter((e) => e.name === name);
const ixNames = (d: DecodedTransaction): string[] => d.instructions.map((i) => `${i.program}.${i.name}@${i.path}`);

describe('FIX/20 2wkECd… completing buy through a router (jsonParsed, Jan 2025)', () => {
  const d = decode('pump_2025-01_buy-completes-curve_CompleteEvent_getParsedTransaction_2wkECd.json');
  it('CompleteEvent names the buyer and the mint', () => {
    // log line 34, CompleteEvent (112 B): user at bytes 8–40, mint at 40–72; the buyer is also the
    // owner of the mint's post token balance and the TradeEvent's user (log line 46)
    const [c] = named(d, 'CompleteEvent');
    expect(c!.fields.user).toBe('niggerd597QYedtvjQDVHZTCCGyJrwHNm2i49dkm5zS');
    expect(c!.fields.mint).toBe('B9ktH3g7mwgdoDgCgGRim6qeqPcyRVWJueXS12CMpump');
    expect(c!.fields.bonding_curve).toBe('5dhRAEw3LfUMTJcPqYSyasH45jHnWeZQmM2Hccic59SZ');
    expect(c!.fields).not.toHaveProperty('quote_mint'); // 104-byte layout, before quote_mint was appended
    expect(named(d, 'TradeEvent')[0]!.fields.user).toBe('niggerd597QYedtvjQDVHZTCCGyJrwHNm2i49dkm5zS');
    expect(ixNames(d)).toEqual(['pump.buy@3.0']); // README: [Ix logs: pump.Buy@cpi2]
    expect(d.skipped).toEqual([]);
  });
});

describe('FIX/24 5gp7yz… migrate → PumpSwap create_pool (base64 in a test-case wrapper)', () => {
  const d = decode('pump_2026-04_migrate+pumpswap-create_pool_getTransaction_base64_5gp7yz.json');
  it('CreatePoolEvent and CompletePumpAmmMigrationEvent name the same pool', () => {
    // log line 140 CreatePoolEvent (334 B): pool at byte 8+8+2+96+2+56+1 = 173;
    // log line 164 CompletePumpAmmMigrationEvent (168 B): pool at byte 8+64+24+32+8 = 136
    const pool = '3ioeR9Rwi6xNb1UgmTi31Kcv565UNEv7AmAaEL5CkN6f';
    const [cp] = named(d, 'CreatePoolEvent');
    const [m] = named(d, 'CompletePumpAmmMigrationEvent');
    expect(cp!.program).toBe('pump_amm');
    expect(cp!.fields.pool).toBe(pool);
    expect(cp!.fields.base_mint).toBe('6XXqLtAwn7oBbhT9m3AeVZE2y77LdzuZSHVtWSEDpump');
    expect(cp!.fields.quote_mint).toBe('So11111111111111111111111111111111111111112');
    expect(cp!.fields.lp_mint).toBe('FHPtW6HyiZwvQf1DcaNHJpTNjqHGiBWusnMV3mZb1G2R');
    expect(m!.program).toBe('pump');
    expect(m!.fields.pool).toBe(pool);
    expect(m!.fields.mint).toBe('6XXqLtAwn7oBbhT9m3AeVZE2y77LdzuZSHVtWSEDpump');
    expect(m!.fields.mint_amount).toBe('206900000000000');
    expect(m!.fields.sol_amount).toBe('84990359151');
    expect(m!.fields.pool_migration_fee).toBe('15000001');
    expect(ixNames(d)).toEqual(['pump.migrate@2', 'pump_amm.create_pool@2.22']);
    expect(d.instructions[1]!.accounts.pool).toBe(pool);
  });
});

describe('FIX/18 JBnrBb… four buyers in one transaction (json, Sep 2024)', () => {
  const d = decode('pump_2024-09_4-wallet-bundled-buys-one-tx_getTransaction_json_JBnrBb.json');
  it('four TradeEvents from four distinct users, all buys of ED5nyy…', () => {
    // log lines 34, 71, 108, 145: user at bytes 57–89
    const trades = named(d, 'TradeEvent');
    expect(trades.map((t) => t.fields.user)).toEqual([
      'Gh6D6DZcASQLc2XoLpctT74KbRr4nrHF8wNptweckHoA',
      '7SPkzf8DSxdemSKMEEKquRKEYrdDjcuHaQwac5nvnB4b',
      'GdCFP1doq784rQTHJDuvpLchVWoMtJwdAM8MQTCHWTuz',
      '8rL9duqqeBRzZZyiz77xgfzDUdbR99TPjmVk5D1LNHuL',
    ]);
    expect(new Set(d.signers)).toEqual(new Set(trades.map((t) => t.fields.user))); // the 4 signers
    expect(trades.every((t) => t.fields.is_buy === true && t.fields.mint === 'ED5nyyWEzpPPiWimP8vYm7sD7TD3LAt3Q3gRTWHzPJBY')).toBe(true);
    expect(trades.map((t) => t.fields.sol_amount)).toEqual(['386100226', '386820768', '393794276', '404234089']);
  });
});

describe('FIX/19 3S2vFs… truncated logs (jsonParsed, Jan 2025)', () => {
  const d = decode('pump_2025-01_3-wallet-bundled-buys-one-tx_getParsedTransaction_3S2vFs.json');
  it('all five TradeEvents come from the self-CPI inner instructions though the logs show four', () => {
    // the last log line is "Log truncated"; 4 TradeEvent lines survive (34, 71, 108, 145); the inner
    // instruction groups 1, 3, 5, 7, 9 each hold one pump self-CPI TradeEvent (user at event byte 57)
    expect(d.logsTruncated).toBe(true);
    const trades = named(d, 'TradeEvent');
    expect(trades.map((t) => [t.source, t.outerIndex, t.fields.user])).toEqual([
      ['cpi', 1, 'CBFCFmju7azw3pDHXWre24PjvDVrYwDdfgiKejmvJJqj'],
      ['cpi', 3, 'AhRYQBSvkAR5WEr1hDFEz6NwfVKkcS5G37ZM14yFUE8A'],
      ['cpi', 5, 'FspiJ3b2s3xoaGVWVidhi5kKhxuzGUMmk7qGGsF3Bpjv'],
      ['cpi', 7, 'HAZyn8MtsGucsi6kJxwybnVjJxi7BtwriRU1SNB6NVft'],
      ['cpi', 9, 'FQNLpC1RtRioMS7eV2K4hpYrrAaVDAQhY5Cx359bpT1i'],
    ]);
    expect(trades[4]!.fields.token_amount).toBe('217932484410');
    expect(d.instructions.map((i) => i.name)).toEqual(['buy', 'buy', 'buy', 'buy', 'buy']);
  });
});

describe('FIX/17 k1LPbZ… bloXroute create with two buys (json, Aug 2024)', () => {
  const d = decode('pump_2024-08_create+buy_getTransaction_json_k1LPbZ.json');
  it('legacy create + two buys by the creator; CreateEvent 207 B, two TradeEvents', () => {
    // log 62 CreateEvent: name/symbol "Dying Gaul", mint FbBZmw…, user DNfu7y…; logs 99, 136 TradeEvents
    expect(ixNames(d)).toEqual(['pump.create@3', 'pump.buy@5', 'pump.buy@7']);
    const [c] = named(d, 'CreateEvent');
    expect(c!.fields).toMatchObject({ name: 'Dying Gaul', symbol: 'Dying Gaul', mint: 'FbBZmwPFiVisi1WAmqHSzJPXMcFj69HWXtVfzNJSMxzJ', user: 'DNfu7yjqAWMAMcqufTMj9XLSLtKknuN6zP9NvaGA1HJu' });
    expect(named(d, 'TradeEvent').map((t) => [t.fields.user, t.fields.sol_amount, t.fields.token_amount])).toEqual([
      ['DNfu7yjqAWMAMcqufTMj9XLSLtKknuN6zP9NvaGA1HJu', '2000000380', '67062511937500'],
      ['DNfu7yjqAWMAMcqufTMj9XLSLtKknuN6zP9NvaGA1HJu', '100000021', '3133762240070'],
    ]);
  });
});

describe('FIX/23 2o5PQ8… Mayhem create_v2 + buy (base64 in a test-case wrapper, Apr 2026)', () => {
  const d = decode('pump_2026-04_create_v2-mayhem+buy_getTransaction_base64_2o5PQ8.json');
  it('create_v2 in mayhem mode, CreateEvent 297 B, TradeEvent 282 B with ix_name "buy"', () => {
    // log 86 CreateEvent: name "nutt", mint ANiYRP…pump, creator XjxGgb…, token_program Token-2022, is_mayhem_mode byte = 1
    expect(ixNames(d)).toEqual(['pump.create_v2@2', 'pump.buy@4']); // the get_fees CPI at 4.0 is a fee query, not listed
    const [c] = named(d, 'CreateEvent');
    expect(c!.fields).toMatchObject({ name: 'nutt', mint: 'ANiYRP7nVdP9aQP2G84WfvRqx6LT7ejniqEY8eMEpump', creator: 'XjxGgbZW9K6vbgbptY1nz4VnWZ66qxijrRuQYy6sSgi', token_program: 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb', is_mayhem_mode: true });
    expect(d.instructions[0]!.args.is_mayhem_mode).toBe(true);
    const [t] = named(d, 'TradeEvent');
    expect(t!.fields).toMatchObject({ ix_name: 'buy', sol_amount: '80012501', token_amount: '2854168148040', user: 'XjxGgbZW9K6vbgbptY1nz4VnWZ66qxijrRuQYy6sSgi' });
  });
});

describe('after the 2026-10-08 redeploy (FIX/28–32)', () => {
  it('FIX/28 rRUVF4… version 1 (json): multi_hop_swap → multi_hop_curve_swap, TradeEvent "multi_hop_swap", PumpSwap SellEvent', () => {
    const raw = loadFixtureTransaction('pump_multi_hop_swap_curve_rRUVF4GSZNRA_20261008.json');
    expect(raw.version).toBe(1);
    expect(raw.transaction.message.transactionConfig).toBeDefined();
    const d = decode('pump_multi_hop_swap_curve_rRUVF4GSZNRA_20261008.json');
    expect(ixNames(d)).toEqual(['pump_amm.multi_hop_swap@1.0', 'pump.multi_hop_curve_swap@1.1']);
    // log 31: TradeEvent 393 B = the 2026-10 layout (379 B with empty strings) + "multi_hop_swap" (14); a sell of H1yvPE…
    const [t] = named(d, 'TradeEvent');
    expect(t!.fields).toMatchObject({ ix_name: 'multi_hop_swap', is_buy: false, mint: 'H1yvPEHxsEt2qVJK5n12KuvNX1PEYXoJUnTjq8HSpump', token_amount: '873358676512', user: 'EPujGkjmEtH8mGvQdJyZ4wypuEg19Uh7rSzDscTVDS2i' });
    expect(t!.fields).toHaveProperty('creator_fee_unclaimed');
    expect(t).not.toHaveProperty('extraBytes');
    // log 44: SellEvent 441 B, base_amount_in at bytes 16–24
    const [s] = named(d, 'SellEvent');
    expect(s!.program).toBe('pump_amm');
    expect(s!.fields).toMatchObject({ timestamp: '1791485924', base_amount_in: '1570233690951' });
    expect(d.skipped).toEqual([]);
  });

  it('FIX/29 2Sh2z… version 1 (json): buy_exact_quote_in_v2 and its TradeEvent', () => {
    const d = decode('pump_buy_exact_quote_in_v2_2Sh2zTmnse3s_20261008.json');
    expect(ixNames(d)).toEqual(['pump.buy_exact_quote_in_v2@1.0']);
    // log 22: TradeEvent 397 B; its ix_name is "buy_exact_quote_in" (as written on chain, without "_v2")
    const [t] = named(d, 'TradeEvent');
    expect(t!.fields).toMatchObject({ ix_name: 'buy_exact_quote_in', is_buy: true, sol_amount: '987654320', token_amount: '12012769689343', user: '9asBCQqp2o5BicHWPJZJ1RBh8hKQR76rejKgkQkzNwPy' });
    expect(d.signature).toBe('2Sh2zTmnse3svW9jUTDWtyWPZSB1PPTSzMQ6fP1TPkE8YKNdGKXRLBxiA4miZZszLmKDRZoPu7toovyN7bqmPuJk');
  });

  it('FIX/30 3qDvAqx3… old-style buy that completes the curve: TradeEvent + CompleteEvent, no PostCompleteBuyEvent', () => {
    const d = decode('pump_buy_curve_complete_3qDvAqx3Ssut_20261008.json');
    expect(ixNames(d)).toEqual(['pump.buy@7.1']);
    expect(d.events.map((e) => e.name)).toEqual(['TradeEvent', 'CompleteEvent']);
    // log 91: CompleteEvent 144 B (the 2026-10 layout with quote_mint); log 87: TradeEvent 382 B
    const [c] = named(d, 'CompleteEvent');
    expect(c!.fields).toMatchObject({ user: 'F7LqQscxh7NK8S3AJaEZ7vryxvQbqKksQAZKtVgJYwmE', mint: '4FbMtwhidkyyzJLrAVLkCbRcdGdszyp3ygecYZBEpump', bonding_curve: 'B6u4TdwkRtVVLgymfxBZhdR5D1anLMkinp53sWiQhCsa' });
    expect(c!.fields).toHaveProperty('quote_mint');
    expect(named(d, 'TradeEvent')[0]!.fields).toMatchObject({ ix_name: 'buy', sol_amount: '846175043', token_amount: '2074685417265' });
  });

  it('FIX/31 3xkAuEWc… Mayhem → buy: the TradeEvent of the Mayhem agent; Mayhem’s own data line is not ours', () => {
    const d = decode('pump_mayhem_buy_3xkAuEWcRGsQ_20261008.json');
    expect(ixNames(d)).toEqual(['pump.buy@2.0']);
    // log 19: TradeEvent, user = BwWK17… (the Mayhem agent, README); log 25 is a Program data line of
    // MAyhSm… (discriminator 31487b2d6e40b085, 303 B) after pump's frame closed: not decoded, not flagged
    expect(d.events.map((e) => e.name)).toEqual(['TradeEvent']);
    expect(named(d, 'TradeEvent')[0]!.fields).toMatchObject({ user: 'BwWK17cbHxwWBKZkUYvzxLcNQ1YVyaFezduWbtm2de6s', mint: 'AEk7vG265bMhiu1qf8kzmk1S6P8EqKhY6FBRdeZmpump', sol_amount: '47512056' });
    expect(d.skipped).toEqual([]);
  });

  it('FIX/32 Kz7Nk1… router → buy of a holder-reward coin', () => {
    const d = decode('pump_buy_legacy_holder_reward_Kz7Nk1YiVWWj_20261008.json');
    expect(ixNames(d)).toEqual(['pump.buy@3.0']);
    // log 29: TradeEvent 382 B
    const [t] = named(d, 'TradeEvent');
    expect(t!.fields).toMatchObject({ ix_name: 'buy', user: '7fg4UpZBcydz19bmu4hJqHn3Y43LSy45W7NqJEcmmMWd', mint: '3Gk7HitdL5zbHurcn8uSKvoKq9QXaVErsGsVQLKCpump', sol_amount: '9876542', token_amount: '159676340219' });
    expect(t!.fields).toHaveProperty('holder_rewards');
  });
});

/** The structure-only files: `{source, txs:[{signature, slot, mint, synthetic?, program_data_lines, emit_cpi_inner}]}`. */
interface StructureTx {
  signature: string;
  mint: string;
  synthetic?: boolean;
  program_data_lines: string[];
  emit_cpi_inner: { program: string; data: string }[];
}
const structureTxs = (file: string): StructureTx[] => loadFixture(file).txs;
const lineBytes = (line: string): Uint8Array => fromBase64(line.slice('Program data: '.length));

describe('FIX/33–34 structure-only: real 2026-10-09 event bytes', () => {
  const completing = structureTxs('pump_2026-10-09_completing-txs_STRUCTURE-ONLY.json');

  it('every Program data line and every emit_cpi payload decodes; a line equals its self-CPI', () => {
    for (const file of ['pump_2026-10-09_completing-txs_STRUCTURE-ONLY.json', 'pump_2026-10-09_migrate-txs_STRUCTURE-ONLY.json']) {
      for (const tx of structureTxs(file)) {
        expect(tx.emit_cpi_inner).toHaveLength(tx.program_data_lines.length);
        for (const line of tx.program_data_lines) {
          const bytes = lineBytes(line);
          const cpi = tx.emit_cpi_inner.find((c) => sameTail(c.data, bytes));
          expect(cpi, `${tx.signature}: a self-CPI carrying ${line.slice(0, 40)}`).toBeDefined();
          const ev = decodeEventData(cpi!.program === PUMP ? 'pump' : 'pump_amm', bytes);
          expect(ev, `${tx.signature} ${line.slice(0, 40)}`).not.toHaveProperty('skipped');
          if ('skipped' in ev) continue;
          expect(ev.status).toBe('complete');
          expect(ev.extraBytes).toBe(0);
        }
      }
    }
  });

  it('the four synthetic completions carry PostCompleteBuyEvent (232 B) after TradeEvent and CompleteEvent', () => {
    const synthetic = completing.filter((t) => t.synthetic);
    expect(synthetic).toHaveLength(4);
    for (const tx of synthetic) {
      expect(tx.program_data_lines.map((l) => hexOf(lineBytes(l).subarray(0, 8)))).toEqual(['bddb7fd34ee661ee', '5f72619cd42e9808', PCB_DISC]);
      expect(lineBytes(tx.program_data_lines[2]!)).toHaveLength(232); // 8 + 4×32 + 12×8: the 2026-10 layout exactly
    }
    expect(completing.filter((t) => !t.synthetic).every((t) => !t.program_data_lines.some((l) => hexOf(lineBytes(l)).startsWith(PCB_DISC)))).toBe(true);
  });

  it('3hYp997p… PostCompleteBuyEvent decodes to the 2026-10 fields (values read at the DIFF.md offsets)', () => {
    const tx = completing.find((t) => t.signature.startsWith('3hYp997p'))!;
    const ev = decodeEventData('pump', lineBytes(tx.program_data_lines[2]!));
    if ('skipped' in ev) throw new Error(ev.skipped);
    expect(ev.name).toBe('PostCompleteBuyEvent');
    expect(ev.fields).toEqual({
      user: '12TkMFY9UyFYJb6mcXMPdJjXdc6BVMp92g4ekj5fNvUm',
      mint: 'Ar3ip7MiCfxFPcHVvdbNSFRkP1A52FxQ9NLa6zCMEN43',
      bonding_curve: 'BkidX3qayxCaM7S6y5d1nifJ8Z9KsazEX6kTbAdtkz7E',
      quote_mint: DEFAULT_KEY,
      timestamp: '1791530008',
      base_out: '46463173329',
      quote_in: '19090426',
      fee_basis_points: '95',
      fee: '181360',
      creator_fee_basis_points: '30',
      creator_fee: '57272',
      buyback_fee: '90680',
      pool_base_reserves_before: '206900000000000',
      pool_quote_reserves_before: '84990362211',
      pool_base_reserves_after: '206853536826671',
      pool_quote_reserves_after: '85009452637',
    });
    expect(ev.fields.mint).toBe(tx.mint);
  });

  it('relations on the real bytes: base reserves fall by base_out and quote reserves rise by quote_in on all four; the ceil pricing formula holds on one, the other three are 1 above it', () => {
    const rows = completing.filter((t) => t.synthetic).map((tx) => {
      const ev = decodeEventData('pump', lineBytes(tx.program_data_lines[2]!));
      if ('skipped' in ev) throw new Error(ev.skipped);
      const f = ev.fields as Record<string, string>;
      const [bo, qi, pbb, pqb, pba, pqa] = ['base_out', 'quote_in', 'pool_base_reserves_before', 'pool_quote_reserves_before', 'pool_base_reserves_after', 'pool_quote_reserves_after'].map((k) => BigInt(f[k]!));
      const ceil = (pqb! * bo! + (pbb! - bo!) - 1n) / (pbb! - bo!);
      return { baseRel: pbb! - pba! === bo!, quoteRel: pqa! - pqb! === qi!, overCeil: qi! - ceil };
    });
    expect(rows.every((r) => r.baseRel)).toBe(true); // FACTS.md (inference): pool_base_reserves_before − after = base_out
    expect(rows.every((r) => r.quoteRel)).toBe(true); // pool_quote_reserves_after − before = quote_in
    // FACTS.md: quote_in = ceil(pool_quote * out / (pool_base − out)) — exact on 2EgRjJ…, quote_in = ceil + 1 on 3hYp…, 2xw4VY…, 4vsM6t…
    expect(rows.map((r) => r.overCeil).sort()).toEqual([0n, 1n, 1n, 1n]);
  });

  it('one mutated byte of the PostCompleteBuyEvent discriminator makes it unknown: skipped with program pump, kind event, the mutated discriminator', () => {
    const tx = completing.find((t) => t.signature.startsWith('3hYp997p'))!;
    const logs = [`Program ${PUMP} invoke [1]`, 'Program log: Instruction: BuyExactQuoteInV3'];
    for (const line of tx.program_data_lines) {
      const b = lineBytes(line);
      if (hexOf(b.subarray(0, 8)) === PCB_DISC) b[3] ^= 0x01; // 6fb06d8b… → 6fb06d8a…
      logs.push(`Program data: ${toBase64(b)}`);
    }
    logs.push(`Program ${PUMP} success`);
    const d = decodeTransaction({ context: { slot: 454795813 }, value: { signature: tx.signature, err: null, logs } });
    expect(d.events.map((e) => e.name)).toEqual(['TradeEvent', 'CompleteEvent']);
    expect(unrecognisedOf(d)).toEqual([{ where: 'log 4', reason: 'unknown pump event discriminator 6fb06d8a316cd5fb', program: 'pump', kind: 'event', discriminator: '6fb06d8a316cd5fb' }]);
  });
});

describe('a CONSTRUCTED version 1 buy_v3 that completes the curve (json; no real v3 transaction is public yet)', () => {
  /** Borsh writer for the test's hand-encoded layouts (shared/chain/idl/2026-10/DIFF.md). */
  class W {
    private readonly parts: number[] = [];
    hex(h: string): this {
      this.parts.push(...Buffer.from(h, 'hex'));
      return this;
    }
    key(k: string): this {
      this.parts.push(...fromBase58(k));
      return this;
    }
    u64(v: bigint | number): this {
      const b = Buffer.alloc(8);
      b.writeBigUInt64LE(BigInt(v));
      this.parts.push(...b);
      return this;
    }
    u8(v: number): this {
      this.parts.push(v);
      return this;
    }
    str(s: string): this {
      const b = Buffer.from(s, 'utf8');
      const n = Buffer.alloc(4);
      n.writeUInt32LE(b.length);
      this.parts.push(...n, ...b);
      return this;
    }
    bytes(): Uint8Array {
      return Uint8Array.from(this.parts);
    }
  }
  const user = 'EPujGkjmEtH8mGvQdJyZ4wypuEg19Uh7rSzDscTVDS2i';
  const mint = 'Ar3ip7MiCfxFPcHVvdbNSFRkP1A52FxQ9NLa6zCMEN43';
  const curve = 'BkidX3qayxCaM7S6y5d1nifJ8Z9KsazEX6kTbAdtkz7E';
  const ts = 1791530008;
  // TradeEvent, 35 fields in IDL order (the curve part: what the curve had left)
  const trade = new W().hex('bddb7fd34ee661ee').key(mint).u64(84_990_000_000).u64(206_900_000_000_000).u8(1).key(user).u64(ts)
    .u64(115_005_000_000).u64(279_900_000_000_000).u64(84_990_000_000).u64(0).key(DEFAULT_KEY).u64(95).u64(807_405_000)
    .key(user).u64(30).u64(254_970_000).u8(0).u64(0).u64(0).u64(0).u64(0).str('buy_v3').u8(0).u64(0).u64(0).u64(0).u64(0)
    .hex('00000000').key(DEFAULT_KEY).u64(84_990_000_000).u64(115_005_000_000).u64(84_990_000_000).u64(0).u64(0).u64(254_970_000).bytes();
  const complete = new W().hex('5f72619cd42e9808').key(user).key(mint).key(curve).u64(ts).key(DEFAULT_KEY).bytes();
  const post = new W().hex(PCB_DISC).key(user).key(mint).key(curve).key(DEFAULT_KEY).u64(ts).u64(1_000_000).u64(410_799).u64(95)
    .u64(3_903).u64(30).u64(1_233).u64(1_952).u64(206_900_000_000_000).u64(84_990_000_000).u64(206_899_999_000_000).u64(84_990_410_799).bytes();
  const keys = [user, 'GMgnVFR8Jb39LoXsEVzb3DvBy3ywCmdmJquHUy1Lrkqb', mint, curve, EVENT_AUTHORITY, PUMP];
  const buyV3 = new W().hex('07051dc4f5176550').u64(206_901_000_000_000).u64(90_000_000_000).u8(1).bytes();
  const cpi = (ev: Uint8Array) => ({ programIdIndex: 5, accounts: [4], data: toBase58(Uint8Array.from([...Buffer.from('e445a52e51cb9a1d', 'hex'), ...ev])), stackHeight: 2 });
  const raw = {
    slot: 454795813,
    blockTime: ts,
    version: 1,
    transaction: {
      signatures: ['1111111111111111111111111111111111111111111111111111111111111111'],
      message: {
        accountKeys: keys,
        header: { numRequiredSignatures: 1, numReadonlySignedAccounts: 0, numReadonlyUnsignedAccounts: 2 },
        recentBlockhash: DEFAULT_KEY,
        instructions: [{ programIdIndex: 5, accounts: [1, 2, 1, 1, 1, 3, 1, 1, 0, 1, 1, 1, 1, 1, 1, 4, 5], data: toBase58(buyV3), stackHeight: 1 }],
        transactionConfig: { computeUnitLimit: 200000, heapSize: null, loadedAccountsDataSizeLimit: 67108864, priorityFee: 1000 },
      },
    },
    meta: {
      err: null,
      innerInstructions: [{ index: 0, instructions: [cpi(trade), cpi(complete), cpi(post)] }],
      logMessages: [
        `Program ${PUMP} invoke [1]`,
        'Program log: Instruction: BuyV3',
        `Program data: ${toBase64(trade)}`,
        `Program ${PUMP} invoke [2]`,
        `Program ${PUMP} success`,
        `Program data: ${toBase64(complete)}`,
        `Program ${PUMP} invoke [2]`,
        `Program ${PUMP} success`,
        `Program data: ${toBase64(post)}`,
        `Program ${PUMP} invoke [2]`,
        `Program ${PUMP} success`,
        `Program ${PUMP} success`,
      ],
      preTokenBalances: [],
      postTokenBalances: [],
      loadedAddresses: { writable: [], readonly: [] },
    },
  };

  it('names buy_v3 with its args and reads the three events in order, on both paths', () => {
    const d = decodeTransaction(structuredClone(raw));
    expect(decodeTransaction(structuredClone(raw), { pairLogEvents: false })).toEqual(d);
    expect(d.instructions).toHaveLength(1);
    expect(d.instructions[0]).toMatchObject({ program: 'pump', name: 'buy_v3', inner: false, path: '0', args: { amount: '206901000000000', max_sol_cost: '90000000000', partial_fill: true } });
    expect(d.instructions[0]!.accounts).toMatchObject({ base_mint: mint, bonding_curve: curve, user, event_authority: EVENT_AUTHORITY, program: PUMP });
    expect(d.events.map((e) => [e.name, e.source])).toEqual([['TradeEvent', 'cpi'], ['CompleteEvent', 'cpi'], ['PostCompleteBuyEvent', 'cpi']]);
    expect(d.events[0]!.fields).toMatchObject({ ix_name: 'buy_v3', token_amount: '206900000000000', creator_fee_unclaimed: '254970000' });
    expect(d.events[1]!.fields).toEqual({ user, mint, bonding_curve: curve, timestamp: String(ts), quote_mint: DEFAULT_KEY });
    expect(d.events[2]!.fields).toMatchObject({ base_out: '1000000', quote_in: '410799', pool_base_reserves_after: '206899999000000', pool_quote_reserves_after: '84990410799' });
    expect(d.events.some((e) => 'extraBytes' in e)).toBe(false);
    expect(d.skipped).toEqual([]);
    expect(d.jitoTipLamports).toBe('0');
  });
});

function hexOf(b: Uint8Array): string {
  return Buffer.from(b).toString('hex');
}

/** Whether base58 emit_cpi data is EVENT_IX_TAG ‖ `bytes`. */
function sameTail(data58: string, bytes: Uint8Array): boolean {
  const d = fromBase58(data58);
  return hexOf(d.subarray(8)) === hexOf(bytes);
}

describe('every instruction and event of the three 2026-10 IDLs is known to the decoder', () => {
  // read straight from the IDL files (src/core/idl): names and discriminators, not the decoder's registries
  const idls = [
    ['pump', PUMP, pumpIdl],
    ['pump_amm', 'pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA', pumpAmmIdl],
    ['pump_fees', 'pfeeUxB6jkeY1Hxd7CsFCAjcbHA9rWtchMGdZ6VojVZ', pumpFeesIdl],
  ] as const;

  for (const [program, programId, idl] of idls) {
    it(`${program}: ${idl.instructions.length} instructions and ${idl.events.length} events, each decodes by name from its discriminator and zeroed fields`, () => {
      const zeros = new Uint8Array(4096);
      for (const ix of idl.instructions) {
        const data = Uint8Array.from([...ix.discriminator, ...zeros]);
        const d = decodeInstruction(programId, data, []);
        expect(d, `${program}.${ix.name}`).toMatchObject({ program, name: ix.name });
        expect(Object.keys((d as { args: object }).args)).toEqual(ix.args.map((a: { name: string }) => a.name));
      }
      for (const ev of idl.events) {
        const e = decodeEventData(program, Uint8Array.from([...ev.discriminator, ...zeros]));
        expect(e, `${program} ${ev.name}`).toMatchObject({ program, name: ev.name, status: 'complete' });
      }
    });
  }

  it('the 2026-10 additions are among them (DIFF.md): buy_v3, sell_v3, buy_exact_quote_in_v3, multi_hop_curve_swap, sweep_*; PostCompleteBuyEvent, SweepBondingCurveFeeEvent, SweepPoolFeeEvent', () => {
    const names = (idl: { instructions: { name: string }[] }) => idl.instructions.map((i) => i.name);
    expect(names(pumpIdl)).toEqual(expect.arrayContaining(['buy_v3', 'sell_v3', 'buy_exact_quote_in_v3', 'multi_hop_curve_swap', 'sweep_creator_fee', 'sweep_protocol_fee']));
    expect(names(pumpAmmIdl)).toEqual(expect.arrayContaining(['multi_hop_swap']));
    expect(pumpIdl.events.map((e) => e.name)).toEqual(expect.arrayContaining(['PostCompleteBuyEvent', 'SweepBondingCurveFeeEvent']));
    expect(pumpAmmIdl.events.map((e) => e.name)).toEqual(expect.arrayContaining(['SweepPoolFeeEvent']));
  });
});
