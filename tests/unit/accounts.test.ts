/**
 * Account decoders over the account fixtures in tests/fixtures/mainnet (FIX/3, FIX/9, FIX/15 transcribed).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeBondingCurve, decodePool, decodeProgramAccount, decodeTokenAccount, fromBase64 } from '../../src/core/decode/index.ts';
import { BUYBACK_FEE_RECIPIENTS, PUMP_AMM_PROGRAM_ID, PUMP_PROGRAM_ID, WSOL_MINT } from '../../src/core/programs.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const load = (f: string): any => JSON.parse(readFileSync(new URL(`../fixtures/mainnet/${f}`, import.meta.url), 'utf8'));
const DEFAULT_KEY = '11111111111111111111111111111111';

const f15 = load('pumpswap_2026_graduated-curve+pool+config_accounts.TRANSCRIBED.json');
const acc = (k: string) => fromBase64(f15.accounts[k].data);
const CURVE15 = '3gssU4VTiBwWWsovxhhgGNjBqY7gMbjdUkhwpdEJsmVM';
const POOL15 = 'B9WYSKaLDWnegupPNG1h99XiiokMUYj6k64Dbqv18qr8';
const CONFIG = 'ADyA8hdefvWN2dbGGWFotbzWxrAvLW83WG6QCVXvJKqw';
const BASE_VAULT = 'j6iUvMo6Z2yivpHmsME2nXrafjbhtbCJqdevsJstunV';
const QUOTE_VAULT = 'C3FQnUxE56fXfbTZTFLvddizyrQqXJsG7VRTvdSPk3uU';

describe('BondingCurve', () => {
  it('FIX/3: 49-byte legacy curve, no creator', () => {
    const data = fromBase64(load('pump_2024-08_bonding-curve_getAccountInfo.json').result.value.data[0]);
    expect(data.length).toBe(49);
    const c = decodeBondingCurve(data)!;
    expect(c.status).toBe('short');
    expect(c.fields).toEqual({
      virtual_token_reserves: '1070419577927421',
      virtual_quote_reserves: '30072319932',
      real_token_reserves: '790519577927421',
      real_quote_reserves: '72319932',
      token_total_supply: '1000000000000000',
      complete: false,
    });
    expect(c.fields).not.toHaveProperty('creator');
  });

  it('FIX/9: 151-byte curve, creator 5htGpH…, cashback coin, SOL quote; padding is not decoded', () => {
    const data = fromBase64(load('pump_2026-07_bonding-curve_getAccountInfo.json').result.value.data[0]);
    expect(data.length).toBe(151);
    const c = decodeBondingCurve(data)!;
    expect(c.fields).toEqual({
      virtual_token_reserves: '1045502991298183',
      virtual_quote_reserves: '30789008086',
      real_token_reserves: '765602991298183',
      real_quote_reserves: '789008086',
      token_total_supply: '1000000000000000',
      complete: false,
      creator: '5htGpHK2oV9g2BcDqLdRBqjCLdy8mc3fsESfR5DU73eM',
      is_mayhem_mode: false,
      is_cashback_coin: true,
      quote_mint: DEFAULT_KEY,
      creator_fee_bps: '0',
      can_edit_creator_fee: false,
      is_holder_reward: false,
    });
    expect(c).toMatchObject({ status: 'complete', dataLength: 151, extraBytes: 26 });
    expect(decodeProgramAccount(PUMP_PROGRAM_ID, data)).toEqual(c);
  });

  it('FIX/15: graduated curve — complete, reserves 0', () => {
    const c = decodeBondingCurve(acc(CURVE15))!;
    expect(c.fields).toMatchObject({
      complete: true,
      virtual_token_reserves: '0',
      virtual_quote_reserves: '0',
      real_token_reserves: '0',
      real_quote_reserves: '0',
      token_total_supply: '1000000000000000',
      creator: 'AzAfVMVd7AdD4gZuvPTYa25K5z8Sk9hr7LAPz3wRo7Mf',
      quote_mint: DEFAULT_KEY,
    });
  });

  it('a 166-byte v3 curve (constructed: FIX/9 padded with a tail) reads the v3 fields', () => {
    const base = fromBase64(load('pump_2026-07_bonding-curve_getAccountInfo.json').result.value.data[0]);
    const data = new Uint8Array(166);
    data.set(base.subarray(0, 125));
    const view = new DataView(data.buffer);
    view.setBigUint64(125, 1234n, true); // creator_fee
    view.setBigUint64(133, 99n, true); // protocol_fees
    data[141] = 2; // depth
    view.setBigUint64(142, 30_000_000_000n, true);
    const c = decodeBondingCurve(data)!;
    expect(c.status).toBe('complete');
    expect(c.fields).toMatchObject({ creator_fee: '1234', protocol_fees: '99', depth: 2, initial_virtual_quote_reserves: '30000000000', post_complete_base_out: '0', post_complete_quote_in: '0' });
  });

  it('wrong discriminator or short data → null', () => {
    expect(decodeBondingCurve(acc(POOL15))).toBeNull();
    expect(decodeBondingCurve(new Uint8Array(4))).toBeNull();
    expect(decodeProgramAccount('11111111111111111111111111111111', acc(CURVE15))).toBeNull();
  });
});

describe('PumpSwap Pool and GlobalConfig (FIX/15, transcribed)', () => {
  it('decodes the canonical pool: index 0, coin_creator = curve creator, signed i128 virtual_quote_reserves', () => {
    const p = decodePool(acc(POOL15))!;
    expect(p.name).toBe('Pool');
    expect(p.fields).toEqual({
      pool_bump: 254,
      index: 0,
      creator: '2fbtcTNFnEn5oRi4m8PjfTiS6UN5DrbpJY7RuQnyCbaf',
      base_mint: f15.mint,
      quote_mint: WSOL_MINT,
      lp_mint: 'EqaiGZobbyGwa52okUKpReJqkKXGVyuBBFRskHFxHACq',
      pool_base_token_account: BASE_VAULT,
      pool_quote_token_account: QUOTE_VAULT,
      lp_supply: '4193388282752',
      coin_creator: decodeBondingCurve(acc(CURVE15))!.fields.creator,
      is_mayhem_mode: false,
      is_cashback_coin: false,
      virtual_quote_reserves: '17584505289',
      creator_fee_bps: '0',
      can_edit_creator_fee: false,
      is_holder_reward: false,
      // appended in the 2026-10 IDL (fees waiting for a sweep); this 301-byte account holds them, zero
      protocol_fees: '0',
      creator_fees: '0',
    });
    expect(p.extraBytes).toBe(301 - 287);
    expect(decodeProgramAccount(PUMP_AMM_PROGRAM_ID, acc(POOL15))).toEqual(p);
    // i128 is signed: a negative value (constructed by overwriting the 16 bytes at offset 245)
    const neg = Uint8Array.from(acc(POOL15));
    neg.fill(0xff, 245, 261);
    expect(decodePool(neg)!.fields.virtual_quote_reserves).toBe('-1');
    expect(decodePool(acc(CURVE15))).toBeNull();
  });

  it('decodes GlobalConfig to exactly 949 bytes with the documented fee recipients', () => {
    const g = decodeProgramAccount(PUMP_AMM_PROGRAM_ID, acc(CONFIG))!;
    expect(g).toMatchObject({ name: 'GlobalConfig', status: 'complete', dataLength: 949, extraBytes: 0 });
    expect(g.fields).toMatchObject({ lp_fee_basis_points: '20', protocol_fee_basis_points: '5', coin_creator_fee_basis_points: '5', mayhem_mode_enabled: true, is_cashback_enabled: true });
    expect(g.fields.buyback_fee_recipients).toEqual(BUYBACK_FEE_RECIPIENTS);
    expect(g.fields.protocol_fee_recipients).toEqual([
      '62qc2CNXwrYqQScmEdiZFFAnJR262PxWEuNQtxfafNgV',
      '7VtfL8fvgNfhz17qKRMjzQEXgbdpnHHHQRh54R9jP2RJ',
      '7hTckgnGnLQR6sdH7YkqFTAA7VwTfYFaZ6EhEsU3saCX',
      '9rPYyANsfQZw3DnDmKE3YCQF5E8oD89UXoHn9JFEhJUz',
      'AVmoTthdrX6tKt4nDjco2D775W2YK3sDhxPcMmzUAmTY',
      'FWsW1xNtWscwNmKv6wVsU1iTzRN6wmmk3MjxRP5tT7hz',
      'G5UZAVbAf46s7cKWoyKu8kYTip9DGTpbLZ2qa9Aq69dP',
      'JCRGumoE9Qi5BBgULTgdgTLjSgkCMSbF62ZZfGs84JeU',
    ]);
    expect(g.fields.whitelist_pda).toBe('BwWK17cbHxwWBKZkUYvzxLcNQ1YVyaFezduWbtm2de6s');
  });
});

describe('token accounts (FIX/15 vaults)', () => {
  it('decodes the Token-2022 base vault and the WSOL quote vault', () => {
    expect(decodeTokenAccount(acc(BASE_VAULT))).toEqual({ mint: f15.mint, owner: POOL15, amount: '193377869697216', state: 1 });
    expect(decodeTokenAccount(acc(QUOTE_VAULT))).toEqual({ mint: WSOL_MINT, owner: POOL15, amount: '73700738380', state: 1 });
  });

  it('rejects short data and mints', () => {
    expect(decodeTokenAccount(new Uint8Array(40))).toBeNull();
    expect(decodeTokenAccount(new Uint8Array(82))).toBeNull();
    const mint2022 = new Uint8Array(200);
    mint2022[165] = 1;
    expect(decodeTokenAccount(mint2022)).toBeNull();
  });
});
