/**
 * A rebuild reads at most REBUILD_MAX_TRANSACTIONS of a curve's history (a security review: one
 * request for a curve of 2,000,000 signatures paged them all, unpaced, and held every transaction:
 * 3.2 GB, then out of memory at every restart). Against a JSON-RPC stand-in whose curve history
 * never ends: the rebuild fails with RebuildTooLongError after the signature pages that count
 * allows, paced by REBUILD_RPC_MAX_RPS, and reads no transaction.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bs58 from 'bs58';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { createArchiveRpc } from '../../src/chain/rpc.ts';
import { rebuildLaunch, RebuildTooLongError } from '../../src/ingest/rebuild-launch.ts';
import { createLogger } from '../../src/log.ts';

const calls: string[] = [];
let server: Server;
let url: string;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lpa-rebuild-bound-'));
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const one = (m: { id: unknown; method: string }) => {
        calls.push(m.method);
        if (m.method === 'getSignaturesForAddress') {
          // a page of 1,000 every time: a history that never ends
          const page = Array.from({ length: 1000 }, (_, i) => ({ signature: bs58.encode(randomBytes(64)), slot: 1_000_000 - calls.length * 1000 - i, err: null, blockTime: 1_790_000_000, memo: null, confirmationStatus: 'confirmed' }));
          return { jsonrpc: '2.0', id: m.id, result: page };
        }
        if (m.method === 'getMultipleAccounts') return { jsonrpc: '2.0', id: m.id, result: { context: { slot: 1 }, value: [null, null, null, null].slice(0, 4) } };
        return { jsonrpc: '2.0', id: m.id, error: { code: -32601, message: `not here: ${m.method}` } };
      };
      const msg = JSON.parse(body);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(Array.isArray(msg) ? msg.map(one) : one(msg)));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => {
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a rebuild of a curve with a history longer than REBUILD_MAX_TRANSACTIONS', () => {
  it('fails after reading that many signatures, paced, and reads no transaction', async () => {
    const config = loadConfig({ DATA_DIR: dir, SOLANA_RPC_URL: url, REBUILD_MAX_TRANSACTIONS: '3000', REBUILD_RPC_MAX_RPS: '20' });
    const store = new PublicStore(join(dir, 'public.db'));
    try {
      const t0 = Date.now();
      const err = await rebuildLaunch({ config, store, rpc: createArchiveRpc({ url }), log: createLogger('error', 'test') }, 'GJLnyPBGcVmi6C9aSqQEgxWYhcXMJLmgGWHbsKhgpump').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RebuildTooLongError);
      expect((err as Error).message).toMatch(/more than 3000 transactions \(REBUILD_MAX_TRANSACTIONS\)/);
      const pages = calls.filter((c) => c === 'getSignaturesForAddress').length;
      expect(pages).toBe(3);
      expect(calls).not.toContain('getTransaction');
      // paced at 20 a second: the three pages took at least two intervals of 50 ms
      expect(Date.now() - t0).toBeGreaterThanOrEqual(100);
      expect(store.getLaunch('GJLnyPBGcVmi6C9aSqQEgxWYhcXMJLmgGWHbsKhgpump')).toBeUndefined();
    } finally {
      store.close();
    }
  });
});
