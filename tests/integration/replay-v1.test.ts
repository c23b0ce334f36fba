/**
 * The replay RPC holds and serves version 1 transactions (SIMD-0385) as mainnet does: mainnet
 * fixtures 28 and 29 (json) and a base64 wire copy of 28 load; each encoding answers with `version: 1`
 * and the v1 message (json/jsonParsed: `transactionConfig`; base64: message first, signatures last);
 * a caller whose maxSupportedTransactionVersion is lower or absent gets -32015 with mainnet's message.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReplayRpc, type ReplayRpc } from '../../devchain/replay/server.ts';
import { loadChain } from '../../devchain/replay/load-chain.ts';
import { decodeTransaction } from '../../src/core/decode/index.ts';
import { ed25519Verifies, v1TransactionBytes, type V1JsonMessage } from '../helpers/v1-wire.ts';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
const FIX = join(ROOT, 'tests/fixtures/mainnet');
const F28 = 'pump_multi_hop_swap_curve_rRUVF4GSZNRA_20261008.json';
const F29 = 'pump_buy_exact_quote_in_v2_2Sh2zTmnse3s_20261008.json';
type Fixture = { slot: number; blockTime: number; version: number; meta: Record<string, unknown>; transaction: { signatures: string[]; message: V1JsonMessage } };
const fixture = (f: string) => JSON.parse(readFileSync(join(FIX, f), 'utf8')) as Fixture;
const f28 = fixture(F28);
const f29 = fixture(F29);

async function call(url: string, params: unknown[]): Promise<{ result?: Record<string, unknown> | null; error?: { code: number; message: string } }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getTransaction', params }) });
  return (await res.json()) as never;
}

const refusal = (v: number) => ({
  code: -32015,
  message: `Transaction version (${v}) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": ${v}`,
});

describe('replay RPC: version 1 transactions', () => {
  let dir: string;
  let srv: ReplayRpc;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lpa-replay-v1-'));
    writeFileSync(join(dir, 'chain.json'), JSON.stringify({ transactions: [{ file: join(FIX, F29) }, { file: join(FIX, F28) }] }));
    srv = await startReplayRpc({ chainDir: dir });
  });
  afterAll(async () => {
    await srv.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loads both v1 fixtures', () => {
    expect(srv.counts().transactions).toBe(2);
  });

  it('json: the stored transaction as it is, with version 1', async () => {
    const { result } = await call(srv.url, [f28.transaction.signatures[0], { encoding: 'json', maxSupportedTransactionVersion: 1 }]);
    expect(result).toMatchObject({ slot: f28.slot, blockTime: f28.blockTime, version: 1 });
    expect(result!.transaction).toEqual(f28.transaction);
    expect(result!.meta).toEqual(f28.meta);
  });

  it('base64: message first, signatures last — the signed bytes, which decode as the json form does', async () => {
    for (const f of [f28, f29]) {
      const { result } = await call(srv.url, [f.transaction.signatures[0], { encoding: 'base64', maxSupportedTransactionVersion: 1 }]);
      const [b64, enc] = result!.transaction as [string, string];
      expect(enc).toBe('base64');
      const bytes = Buffer.from(b64, 'base64');
      expect(bytes.equals(v1TransactionBytes(f.transaction.message, f.transaction.signatures))).toBe(true);
      const sigs = f.transaction.message.header.numRequiredSignatures * 64;
      expect(ed25519Verifies(bytes.subarray(0, bytes.length - sigs), f.transaction.message.accountKeys[0]!, f.transaction.signatures[0]!)).toBe(true);
      expect(decodeTransaction(result)).toEqual(decodeTransaction(f));
    }
  });

  it('jsonParsed: key objects and the transactionConfig; decodes as the json form does', async () => {
    const { result } = await call(srv.url, [f29.transaction.signatures[0], { encoding: 'jsonParsed', maxSupportedTransactionVersion: 1 }]);
    const message = (result!.transaction as { message: Record<string, unknown> }).message;
    expect(message.transactionConfig).toEqual(f29.transaction.message.transactionConfig);
    expect(message.addressTableLookups).toBeUndefined();
    expect((message.accountKeys as unknown[])[0]).toEqual({ pubkey: f29.transaction.message.accountKeys[0], signer: true, source: 'transaction', writable: true });
    expect(decodeTransaction(result)).toEqual(decodeTransaction(f29));
  });

  it('-32015 when maxSupportedTransactionVersion is 0 or absent, in every encoding', async () => {
    const sig = f29.transaction.signatures[0];
    for (const encoding of ['json', 'jsonParsed', 'base64']) {
      expect((await call(srv.url, [sig, { encoding, maxSupportedTransactionVersion: 0 }])).error).toEqual(refusal(1));
      expect((await call(srv.url, [sig, { encoding }])).error).toEqual(refusal(1));
    }
    expect((await call(srv.url, [sig, 'json'])).error).toEqual(refusal(1));
  });

  it('a v1 transaction stored in base64 wire form loads and is served as json with its transactionConfig', () => {
    const wire = { slot: f28.slot, blockTime: f28.blockTime, version: 1, meta: f28.meta, transaction: [v1TransactionBytes(f28.transaction.message, f28.transaction.signatures).toString('base64'), 'base64'] };
    const d2 = mkdtempSync(join(tmpdir(), 'lpa-replay-v1b-'));
    try {
      writeFileSync(join(d2, 'transactions.ndjson'), JSON.stringify(wire) + '\n');
      const chain = loadChain(d2);
      expect(chain.transactions[0]).toMatchObject({ signature: f28.transaction.signatures[0], version: 1, storedEncoding: 'base64' });
      const { version: _v, ...raw } = chain.transactions[0]!.raw!;
      const { instructions, ...rest } = f28.transaction.message;
      expect(raw).toEqual({ signatures: f28.transaction.signatures, message: { ...rest, instructions: instructions.map(({ stackHeight: _s, ...ix }: V1JsonMessage['instructions'][number] & { stackHeight?: number }) => ({ ...ix, stackHeight: null })) } });
    } finally {
      rmSync(d2, { recursive: true, force: true });
    }
  });
});
