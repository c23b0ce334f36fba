/**
 * collector/read/unreadable.ts: which read failures are final at once, and how far a catch-up batch
 * goes past failed reads (planBatch), with the count carried from the previous catch-up's stop.
 */
import { describe, expect, it } from 'vitest';
import { callFailure, malformedFailure, NOT_FOUND, parseReadFailure, planBatch, requestFailure, type ReadFailure } from '../../collector/read/unreadable.ts';

const SIGS = ['s0', 's1', 's2', 's3'];
const tx = {};

describe('read failures', () => {
  it('-32015 and a malformed answer are final at once; other RPC errors, failed requests and null answers are counted', () => {
    expect(callFailure(new Error('JSON-RPC error -32015: Transaction version (2) is not supported by the requesting client.'))).toMatchObject({ reason: 'unsupported_version', atOnce: true });
    expect(callFailure(new Error('JSON-RPC error -32009: Slot 5 was skipped'))).toMatchObject({ reason: 'rpc_error', atOnce: false });
    expect(callFailure(new Error('JSON-RPC rate limit or node error persisted'))).toMatchObject({ reason: 'rpc_error', atOnce: false });
    expect(malformedFailure(new Error('not a transaction: no "transaction" field'))).toMatchObject({ reason: 'malformed', atOnce: true });
    expect(NOT_FOUND).toMatchObject({ reason: 'not_found', atOnce: false });
    const req = requestFailure(new Error('request to https://rpc.example/?api-key=SECRET failed'));
    expect(req).toMatchObject({ reason: 'request_failed', atOnce: false });
    expect(req.detail).not.toContain('SECRET');
    expect(req.detail).toContain('<url>');
  });
});

describe('planBatch', () => {
  const rpc: ReadFailure = { reason: 'rpc_error', detail: 'x', atOnce: false };
  const version: ReadFailure = { reason: 'unsupported_version', detail: 'x', atOnce: true };

  it('every transaction read: the whole batch', () => {
    expect(planBatch(SIGS, [tx, tx, tx, tx], new Map(), undefined, 3)).toEqual({ upTo: 4, unreadable: [], stop: null });
  });

  it('a final failure is passed; a counted one stops the batch before it', () => {
    const p = planBatch(SIGS, [tx, null, tx, null], new Map([[1, version], [3, rpc]]), undefined, 3);
    expect(p).toEqual({ upTo: 3, unreadable: [{ index: 1, failure: version, failures: 1 }], stop: { index: 3, failure: rpc, failures: 1 } });
  });

  it('the count carries over for the same signature only, and passes it at the limit', () => {
    expect(planBatch(SIGS, [null, tx, tx, tx], new Map([[0, rpc]]), { signature: 's0', failures: 1 }, 3).stop).toMatchObject({ index: 0, failures: 2 });
    expect(planBatch(SIGS, [null, tx, tx, tx], new Map([[0, rpc]]), { signature: 'other', failures: 2 }, 3).stop).toMatchObject({ index: 0, failures: 1 });
    expect(planBatch(SIGS, [null, tx, tx, tx], new Map([[0, rpc]]), { signature: 's0', failures: 2 }, 3)).toEqual({ upTo: 4, unreadable: [{ index: 0, failure: rpc, failures: 3 }], stop: null });
    // a null without a recorded reason counts as not found; with a limit of 1 every failure passes at once
    expect(planBatch(SIGS, [tx, null, tx, tx], new Map(), undefined, 1).unreadable).toEqual([{ index: 1, failure: NOT_FOUND, failures: 1 }]);
  });

  it('parseReadFailure reads what the collector writes, and nothing else', () => {
    expect(parseReadFailure(JSON.stringify({ signature: 's0', failures: 2 }))).toEqual({ signature: 's0', failures: 2 });
    expect(parseReadFailure(undefined)).toBeUndefined();
    expect(parseReadFailure('{')).toBeUndefined();
    expect(parseReadFailure('{"signature":1}')).toBeUndefined();
  });
});
