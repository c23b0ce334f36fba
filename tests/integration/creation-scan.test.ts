/**
 * Launches the live watch never heard (no WebSocket here: every notification "dropped") are found
 * by the creation scan (collector/source/creation-scan.ts, issue 24: under the public RPC the
 * catch-up never reached 6 of 180 launches) while the catch-up cannot move at all: its listing of
 * the program's history is held back. Each is recorded from its creation alone and is UNKNOWN — its
 * history after the creation is not read — never a finding and never clean. Once the catch-up runs,
 * the records are the ones a collector without the scan builds from the same chain.
 * A simulated chain served live by the replay RPC; the test lands its slots.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLiveChain, until, type LiveChain } from '../helpers/live-chain.ts';
import type { SimulatedChain } from '../../devchain/simulate/chain.ts';
import type { ReplayRpc } from '../../devchain/replay/server.ts';
import { collect, PROGRAM_CURSOR } from '../../collector/collect.ts';
import { fetchLatest } from '../../collector/source/signatures.ts';
import { CREATION_SCAN_MS } from '../../collector/source/creation-scan.ts';
import { PUMP_MINT_AUTHORITY, PUMP_PROGRAM_ID } from '../../src/core/programs.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { createArchiveRpc } from '../../src/chain/rpc.ts';
import { createTransactionReader, type TransactionReader } from '../../src/chain/transaction-reader.ts';
import type { LaunchDocument } from '../../src/core/types.ts';
import { sleep } from '../helpers/net.ts';

let live: LiveChain;
let tmp: string;
let chain: SimulatedChain;
let rpc: ReplayRpc;
let creations: LiveChain['creations'];
/** a fixed clock for both collectors: records depend on the chain alone */
const FIXED_NOW = Date.UTC(2026, 10, 1);

beforeAll(async () => {
  live = await startLiveChain('creation-scan', 10, 93);
  ({ tmp, chain, rpc, creations } = live);
}, 120_000);

afterAll(async () => {
  await live?.close();
});

/** The batched reader with the program's signature listings held until `open()`; every other call (the mint authority's listing included) passes. */
function gatedReader(url: string): { reader: TransactionReader; open: () => void; held: () => number; scans: () => number } {
  const inner = createTransactionReader({ url, batchSize: 100 });
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  let held = 0;
  let scans = 0;
  const reader: TransactionReader = {
    get batchSize() {
      return inner.batchSize;
    },
    getTransactions: (sigs, signal) => inner.getTransactions(sigs, signal),
    call: async (method, params, signal) => {
      const addr = method === 'getSignaturesForAddress' ? String((params[0] as unknown[])[0]) : '';
      if (addr === PUMP_PROGRAM_ID) {
        held++;
        await gate;
      }
      if (addr === PUMP_MINT_AUTHORITY) scans++;
      return inner.call(method, params, signal);
    },
  };
  return { reader, open, held: () => held, scans: () => scans };
}

const documentOf = (store: PublicStore, mint: string) => {
  const r = store.db.prepare('SELECT document FROM launch WHERE mint = ?').get(mint) as { document: string } | undefined;
  return r ? (JSON.parse(r.document) as LaunchDocument) : undefined;
};

describe('the creation scan', () => {
  it('records every launch while the catch-up is held, UNKNOWN until the catch-up reads its history, and ends with the records of a collector without it', async () => {
    const log = createLogger('silent');
    const setup = (name: string) => {
      const config = loadConfig({ DATA_DIR: join(tmp, name), SOLANA_RPC_URL: rpc.url, COLLECT_START: 'latest', POLL_INTERVAL_MS: '100', LOG_LEVEL: 'silent' });
      return { config, store: new PublicStore(config.publicDbPath) };
    };
    const scanned = setup('scanned');
    const plain = setup('plain');
    const gated = gatedReader(rpc.url);
    const ac = new AbortController();
    // no wsUrl: no live watch, no heard creation; the scan is the only way ahead of the catch-up
    const runs = [
      collect({ config: scanned.config, store: scanned.store, rpc: createArchiveRpc({ url: rpc.url }), log, now: () => FIXED_NOW, reader: gated.reader }, { once: false, signal: ac.signal }),
    ];
    const ahead = creations.slice(0, 4);
    try {
      // both begin watching at the same slot (COLLECT_START=latest: the newest signature now)
      await until('the scanned collector\'s cursor set', () => scanned.store.getCursor(PROGRAM_CURSOR) !== undefined);
      runs.push(collect({ config: plain.config, store: plain.store, rpc: createArchiveRpc({ url: rpc.url }), log, now: () => FIXED_NOW }, { once: false, signal: ac.signal }));
      await until('the plain collector\'s cursor set', () => plain.store.getCursor(PROGRAM_CURSOR) !== undefined);
      await until('the scanned collector\'s catch-up held at its listing', () => gated.held() > 0);
      rpc.advanceTo(ahead.at(-1)!.slot + 5);
      await until('every launch recorded by the scan', () => ahead.every((c) => scanned.store.getOrigin(c.mint)?.hasCreation === true), 3 * CREATION_SCAN_MS + 5_000);
      expect(gated.scans()).toBeGreaterThan(0);
      // the catch-up has not listed a single signature: the cursor is where it started
      expect(scanned.store.getCursor(PROGRAM_CURSOR)?.slot ?? -1).toBeLessThan(ahead[0]!.slot);
      for (const c of ahead) {
        const doc = documentOf(scanned.store, c.mint)!;
        expect(doc.finding.class).toBe('UNKNOWN');
        expect(doc.cleanAtBirth).toBeNull();
        expect(doc.history.complete).toBe(false);
        expect(doc.launch).not.toBeNull(); // its creation's facts are there
        expect(scanned.store.getOrigin(c.mint)).toEqual({ origin: 'observed', observedAtLaunch: true, hasCreation: true });
      }

      // the catch-up runs again; the chain goes on past every launch's first 30 s
      gated.open();
      for (const c of creations.slice(4)) {
        rpc.advanceTo(c.slot);
        await sleep(20);
      }
      rpc.advanceTo(creations.at(-1)!.slot + 200);
      const [newest] = await fetchLatest(createArchiveRpc({ url: rpc.url }));
      const caughtUp = (store: PublicStore) => store.getCursor(PROGRAM_CURSOR)?.signature === newest!.signature;
      await until('both caught up', () => caughtUp(scanned.store) && caughtUp(plain.store), 60_000);
      await sleep(300); // a pass in progress settles
    } finally {
      gated.open(); // a held listing never returns otherwise
      ac.abort();
      await Promise.all(runs);
    }
    const rows = (store: PublicStore) => store.db.prepare('SELECT mint, sha256, document FROM launch ORDER BY mint').all();
    const scannedRows = rows(scanned.store);
    expect(scannedRows.length).toBeGreaterThanOrEqual(creations.length);
    expect(scannedRows).toEqual(rows(plain.store));
    // recorded with their history now: not UNKNOWN for want of it
    for (const c of ahead) expect(documentOf(scanned.store, c.mint)!.history.complete).toBe(true);
    scanned.store.close();
    plain.store.close();
  }, 150_000);
});
