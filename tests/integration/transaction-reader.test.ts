/**
 * The collector's batched transaction reader (src/chain/transaction-reader.ts) and the archive's
 * JSON parser (parseRpcJson) against the replay RPC over the shipped mainnet fixture chain:
 * batches answer exactly what kit's own client and parser give one call at a time, in fewer HTTP
 * requests; per-call rate limits are asked again; HTTP 413 halves the batch; a provider refusing
 * batches is read one call per request; truncated answers are retried; unsafe integers stay exact
 * (parseTransactionAnswers for getTransaction answers, parseRpcJson for the rest).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSolanaRpc, getBase58Decoder, signature } from '@solana/kit';
import { type ReplayRpc, startReplayRpc } from '../../devchain/replay/server.ts';
import { createTransactionReader, TRANSACTION_CONFIG } from '../../src/chain/transaction-reader.ts';
import { parseRpcJson, parseTransactionAnswers, toPlainJson, createArchiveRpc } from '../../src/chain/rpc.ts';
import PQueue from 'p-queue';
import { fetchDecodedMany } from '../../collector/collect.ts';
import { createLogger } from '../../src/log.ts';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
const CHAIN = join(ROOT, 'tests/fixtures/chains/mainnet');
const SIGS = [
  '33LHUzKfhBvU68kYib22oFx2XdQKQZ2sfvTmmdCFEr6YidyP8S3WwAurjz6Suewvr2WUByV79K3stNCZDe7wq3De',
  '52ar89rghM8EwKZkxFnBMC4LaMReqtVdpxqXxGWBCMYV1DnYdLrdsqJo8Hbn9KjVpckAokqGNHzTSVfK5xuLepdC',
  '3tJczs8y2bR8tVALRQZBZFihn2gZ9EWJuHgKQiyiWawr3aCNekd76BNX78fero23nv4afmsuE5Rsa99RccCijWy5',
  '2RoRJxatbF9Qkv87jei19u7ei2ckyjjnrCHZBRRAXi4GFJi68kra2iPSk7aoQ9Ugnf5FK5Mdp274hMaVSzn6SN5M',
  '5EDHe12KqokKkhDLY8n5cs7hYs5g49mNFTMKHARafs9FMVBYcG1rYf7VD4h1zd19G7zaXGNLqqyTsczPXbbafYuZ',
];
const UNKNOWN_SIG = getBase58Decoder().decode(new Uint8Array(64).fill(7));
const cfg = TRANSACTION_CONFIG;

/** What kit's default client and bigint parser give for each signature, as plain JSON. */
async function reference(url: string, sigs: string[]): Promise<unknown[]> {
  const rpc = createSolanaRpc(url);
  return Promise.all(sigs.map(async (s) => toPlainJson(await rpc.getTransaction(signature(s), cfg).send())));
}

describe('batched transaction reader', () => {
  let srv: ReplayRpc;
  let expected: unknown[];
  beforeAll(async () => {
    srv = await startReplayRpc({ chainDir: CHAIN });
    expected = await reference(srv.url, SIGS);
  });
  afterAll(() => srv.close());

  it('answers a batch in one HTTP request, in order, equal to kit one call at a time; unknown → null', async () => {
    const reader = createTransactionReader({ url: srv.url, batchSize: 100 });
    const before = srv.stats.httpRequests;
    const got = await reader.getTransactions([...SIGS, UNKNOWN_SIG]);
    expect(srv.stats.httpRequests - before).toBe(1);
    expect(got.slice(0, SIGS.length)).toEqual(expected);
    expect(got[SIGS.length]).toBeNull();
    expect(expected.every((t) => t !== null && typeof t === 'object')).toBe(true);
  });

  it('batchSize 1 sends one request per call with the same answers', async () => {
    const reader = createTransactionReader({ url: srv.url, batchSize: 1 });
    const before = srv.stats.httpRequests;
    expect(await reader.getTransactions(SIGS)).toEqual(expected);
    expect(srv.stats.httpRequests - before).toBe(SIGS.length);
  });
});

describe('batched transaction reader, faults', () => {
  it('asks again only the calls that hit a per-call rate limit; a permanent error stays in its place', async () => {
    let armed = false; // the reference answers are read first, without faults
    let n = 0;
    const srv = await startReplayRpc({
      chainDir: CHAIN,
      inject: (method, params) => {
        if (!armed || method !== 'getTransaction') return null;
        n++;
        if (params[0] === SIGS[1] && n <= 4) return { rpcError: { code: 429, message: 'Too many requests for a specific RPC call' } };
        if (params[0] === SIGS[3]) return { rpcError: { code: -32602, message: 'Invalid param: WrongSize' } };
        return null;
      },
    });
    try {
      const expected = await reference(srv.url, [SIGS[0]!, SIGS[1]!]);
      armed = true;
      const calls0 = srv.stats.calls.getTransaction ?? 0;
      const reader = createTransactionReader({ url: srv.url, batchSize: 10, baseDelayMs: 1 });
      const got = await reader.getTransactions(SIGS.slice(0, 4));
      expect(got.slice(0, 2)).toEqual(expected);
      expect(got[2]).not.toBeNull();
      expect(got[3]).toBeInstanceOf(Error);
      expect((got[3] as Error).message).toContain('-32602');
      expect(srv.stats.calls.getTransaction! - calls0).toBe(4 + 1); // one batch of 4, then SIGS[1] alone
    } finally {
      await srv.close();
    }
  });

  it('halves the batch on HTTP 413 (mainnet takes request bodies up to 50 KiB) and says so once', async () => {
    const srv = await startReplayRpc({ chainDir: CHAIN });
    try {
      const [one] = await reference(srv.url, [SIGS[4]!]);
      const many = Array.from({ length: 400 }, () => SIGS[4]!); // ≈ 190 bytes per call: 76 KB
      const reasons: string[] = [];
      const reader = createTransactionReader({ url: srv.url, batchSize: 400, onFallback: (r) => reasons.push(r) });
      const got = await reader.getTransactions(many);
      expect(got).toHaveLength(400);
      expect(got.every((t) => JSON.stringify(t) === JSON.stringify(one))).toBe(true);
      expect(reader.batchSize).toBe(200);
      expect(reasons).toEqual(['a batch of 400 calls was too large (HTTP 413); now 200 calls per request']);
    } finally {
      await srv.close();
    }
  });

  it('falls back to one call per request when the provider refuses batches', async () => {
    const srv = await startReplayRpc({ chainDir: CHAIN, refuseBatches: true });
    try {
      const expected = await reference(srv.url, SIGS);
      const reasons: string[] = [];
      const reader = createTransactionReader({ url: srv.url, batchSize: 50, onFallback: (r) => reasons.push(r) });
      expect(await reader.getTransactions(SIGS)).toEqual(expected);
      expect(reader.batchSize).toBe(1);
      expect(reasons).toHaveLength(1);
      expect(reasons[0]).toMatch(/HTTP 403; now 1 call per request$/);
      expect(await reader.getTransactions(SIGS.slice(0, 2))).toEqual(expected.slice(0, 2));
      expect(reasons).toHaveLength(1);
    } finally {
      await srv.close();
    }
  });

  it('retries a truncated batch answer (well-formed HTTP, half the JSON)', async () => {
    let armed = false;
    const srv = await startReplayRpc({
      chainDir: CHAIN,
      inject: (method) => {
        if (!armed || method !== 'getTransaction') return null;
        armed = false; // the first call of the reader's first batch only
        return { truncate: true };
      },
    });
    try {
      const expected = await reference(srv.url, SIGS);
      armed = true;
      const retries: string[] = [];
      const reader = createTransactionReader({ url: srv.url, batchSize: 50, baseDelayMs: 1, onRetry: (i) => retries.push(i.reason) });
      expect(await reader.getTransactions(SIGS)).toEqual(expected);
      expect(retries).toEqual(['truncated or malformed JSON answer']);
    } finally {
      await srv.close();
    }
  });
});

describe('batched transaction reader, a reply left out', () => {
  it('a batch answer missing one call\'s reply asks that call again, and the batch is read whole', async () => {
    let dropped = 0;
    const srv = await startReplayRpc({ chainDir: CHAIN });
    const expected = await reference(srv.url, SIGS);
    await srv.close();
    // a proxy in front of the replay that removes the second reply of the first batch answer
    const { createServer } = await import('node:http');
    const replay = await startReplayRpc({ chainDir: CHAIN });
    const proxy = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const upstream = await fetch(replay.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks) });
      let body = await upstream.text();
      const parsed = JSON.parse(body) as unknown;
      if (Array.isArray(parsed) && parsed.length > 1 && dropped === 0) {
        dropped++;
        body = JSON.stringify(parsed.filter((_, i) => i !== 1));
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
    try {
      const port = (proxy.address() as { port: number }).port;
      const reader = createTransactionReader({ url: `http://127.0.0.1:${port}`, batchSize: 50, baseDelayMs: 1 });
      expect(await reader.getTransactions(SIGS)).toEqual(expected);
      expect(dropped).toBe(1);
    } finally {
      proxy.close();
      await replay.close();
    }
  });
});

describe('batched transaction reader, replies mixed up', () => {
  it('an answer of another transaction than the one asked is a failed read of that call, never taken as it', async () => {
    const srv0 = await startReplayRpc({ chainDir: CHAIN });
    const [a, b] = await reference(srv0.url, SIGS.slice(0, 2));
    await srv0.close();
    // the provider answers the first signature with the second's transaction (a batch whose replies were swapped)
    const srv = await startReplayRpc({ chainDir: CHAIN, inject: (method, params) => (method === 'getTransaction' && params[0] === SIGS[0] ? { rewrite: () => b } : null) });
    try {
      const reader = createTransactionReader({ url: srv.url, batchSize: 50, baseDelayMs: 1 });
      const [first, second] = await reader.getTransactions(SIGS.slice(0, 2));
      expect(first).toBeInstanceOf(Error);
      expect(String((first as Error).message)).toMatch(/^the answer is for another transaction/);
      expect(second).toEqual(b);
      expect(a).not.toEqual(b);
    } finally {
      await srv.close();
    }
  });
});

describe('collector reads through the reader (fetchDecodedMany)', () => {
  it('decodes a batch in order; with RPC_MAX_RPS a batch of n calls takes n of the limiter\'s slots', async () => {
    const srv = await startReplayRpc({ chainDir: CHAIN });
    try {
      const reader = createTransactionReader({ url: srv.url, batchSize: 10 });
      const log = createLogger('silent');
      const before = srv.stats.httpRequests;
      const free = await fetchDecodedMany(reader, new PQueue({ concurrency: 8 }), false, SIGS, log);
      expect(free.map((t) => t?.signature)).toEqual(SIGS);
      expect(srv.stats.httpRequests - before).toBe(1);
      // 100 ms per call: the one HTTP request of 5 calls may start only after 4 intervals.
      const limited = new PQueue({ concurrency: 8, intervalCap: 1, interval: 100 });
      const t0 = performance.now();
      const got = await fetchDecodedMany(reader, limited, true, SIGS, log);
      expect(performance.now() - t0).toBeGreaterThanOrEqual(390);
      expect(got.map((t) => t?.signature)).toEqual(SIGS);
      expect(srv.stats.httpRequests - before).toBe(2);
    } finally {
      await srv.close();
    }
  });
});

describe('parseRpcJson', () => {
  it('keeps safe integers as numbers and unsafe ones exact (string, or bigint for kit)', () => {
    const text = '{"a":9007199254740991,"b":[18446744073709551615,-9007199254740993,1.5e3,0.25],"c":"x,1234567890123456789"}';
    expect(parseRpcJson(text)).toEqual({ a: 9007199254740991, b: ['18446744073709551615', '-9007199254740993', 1500, 0.25], c: 'x,1234567890123456789' });
    expect(parseRpcJson(text, 'bigint')).toEqual({ a: 9007199254740991, b: [18446744073709551615n, -9007199254740993n, 1500, 0.25], c: 'x,1234567890123456789' });
    expect(parseRpcJson('{"lamports":1000000000}')).toEqual({ lamports: 1000000000 });
    expect(() => parseRpcJson('{"a":1')).toThrow(SyntaxError);
  });

  it('kit through the archive client answers what kit alone does (fixture chain)', async () => {
    const srv = await startReplayRpc({ chainDir: CHAIN });
    try {
      const kit = createSolanaRpc(srv.url);
      const ours = createArchiveRpc({ url: srv.url });
      for (const s of SIGS) {
        expect(toPlainJson(await ours.getTransaction(signature(s), cfg).send())).toEqual(toPlainJson(await kit.getTransaction(signature(s), cfg).send()));
      }
      const a = await ours.getSignaturesForAddress('6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P' as never).send();
      const b = await kit.getSignaturesForAddress('6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P' as never).send();
      expect(toPlainJson(a)).toEqual(toPlainJson(b));
      expect(typeof a[0]!.slot).toBe('bigint');
    } finally {
      await srv.close();
    }
  });
});

describe('parseTransactionAnswers (getTransaction answers)', () => {
  /** The batch answer the replay gives for the fixture chain's transactions, as text. */
  async function fixtureAnswerText(): Promise<string> {
    const srv = await startReplayRpc({ chainDir: CHAIN });
    try {
      const res = await fetch(srv.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(SIGS.map((s, id) => ({ jsonrpc: '2.0', id, method: 'getTransaction', params: [s, cfg] }))),
      });
      return await res.text();
    } finally {
      await srv.close();
    }
  }

  it('gives what parseRpcJson gives, for every fixture transaction and with unsafe lamport amounts', async () => {
    const text = await fixtureAnswerText();
    const plain = parseTransactionAnswers(text) as { result: { meta: { preBalances: unknown[] } } }[];
    expect(plain).toEqual(parseRpcJson(text));
    expect(plain).toHaveLength(SIGS.length);
    expect(plain.every((r) => Array.isArray(r.result.meta.preBalances))).toBe(true);
    // each integer field a transaction result can hold beyond 2^53, made unsafe in turn
    const unsafe = '18446744073709551615';
    const edits: [RegExp, string, (r: Record<string, any>) => unknown][] = [
      [/"preBalances":\[\d+/, `"preBalances":[${unsafe}`, (r) => r.result.meta.preBalances[0]],
      [/"postBalances":\[\d+/, `"postBalances":[${unsafe}`, (r) => r.result.meta.postBalances[0]],
      [/"fee":\d+/, `"fee":${unsafe}`, (r) => r.result.meta.fee],
      [/"rewards":\[\]/, `"rewards":[{"pubkey":"x","lamports":-9007199254740993,"postBalance":${unsafe},"rewardType":"Fee","commission":null}]`, (r) => r.result.meta.rewards[0].postBalance],
      [/"slot":\d+/, `"slot":${unsafe}`, (r) => r.result.slot],
    ];
    for (const [find, put, read] of edits) {
      expect(find.test(text)).toBe(true);
      const edited = text.replace(find, put);
      const got = parseTransactionAnswers(edited) as Record<string, any>[];
      expect(got).toEqual(parseRpcJson(edited));
      expect(read(got[0]!)).toBe(unsafe);
    }
    // a long digit run inside a string is no number: plain JSON.parse, as parseRpcJson gives
    const inLog = text.replace('"logMessages":[', '"logMessages":["Program log: 12345678901234567890",');
    expect(parseTransactionAnswers(inLog)).toEqual(JSON.parse(inLog));
    expect(parseTransactionAnswers(inLog)).toEqual(parseRpcJson(inLog));
    expect(() => parseTransactionAnswers(text.slice(0, text.length / 2))).toThrow(SyntaxError);
  });

  it('the batched reader reads an unsafe lamport balance exactly, as kit does', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lpa-unsafe-'));
    try {
      const file = join(ROOT, 'tests/fixtures/mainnet/pump_2024-08_create+buy_getTransaction_jsonParsed.json');
      const text = readFileSync(file, 'utf8');
      const edited = text.replace(/"preBalances":\s*\[\s*\d+/, '"preBalances": [18446744073709551615');
      expect(edited).not.toBe(text);
      writeFileSync(join(dir, 'tx.json'), edited);
      writeFileSync(join(dir, 'chain.json'), JSON.stringify({ transactions: [{ file: 'tx.json' }] }));
      const srv = await startReplayRpc({ chainDir: dir });
      try {
        const sig = (JSON.parse(text) as { result?: { transaction: { signatures: string[] } }; transaction?: { signatures: string[] } });
        const s = (sig.result ?? sig).transaction!.signatures[0]!;
        const [expected] = await reference(srv.url, [s]);
        const [got] = await createTransactionReader({ url: srv.url, batchSize: 100 }).getTransactions([s, s]);
        expect(got).toEqual(expected);
        expect((got as { meta: { preBalances: unknown[] } }).meta.preBalances[0]).toBe('18446744073709551615');
      } finally {
        await srv.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
