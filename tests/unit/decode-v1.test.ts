/**
 * Version 1 transactions (SIMD-0385) in the decoder: mainnet fixtures 28 and 29 (getTransaction
 * `json`, asked with maxSupportedTransactionVersion 1) decode as given, and re-encoded in the v1
 * wire format — proven exact by the fee payer's ed25519 signature over the rebuilt message — and in
 * a jsonParsed form derived here, they decode to the same transaction.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeTransaction, decodeWireTransaction, MAX_SUPPORTED_TRANSACTION_VERSION } from '../../src/core/decode/index.ts';
import { ed25519Verifies, v1MessageBytes, v1TransactionBytes, type V1JsonMessage } from '../helpers/v1-wire.ts';

const DIR = new URL('../fixtures/mainnet/', import.meta.url);
const load = (name: string) => JSON.parse(readFileSync(new URL(name, DIR), 'utf8')) as {
  slot: number;
  blockTime: number;
  version: number;
  meta: Record<string, unknown>;
  transaction: { signatures: string[]; message: V1JsonMessage };
};

const FIXTURES = {
  'FIX/28 multi_hop_swap (PumpSwap → pump multi_hop_curve_swap)': 'pump_multi_hop_swap_curve_rRUVF4GSZNRA_20261008.json',
  'FIX/29 buy_exact_quote_in_v2': 'pump_buy_exact_quote_in_v2_2Sh2zTmnse3s_20261008.json',
};

describe.each(Object.entries(FIXTURES))('%s: a version 1 transaction', (_name, file) => {
  const raw = load(file);
  const m = raw.transaction.message;
  const payer = m.accountKeys[0]!;
  const sig = raw.transaction.signatures[0]!;

  it('is version 1 with a transactionConfig and no lookup tables (the fixture as stored)', () => {
    expect(raw.version).toBe(1);
    expect(MAX_SUPPORTED_TRANSACTION_VERSION).toBeGreaterThanOrEqual(raw.version);
    expect(Object.keys(m.transactionConfig).sort()).toEqual(['computeUnitLimit', 'heapSize', 'loadedAccountsDataSizeLimit', 'priorityFee']);
    expect(raw.meta.loadedAddresses).toEqual({ readonly: [], writable: [] });
  });

  it('the message rebuilt in the SIMD-0385 layout carries the fee payer\'s real signature', () => {
    const message = v1MessageBytes(m);
    expect(ed25519Verifies(message, payer, sig)).toBe(true);
    // the check can fail: any other byte — a config slot, the mask, the order of keys — breaks it
    const cu = { ...m, transactionConfig: { ...m.transactionConfig, computeUnitLimit: m.transactionConfig.computeUnitLimit! + 1 } };
    expect(ed25519Verifies(v1MessageBytes(cu), payer, sig)).toBe(false);
    const noHeap = { ...m, transactionConfig: { ...m.transactionConfig, heapSize: 32 * 1024 } };
    expect(ed25519Verifies(v1MessageBytes(noHeap), payer, sig)).toBe(false);
    const flipped = Buffer.from(message);
    flipped[4] ^= 0x10;
    expect(ed25519Verifies(flipped, payer, sig)).toBe(false);
  });

  it('decodeWireTransaction reads the signed bytes back to the json message', () => {
    const w = decodeWireTransaction(v1TransactionBytes(m, raw.transaction.signatures));
    expect(w.version).toBe(1);
    expect(w.signatures).toEqual(raw.transaction.signatures);
    expect(w.numRequiredSignatures).toBe(m.header.numRequiredSignatures);
    expect(w.staticKeys).toEqual(m.accountKeys);
    expect(w.recentBlockhash).toBe(m.recentBlockhash);
    expect(w.addressTableLookups).toEqual([]);
    expect(w.instructions.map((ix) => ({ programIdIndex: ix.programIdIndex, accounts: ix.accounts, len: ix.data.length }))).toEqual(
      m.instructions.map((ix) => ({ programIdIndex: ix.programIdIndex, accounts: ix.accounts, len: expect.any(Number) })),
    );
    const c = m.transactionConfig;
    expect(w.transactionConfig).toEqual({
      mask: 0b1111, // priority fee (two slots), compute-unit limit, loaded-accounts data size; no heap size
      priorityFee: String(c.priorityFee),
      computeUnitLimit: c.computeUnitLimit,
      loadedAccountsDataSizeLimit: c.loadedAccountsDataSizeLimit,
      heapSize: null,
    });
  });

  it('decodes the same from json, from the re-encoded base64 wire form and from a jsonParsed form', () => {
    const fromJson = decodeTransaction(raw);
    expect(fromJson.signature).toBe(sig);
    expect(fromJson.signers).toEqual([payer]);
    expect(fromJson.events.some((e) => e.name === 'TradeEvent')).toBe(true);
    // the message itself decoded (FIX/28's multi_hop_curve_swap instruction is not in the IDL in use yet:
    // it is skipped by discriminator, which is the instruction decoder's business, not the version's)
    expect(fromJson.skipped.filter((s) => !s.where.startsWith('instruction '))).toEqual([]);
    const base64 = { slot: raw.slot, blockTime: raw.blockTime, version: 1, meta: raw.meta, transaction: [v1TransactionBytes(m, raw.transaction.signatures).toString('base64'), 'base64'] };
    expect(decodeTransaction(base64)).toEqual(fromJson);
    expect(decodeTransaction(base64, { pairLogEvents: false })).toEqual(fromJson);
    const h = m.header;
    const n = m.accountKeys.length;
    const parsed = {
      ...raw,
      transaction: {
        signatures: raw.transaction.signatures,
        message: {
          accountKeys: m.accountKeys.map((pubkey, i) => ({
            pubkey,
            signer: i < h.numRequiredSignatures,
            writable: i < h.numRequiredSignatures ? i < h.numRequiredSignatures - h.numReadonlySignedAccounts : i < n - h.numReadonlyUnsignedAccounts,
            source: 'transaction',
          })),
          recentBlockhash: m.recentBlockhash,
          transactionConfig: m.transactionConfig,
          instructions: m.instructions.map((ix) => ({ programId: m.accountKeys[ix.programIdIndex], accounts: ix.accounts.map((a) => m.accountKeys[a]), data: ix.data, stackHeight: 1 })),
        },
      },
    };
    expect(decodeTransaction(parsed)).toEqual(fromJson);
  });
});

describe('v1 wire bytes that are not a transaction', () => {
  const raw = load(FIXTURES['FIX/29 buy_exact_quote_in_v2']);
  const m = raw.transaction.message;
  const good = v1TransactionBytes(m, raw.transaction.signatures);

  it('throws for a version above 1, a signature missing or left over, an unknown mask bit, and a v1 message after a signature count', () => {
    const v2 = Buffer.from(good);
    v2[0] = 0x82;
    expect(() => decodeWireTransaction(v2)).toThrow(/unsupported transaction version 2/);
    expect(() => decodeWireTransaction(good.subarray(0, good.length - 1))).toThrow(/needs 64 bytes after its message/);
    expect(() => decodeWireTransaction(Buffer.concat([good, Buffer.alloc(64)]))).toThrow(/needs 64 bytes after its message/);
    const bit5 = Buffer.from(good);
    bit5[4] |= 0x20;
    expect(() => decodeWireTransaction(bit5)).toThrow(/unknown TransactionConfigMask bits/);
    const sigFirst = Buffer.concat([Buffer.from([1]), good.subarray(good.length - 64), v1MessageBytes(m)]);
    expect(() => decodeWireTransaction(sigFirst)).toThrow(/must come before its signatures/);
  });

  it('a decodeTransaction input with such bytes keeps the reason in `skipped` (no throw)', () => {
    const d = decodeTransaction({ slot: raw.slot, blockTime: raw.blockTime, meta: raw.meta, transaction: [good.subarray(0, 100).toString('base64'), 'base64'] });
    expect(d.skipped[0]).toMatchObject({ where: 'transaction', reason: expect.stringMatching(/^wire transaction not decodable/) });
  });
});
