import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { createCurveStatus } from '../../src/chain/curve-status.ts';
import { bondingCurveAddress } from '../../src/chain/pda.ts';

/**
 * The curve check through the real @solana/kit client against a local JSON-RPC server whose answers
 * the test sets: 'never' only when the curve account is null AND it has no signatures.
 */

const MINT = '7GCihgDB8fe6KNjn2MYtkzZcRjQy3t9GHdC8uHYmW2hr';
let account: unknown = null;
let signatures: unknown[] = [];
let failWith: number | null = null;
const seen: { method: string; params: unknown[] }[] = [];
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const { id, method, params } = JSON.parse(body);
      seen.push({ method, params });
      if (failWith) {
        res.writeHead(failWith).end('down');
        return;
      }
      const result = method === 'getAccountInfo' ? { context: { slot: 1 }, value: account } : signatures;
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, result }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('createCurveStatus', () => {
  it('never: no account and no signatures, read at the bonding-curve PDA', async () => {
    account = null;
    signatures = [];
    failWith = null;
    seen.length = 0;
    expect(await createCurveStatus(url)(MINT)).toBe('never');
    const curve = await bondingCurveAddress(MINT);
    expect(seen.map((s) => s.method).sort()).toEqual(['getAccountInfo', 'getSignaturesForAddress']);
    for (const s of seen) expect(s.params[0]).toBe(curve);
    expect(seen.find((s) => s.method === 'getSignaturesForAddress')!.params[1]).toMatchObject({ limit: 1 });
  });

  it('exists: the account exists, or only its history does', async () => {
    failWith = null;
    account = { lamports: 1, owner: '6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P', data: ['', 'base64'], executable: false, rentEpoch: 0, space: 0 };
    signatures = [];
    expect(await createCurveStatus(url)(MINT)).toBe('exists');
    account = null;
    signatures = [{ signature: '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW', slot: 1, err: null, memo: null, blockTime: null, confirmationStatus: 'finalized' }];
    expect(await createCurveStatus(url)(MINT)).toBe('exists');
  });

  it('unknown: HTTP failure, nothing listening, or a malformed mint — never a claim it could not check', async () => {
    failWith = 500;
    expect(await createCurveStatus(url)(MINT)).toBe('unknown');
    failWith = null;
    const closed = await new Promise<number>((r) => {
      const s = createNetServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => r(p));
      });
    });
    expect(await createCurveStatus(`http://127.0.0.1:${closed}`)(MINT)).toBe('unknown');
    expect(await createCurveStatus(url)('not-a-mint')).toBe('unknown');
  });
});
