/**
 * Decoder tests over every transaction / instruction fixture in tests/fixtures/mainnet (see its README),
 * plus inputs derived from them in the test, and a few constructed byte layouts (said so where used).
 */
import { readFileSync } from 'node:fs';
import { getCompiledTransactionMessageDecoder, getTransactionDecoder } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { formatDecode, runDecode } from '../../collector/commands/decode.ts';
import { programFrameLine, scanLogs } from '../../src/core/decode/events.ts';
import { toBase58Address } from '../../src/core/decode/bytes.ts';
import {
  decodeCpiEvent,
  decodeEventData,
  decodeInstruction,
  decodeLogsNotification,
  decodeTransaction,
  decodeWireTransaction,
  fromBase58,
  fromBase64,
  fromHex,
  toBase58,
  toBase64,
} from '../../src/core/decode/index.ts';
import { PUMP_AMM_PROGRAM_ID, PUMP_PROGRAM_ID } from '../../src/core/programs.ts';
import type { DecodedTransaction } from '../../src/core/types.ts';

const DIR = new URL('../fixtures/mainnet/', import.meta.url);
const path = (f: string) => new URL(f, DIR).pathname;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const load = (f: string): any => JSON.parse(readFileSync(new URL(f, DIR), 'utf8'));

const F1 = 'pump_2024-08_create+buy_getTransaction_jsonParsed.json';
const F2 = 'pump_2024-08_buy+sell_getTransaction_jsonParsed.json';
const F5 = 'pump_2024-09_sell_getParsedTransaction.json';
const F7 = 'pump_2026-07_create_v2+extend+buy_exact_sol_in_getTransaction_jsonParsed.json';
const F10 = 'pump_2026-07_create_v2+buy_blockSubscribe_base64.json';

const DEFAULT_KEY = '11111111111111111111111111111111';
const TRADE_DISC = 'bddb7fd34ee661ee';
const CREATE_DISC = '1b72a94ddeeb6376';

/** Byte length of each self-CPI event payload (after tag + event disc) in a fixture's json/jsonParsed meta, by event disc. */
function cpiPayloadSizes(fixture: unknown): Record<string, number[]> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const r: any = (fixture as any).result ?? fixture;
  const out: Record<string, number[]> = {};
  for (const g of r.meta.innerInstructions) {
    for (const ix of g.instructions) {
      if (typeof ix.data !== 'string') continue;
      const b = fromBase58(ix.data);
      if (Buffer.from(b.subarray(0, 8)).toString('hex') !== 'e445a52e51cb9a1d') continue;
      const disc = Buffer.from(b.subarray(8, 16)).toString('hex');
      (out[disc] ??= []).push(b.length - 16);
    }
  }
  return out;
}

const names = (d: DecodedTransaction) => d.instructions.map((i) => i.name);
const eventsNamed = (d: DecodedTransaction, n: string) => d.events.filter((e) => e.name === n);

describe('2026-07 create_v2 + extend_account + buy_exact_sol_in (FIX/7, jsonParsed v0 with ALTs)', () => {
  const raw = load(F7);
  const d = decodeTransaction(raw);
  const creator = '5htGpHK2oV9g2BcDqLdRBqjCLdy8mc3fsESfR5DU73eM';
  const mint = 'CWiTGbCiDd8BKtNYNE2boT9fJGFG2MU53Uf6HQk4pump';

  it('has the transaction identity', () => {
    expect(d.signature).toBe('2RoRJxatbF9Qkv87jei19u7ei2ckyjjnrCHZBRRAXi4GFJi68kra2iPSk7aoQ9Ugnf5FK5Mdp274hMaVSzn6SN5M');
    expect(d.slot).toBe(435946190);
    expect(d.blockTime).toBe(1785327618);
    expect(d.err).toBeNull();
    expect(d.signers).toEqual([creator, mint]);
    expect(d.accountKeys).toHaveLength(raw.result.transaction.message.accountKeys.length);
    expect(d.skipped).toEqual([]);
    expect(d.logsTruncated).toBe(false);
    expect(d.fromLogsOnly).toBe(false);
  });

  it('finds create_v2, extend_account and buy_exact_sol_in with IDL account names and args', () => {
    expect(names(d)).toEqual(['create_v2', 'extend_account', 'buy_exact_sol_in']);
    const [create, extend, buy] = d.instructions;
    expect(create).toMatchObject({ program: 'pump', inner: false, path: '2' });
    expect(create.accounts.mint).toBe(mint);
    expect(create.accounts.user).toBe(creator);
    expect(create.accounts.token_program).toBe('TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb');
    expect(Object.keys(create.accounts)).toHaveLength(16); // 19 passed; the 3 remaining quote accounts are ignored
    expect(create.args).toEqual({
      name: 'The Ass Statue',
      symbol: 'TAS',
      uri: 'https://meta.uxento.io/data/714b0bec-90cb-4cbb-9598-b7bcbcd3bd06',
      creator,
      is_mayhem_mode: false,
      is_cashback_enabled: true,
    });
    expect(extend).toMatchObject({ name: 'extend_account', path: '3', args: {} });
    expect(extend.accounts.account).toBe('3jJ83NDorkbFkF1JKbEfFWGeX16aXUiwby9RwJm9kat3');
    expect(buy.path).toBe('5');
    expect(buy.accounts.user).toBe(creator);
    expect(buy.accounts.mint).toBe(mint);
    expect(buy.args).toEqual({ spendable_sol_in: '3000000000', min_tokens_out: '95594545454545', track_volume: false });
  });

  it('decodes each event once (CPI + log de-duplicated), with the 2026 layouts', () => {
    expect(d.events.map((e) => [e.name, e.source, e.outerIndex])).toEqual([
      ['CreateEvent', 'cpi', 2],
      ['ExtendAccountEvent', 'cpi', 3],
      ['TradeEvent', 'cpi', 5],
    ]);
    const sizes = cpiPayloadSizes(raw);
    expect(sizes[CREATE_DISC]).toEqual([335]);
    expect(sizes[TRADE_DISC]).toEqual([363]);

    const ce = eventsNamed(d, 'CreateEvent')[0].fields;
    expect(ce.creator).toBe(creator);
    expect(ce.user).toBe(creator);
    expect(ce.mint).toBe(mint);
    expect(ce.token_program).toBe('TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb');
    expect(ce.quote_mint).toBe(DEFAULT_KEY);
    expect(ce.token_total_supply).toBe('1000000000000000');
    expect(ce.virtual_quote_reserves).toBe('30000000000');
    expect(ce).not.toHaveProperty('creator_fee_bps'); // newer than this 335-byte layout

    const ext = eventsNamed(d, 'ExtendAccountEvent')[0].fields;
    expect(ext).toMatchObject({ current_size: '115', new_size: '151' });

    const te = eventsNamed(d, 'TradeEvent')[0].fields;
    expect(te.ix_name).toBe('buy_exact_sol_in');
    expect(te.user).toBe(creator);
    expect(te.is_buy).toBe(true);
    expect(te.token_amount).toBe('96449438144093');
    expect(te.sol_amount).toBe('2962962962'); // ≈ 2.963 SOL
    expect(Number(te.token_amount) / 1e15).toBeCloseTo(0.09645, 5); // 9.645% of supply
    expect(te.fee_basis_points).toBe('95');
    expect(te.cashback_fee_basis_points).toBe('30');
    expect(te.buyback_fee_basis_points).toBe('5000');
    expect(te.shareholders).toEqual([]);
    expect(te.quote_mint).toBe(DEFAULT_KEY);
    expect(te.real_quote_reserves).toBe('2962962962');
    expect(te).not.toHaveProperty('holder_rewards_bps');
  });

  it('maps token balances with raw amounts', () => {
    const ata = d.postTokenBalances.find((b) => b.owner === creator);
    expect(ata).toMatchObject({ mint, amount: '96449438144093', decimals: 6 });
    expect(ata!.account).toBe(d.accountKeys[ata!.accountIndex]);
  });

  it('formats the lpa decode output shape exactly', () => {
    const f = formatDecode(d);
    expect(Object.keys(f)).toEqual(['signature', 'slot', 'blockTime', 'instructions', 'events']);
    expect(Object.keys(f.instructions[0])).toEqual(['program', 'name', 'inner', 'accounts', 'args']);
    expect(Object.keys(f.events[0])).toEqual(['program', 'name', 'fields']);
    expect(f.events[2].fields.token_amount).toBe('96449438144093');
  });
});

describe('2024-08 create + buy (FIX/1, legacy layouts)', () => {
  const raw = load(F1);
  const d = decodeTransaction(raw);
  const user = 'Fswrw3tgQL597kCexxLEhft6a7Su4CDoqwRMqqj4BEp5';
  const mint = 'ER2N5eaDoC68kNhj7LyaScimzq7deaqxiw88rewvxaKp';

  it('decodes the legacy create (no creator arg) and the 12-account buy', () => {
    expect(d.signature).toBe('52ar89rghM8EwKZkxFnBMC4LaMReqtVdpxqXxGWBCMYV1DnYdLrdsqJo8Hbn9KjVpckAokqGNHzTSVfK5xuLepdC');
    expect(d.slot).toBe(284682639);
    expect(d.blockTime).toBe(1724128600);
    expect(d.signers).toEqual([user, mint]);
    expect(names(d)).toEqual(['create', 'buy']);
    const [create, buy] = d.instructions;
    expect(create.args).toEqual({ name: 'excited', symbol: 'excited', uri: 'https://cf-ipfs.com/ipfs/QmcDiP9wAZ8QeijrNrtwLeMGk46vKAAe8yvfWtumBZbURq' });
    expect(create.args).not.toHaveProperty('creator');
    expect(create.accounts.mint).toBe(mint);
    expect(create.accounts.user).toBe(user);
    expect(Object.keys(buy.accounts)).toHaveLength(12);
    expect(buy.accounts.rent).toBe('SysvarRent111111111111111111111111111111111'); // 2024: rent where creator_vault is now
    expect(buy.accounts).not.toHaveProperty('creator_vault');
    expect(buy.args).toEqual({ amount: '37951768488745', max_sol_cost: '1111000000' });
  });

  it('decodes the 193-byte CreateEvent (6 fields) and the 121-byte TradeEvent (10 fields)', () => {
    const sizes = cpiPayloadSizes(raw);
    expect(sizes[CREATE_DISC]).toEqual([193]);
    expect(sizes[TRADE_DISC]).toEqual([121]);
    expect(d.events.map((e) => [e.name, e.source])).toEqual([
      ['CreateEvent', 'cpi'],
      ['TradeEvent', 'cpi'],
    ]);
    const ce = d.events[0].fields;
    expect(Object.keys(ce)).toEqual(['name', 'symbol', 'uri', 'mint', 'bonding_curve', 'user']);
    expect(ce).not.toHaveProperty('creator');
    expect(ce.bonding_curve).toBe('FFzxakVNzpirwMFtLyD22UZ6UM3KLF2EAGC2RxNPaYoH');
    const te = d.events[1].fields;
    expect(Object.keys(te)).toHaveLength(10);
    expect(te).not.toHaveProperty('fee_recipient');
    expect(te).not.toHaveProperty('fee');
    expect(te).not.toHaveProperty('creator_fee');
    expect(te).toMatchObject({ user, mint, is_buy: true, token_amount: '37951768488745', sol_amount: '1100000000', real_token_reserves: '755148231511255' });
  });

  it('without inner instructions, falls back to the log events (same fields)', () => {
    const copy = structuredClone(raw);
    copy.result.meta.innerInstructions = [];
    const l = decodeTransaction(copy);
    expect(l.events.map((e) => [e.name, e.source, e.outerIndex])).toEqual([
      ['CreateEvent', 'log', 3],
      ['TradeEvent', 'log', 5],
    ]);
    expect(l.events.map((e) => e.fields)).toEqual(d.events.map((e) => e.fields));
  });
});

describe('2024-08 buy + sell by one wallet (FIX/2)', () => {
  const d = decodeTransaction(load(F2));
  it('has exactly one buy and one sell TradeEvent by 2vr538…', () => {
    const wallet = '2vr538qDgHCPYmr2mjt5LSjQ3kBYjtw3SDSveUKBVkef';
    expect(d.signature).toBe('33LHUzKfhBvU68kYib22oFx2XdQKQZ2sfvTmmdCFEr6YidyP8S3WwAurjz6Suewvr2WUByV79K3stNCZDe7wq3De');
    expect(d.slot).toBe(284677332);
    expect(names(d)).toEqual(['buy', 'sell']);
    const trades = eventsNamed(d, 'TradeEvent');
    expect(trades).toHaveLength(2);
    expect(trades.map((t) => [t.fields.is_buy, t.fields.user, t.fields.token_amount])).toEqual([
      [true, wallet, '605426095720'],
      [false, wallet, '605426095720'],
    ]);
    expect(trades.every((t) => t.fields.mint === 'HfJVjBdkhAD2ynVM8PdTSii4ECZdsxNTCx5wpEqUpump')).toBe(true);
    const sell = d.instructions[1];
    expect(sell.accounts.associated_token_program).toBe('ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL'); // 2024 sell[8]
    expect(sell.args).toEqual({ amount: '605426095720', min_sol_output: '12032' });
  });
});

describe('2024-09 sell, result object without envelope (FIX/5)', () => {
  const raw = load(F5);
  const d = decodeTransaction(raw);
  it('has one sell', () => {
    expect(d.signature).toBe('3tJczs8y2bR8tVALRQZBZFihn2gZ9EWJuHgKQiyiWawr3aCNekd76BNX78fero23nv4afmsuE5Rsa99RccCijWy5');
    expect(d.slot).toBe(288224272);
    expect(names(d)).toEqual(['sell']);
    const trades = eventsNamed(d, 'TradeEvent');
    expect(trades).toHaveLength(1);
    expect(trades[0].fields).toMatchObject({
      is_buy: false,
      mint: 'FstBRGMkNKf4wNvfieYUPS9YsbNoQJMCh6v89zajpump',
      user: '3P2pmfQAFTwcC1xWtYbVYoRn3hngya8Kd9jMaF5GfnUa',
      token_amount: '94443000000',
      sol_amount: '3556271',
    });
  });

  it('a failed copy (meta.err set) still decodes, with err non-null', () => {
    const copy = structuredClone(raw);
    copy.meta.err = { InstructionError: [3, { Custom: 6003 }] };
    const f = decodeTransaction(copy);
    expect(f.err).toEqual({ InstructionError: [3, { Custom: 6003 }] });
    expect(names(f)).toEqual(['sell']);
  });

  it('a logsNotification built from its logMessages yields its TradeEvent (derived in the test)', () => {
    const note = {
      jsonrpc: '2.0',
      method: 'logsNotification',
      params: { result: { context: { slot: 288224272 }, value: { signature: d.signature, err: null, logs: raw.meta.logMessages } }, subscription: 7 },
    };
    for (const input of [note, note.params.result, note.params.result.value]) {
      const l = decodeLogsNotification(input);
      expect(l.fromLogsOnly).toBe(true);
      expect(l.accountKeys).toEqual([]);
      expect(l.blockTime).toBeNull();
      expect(l.signature).toBe(d.signature);
      expect(l.instructions.map((i) => [i.program, i.name, i.path, i.inner])).toEqual([['pump', 'sell', '3', false]]);
      expect(l.events).toHaveLength(1);
      expect(l.events[0]).toMatchObject({ name: 'TradeEvent', source: 'log', outerIndex: 3 });
      expect(l.events[0].fields).toEqual(d.events[0].fields);
    }
    expect(decodeLogsNotification(note).slot).toBe(288224272);
    expect(decodeLogsNotification(note.params.result.value).slot).toBeNull();
    expect(decodeTransaction(note).fromLogsOnly).toBe(true);
  });
});

describe('2026-07 blockSubscribe element, base64 wire v0 (FIX/10)', () => {
  const raw = load(F10);
  const d = decodeTransaction(raw);
  const mint = '7YD6ZHb39jGb33ki2iFd7kHK11yMkSFCc9kvjJscpump';
  const creator = '5zsxd4pGNCQpwyKiBWZ95nCTPsEPoS62xEGnjpW6FRy7';

  it('decodes the wire transaction; slot and blockTime are null', () => {
    expect(d.signature).toBe('5EDHe12KqokKkhDLY8n5cs7hYs5g49mNFTMKHARafs9FMVBYcG1rYf7VD4h1zd19G7zaXGNLqqyTsczPXbbafYuZ');
    expect(d.slot).toBeNull();
    expect(d.blockTime).toBeNull();
    expect(d.signers).toEqual([creator, mint]);
    expect(names(d)).toEqual(['create_v2', 'buy']);
    expect(d.instructions[0].accounts.mint).toBe(mint);
    expect(d.instructions[0].args.creator).toBe(creator);
    expect(d.instructions[1].args).toEqual({ amount: '3520371073923', max_sol_cost: '108000000' });
    expect(d.skipped).toEqual([]);
  });

  it('has the 346-byte CreateEvent and the 350-byte TradeEvent', () => {
    expect(cpiPayloadSizes(raw)).toEqual({ [CREATE_DISC]: [346], [TRADE_DISC]: [350] }); // json-form meta: data is base58 too
    expect(d.events.map((e) => [e.name, e.source, e.outerIndex])).toEqual([
      ['CreateEvent', 'cpi', 0],
      ['TradeEvent', 'cpi', 2],
    ]);
    expect(d.events[0].fields).toMatchObject({ mint, creator, user: creator, timestamp: '1785328607' });
    expect(d.events[1].fields).toMatchObject({ mint, user: creator, is_buy: true, ix_name: 'buy', token_amount: '3520371073923' });
  });

  it('agrees with @solana/kit on the wire message', () => {
    const bytes = fromBase64(raw.transaction[0]);
    const mine = decodeWireTransaction(bytes);
    const kitTx = getTransactionDecoder().decode(bytes);
    const kitMsg = getCompiledTransactionMessageDecoder().decode(kitTx.messageBytes) as unknown as {
      staticAccounts: string[];
      instructions: { programAddressIndex: number }[];
    };
    expect(mine.version).toBe(0);
    expect(mine.staticKeys).toEqual(kitMsg.staticAccounts);
    expect(mine.signatures).toEqual(Object.values(kitTx.signatures).map((s) => toBase58(s!)));
    expect(mine.instructions.map((i) => i.programIdIndex)).toEqual(kitMsg.instructions.map((i) => i.programAddressIndex));
  });

  it('a getTransaction `json` encoding derived from it (in the test) decodes the same', () => {
    const w = decodeWireTransaction(fromBase64(raw.transaction[0]));
    const json = {
      jsonrpc: '2.0',
      id: 1,
      result: {
        slot: 1,
        blockTime: 2,
        version: 0,
        meta: raw.meta,
        transaction: {
          signatures: w.signatures,
          message: {
            header: { numRequiredSignatures: w.numRequiredSignatures, numReadonlySignedAccounts: 0, numReadonlyUnsignedAccounts: 9 },
            accountKeys: w.staticKeys,
            recentBlockhash: w.recentBlockhash,
            instructions: w.instructions.map((i) => ({ programIdIndex: i.programIdIndex, accounts: i.accounts, data: toBase58(i.data) })),
            addressTableLookups: [],
          },
        },
      },
    };
    const j = decodeTransaction(json);
    expect(j.slot).toBe(1);
    expect(j.blockTime).toBe(2);
    expect(j.signers).toEqual(d.signers);
    expect(j.instructions).toEqual(d.instructions);
    expect(j.events).toEqual(d.events);
  });
});

describe('Carbon single-instruction fixtures via decodeInstruction', () => {
  const ix = (f: string) => {
    const j = load(f);
    return decodeInstruction(j.program_id, fromHex(j.data), j.accounts.map((a: { pubkey: string }) => a.pubkey));
  };

  it('legacy Raydium-era withdraw (FIX/11): 12 accounts incl. last_withdraw, user 39azUY…', () => {
    const d = ix('carbon_pump_withdraw_ix_raydium-era.json');
    expect(d).toMatchObject({ program: 'pump', name: 'withdraw', args: {} });
    if (!d || 'skipped' in d) throw new Error('not decoded');
    expect(d.accounts).toMatchObject({
      last_withdraw: 'EGqbBGXmDA9QYd1XJkf3GDFoerQYeFW3FrQZZXRza9JL',
      mint: '8f8inBUeF6GCPQvN2qxu95uZMTjidZfS2RbYBrFSpump',
      user: '39azUYFWPz3VHgKCf3VChUwbpURdCHRxjWVowf5jUJjg',
      rent: 'SysvarRent111111111111111111111111111111111',
      program: PUMP_PROGRAM_ID,
    });
    expect(Object.keys(d.accounts)).toHaveLength(12);
  });

  it('the same discriminator under PumpSwap is PumpSwap withdraw', () => {
    const j = load('carbon_pump_withdraw_ix_raydium-era.json');
    const d = decodeInstruction(PUMP_AMM_PROGRAM_ID, fromHex(j.data), ['A', 'B']);
    expect(d).toEqual({ program: 'pump_amm', name: 'withdraw', accounts: { pool: 'A', global_config: 'B' }, args: {} });
  });

  it('2025 buy (FIX/12): 24-byte data, track_volume absent', () => {
    const d = ix('carbon_pump_buy_ix.json');
    if (!d || 'skipped' in d) throw new Error('not decoded');
    expect(d.name).toBe('buy');
    expect(d.args).toEqual({ amount: '1690358', max_sol_cost: '195' });
    expect(d.args).not.toHaveProperty('track_volume');
    expect(d.accounts.fee_config).toBe('8Wf5TiAheLUqBrKXeYg2JtAFFMWtKdG2BSFgqUcPVwTt');
    expect(d.accounts.fee_program).toBe('pfeeUxB6jkeY1Hxd7CsFCAjcbHA9rWtchMGdZ6VojVZ');
    expect(d.accounts.creator_vault).toBe('34D2HZjdrSfxhc4j6aduiwbN6uzXKaw73h2jjVBQfJ9p');
  });

  it('mid-2025 create (FIX/13) with the trailing creator arg', () => {
    const d = ix('carbon_pump_create_ix.json');
    if (!d || 'skipped' in d) throw new Error('not decoded');
    expect(d.name).toBe('create');
    expect(d.args).toEqual({
      name: 'Mystical Cat',
      symbol: 'MC',
      uri: 'https://ipfs.io/ipfs/QmeXR4TB9NZVK279DAVDKevSLzrWSi9papnaknVPJ8AvHe',
      creator: 'CkdtUhQdH2sHXJYTJTNFbF1K5W33WVgVHG7zffaMkEmv',
    });
    expect(d.accounts.mint).toBe('AC69oJv1m7843mdRfoQDneZuyRxYrMq86i2mARMtpump');
  });

  it('PumpSwap buy (FIX/14): track_volume Some(true)', () => {
    const d = ix('carbon_pumpswap_buy_ix.json');
    if (!d || 'skipped' in d) throw new Error('not decoded');
    expect(d.program).toBe('pump_amm');
    expect(d.name).toBe('buy');
    expect(d.args).toEqual({ base_amount_out: '104079243172', max_quote_amount_in: '255000000', track_volume: true });
    expect(d.accounts.pool).toBe('A4erfEr1Y2fUKE4wYnZNhGKSXNPUaqaiRYBGWReYMcx5');
    expect(d.accounts.base_mint).toBe('8cQynx5ZaJKwdHsuXmSn3Y16RXta7ZTyTS1hW55Gpump');
    expect(Object.keys(d.accounts)).toHaveLength(23);
  });

  it('fewer accounts map what there is; other programs → null', () => {
    const j = load('carbon_pump_buy_ix.json');
    const d = decodeInstruction(PUMP_PROGRAM_ID, fromHex(j.data), ['G', 'F']);
    expect(d).toMatchObject({ name: 'buy', accounts: { global: 'G', fee_recipient: 'F' } });
    expect(decodeInstruction('11111111111111111111111111111111', fromHex(j.data), [])).toBeNull();
  });
});

/** Little-endian writer for layouts constructed in these tests. */
class W {
  parts: number[] = [];
  u8(v: number) {
    this.parts.push(v);
    return this;
  }
  u64(v: bigint) {
    for (let i = 0; i < 8; i++) this.parts.push(Number((BigInt.asUintN(64, v) >> BigInt(8 * i)) & 0xffn));
    return this;
  }
  key(k: string) {
    this.parts.push(...fromBase58(k));
    return this;
  }
  hex(h: string) {
    this.parts.push(...fromHex(h));
    return this;
  }
  bytes() {
    return Uint8Array.from(this.parts);
  }
}

describe('constructed (not captured) event layouts', () => {
  const mint = 'HfJVjBdkhAD2ynVM8PdTSii4ECZdsxNTCx5wpEqUpump';
  const user = '2vr538qDgHCPYmr2mjt5LSjQ3kBYjtw3SDSveUKBVkef';
  const feeRecipient = '62qc2CNXwrYqQScmEdiZFFAnJR262PxWEuNQtxfafNgV';
  const creator = 'AzAfVMVd7AdD4gZuvPTYa25K5z8Sk9hr7LAPz3wRo7Mf';
  // A 217-byte (2025-05 creator-fee era) TradeEvent, CONSTRUCTED here from reference.md §1.5, not captured.
  const trade217 = new W()
    .hex(TRADE_DISC)
    .key(mint)
    .u64(1_000_000_000n) // sol_amount
    .u64(35_000_000_000_000n) // token_amount
    .u8(1) // is_buy
    .key(user)
    .u64(1_747_051_200n) // timestamp
    .u64(31_000_000_000n)
    .u64(1_038_000_000_000_000n)
    .u64(1_000_000_000n)
    .u64(758_100_000_000_000n)
    .key(feeRecipient)
    .u64(95n)
    .u64(9_500_000n)
    .key(creator)
    .u64(5n)
    .u64(500_000n)
    .bytes();

  it('decodes with the fee fields present and the 2026 fields absent', () => {
    expect(trade217.length - 8).toBe(217);
    const e = decodeEventData('pump', trade217);
    if ('skipped' in e) throw new Error(e.skipped);
    expect(e.name).toBe('TradeEvent');
    expect(e.status).toBe('short');
    expect(Object.keys(e.fields)).toHaveLength(16);
    expect(e.fields).toMatchObject({
      mint,
      user,
      is_buy: true,
      sol_amount: '1000000000',
      token_amount: '35000000000000',
      timestamp: '1747051200',
      fee_recipient: feeRecipient,
      fee_basis_points: '95',
      fee: '9500000',
      creator,
      creator_fee_basis_points: '5',
      creator_fee: '500000',
    });
    for (const absent of ['track_volume', 'ix_name', 'cashback', 'quote_mint', 'shareholders']) expect(e.fields).not.toHaveProperty(absent);
    // the same bytes as a self-CPI instruction
    const cpi = decodeCpiEvent(PUMP_PROGRAM_ID, Uint8Array.from([...fromHex('e445a52e51cb9a1d'), ...trade217]));
    expect(cpi).toEqual(e);
  });

  it('a CompleteEvent (104 B, Jan-2025 layout) constructed from the layout', () => {
    const bytes = new W().hex('5f72619cd42e9808').key(user).key(mint).key(creator).u64(1_736_000_000n).bytes();
    const e = decodeEventData('pump', bytes);
    expect(e).toMatchObject({ name: 'CompleteEvent', fields: { user, mint, bonding_curve: creator, timestamp: '1736000000' } });
    if ('skipped' in e) throw new Error(e.skipped);
    expect(e.fields).not.toHaveProperty('quote_mint');
  });

  it('truncated event data → partial fields, no throw', () => {
    const cut = trade217.subarray(0, 8 + 100); // ends inside virtual_token_reserves
    const e = decodeEventData('pump', cut);
    if ('skipped' in e) throw new Error(e.skipped);
    expect(e.status).toBe('truncated');
    expect(Object.keys(e.fields)).toEqual(['mint', 'sol_amount', 'token_amount', 'is_buy', 'user', 'timestamp', 'virtual_sol_reserves']);
    // cut inside a string: FIX/7's TradeEvent up to the middle of ix_name
    const f7 = decodeTransaction(load(F7));
    const te = f7.events.find((x) => x.name === 'TradeEvent')!;
    expect(te.fields.ix_name).toBe('buy_exact_sol_in');
    const raw = load(F7);
    const line: string = raw.result.meta.logMessages.find((l: string) => l.startsWith('Program data: vdt/'));
    const full = fromBase64(line.slice('Program data: '.length));
    const ixNameAt = 8 + 121 + 96 + 1 + 8 * 4; // disc + 121 + 96 (2025 fields) + track_volume + 4 u64
    const partial = decodeEventData('pump', full.subarray(0, ixNameAt + 4 + 5));
    if ('skipped' in partial) throw new Error(partial.skipped);
    expect(partial.status).toBe('truncated');
    expect(partial.fields.last_update_timestamp).toBe('0');
    expect(partial.fields).not.toHaveProperty('ix_name');
  });

  it('wrong or unknown discriminator → skipped with a reason', () => {
    expect(decodeEventData('pump', fromHex('0102030405060708aa'))).toEqual({ skipped: 'unknown pump event discriminator 0102030405060708' });
    expect(decodeInstruction(PUMP_PROGRAM_ID, fromHex('ffffffffffffffff00'), [])).toEqual({ skipped: 'unknown pump instruction discriminator ffffffffffffffff' });
    expect(decodeInstruction(PUMP_PROGRAM_ID, fromHex('6606'), [])).toMatchObject({ skipped: expect.stringContaining('shorter than the 8-byte discriminator') });
    expect(decodeInstruction(PUMP_PROGRAM_ID, Uint8Array.from([...fromHex('e445a52e51cb9a1d'), ...trade217]), [])).toMatchObject({
      skipped: expect.stringContaining('self-CPI event'),
    });
    // a TradeEvent discriminator is not a PumpSwap event
    expect(decodeEventData('pump_amm', trade217)).toEqual({ skipped: `unknown pump_amm event discriminator ${TRADE_DISC}` });
  });

  it('malformed values (bad bool, oversized string) → skipped, never thrown', () => {
    const badBool = Uint8Array.from(trade217);
    badBool[8 + 32 + 16] = 7; // is_buy
    expect(decodeEventData('pump', badBool)).toMatchObject({ skipped: expect.stringContaining('field is_buy: bool byte 7') });
    const create = new W().hex(CREATE_DISC).hex('ffffff7f').bytes();
    expect(decodeEventData('pump', create)).toMatchObject({ skipped: expect.stringContaining('oversized') });
  });
});

describe('robustness on derived transactions', () => {
  it('a garbage base64 Program data line under pump → skipped; other programs’ data lines are ignored', () => {
    const raw = load(F5);
    const logs: string[] = [...raw.meta.logMessages];
    const at = logs.indexOf('Program log: Instruction: Sell');
    logs.splice(at + 1, 0, 'Program data: !!!not-base64***');
    // another program (Mayhem) emitting a valid TradeEvent-looking data line: not ours
    const trade = logs.find((l) => l.startsWith('Program data: vdt/'))!;
    logs.unshift('Program MAyhSmzXzV1pTf7LsNkrNwkWKTo4ougAJ1PPg47MD4e invoke [1]', trade, 'Program MAyhSmzXzV1pTf7LsNkrNwkWKTo4ougAJ1PPg47MD4e success');
    raw.meta.logMessages = logs;
    raw.meta.innerInstructions = [];
    const d = decodeTransaction(raw);
    expect(d.skipped).toEqual([{ where: `log ${at + 4}`, reason: 'pump Program data is not valid base64' }]);
    expect(d.events).toHaveLength(1);
    expect(d.events[0]).toMatchObject({ name: 'TradeEvent', source: 'log', outerIndex: 4 }); // Mayhem's invoke is now top-level 0
  });

  it('a duplicated event (log + CPI) counts once; a second identical log line without a CPI twin counts', () => {
    const raw = load(F5);
    expect(decodeTransaction(raw).events).toHaveLength(1);
    const trade = raw.meta.logMessages.find((l: string) => l.startsWith('Program data: vdt/'));
    const i = raw.meta.logMessages.indexOf(trade);
    raw.meta.logMessages.splice(i, 0, trade);
    const d = decodeTransaction(raw);
    expect(d.events.map((e) => e.source)).toEqual(['cpi', 'log']);
  });

  it('"Log truncated" sets logsTruncated; CPI events survive', () => {
    const raw = load(F2);
    raw.result.meta.logMessages = [...raw.result.meta.logMessages.slice(0, 12), 'Log truncated'];
    const d = decodeTransaction(raw);
    expect(d.logsTruncated).toBe(true);
    expect(eventsNamed(d, 'TradeEvent')).toHaveLength(2);
    expect(decodeTransaction(load(F2)).logsTruncated).toBe(false);
  });

  it('bad data inside a transaction is skipped, not thrown', () => {
    const raw = load(F7);
    const msg = raw.result.transaction.message;
    msg.instructions[5].data = 'l0I0'; // not base58
    msg.instructions[3].data = toBase58(fromHex('ffffffffffffffff'));
    raw.result.meta.preTokenBalances = [{ nonsense: true }];
    const d = decodeTransaction(raw);
    expect(names(d)).toEqual(['create_v2']);
    expect(d.skipped).toEqual([
      { where: 'instruction 3', reason: 'unknown pump instruction discriminator ffffffffffffffff', program: 'pump', kind: 'instruction', discriminator: 'ffffffffffffffff' },
      { where: 'instruction 5', reason: 'instruction data is not valid base58' },
      { where: 'preTokenBalances[0]', reason: 'not a token balance {accountIndex, mint, uiTokenAmount.amount}' },
    ]);
    expect(d.events).toHaveLength(3);
  });

  it('a broken wire transaction keeps the meta (events from logs)', () => {
    const raw = load(F10);
    raw.transaction = [toBase64(Uint8Array.from([1, 2, 3])), 'base64'];
    const d = decodeTransaction(raw);
    expect(d.skipped[0]).toMatchObject({ where: 'transaction', reason: expect.stringContaining('wire transaction not decodable') });
    expect(d.instructions).toEqual([]);
  });

  it('throws a clear error only when the input is not a transaction', () => {
    expect(() => decodeTransaction(null)).toThrow('transaction not found (null result)');
    expect(() => decodeTransaction({ jsonrpc: '2.0', result: null, id: 1 })).toThrow('transaction not found (null result)');
    expect(() => decodeTransaction({ jsonrpc: '2.0', error: { code: -32602, message: 'Invalid param' }, id: 1 })).toThrow('RPC error -32602: Invalid param');
    expect(() => decodeTransaction({ foo: 1 })).toThrow(/not a transaction/);
    expect(() => decodeTransaction('x')).toThrow(/not a transaction/);
  });
});

describe('lpa decode FILE', () => {
  it('prints the formatted JSON of a fixture', async () => {
    let out = '';
    let err = '';
    await runDecode(path(F10), (t) => (out += t), (t) => (err += t));
    expect(err).toBe('');
    const j = JSON.parse(out);
    expect(out).toContain('\n  "signature"');
    expect(j.slot).toBeNull();
    expect(j.instructions.map((i: { name: string }) => i.name)).toEqual(['create_v2', 'buy']);
    expect(j.events[0].fields.mint).toBe('7YD6ZHb39jGb33ki2iFd7kHK11yMkSFCc9kvjJscpump');
  });

  it('a bad file prints one line to stderr and sets exitCode 1', async () => {
    const before = process.exitCode;
    try {
      let out = '';
      let err = '';
      await runDecode(path('README.md'), (t) => (out += t), (t) => (err += t));
      expect(out).toBe('');
      expect(err).toMatch(/^lpa decode: .*README\.md: not JSON\n$/);
      expect(process.exitCode).toBe(1);
      err = '';
      await runDecode(path('carbon_pump_buy_ix.json'), () => {}, (t) => (err += t));
      expect(err).toMatch(/not a transaction/);
      err = '';
      await runDecode(path('no-such-file.json'), () => {}, (t) => (err += t));
      expect(err).toMatch(/cannot read file \(ENOENT\)/);
    } finally {
      process.exitCode = before;
    }
  });
});

describe('log frame lines (programFrameLine)', () => {
  const INVOKE_RE = /^Program (\S+) invoke \[(\d+)\]/;
  const END_RE = /^Program (\S+) (success|failed)/;
  const byRegex = (line: string) => {
    const inv = INVOKE_RE.exec(line);
    if (inv) return { program: inv[1], depth: Number(inv[2]) };
    const end = END_RE.exec(line);
    return end ? { program: end[1] } : null;
  };
  it('reads every log line of the mainnet fixtures, and edge cases, exactly as the invoke/success regular expressions do', () => {
    const lines: string[] = [];
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') {
        for (const [k, x] of Object.entries(v)) {
          if ((k === 'logMessages' || k === 'logs') && Array.isArray(x)) lines.push(...x.filter((l): l is string => typeof l === 'string'));
          else walk(x);
        }
      }
    };
    for (const f of ['pump_2024-08_buy+sell_getTransaction_jsonParsed.json', 'pump_2024-08_create+buy_getTransaction_jsonParsed.json', 'pump_2026-07_create_v2+extend+buy_exact_sol_in_getTransaction_jsonParsed.json', 'pump_2026-07_create_v2+buy_blockSubscribe_base64.json']) walk(load(f));
    expect(lines.length).toBeGreaterThan(50);
    lines.push(
      'Program 6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P invoke [12]', 'Program X invoke []', 'Program X invoke [1', 'Program X invoke [1] extra',
      'Program  X invoke [1]', 'Program X  invoke [1]', 'Program X\tinvoke [1]', 'Program\u00a0X success', 'Program X failed: custom program error: 0x1771',
      'Program log: success is near', 'Program X successful', 'Program X', 'Program ', 'program X success', 'Program X consumed 2003 of 275962 compute units', '',
    );
    for (const l of lines) expect(programFrameLine(l), l).toEqual(byRegex(l));
  });
});

describe('scanLogs attributes data lines by the invoke stack', () => {
  const raw = JSON.parse(readFileSync(new URL('../fixtures/mainnet/pump_2024-09_sell_getParsedTransaction.json', import.meta.url), 'utf8'));
  const dataLine: string = (raw.result ?? raw).meta.logMessages.find((l: string) => l.startsWith('Program data: '));
  const PROGRAMS = [PUMP_PROGRAM_ID, PUMP_AMM_PROGRAM_ID, 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', '11111111111111111111111111111111', 'MAyhSmzXzV1pTf7LsNkrNwkWKTo4ougAJ1PPg47MD4e'];
  /** The stack rule written plainly: invoke [n] keeps the first n-1 frames and pushes; success/failed pops to the program's last frame. */
  function expectedPumpDataLines(logs: string[]): number[] {
    const stack: string[] = [];
    const out: number[] = [];
    logs.forEach((line, i) => {
      const f = programFrameLine(line);
      if (f?.depth !== undefined) {
        stack.splice(f.depth - 1);
        stack.push(f.program);
      } else if (f) {
        const at = stack.lastIndexOf(f.program);
        if (at >= 0) stack.splice(at);
      } else if (line.startsWith('Program data: ') && stack.length > 0 && stack[stack.length - 1] === PUMP_PROGRAM_ID) out.push(i);
    });
    return out;
  }

  it('on 500 generated log sequences (nesting, stray and unbalanced success lines, other programs’ data lines), as the plain stack rule', () => {
    let seed = 11;
    const next = (n: number) => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) % n;
    let attributed = 0;
    for (let t = 0; t < 500; t++) {
      const logs: string[] = [];
      let depth = 0;
      for (let k = 0; k < 40; k++) {
        const p = PROGRAMS[next(PROGRAMS.length)]!;
        const r = next(10);
        if (r < 3 && depth < 4) logs.push(`Program ${p} invoke [${++depth}]`);
        else if (r < 5) {
          logs.push(`Program ${p} ${next(2) ? 'success' : 'failed: custom program error: 0x1'}`);
          depth = Math.max(0, depth - 1);
        } else if (r < 8) logs.push(dataLine);
        else logs.push(next(2) ? 'Program log: Instruction: Sell' : `Program ${p} consumed 2003 of 200000 compute units`);
      }
      const want = expectedPumpDataLines(logs);
      attributed += want.length;
      expect(scanLogs(logs).events.map((e) => e.line), logs.join('\n')).toEqual(want);
    }
    expect(attributed).toBeGreaterThan(300);
  });
});

describe('the log fallback does not decode an event the self-CPI already gave', () => {
  const raw = JSON.parse(readFileSync(new URL('../fixtures/mainnet/pump_2024-09_sell_getParsedTransaction.json', import.meta.url), 'utf8'));
  const logs: string[] = (raw.result ?? raw).meta.logMessages;
  const dataLine = logs.find((l) => l.startsWith('Program data: '))!;
  const key = `pump:${dataLine.slice('Program data: '.length)}`;

  it('a data line equal to a known CPI event is consumed once per CPI event; the rest are decoded', () => {
    expect(scanLogs(logs).events.map((e) => e.name)).toEqual(['TradeEvent']);
    expect(scanLogs(logs, new Map([[key, 1]])).events).toEqual([]);
    const twice = [...logs.slice(0, -2), dataLine, ...logs.slice(-2)]; // the same bytes logged twice, one CPI event
    const known = new Map([[key, 1]]);
    expect(scanLogs(twice, known).events.map((e) => e.name)).toEqual(['TradeEvent']);
    expect(known.get(key)).toBe(0);
    // another program's key with the same bytes does not match
    expect(scanLogs(logs, new Map([[`pump_amm:${dataLine.slice(14)}`, 1]])).events.map((e) => e.name)).toEqual(['TradeEvent']);
  });

  it('the decoded transaction is the same with and without the CPI events (their bytes equal the log line)', () => {
    const full = decodeTransaction(structuredClone(raw));
    expect(full.events.map((e) => [e.name, e.source])).toEqual([['TradeEvent', 'cpi']]);
    const noInner = structuredClone(raw);
    (noInner.result ?? noInner).meta.innerInstructions = [];
    const fromLog = decodeTransaction(noInner);
    expect(fromLog.events.map((e) => [e.name, e.source])).toEqual([['TradeEvent', 'log']]);
    expect(fromLog.events[0]!.fields).toEqual(full.events[0]!.fields);
  });

  it('addresses decoded through the memo equal plain base58', () => {
    for (let i = 0; i < 200; i++) {
      const key = Uint8Array.from({ length: 32 }, (_, j) => (i * 31 + j * 7) & 0xff);
      expect(toBase58Address(key)).toBe(toBase58(key));
      expect(toBase58Address(key.slice())).toBe(toBase58(key)); // a second, memoized read
    }
  });

  it('keys that share the memo\'s first four bytes, read in turn, each keep their own address; other lengths are plain base58', () => {
    const keys = Array.from({ length: 6 }, (_, i) => Uint8Array.from({ length: 32 }, (_, j) => (j < 4 ? 0xab : (i * 13 + j) & 0xff)));
    for (let round = 0; round < 3; round++) for (const key of keys) expect(toBase58Address(key)).toBe(toBase58(key));
    const big = new Uint8Array(64).fill(7);
    for (const key of [big.subarray(3, 35), big.subarray(0, 31), new Uint8Array(0)]) expect(toBase58Address(key)).toBe(toBase58(key));
  });

  it('event fields decode to the same object, key for key and in IDL order, whole and cut short at every field boundary and inside fields', () => {
    const trade = scanLogs(load(F7).result.meta.logMessages).events.find((e) => e.name === 'TradeEvent')!;
    const full = decodeEventData('pump', trade.bytes);
    if ('skipped' in full) throw new Error(full.skipped);
    expect(Object.keys(full.fields).length).toBeGreaterThan(15);
    for (let len = 8; len <= trade.bytes.length; len++) {
      const d = decodeEventData('pump', trade.bytes.subarray(0, len));
      if ('skipped' in d) throw new Error(d.skipped);
      const keys = Object.keys(d.fields);
      expect(keys).toEqual(Object.keys(full.fields).slice(0, keys.length));
      for (const k of keys) expect(d.fields[k]).toEqual(full.fields[k]);
    }
  });
});


describe('the log scan knows the fee queries every modern trade calls', () => {
  // FIX 2Sh2zTmn… (2026-10-08, buy_exact_quote_in_v2): pump CPIs Pump Fees' get_fees, which logs
  // "Instruction: GetFees"; the scan reported it as an instruction "not in the IDL" on every such trade
  const raw = JSON.parse(readFileSync(new URL('../fixtures/mainnet/pump_buy_exact_quote_in_v2_2Sh2zTmnse3s_20261008.json', import.meta.url), 'utf8'));
  const tx = raw.result ?? raw.raw ?? raw;
  const logs: string[] = (Array.isArray(tx) ? tx[0] : tx).meta.logMessages;

  it('a GetFees log line is neither listed nor unknown; an instruction no IDL has still is unknown', () => {
    expect(logs.some((l) => /Instruction: GetFees/.test(l))).toBe(true);
    const scan = scanLogs(logs);
    expect(scan.unknownInstructions).toEqual([]);
    expect(scan.instructions.map((i) => i.name)).toContain('buy_exact_quote_in_v2');
    expect(scan.instructions.map((i) => i.name)).not.toContain('get_fees');
    const odd = logs.map((l) => l.replace(/Instruction: GetFees\w*/, 'Instruction: MadeUpQuery'));
    expect(scanLogs(odd).unknownInstructions.map((u) => u.name)).toEqual(['made_up_query']);
  });
});
