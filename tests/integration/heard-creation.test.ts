/**
 * A launch heard being created is recorded at once (collector/record/record-heard-creation.ts,
 * issue 24: lag from the creation slot to the committed row), not at the catch-up that reaches its
 * signature — here the catch-up cannot reach it at all: its signature listing is held back. Once
 * the catch-up runs, the records are the ones a collector without the live watch builds from the
 * same chain (same coverage, same injected clock): recording a creation early changes no fact.
 * A simulated chain served live by the replay RPC; the test lands its slots.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLiveChain, until, type LiveChain } from '../helpers/live-chain.ts';
import type { SimulatedChain } from '../../devchain/simulate/chain.ts';
import type { ReplayRpc } from '../../devchain/replay/server.ts';
import { collect, PROGRAM_CURSOR } from '../../collector/collect.ts';
import { fetchLatest } from '../../collector/source/signatures.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { createArchiveRpc } from '../../src/chain/rpc.ts';
import { createTransactionReader, type TransactionReader } from '../../src/chain/transaction-reader.ts';
import { sleep } from '../helpers/net.ts';

let live: LiveChain;
let tmp: string;
let chain: SimulatedChain;
let rpc: ReplayRpc;
let creations: LiveChain['creations'];
/** a fixed clock for both collectors: records depend on the chain alone */
const FIXED_NOW = Date.UTC(2026, 10, 1);

beforeAll(async () => {
  live = await startLiveChain('heard-creation', 12, 91);
  ({ tmp, chain, rpc, creations } = live);
}, 120_000);

afterAll(async () => {
  await live?.close();
});

/** The batched reader with its signature listings (getSignaturesForAddress) held until `open()`. */
function gatedReader(url: string): { reader: TransactionReader; open: () => void; held: () => number } {
  const inner = createTransactionReader({ url, batchSize: 100 });
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  let held = 0;
  const reader: TransactionReader = {
    get batchSize() {
      return inner.batchSize;
    },
    getTransactions: (sigs, signal) => inner.getTransactions(sigs, signal),
    call: async (method, params, signal) => {
      if (method === 'getSignaturesForAddress') {
        held++;
        await gate;
      }
      return inner.call(method, params, signal);
    },
  };
  return { reader, open, held: () => held };
}

describe('a launch heard being created', () => {
  it('is committed within 2 s of its slot landing while the catch-up is held back, and ends with the records of a collector without the live watch', async () => {
    const log = createLogger('silent');
    // the live collector's log, to know when its subscription is up
    const liveLines: string[] = [];
    const liveLog = createLogger('info', 'lpa', { format: 'json', destination: { write: (line: string) => void liveLines.push(line) } });
    const setup = (name: string) => {
      const config = loadConfig({ DATA_DIR: join(tmp, name), SOLANA_RPC_URL: rpc.url, SOLANA_WS_URL: rpc.wsUrl, COLLECT_START: 'earliest', POLL_INTERVAL_MS: '100', LOG_LEVEL: 'silent' });
      return { config, store: new PublicStore(config.publicDbPath) };
    };
    const live = setup('live');
    const plain = setup('plain');
    const gated = gatedReader(rpc.url);
    const ac = new AbortController();
    const runs = [
      collect({ config: live.config, store: live.store, rpc: createArchiveRpc({ url: rpc.url }), log: liveLog, now: () => FIXED_NOW, reader: gated.reader }, { once: false, wsUrl: rpc.wsUrl, signal: ac.signal }),
      // the same collector without the live watch: it only polls
      collect({ config: plain.config, store: plain.store, rpc: createArchiveRpc({ url: rpc.url }), log, now: () => FIXED_NOW }, { once: false, signal: ac.signal }),
    ];
    try {
      await until('subscribed', () => liveLines.some((l) => l.includes('subscribed to the pump program logs')));
      await until('the live collector\'s catch-up held at its listing', () => gated.held() > 0);
      const first = creations[0]!;
      const t0 = Date.now();
      rpc.advanceTo(first.slot);
      await until('heard creation committed', () => live.store.getOrigin(first.mint)?.hasCreation === true, 2_000);
      expect(Date.now() - t0).toBeLessThan(2_000);
      // committed by the heard path alone: the catch-up has not listed a single signature, the cursor has not moved
      expect(live.store.getCursor(PROGRAM_CURSOR)?.slot ?? -1).toBeLessThan(first.slot);
      expect(live.store.getOrigin(first.mint)).toEqual({ origin: 'observed', observedAtLaunch: true, hasCreation: true });

      // the catch-up runs again; the chain goes on past every launch's first 30 s
      gated.open();
      // each launch lands, then its first 30 s (75 slots) and more
      for (const c of creations.slice(1)) {
        rpc.advanceTo(c.slot);
        await sleep(20);
      }
      rpc.advanceTo(creations.at(-1)!.slot + 200);
      const [newest] = await fetchLatest(createArchiveRpc({ url: rpc.url }));
      const caughtUp = (store: PublicStore) => store.getCursor(PROGRAM_CURSOR)?.signature === newest!.signature;
      await until('both caught up', () => caughtUp(live.store) && caughtUp(plain.store), 60_000);
      await sleep(300); // a pass in progress settles
    } finally {
      gated.open(); // a held listing never returns otherwise
      ac.abort();
      await Promise.all(runs);
    }
    const rows = (store: PublicStore) => store.db.prepare('SELECT mint, sha256, document FROM launch ORDER BY mint').all();
    const liveRows = rows(live.store);
    expect(liveRows.length).toBeGreaterThan(3);
    expect(liveRows).toEqual(rows(plain.store));
    live.store.close();
    plain.store.close();
  }, 120_000);
});
