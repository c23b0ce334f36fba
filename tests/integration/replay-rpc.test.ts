/**
 * The replay RPC through @solana/kit's real clients (createSolanaRpc / createSolanaRpcSubscriptions)
 * over the shipped mainnet fixture chain (tests/fixtures/chains/mainnet), plus raw fetch for what
 * kit hides (batches, HTTP bodies). Conversions are checked by round trips through temp folders.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  address,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  getBase58Decoder,
  isSolanaError,
  signature,
  SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR,
  type Address,
} from '@solana/kit';
import { type ReplayRpc, startReplayRpc } from '../../devchain/replay/server.ts';
import { loadChain } from '../../devchain/replay/load-chain.ts';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
const CHAIN = join(ROOT, 'tests/fixtures/chains/mainnet');
const FIX = join(ROOT, 'tests/fixtures/mainnet');
const PUMP = address('6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P');
const SIG = {
  f2: '33LHUzKfhBvU68kYib22oFx2XdQKQZ2sfvTmmdCFEr6YidyP8S3WwAurjz6Suewvr2WUByV79K3stNCZDe7wq3De', // slot 284677332
  f1: '52ar89rghM8EwKZkxFnBMC4LaMReqtVdpxqXxGWBCMYV1DnYdLrdsqJo8Hbn9KjVpckAokqGNHzTSVfK5xuLepdC', // 284682639
  f5: '3tJczs8y2bR8tVALRQZBZFihn2gZ9EWJuHgKQiyiWawr3aCNekd76BNX78fero23nv4afmsuE5Rsa99RccCijWy5', // 288224272
  f7: '2RoRJxatbF9Qkv87jei19u7ei2ckyjjnrCHZBRRAXi4GFJi68kra2iPSk7aoQ9Ugnf5FK5Mdp274hMaVSzn6SN5M', // 435946190
  f10: '5EDHe12KqokKkhDLY8n5cs7hYs5g49mNFTMKHARafs9FMVBYcG1rYf7VD4h1zd19G7zaXGNLqqyTsczPXbbafYuZ', // 435948662 (assigned)
};
const NEWEST_FIRST = [SIG.f10, SIG.f7, SIG.f5, SIG.f1, SIG.f2];
const CURVE_2026 = address('3jJ83NDorkbFkF1JKbEfFWGeX16aXUiwby9RwJm9kat3');
const POOL = address('B9WYSKaLDWnegupPNG1h99XiiokMUYj6k64Dbqv18qr8');
const UNKNOWN_ADDRESS = address('9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin');
const UNKNOWN_SIG = signature(getBase58Decoder().decode(new Uint8Array(64).fill(7)));
const F10 = JSON.parse(readFileSync(join(FIX, 'pump_2026-07_create_v2+buy_blockSubscribe_base64.json'), 'utf8'));

/** The JSON-RPC code and server message of a rejected kit call. */
async function rpcError(p: Promise<unknown>): Promise<{ code: unknown; message: unknown }> {
  try {
    await p;
  } catch (e) {
    if (isSolanaError(e)) return { code: e.context.__code, message: (e.context as { __serverMessage?: string }).__serverMessage };
    throw e;
  }
  throw new Error('expected an RPC error');
}

async function post(url: string, body: unknown, raw = false): Promise<{ status: number; text: string; json: unknown }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: raw ? (body as string) : JSON.stringify(body) });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* truncated or empty */
  }
  return { status: res.status, text, json };
}

describe('replay RPC, history mode, through @solana/kit', () => {
  let srv: ReplayRpc;
  let rpc: ReturnType<typeof createSolanaRpc>;
  beforeAll(async () => {
    srv = await startReplayRpc({ chainDir: CHAIN });
    rpc = createSolanaRpc(srv.url);
  });
  afterAll(() => srv.close());

  it('loads the fixture chain: 5 transactions, 6 accounts, slot = newest slot', () => {
    expect(srv.counts()).toEqual({ transactions: 5, accounts: 6 });
    expect(srv.slot()).toBe(435948662);
  });

  it('getSignaturesForAddress: newest first, limit, before, until (exclusive)', async () => {
    const all = await rpc.getSignaturesForAddress(PUMP, { commitment: 'confirmed' }).send();
    expect(all.map((s) => s.signature)).toEqual(NEWEST_FIRST);
    expect(all[0]).toEqual({ blockTime: 1785328607n, confirmationStatus: 'finalized', err: null, memo: null, signature: SIG.f10, slot: 435948662n });
    const page = await rpc.getSignaturesForAddress(PUMP, { limit: 2 }).send();
    expect(page.map((s) => s.signature)).toEqual(NEWEST_FIRST.slice(0, 2));
    const next = await rpc.getSignaturesForAddress(PUMP, { limit: 2, before: signature(SIG.f7) }).send();
    expect(next.map((s) => s.signature)).toEqual([SIG.f5, SIG.f1]);
    const since = await rpc.getSignaturesForAddress(PUMP, { until: signature(SIG.f1) }).send();
    expect(since.map((s) => s.signature)).toEqual([SIG.f10, SIG.f7, SIG.f5]);
    const window = await rpc.getSignaturesForAddress(PUMP, { before: signature(SIG.f10), until: signature(SIG.f1) }).send();
    expect(window.map((s) => s.signature)).toEqual([SIG.f7, SIG.f5]);
    // A lookup-table key of FIX/7 (loaded, not static) is indexed too; an unknown address has none.
    const viaAlt = await rpc.getSignaturesForAddress(address('pfeeUxB6jkeY1Hxd7CsFCAjcbHA9rWtchMGdZ6VojVZ')).send();
    expect(viaAlt.map((s) => s.signature)).toEqual([SIG.f10, SIG.f7]);
    expect(await rpc.getSignaturesForAddress(UNKNOWN_ADDRESS).send()).toEqual([]);
  });

  it('getSignaturesForAddress errors as mainnet: limit > 1000, commitment processed, bad address', async () => {
    expect(await rpcError(rpc.getSignaturesForAddress(PUMP, { limit: 1001 }).send())).toEqual({ code: -32602, message: 'Invalid limit; max 1000' });
    expect(await rpcError(rpc.getSignaturesForAddress(PUMP, { commitment: 'processed' } as never).send())).toEqual({
      code: -32602,
      message: 'Method does not support commitment below `confirmed`',
    });
    expect(await rpcError(rpc.getSignaturesForAddress('not-base58!' as Address).send())).toEqual({ code: -32602, message: 'Invalid param: Invalid' });
  });

  it('getTransaction: each encoding, null for unknown, -32015 without maxSupportedTransactionVersion', async () => {
    const base64 = (await rpc.getTransaction(signature(SIG.f10), { encoding: 'base64', maxSupportedTransactionVersion: 0 }).send())!;
    expect(base64.transaction).toEqual(F10.transaction);
    expect(base64.slot).toBe(435948662n);
    expect(base64.blockTime).toBe(1785328607n);
    expect(base64.version).toBe(0);
    expect(base64.meta?.logMessages).toEqual(F10.meta.logMessages);

    const json = (await rpc.getTransaction(signature(SIG.f10), { encoding: 'json', maxSupportedTransactionVersion: 0 }).send())!;
    expect(json.transaction.signatures[0]).toBe(SIG.f10);
    expect(json.transaction.message.accountKeys[0]).toBe('5zsxd4pGNCQpwyKiBWZ95nCTPsEPoS62xEGnjpW6FRy7');
    expect(json.transaction.message.header).toEqual({ numRequiredSignatures: 2, numReadonlySignedAccounts: 0, numReadonlyUnsignedAccounts: 9 });
    expect(json.transaction.message.instructions[0]).toMatchObject({ programIdIndex: 18, stackHeight: null });

    const parsed = (await rpc.getTransaction(signature(SIG.f10), { encoding: 'jsonParsed', maxSupportedTransactionVersion: 0 }).send())!;
    const keys = parsed.transaction.message.accountKeys;
    expect(keys[0]).toEqual({ pubkey: '5zsxd4pGNCQpwyKiBWZ95nCTPsEPoS62xEGnjpW6FRy7', signer: true, source: 'transaction', writable: true });
    expect(keys.find((k) => k.pubkey === PUMP)).toMatchObject({ signer: false, writable: false });
    expect(parsed.transaction.message.instructions[0]).toMatchObject({ programId: PUMP, stackHeight: null });

    const base58 = (await rpc.getTransaction(signature(SIG.f10), { encoding: 'base58', maxSupportedTransactionVersion: 0 }).send())!;
    expect(base58.transaction[1]).toBe('base58');

    // A stored jsonParsed file (FIX/7) keeps its exact form; asked as json it cannot be converted
    // (System instructions are parsed), so it is served as jsonParsed (a documented difference).
    const f7 = (await rpc.getTransaction(signature(SIG.f7), { encoding: 'jsonParsed', maxSupportedTransactionVersion: 0 }).send())!;
    const f7File = JSON.parse(readFileSync(join(FIX, 'pump_2026-07_create_v2+extend+buy_exact_sol_in_getTransaction_jsonParsed.json'), 'utf8')).result;
    expect(f7.transaction.signatures).toEqual(f7File.transaction.signatures);
    expect(f7.slot).toBe(435946190n);
    const f7json = (await rpc.getTransaction(signature(SIG.f7), { encoding: 'json', maxSupportedTransactionVersion: 0 }).send()) as unknown as { transaction: { message: { accountKeys: unknown[] } } };
    expect(typeof f7json.transaction.message.accountKeys[0]).toBe('object');

    expect(await rpc.getTransaction(UNKNOWN_SIG, { encoding: 'json', maxSupportedTransactionVersion: 0 }).send()).toBeNull();
    expect(await rpcError(rpc.getTransaction(signature(SIG.f7), { encoding: 'json' }).send())).toEqual({
      code: -32015,
      message: 'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
    });
  });

  it('getAccountInfo / getMultipleAccounts: known, unknown, dataSlice, encodings, > 100 addresses', async () => {
    const curve = await rpc.getAccountInfo(CURVE_2026, { encoding: 'base64' }).send();
    const f9 = JSON.parse(readFileSync(join(FIX, 'pump_2026-07_bonding-curve_getAccountInfo.json'), 'utf8')).result.value;
    expect(curve.context.slot).toBe(435948662n);
    expect(curve.value).toEqual({ data: f9.data, executable: false, lamports: 790949926n, owner: PUMP, rentEpoch: 18446744073709551615n, space: 151n });
    const sliced = await rpc.getAccountInfo(CURVE_2026, { encoding: 'base64', dataSlice: { offset: 0, length: 8 } }).send();
    expect(Buffer.from(sliced.value!.data[0], 'base64').toString('hex')).toBe('17b7f83760d8ac60');
    expect((await rpc.getAccountInfo(UNKNOWN_ADDRESS, { encoding: 'base64' }).send()).value).toBeNull();
    expect(await rpcError(rpc.getAccountInfo(CURVE_2026, { encoding: 'base58' }).send())).toEqual({
      code: -32602,
      message: 'Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.',
    });
    const many = await rpc.getMultipleAccounts([CURVE_2026, UNKNOWN_ADDRESS, POOL], { encoding: 'base64' }).send();
    expect(many.value.map((v) => v?.owner ?? null)).toEqual([PUMP, null, 'pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA']);
    expect(await rpcError(rpc.getMultipleAccounts(Array(101).fill(CURVE_2026), { encoding: 'base64' }).send())).toEqual({
      code: -32602,
      message: 'Too many inputs provided; max 100',
    });
  });

  it('getSlot, getBlockTime, getHealth, getVersion, getLatestBlockhash', async () => {
    expect(await rpc.getSlot().send()).toBe(435948662n);
    expect(await rpc.getBlockTime(435946190n).send()).toBe(1785327618n);
    expect(await rpcError(rpc.getBlockTime(435946191n).send())).toEqual({ code: -32004, message: 'Block not available for slot 435946191' });
    expect(await rpc.getHealth().send()).toBe('ok');
    expect((await rpc.getVersion().send())['solana-core']).toBe('2.2.0');
    const bh = await rpc.getLatestBlockhash().send();
    expect(bh.value.blockhash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    expect(bh.value.lastValidBlockHeight).toBeGreaterThan(0n);
    expect(await rpc.getBlockHeight().send()).toBeLessThan(435948662n);
  });

  it('raw JSON-RPC: batch, parse error, invalid request, method not found, bad params', async () => {
    const batch = await post(srv.url, [
      { jsonrpc: '2.0', id: 1, method: 'getSlot' },
      { jsonrpc: '2.0', id: 2, method: 'getHealth' },
      { jsonrpc: '2.0', id: 3, method: 'noSuchMethod' },
      { id: 4, method: 'getSlot' },
      { jsonrpc: '2.0', method: 'getSlot' }, // a notification: no answer
      { jsonrpc: '2.0', id: 5, method: 'getBlockTime', params: ['x'] },
    ]);
    expect(batch.json).toEqual([
      { jsonrpc: '2.0', result: 435948662, id: 1 },
      { jsonrpc: '2.0', result: 'ok', id: 2 },
      { jsonrpc: '2.0', error: { code: -32601, message: 'Method not found' }, id: 3 },
      { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid request' }, id: null },
      { jsonrpc: '2.0', error: { code: -32602, message: 'Invalid params: invalid type: string "x", expected u64.' }, id: 5 },
    ]);
    expect((await post(srv.url, '{"jsonrpc":"2.0",', true)).json).toEqual({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null });
    expect((await post(srv.url, [])).json).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: 'Invalid request' }, id: null });
    expect((await post(srv.url, { jsonrpc: '2.0', id: 9, method: 'getAccountInfo', params: [] })).json).toEqual({
      jsonrpc: '2.0',
      error: { code: -32602, message: '`params` should have at least 1 argument(s)' },
      id: 9,
    });
    // u64::MAX rentEpoch is printed exactly, as mainnet does.
    expect((await post(srv.url, { jsonrpc: '2.0', id: 1, method: 'getAccountInfo', params: [CURVE_2026, { encoding: 'base64' }] })).text).toContain('"rentEpoch":18446744073709551615');
  });
});

describe('replay RPC faults', () => {
  it('answers HTTP 429 with mainnet body beyond maxRequestsPerSecond', async () => {
    const srv = await startReplayRpc({ chainDir: CHAIN, maxRequestsPerSecond: 2 });
    try {
      const rpc = createSolanaRpc(srv.url);
      await rpc.getSlot().send();
      await rpc.getSlot().send();
      const err = await rpc.getSlot().send().catch((e: unknown) => e);
      expect(isSolanaError(err, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR) && err.context.statusCode).toBe(429);
      const raw = await post(srv.url, { jsonrpc: '2.0', id: 7, method: 'getSlot' });
      expect(raw.status).toBe(429);
      expect(raw.json).toEqual({ jsonrpc: '2.0', error: { code: 429, message: 'Too many requests for a specific RPC call' }, id: 7 });
      expect(srv.stats.calls.getSlot).toBe(4);
    } finally {
      await srv.close();
    }
  });

  it('injects errors, HTTP statuses, delays and truncated bodies', async () => {
    const srv = await startReplayRpc({
      chainDir: CHAIN,
      inject: (method, _params, n) => {
        if (method === 'getSlot' && n === 1) return { httpStatus: 500, rpcError: { code: -32005, message: 'Node is behind by 42 slots' } };
        if (method === 'getSlot' && n === 2) return { rpcError: { code: -32005, message: 'Node is behind by 42 slots' } };
        if (method === 'getHealth') return { truncate: true, delayMs: 30 };
        return null;
      },
    });
    try {
      const rpc = createSolanaRpc(srv.url);
      const first = await rpc.getSlot().send().catch((e: unknown) => e);
      expect(isSolanaError(first, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR) && first.context.statusCode).toBe(500);
      expect(await rpcError(rpc.getSlot().send())).toEqual({ code: -32005, message: undefined });
      expect(await rpc.getSlot().send()).toBe(435948662n);
      const t0 = Date.now();
      const truncated = await post(srv.url, { jsonrpc: '2.0', id: 1, method: 'getHealth' });
      expect(Date.now() - t0).toBeGreaterThanOrEqual(25);
      expect(truncated.status).toBe(200);
      expect(truncated.json).toBeNull();
      expect(truncated.text).toBe('{"jsonrpc":"2.0","result":"ok","id":1}'.slice(0, 19));
      await expect(rpc.getHealth().send()).rejects.toThrow();
      expect(srv.stats.calls).toMatchObject({ getSlot: 3, getHealth: 2 });
    } finally {
      await srv.close();
    }
  });
});

describe('replay RPC, live mode and WebSocket', () => {
  it('lands slots on a clock, pushes logsNotification for a mentions filter and slotNotification', async () => {
    const srv = await startReplayRpc({ chainDir: CHAIN, live: true, speed: 50, startSlot: 435946190 - 40 });
    const subs = createSolanaRpcSubscriptions(srv.wsUrl);
    const ac = new AbortController();
    try {
      const rpc = createSolanaRpc(srv.url);
      // Not landed yet: invisible to every method.
      expect(await rpc.getTransaction(signature(SIG.f7), { encoding: 'json', maxSupportedTransactionVersion: 0 }).send()).toBeNull();
      expect((await rpc.getSignaturesForAddress(PUMP).send()).map((s) => s.signature)).toEqual([SIG.f5, SIG.f1, SIG.f2]);
      expect((await rpc.getAccountInfo(CURVE_2026, { encoding: 'base64' }).send()).value).toBeNull();

      const pump = await subs.logsNotifications({ mentions: [PUMP] }, { commitment: 'confirmed' }).subscribe({ abortSignal: ac.signal });
      const mint = await subs.logsNotifications({ mentions: [address('CWiTGbCiDd8BKtNYNE2boT9fJGFG2MU53Uf6HQk4pump')] }).subscribe({ abortSignal: ac.signal });
      const slots = await subs.slotNotifications().subscribe({ abortSignal: ac.signal });
      // kit only queues notifications for an iterator once its first next() has been called.
      const it1 = pump[Symbol.asyncIterator]();
      const first = it1.next();
      const mintFirst = mint[Symbol.asyncIterator]().next();
      const firstSlot = (await slots[Symbol.asyncIterator]().next()).value!;
      expect(firstSlot.parent).toBe(firstSlot.slot - 1n);
      expect(firstSlot.slot).toBeLessThan(435946190n);

      const n1 = (await first).value!;
      expect(n1.context.slot).toBe(435946190n);
      expect(n1.value.signature).toBe(SIG.f7);
      expect(n1.value.err).toBeNull();
      expect(n1.value.logs[0]).toMatch(/^Program /);
      expect((await mintFirst).value!.value.signature).toBe(SIG.f7);
      expect(await rpc.getTransaction(signature(SIG.f7), { encoding: 'json', maxSupportedTransactionVersion: 0 }).send()).not.toBeNull();
      expect(srv.slot()).toBeGreaterThanOrEqual(435946190);

      // Jump the clock: FIX/10 lands and is pushed to the pump subscription only.
      srv.advanceTo(435948662);
      const n2 = (await it1.next()).value!;
      expect(n2.value.signature).toBe(SIG.f10);
      expect((await rpc.getSignaturesForAddress(PUMP, { limit: 2 }).send()).map((s) => s.signature)).toEqual([SIG.f10, SIG.f7]);

      // logsSubscribe with two mentions is refused like mainnet.
      const two = subs.logsNotifications({ mentions: [PUMP, CURVE_2026] } as never).subscribe({ abortSignal: ac.signal });
      expect(await rpcError(two)).toEqual({ code: -32602, message: 'Invalid Request: Only 1 address supported' });

      // Forced disconnect: the open subscription ends in an error.
      const pending = it1.next();
      srv.dropConnections();
      await expect(pending).rejects.toThrow();
    } finally {
      ac.abort();
      await srv.close();
    }
  }, 15_000);

  it('addTransaction lands a new transaction at its slot and notifies', async () => {
    const srv = await startReplayRpc({ chainDir: CHAIN });
    const subs = createSolanaRpcSubscriptions(srv.wsUrl);
    const ac = new AbortController();
    try {
      const rpc = createSolanaRpc(srv.url);
      const json = (await post(srv.url, { jsonrpc: '2.0', id: 1, method: 'getTransaction', params: [SIG.f10, { encoding: 'json', maxSupportedTransactionVersion: 0 }] })).json as { result: Record<string, unknown> };
      // A copy of FIX/10 (json rendering) under a new signature, one slot range later.
      const tx = json.result as { slot: number; transaction: { signatures: string[] } };
      tx.slot = 435948700;
      tx.transaction.signatures[0] = UNKNOWN_SIG;
      const sub = await subs.logsNotifications({ mentions: [PUMP] }).subscribe({ abortSignal: ac.signal });
      const next = sub[Symbol.asyncIterator]().next();
      srv.addTransaction(tx);
      expect((await next).value!.value.signature).toBe(UNKNOWN_SIG);
      expect(await rpc.getSlot().send()).toBe(435948700n);
      expect((await rpc.getSignaturesForAddress(PUMP, { limit: 1 }).send())[0].signature).toBe(UNKNOWN_SIG);
    } finally {
      ac.abort();
      await srv.close();
    }
  });
});

describe('chain folder formats and encoding round trips', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'replay-rpc-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('jsonParsed and json renderings of a wire transaction convert back to the same wire bytes', async () => {
    const src = await startReplayRpc({ chainDir: CHAIN });
    const get = async (encoding: string) =>
      ((await post(src.url, { jsonrpc: '2.0', id: 1, method: 'getTransaction', params: [SIG.f10, { encoding, maxSupportedTransactionVersion: 0 }] })).json as { result: unknown }).result;
    const parsed = await get('jsonParsed');
    const json = await get('json');
    await src.close();

    // Folder A: transactions/*.json holding a jsonParsed file with every instruction raw.
    mkdirSync(join(dir, 'a/transactions'), { recursive: true });
    writeFileSync(join(dir, 'a/transactions/1.json'), JSON.stringify({ jsonrpc: '2.0', result: parsed, id: 1 }));
    // Folder B: transactions.ndjson (json form) + accounts.ndjson with two versions of one address.
    mkdirSync(join(dir, 'b'));
    writeFileSync(join(dir, 'b/transactions.ndjson'), JSON.stringify(json) + '\n');
    const acc = (lamports: number) => ({ data: [Buffer.from([1, 2, 3]).toString('base64'), 'base64'], lamports, owner: PUMP, executable: false, rentEpoch: 0, space: 3 });
    writeFileSync(
      join(dir, 'b/accounts.ndjson'),
      [{ address: POOL, slot: 435948600, account: acc(1) }, { address: POOL, slot: 435948662, account: acc(2) }].map((l) => JSON.stringify(l)).join('\n') + '\n',
    );

    for (const sub of ['a', 'b']) {
      const chain = loadChain(join(dir, sub));
      expect(chain.transactions).toHaveLength(1);
      const srv = await startReplayRpc({ chain });
      try {
        const res = (await post(srv.url, { jsonrpc: '2.0', id: 1, method: 'getTransaction', params: [SIG.f10, { encoding: 'base64', maxSupportedTransactionVersion: 0 }] })).json as {
          result: { transaction: unknown; meta: { loadedAddresses: unknown } };
        };
        expect(res.result.transaction).toEqual(F10.transaction);
        expect(res.result.meta.loadedAddresses).toEqual({ writable: [], readonly: [] });
      } finally {
        await srv.close();
      }
    }

    // Live over folder B: the older account version is visible first, the newer one once its slot lands.
    const live = await startReplayRpc({ chainDir: join(dir, 'b'), live: true, speed: 1, startSlot: 435948650 });
    try {
      const rpc = createSolanaRpc(live.url);
      expect((await rpc.getAccountInfo(POOL, { encoding: 'base64' }).send()).value?.lamports).toBe(1n);
      live.advanceTo(435948662);
      expect((await rpc.getAccountInfo(POOL, { encoding: 'base64' }).send()).value?.lamports).toBe(2n);
    } finally {
      await live.close();
    }
  });
});
