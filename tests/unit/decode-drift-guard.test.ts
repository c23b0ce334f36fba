/**
 * Issue 20 item 3 (decoder part) and the Jito tip total: program data of pump / PumpSwap / Pump Fees
 * that the bundled IDLs do not describe appears in `skipped` with `program`, `kind` and
 * `discriminator` — in every input path (json, jsonParsed, base64 wire, blockSubscribe element,
 * logsNotification) and identically on the fast and the exact decode path; `unrecognisedOf` returns
 * exactly those items. `jitoTipLamports` sums System transfers to the Jito tip accounts.
 *
 * The inputs are real mainnet fixtures with one deliberate change each (named in each test); the
 * expected discriminators are the changed bytes, written here by hand.
 */
import { describe, expect, it } from 'vitest';
import { generateChain } from '../../devchain/simulate/chain.ts';
import { JITO_TIP_ACCOUNTS } from '../../devchain/simulate/keys.ts';
import { decodeTransaction, decodeWireTransaction, fromBase58, fromBase64, toBase58, toBase64, unrecognisedOf } from '../../src/core/decode/index.ts';
import type { DecodedTransaction } from '../../src/core/types.ts';
import { loadFixtureTransaction } from '../helpers/mainnet-fixtures.ts';

const F2 = 'pump_2024-08_buy+sell_getTransaction_jsonParsed.json'; // jsonParsed, envelope
const F10 = 'pump_2026-07_create_v2+buy_blockSubscribe_base64.json'; // blockSubscribe element
const F16 = 'pump_2024-07_sell_getTransaction_json_3bYXWj.json'; // json
const F22 = 'pump_2025-07_buy_getTransaction_base64_2ghHZX.json'; // getTransaction base64
const F25 = 'pumpswap_2025-07_buy_via-router_getTransaction_base64_56Rbkz.json'; // base64, a real Jito tip
const PUMP = '6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P';
const PFEE = 'pfeeUxB6jkeY1Hxd7CsFCAjcbHA9rWtchMGdZ6VojVZ';
const TRADE_EVENT_DISC = 'bddb7fd34ee661ee'; // sha256("event:TradeEvent")[..8] (reference.md §1.5)
const EVENT_TAG = 'e445a52e51cb9a1d';

/** Decode on both paths; they must agree. */
function decodeBoth(raw: unknown): DecodedTransaction {
  const fast = decodeTransaction(structuredClone(raw));
  const exact = decodeTransaction(structuredClone(raw), { pairLogEvents: false });
  expect(fast).toEqual(exact);
  return fast;
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const unhex = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h, 'hex'));

/** Replace the first 8 bytes of base58 data by `disc` (hex). */
function withDisc58(data58: string, disc: string): string {
  const b = fromBase58(data58);
  b.set(unhex(disc), 0);
  return toBase58(b);
}

/** In a wire transaction (base64), replace the first 8 data bytes of top-level instruction `i`. */
function wireWithDisc(b64: string, i: number, disc: string): string {
  const bytes = fromBase64(b64);
  const data = decodeWireTransaction(bytes).instructions[i]!.data;
  const at = Buffer.from(bytes).indexOf(Buffer.from(data));
  expect(at).toBeGreaterThan(0);
  bytes.set(unhex(disc), at);
  return toBase64(bytes);
}

describe('an instruction the decoder cannot name → skipped with program, kind and discriminator', () => {
  it('json (FIX/16: the pump sell at top-level 3 given discriminator 0102030405060708)', () => {
    const raw = loadFixtureTransaction(F16);
    const r = raw.result ?? raw;
    const ix = r.transaction.message.instructions[3];
    expect(r.transaction.message.accountKeys[ix.programIdIndex]).toBe(PUMP);
    ix.data = withDisc58(ix.data, '0102030405060708');
    const d = decodeBoth(raw);
    expect(d.instructions).toEqual([]);
    expect(d.skipped).toEqual([
      { where: 'instruction 3', reason: 'unknown pump instruction discriminator 0102030405060708', program: 'pump', kind: 'instruction', discriminator: '0102030405060708' },
    ]);
    expect(d.events.map((e) => e.name)).toEqual(['TradeEvent']); // the event is still read
    expect(unrecognisedOf(d)).toEqual(d.skipped);
  });

  it('jsonParsed (FIX/2: the sell at top-level 3 given discriminator aabbccddeeff0011)', () => {
    const raw = loadFixtureTransaction(F2);
    const ix = raw.result.transaction.message.instructions[3];
    expect(ix.programId).toBe(PUMP);
    ix.data = withDisc58(ix.data, 'aabbccddeeff0011');
    const d = decodeBoth(raw);
    expect(d.instructions.map((i) => i.name)).toEqual(['buy']);
    expect(unrecognisedOf(d)).toEqual([
      { where: 'instruction 3', reason: 'unknown pump instruction discriminator aabbccddeeff0011', program: 'pump', kind: 'instruction', discriminator: 'aabbccddeeff0011' },
    ]);
  });

  it('base64 getTransaction (FIX/22: the buy at top-level 2) and a blockSubscribe element (FIX/10: create_v2 at 0)', () => {
    const raw = loadFixtureTransaction(F22);
    const r = raw.result ?? raw;
    r.transaction[0] = wireWithDisc(r.transaction[0], 2, '1111111111111111');
    const d = decodeBoth(raw);
    expect(d.instructions).toEqual([]);
    expect(unrecognisedOf(d)).toMatchObject([{ where: 'instruction 2', program: 'pump', kind: 'instruction', discriminator: '1111111111111111' }]);

    const el = loadFixtureTransaction(F10);
    el.transaction[0] = wireWithDisc(el.transaction[0], 0, '2222222222222222');
    const e = decodeBoth(el);
    expect(e.instructions.map((i) => i.name)).toEqual(['buy']);
    expect(unrecognisedOf(e)).toMatchObject([{ where: 'instruction 0', program: 'pump', kind: 'instruction', discriminator: '2222222222222222' }]);
  });

  it('data shorter than a discriminator: the bytes there are', () => {
    const raw = loadFixtureTransaction(F16);
    const r = raw.result ?? raw;
    r.transaction.message.instructions[3].data = toBase58(unhex('66063d'));
    expect(unrecognisedOf(decodeBoth(raw))).toMatchObject([{ where: 'instruction 3', program: 'pump', kind: 'instruction', discriminator: '66063d' }]);
  });

  it('structural items leave the fields unset (no meta; not base58)', () => {
    const raw = loadFixtureTransaction(F16);
    const r = raw.result ?? raw;
    r.transaction.message.instructions[3].data = 'l0I0';
    delete r.meta;
    const d = decodeTransaction(raw);
    expect(d.skipped).toEqual([
      { where: 'meta', reason: 'no meta: no inner instructions, logs, balances or err' },
      { where: 'instruction 3', reason: 'instruction data is not valid base58' },
    ]);
    expect(unrecognisedOf(d)).toEqual([]);
  });
});

describe('an event the decoder cannot name or read → skipped with program, kind event and discriminator', () => {
  /** FIX/16 with its TradeEvent's discriminator byte 0 changed in both the self-CPI and the `Program data:` line. */
  function mutatedTrade(newFirstByte: number, alsoLog = true) {
    const raw = loadFixtureTransaction(F16);
    const r = raw.result ?? raw;
    const cpi = r.meta.innerInstructions.flatMap((g: { instructions: { data: string }[] }) => g.instructions).find((ix: { data: string }) => hex(fromBase58(ix.data).subarray(0, 8)) === EVENT_TAG);
    const bytes = fromBase58(cpi.data);
    expect(hex(bytes.subarray(8, 16))).toBe(TRADE_EVENT_DISC);
    const line = r.meta.logMessages.findIndex((l: string) => l === `Program data: ${toBase64(bytes.subarray(8))}`);
    expect(line).toBeGreaterThan(0);
    bytes[8] = newFirstByte;
    cpi.data = toBase58(bytes);
    if (alsoLog) r.meta.logMessages[line] = `Program data: ${toBase64(bytes.subarray(8))}`;
    return { raw, line };
  }

  it('self-CPI and its log line changed alike: reported once, at the CPI, on both paths', () => {
    const { raw } = mutatedTrade(0x00);
    const d = decodeBoth(raw);
    expect(d.events).toEqual([]);
    expect(d.skipped).toEqual([
      { where: 'instruction 3.1', reason: 'unknown pump event discriminator 00db7fd34ee661ee', program: 'pump', kind: 'event', discriminator: '00db7fd34ee661ee' },
    ]);
  });

  it('only the log line changed (the CPI still decodes): the line is an unknown event of pump', () => {
    const raw = loadFixtureTransaction(F16);
    const r = raw.result ?? raw;
    r.meta.innerInstructions = [];
    const line = r.meta.logMessages.findIndex((l: string) => l.startsWith('Program data: vdt/'));
    const bytes = fromBase64(r.meta.logMessages[line].slice('Program data: '.length));
    bytes[7] = 0x00;
    r.meta.logMessages[line] = `Program data: ${toBase64(bytes)}`;
    const d = decodeBoth(raw);
    expect(d.skipped).toEqual([{ where: `log ${line}`, reason: 'unknown pump event discriminator bddb7fd34ee66100', program: 'pump', kind: 'event', discriminator: 'bddb7fd34ee66100' }]);
  });

  it('a logsNotification: a Program data line under pump with an unknown discriminator', () => {
    const raw = loadFixtureTransaction(F16);
    const r = raw.result ?? raw;
    const logs: string[] = [...r.meta.logMessages];
    const line = logs.findIndex((l) => l.startsWith('Program data: vdt/'));
    const bytes = fromBase64(logs[line]!.slice('Program data: '.length));
    bytes[0] = 0xff;
    logs[line] = `Program data: ${toBase64(bytes)}`;
    const d = decodeTransaction({ context: { slot: 1 }, value: { signature: 'x', err: null, logs } });
    expect(d.fromLogsOnly).toBe(true);
    expect(d.jitoTipLamports).toBeNull();
    expect(unrecognisedOf(d)).toEqual([{ where: `log ${line}`, reason: 'unknown pump event discriminator ffdb7fd34ee661ee', program: 'pump', kind: 'event', discriminator: 'ffdb7fd34ee661ee' }]);
  });

  it('Pump Fees: an unknown event under a pfee frame is flagged with program pump_fees; another program’s data line is not', () => {
    const logs = [
      `Program ${PFEE} invoke [1]`,
      'Program log: Instruction: UpdateFeeConfig',
      `Program data: ${toBase64(unhex('0102030405060708090a'))}`,
      `Program ${PFEE} success`,
      'Program MAyhSmzXzV1pTf7LsNkrNwkWKTo4ougAJ1PPg47MD4e invoke [1]',
      `Program data: ${toBase64(unhex('0102030405060708090a'))}`,
      'Program MAyhSmzXzV1pTf7LsNkrNwkWKTo4ougAJ1PPg47MD4e success',
    ];
    const d = decodeTransaction({ signature: 's', err: null, logs });
    expect(d.instructions).toMatchObject([{ program: 'pump_fees', name: 'update_fee_config', path: '0' }]);
    expect(d.skipped).toEqual([{ where: 'log 2', reason: 'unknown pump_fees event discriminator 0102030405060708', program: 'pump_fees', kind: 'event', discriminator: '0102030405060708' }]);
  });

  it('a TradeEvent ending inside a field: its fields up to there are kept and it is flagged', () => {
    const raw = loadFixtureTransaction(F16);
    const r = raw.result ?? raw;
    r.meta.innerInstructions = [];
    const line = r.meta.logMessages.findIndex((l: string) => l.startsWith('Program data: vdt/'));
    const bytes = fromBase64(r.meta.logMessages[line].slice('Program data: '.length));
    // 8 disc + mint(32) + sol_amount(8) + token_amount(8) + is_buy(1) + 4 bytes of user: ends inside `user`
    r.meta.logMessages[line] = `Program data: ${toBase64(bytes.subarray(0, 8 + 32 + 8 + 8 + 1 + 4))}`;
    const d = decodeBoth(raw);
    expect(Object.keys(d.events[0]!.fields)).toEqual(['mint', 'sol_amount', 'token_amount', 'is_buy']);
    expect(d.skipped).toEqual([
      { where: `log ${line}`, reason: 'pump TradeEvent ends inside field user: not a known layout (the fields before it are decoded)', program: 'pump', kind: 'event', discriminator: TRADE_EVENT_DISC },
    ]);
  });
});

describe('a longer event than the newest layout: known prefix decoded, extra bytes counted', () => {
  it('FIX/22 TradeEvent (225 B) with 200 zero bytes appended to the CPI and its log line (both paths agree)', () => {
    const plain = decodeTransaction(loadFixtureTransaction(F22));
    expect(plain.events[0]).not.toHaveProperty('extraBytes');
    const raw = loadFixtureTransaction(F22);
    const r = raw.result ?? raw;
    const line = r.meta.logMessages.findIndex((l: string) => l.startsWith('Program data: vdt/'));
    const ev = fromBase64(r.meta.logMessages[line].slice('Program data: '.length));
    expect(ev.length).toBe(225); // README: TradeEvent 225 B (disc + the 217-byte layout, to creator_fee)
    const longer = new Uint8Array(ev.length + 200);
    longer.set(ev);
    r.meta.logMessages[line] = `Program data: ${toBase64(longer)}`;
    for (const g of r.meta.innerInstructions) {
      for (const ix of g.instructions) {
        const b = fromBase58(ix.data);
        if (hex(b.subarray(0, 8)) === EVENT_TAG) ix.data = toBase58(Uint8Array.from([...b.subarray(0, 8), ...longer]));
      }
    }
    const d = decodeBoth(raw);
    const te = d.events.find((e) => e.name === 'TradeEvent')!;
    expect(te.fields.mint).toBe(plain.events[0]!.fields.mint);
    expect(te.fields.ix_name).toBe(''); // zeros read as an empty string, an empty vec, false and 0
    expect(te.fields.creator_fee_unclaimed).toBe('0'); // the 2026-10 layout's last field
    // 2026-10 TradeEvent with empty ix_name and shareholders: 8 + 121 + 96 (to creator_fee) + 33 (track_volume…
    // last_update_timestamp) + 4 (ix_name) + 33 (mayhem_mode…buyback_fee) + 4 (shareholders) + 80 (quote_mint…
    // creator_fee_unclaimed) = 379 bytes; 425 − 379 = 46 extra
    expect(te.extraBytes).toBe(46);
    expect(d.skipped).toEqual([]);
  });
});

describe('jitoTipLamports', () => {
  it('a real tip: FIX/25 (base64 v0, tip account ADuUkR… loaded from a lookup table) = its balance change, 6948897 → 6959168', () => {
    const d = decodeBoth(loadFixtureTransaction(F25));
    expect(d.jitoTipLamports).toBe(String(6959168 - 6948897)); // meta.pre/postBalances[15]: static keys 13 + writable ALT index 2
  });

  it('"0" without a tip; null for a logsNotification and without meta; "0" for a failed transaction', () => {
    expect(decodeTransaction(loadFixtureTransaction(F16)).jitoTipLamports).toBe('0');
    const noMeta = loadFixtureTransaction(F16);
    delete (noMeta.result ?? noMeta).meta;
    expect(decodeTransaction(noMeta).jitoTipLamports).toBeNull();
    const failed = loadFixtureTransaction(F25);
    (failed.result ?? failed).meta.err = { InstructionError: [2, { Custom: 1 }] };
    expect(decodeTransaction(failed).jitoTipLamports).toBe('0');
  });

  it('jsonParsed: parsed System transfer and transferWithSeed, top level and inner, summed (FIX/2 with two added)', () => {
    const raw = loadFixtureTransaction(F2);
    const r = raw.result;
    const tip = (type: string, destination: string, lamports: number) => ({
      parsed: { type, info: { source: r.transaction.message.accountKeys[0].pubkey, destination, lamports } },
      program: 'system',
      programId: '11111111111111111111111111111111',
    });
    r.transaction.message.instructions.push(tip('transfer', 'DttWaMuVvTiduZRnguLF7jNxTgiMBZ1hyAumKUiL2KRL', 1000));
    r.meta.innerInstructions[0].instructions.push(tip('transferWithSeed', '3AVi9Tg9Uo68tJfuvoKvqKNWKkC5wPdSSdeBnizKZ6jT', 234));
    r.meta.innerInstructions[0].instructions.push(tip('transfer', 'NexTbLoCkWykbLuB1NkjXgFWkX9oAtcoagQegygXXA2', 99)); // not a Jito tip account
    expect(decodeBoth(raw).jitoTipLamports).toBe('1234');
  });

  it('a simulated chain: each transaction’s decoded tip equals the tip account’s balance change the simulator emitted', () => {
    const chain = generateChain({ launches: 60, seed: 31 });
    let tipped = 0;
    for (const line of chain.transactions) {
      const raw = JSON.parse(line);
      const d = decodeTransaction(raw);
      const keys: string[] = [...raw.transaction.message.accountKeys, ...(raw.meta.loadedAddresses?.writable ?? []), ...(raw.meta.loadedAddresses?.readonly ?? [])];
      // every one of the 8 tip accounts (the 2026-10 era tips any of them)
      let moved = 0n;
      for (const tip of JITO_TIP_ACCOUNTS) {
        const at = keys.indexOf(tip);
        if (at >= 0 && raw.meta.err === null) moved += BigInt(raw.meta.postBalances[at]) - BigInt(raw.meta.preBalances[at]);
      }
      expect(d.jitoTipLamports).toBe(moved.toString());
      if (moved > 0n) tipped++;
    }
    expect(tipped).toBeGreaterThan(5);
    expect(chain.summary.kinds.jito_tip).toBeGreaterThan(0); // the simulator's own count of launches with a tip
  });
});
