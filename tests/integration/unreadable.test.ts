/**
 * Transactions the collector cannot read (issue 20, collector/read/unreadable.ts) and version 1
 * transactions (SIMD-0385), through the real RPC client against the replay RPC and a temporary
 * SQLite, over a 5-launch simulated chain whose truth.json says what every record must hold:
 * (a) a chain holding a version 1 transaction (one of its creations, re-encoded as v1 in the test:
 *     the simulator emits v0 only) is caught up in one run and every record equals truth;
 * (b) a transaction the RPC refuses with -32015 is recorded as unreadable at once, the run completes
 *     with every other launch as truth says, status counts it; once the RPC answers, a run after
 *     UNREADABLE_RETRY_MS reads it, clears it, and every record equals truth;
 * (c) a transaction failing with another RPC error stops the catch-up before it, as before, on
 *     UNREADABLE_AFTER_FAILURES − 1 runs (they exit with an error), and is passed on the next;
 * (d) in the long-running form, the mints of the logs notification heard for an unreadable
 *     transaction are kept with it (PublicStore.unreadableFor).
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeChain } from '../../devchain/simulate/write-chain.ts';
import type { SimulatedChain } from '../../devchain/simulate/chain.ts';
import type { Truth } from '../../devchain/simulate/truth.ts';
import { startReplayRpc, type ReplayRpc } from '../../devchain/replay/server.ts';
import { loadChain } from '../../devchain/replay/load-chain.ts';
import { collect } from '../../collector/collect.ts';
import { collectOnce } from '../helpers/collect-once.ts';
import { compareWithTruth, formatReport } from '../helpers/truth-compare.ts';
import { sleep } from '../helpers/net.ts';
import { decodeTransaction } from '../../src/core/decode/index.ts';
import { mintsOf } from '../../src/core/record/mints-of.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { statusBody } from '../../src/facts/status.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { createArchiveRpc } from '../../src/chain/rpc.ts';
import type { LaunchDocument } from '../../src/core/types.ts';

let tmp: string;
let chain: SimulatedChain;
/** the chain's transactions (json lines as written), decoded */
let lines: { line: string; signature: string; mints: string[]; creates: boolean }[];

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'lpa-unreadable-'));
  chain = writeChain({ launches: 5, seed: 2020, out: join(tmp, 'chain') });
  lines = readFileSync(join(tmp, 'chain', 'transactions.ndjson'), 'utf8').split('\n').filter(Boolean).map((line) => {
    const d = decodeTransaction(JSON.parse(line));
    return { line, signature: d.signature, mints: mintsOf(d), creates: d.events.some((e) => e.name === 'CreateEvent') };
  });
}, 120_000);

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const T0 = Date.UTC(2026, 10, 25, 12, 0, 0);
const RETRY_MS = 600_000; // UNREADABLE_RETRY_MS default

/** Every record held, by mint; and the truth records compared with them (all, or all but `except`). */
function check(dataDir: string, truth: Truth, except?: string) {
  const store = new PublicStore(join(dataDir, 'public.db'));
  try {
    const docs = new Map(Object.keys(truth.records).map((m) => [m, store.getLaunch(m) && (JSON.parse(store.getLaunch(m)!.document) as LaunchDocument)]));
    const records = Object.fromEntries(Object.entries(truth.records).filter(([m]) => m !== except));
    const reports = compareWithTruth({ ...truth, records }, (m) => docs.get(m) || undefined);
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    const unreadable = store.db.prepare('SELECT signature, reason, failures FROM unreadable_tx').all();
    return { held: [...docs].filter(([, d]) => d).map(([m]) => m).sort(), bad: reports.filter((r) => r.equal !== r.total), report: formatReport(reports), status: statusBody({ publicStore: store, config }, T0).unreadable, unreadable };
  } finally {
    store.close();
  }
}

describe('version 1 transactions and transactions the collector cannot read', () => {
  it('(a) a catch-up over a chain holding a version 1 transaction completes; every record equals truth', async () => {
    // one launch's creation, re-encoded as a version 1 transaction (no lookup tables: none is used)
    const target = lines.filter((l) => l.creates)[1]!;
    const dir = join(tmp, 'chain-v1');
    mkdirSync(dir);
    for (const f of ['chain.json', 'accounts.ndjson']) copyFileSync(join(tmp, 'chain', f), join(dir, f));
    const v1 = (line: string) => {
      const tx = JSON.parse(line);
      expect(tx.meta.loadedAddresses ?? { writable: [], readonly: [] }).toEqual({ writable: [], readonly: [] });
      delete tx.transaction.message.addressTableLookups;
      tx.transaction.message.transactionConfig = { computeUnitLimit: 200_000, heapSize: null, loadedAccountsDataSizeLimit: 65_536, priorityFee: 5_000 };
      tx.version = 1;
      return JSON.stringify(tx);
    };
    writeFileSync(join(dir, 'transactions.ndjson'), lines.map((l) => (l === target ? v1(l.line) : l.line)).join('\n') + '\n');
    expect(loadChain(dir).transactions.find((t) => t.signature === target.signature)!.version).toBe(1);
    const rpc = await startReplayRpc({ chainDir: dir });
    try {
      const dataDir = join(tmp, 'data-a');
      await collectOnce(dataDir, rpc.url, () => T0);
      const r = check(dataDir, chain.truth);
      expect(r.held).toEqual(Object.keys(chain.truth.records).sort());
      expect(r.bad, r.report).toEqual([]);
      expect(r.status).toEqual({ transactions: 0, byReason: {} });
    } finally {
      await rpc.close();
    }
  }, 120_000);

  it('(b) a transaction refused with -32015 is recorded at once and passed; read and cleared by a run after UNREADABLE_RETRY_MS once the RPC answers', async () => {
    const target = lines.filter((l) => !l.creates && l.mints.length === 1).at(-3)!;
    const mint = target.mints[0]!;
    let refusing = true;
    const rpc = await startReplayRpc({
      chainDir: join(tmp, 'chain'),
      inject: (method, params) =>
        refusing && method === 'getTransaction' && params[0] === target.signature
          ? { rpcError: { code: -32015, message: 'Transaction version (2) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 2' } }
          : null,
    });
    try {
      const dataDir = join(tmp, 'data-b');
      let clock = T0;
      await collectOnce(dataDir, rpc.url, () => clock); // completes: no throw
      let r = check(dataDir, chain.truth, mint);
      expect(r.held).toEqual(Object.keys(chain.truth.records).sort());
      expect(r.bad, r.report).toEqual([]);
      expect(r.unreadable).toEqual([{ signature: target.signature, reason: 'unsupported_version', failures: 1 }]);
      expect(r.status).toEqual({ transactions: 1, byReason: { unsupported_version: 1 } });
      // the launch it belongs to lacks it: its record is not what truth says (the test can fail)
      expect(check(dataDir, chain.truth).bad).not.toEqual([]);

      // not due yet (and still refused): nothing changes
      clock += 60_000;
      await collectOnce(dataDir, rpc.url, () => clock);
      expect(check(dataDir, chain.truth).unreadable).toEqual(r.unreadable);

      // due, still refused: one more failure
      clock += RETRY_MS;
      await collectOnce(dataDir, rpc.url, () => clock);
      expect(check(dataDir, chain.truth).unreadable).toEqual([{ signature: target.signature, reason: 'unsupported_version', failures: 2 }]);

      // the RPC answers now; due again: read, cleared, every record as truth says
      refusing = false;
      clock += RETRY_MS;
      await collectOnce(dataDir, rpc.url, () => clock);
      r = check(dataDir, chain.truth);
      expect(r.unreadable).toEqual([]);
      expect(r.status).toEqual({ transactions: 0, byReason: {} });
      expect(r.bad, r.report).toEqual([]);
    } finally {
      await rpc.close();
    }
  }, 120_000);

  it('(c) another RPC error stops the catch-up before it (the run fails) until UNREADABLE_AFTER_FAILURES runs failed on it; then it is passed', async () => {
    const trades = lines.filter((l) => !l.creates && l.mints.length === 1);
    const target = trades[trades.length >> 1]!;
    const mint = target.mints[0]!;
    const before = lines.slice(0, lines.indexOf(target)).map((l) => l.signature);
    let refusing = true;
    const rpc = await startReplayRpc({
      chainDir: join(tmp, 'chain'),
      inject: (method, params) =>
        refusing && method === 'getTransaction' && params[0] === target.signature ? { rpcError: { code: -32009, message: 'Slot 1 was skipped, or missing in long-term storage' } } : null,
    });
    try {
      const dataDir = join(tmp, 'data-c');
      let clock = T0;
      const cursor = () => {
        const store = new PublicStore(join(dataDir, 'public.db'));
        try {
          return store.getCursor('program')?.signature ?? null;
        } finally {
          store.close();
        }
      };
      for (let run = 1; run < 3; run++) {
        await expect(collectOnce(dataDir, rpc.url, () => clock, { UNREADABLE_AFTER_FAILURES: '3' })).rejects.toThrow(new RegExp(`${target.signature} could not be read \\(rpc_error, ${run} of 3`));
        expect(cursor()).toBe(before.at(-1)); // stopped right before it, as before this issue
        expect(check(dataDir, chain.truth).unreadable).toEqual([]);
        clock += 60_000;
      }
      await collectOnce(dataDir, rpc.url, () => clock, { UNREADABLE_AFTER_FAILURES: '3' });
      let r = check(dataDir, chain.truth, mint);
      expect(cursor()).toBe(lines.at(-1)!.signature);
      expect(r.unreadable).toEqual([{ signature: target.signature, reason: 'rpc_error', failures: 3 }]);
      expect(r.status).toEqual({ transactions: 1, byReason: { rpc_error: 1 } });
      expect(r.held).toEqual(Object.keys(chain.truth.records).sort());
      expect(r.bad, r.report).toEqual([]);

      refusing = false;
      clock += RETRY_MS;
      await collectOnce(dataDir, rpc.url, () => clock);
      r = check(dataDir, chain.truth);
      expect(r.unreadable).toEqual([]);
      expect(r.bad, r.report).toEqual([]);
    } finally {
      await rpc.close();
    }
  }, 120_000);

  it('(d) long-running: an unreadable transaction whose logs notification was heard is kept with its mints', async () => {
    const creation = lines.filter((l) => l.creates)[2]!;
    const mint = creation.mints[0]!;
    const rpc = await startReplayRpc({
      chainDir: join(tmp, 'chain'),
      live: true,
      speed: 1e-6,
      inject: (method, params) => (method === 'getTransaction' && params[0] === creation.signature ? { rpcError: { code: -32015, message: 'Transaction version (2) is not supported by the requesting client.' } } : null),
    });
    const dataDir = join(tmp, 'data-d');
    const config = loadConfig({ DATA_DIR: dataDir, SOLANA_RPC_URL: rpc.url, SOLANA_WS_URL: rpc.wsUrl, COLLECT_START: 'earliest', POLL_INTERVAL_MS: '600000', LOG_LEVEL: 'silent' });
    const store = new PublicStore(config.publicDbPath);
    const ac = new AbortController();
    try {
      const running = collect({ config, store, rpc: createArchiveRpc({ url: rpc.url }), log: createLogger('silent') }, { once: false, wsUrl: rpc.wsUrl, signal: ac.signal });
      for (const t0 = Date.now(); (rpc.stats.calls.logsSubscribe ?? 0) === 0; await sleep(5)) if (Date.now() - t0 > 20_000) throw new Error('not subscribed');
      rpc.advanceTo(chain.truth.records[mint]!.creationSlot);
      for (const t0 = Date.now(); store.unreadableFor(mint).length === 0; await sleep(10)) if (Date.now() - t0 > 20_000) throw new Error('not recorded');
      ac.abort();
      await running;
      expect(store.unreadableFor(mint)).toEqual([creation.signature]);
      expect(store.unreadableDue(Number.MAX_SAFE_INTEGER, 10)).toEqual([expect.objectContaining({ signature: creation.signature, reason: 'unsupported_version', mints: [mint] })]);
      expect(Object.keys(chain.truth.records).filter((m) => m !== mint).every((m) => store.unreadableFor(m).length === 0)).toBe(true);
    } finally {
      ac.abort();
      store.close();
      await rpc.close();
    }
  }, 60_000);
});
