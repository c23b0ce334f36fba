/**
 * pageSignatures (src/chain/signatures.ts) over a simulated chain of more than one page of program
 * signatures, served by the replay RPC: read through the collector's batched reader it gives what
 * kit's client gives — every page, newest first, `until` exclusive, the same slots and errors (as
 * plain JSON: kit's have bigints) — and a failed call throws.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeChain } from '../../devchain/simulate/write-chain.ts';
import { type ReplayRpc, startReplayRpc } from '../../devchain/replay/server.ts';
import { createArchiveRpc, toPlainJson } from '../../src/chain/rpc.ts';
import { pageSignatures, SIGNATURE_PAGE } from '../../src/chain/signatures.ts';
import { createTransactionReader } from '../../src/chain/transaction-reader.ts';
import { PUMP_PROGRAM_ID } from '../../src/core/programs.ts';

let tmp: string;
let srv: ReplayRpc;
beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'lpa-sigpages-'));
  writeChain({ launches: 60, seed: 4242, out: join(tmp, 'chain') });
  srv = await startReplayRpc({ chainDir: join(tmp, 'chain') });
});
afterAll(async () => {
  await srv.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('program signature pages through the batched reader', () => {
  it('give what kit gives, page by page and with until', async () => {
    const rpc = createArchiveRpc({ url: srv.url });
    const reader = createTransactionReader({ url: srv.url, batchSize: 100 });
    const byKit = toPlainJson(await pageSignatures(rpc, PUMP_PROGRAM_ID)) as Awaited<ReturnType<typeof pageSignatures>>;
    const calls0 = srv.stats.calls.getSignaturesForAddress ?? 0;
    const byReader = await pageSignatures(rpc, PUMP_PROGRAM_ID, { reader });
    expect(byKit.signatures.length).toBeGreaterThan(SIGNATURE_PAGE);
    expect(byReader).toEqual(byKit);
    // full pages, a short last one, and the empty page that confirms the end (a short page alone is not the end)
    const n = byKit.signatures.length;
    expect((srv.stats.calls.getSignaturesForAddress ?? 0) - calls0).toBe(Math.floor(n / SIGNATURE_PAGE) + (n % SIGNATURE_PAGE === 0 ? 1 : 2));
    expect(byReader.signatures.some((s) => s.err !== null)).toBe(true); // failed transactions keep their error
    expect(() => JSON.stringify(byReader)).not.toThrow(); // no bigints
    expect(byReader.signatures.every((s) => typeof s.slot === 'number')).toBe(true);
    const until = byKit.signatures[700]!.signature;
    const newer = await pageSignatures(rpc, PUMP_PROGRAM_ID, { reader, until });
    expect(newer).toEqual(toPlainJson(await pageSignatures(rpc, PUMP_PROGRAM_ID, { until })));
    expect(newer.signatures).toEqual(byKit.signatures.slice(0, 700));
  });

  it('a provider that caps a page below 1,000 (or a node at the edge of its ledger) still gives every signature, with or without until', async () => {
    const rpc = createArchiveRpc({ url: srv.url });
    const reader = createTransactionReader({ url: srv.url, batchSize: 100 });
    const all = await pageSignatures(rpc, PUMP_PROGRAM_ID, { reader });
    // answers cut to their first 300 signatures, as a provider capping `limit` gives them
    const capped = { call: async (method: string, params: unknown[][], signal?: AbortSignal) => (await reader.call(method, params, signal)).map((a) => (Array.isArray(a) ? a.slice(0, 300) : a)) };
    expect(await pageSignatures(rpc, PUMP_PROGRAM_ID, { reader: capped })).toEqual(all);
    const until = all.signatures[700]!.signature;
    expect((await pageSignatures(rpc, PUMP_PROGRAM_ID, { reader: capped, until })).signatures).toEqual(all.signatures.slice(0, 700));
  });

  it('a failed call throws; a malformed address throws before any call', async () => {
    const rpc = createArchiveRpc({ url: srv.url });
    const failing = { call: async () => [new Error('JSON-RPC error -32602: Invalid param')] };
    await expect(pageSignatures(rpc, PUMP_PROGRAM_ID, { reader: failing })).rejects.toThrow('-32602');
    const noList = { call: async () => [{ not: 'a list' }] };
    await expect(pageSignatures(rpc, PUMP_PROGRAM_ID, { reader: noList })).rejects.toThrow('no list');
    let called = 0;
    const counting = { call: async () => (called++, [[]]) };
    await expect(pageSignatures(rpc, 'not-an-address', { reader: counting })).rejects.toThrow();
    expect(called).toBe(0);
  });
});
