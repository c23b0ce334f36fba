/**
 * A creation recorded ahead of the catch-up's cursor (heard, or found by the creation scan:
 * collector/record/record-heard-creation.ts `recordCreationAhead`) whose transaction also touches a
 * launch the archive already holds with an established record — here the creation transaction also
 * trades that launch, as one transaction may on mainnet — records the new launch alone. The held
 * record, built by the catch-up from its complete history, is not rebuilt from a history the
 * ahead-of-cursor path knows to be incomplete (it would turn UNKNOWN "Not established" until the
 * catch-up reached the signature): it stays as it was, byte for byte, until the catch-up records
 * that transaction with the history before it.
 * A simulated chain served by the replay RPC, caught up to the slot before the last creation.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLiveChain, type LiveChain } from '../helpers/live-chain.ts';
import type { SimulatedChain } from '../../devchain/simulate/chain.ts';
import { loadChain } from '../../devchain/replay/load-chain.ts';
import { renderTransaction } from '../../devchain/replay/transaction.ts';
import type { ReplayRpc } from '../../devchain/replay/server.ts';
import { collect } from '../../collector/collect.ts';
import { newMemory } from '../../collector/context.ts';
import { recordCreationAhead } from '../../collector/record/record-heard-creation.ts';
import { decodeTransaction } from '../../src/core/decode/index.ts';
import type { DecodedTransaction, LaunchDocument } from '../../src/core/types.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { createArchiveRpc } from '../../src/chain/rpc.ts';

let live: LiveChain;
let tmp: string;
let chain: SimulatedChain;
let rpc: ReplayRpc;
const FIXED_NOW = Date.UTC(2026, 10, 1);

beforeAll(async () => {
  live = await startLiveChain('creation-ahead-held', 8, 95);
  ({ tmp, chain, rpc } = live);
}, 120_000);

afterAll(async () => {
  await live?.close();
});

describe('a creation recorded ahead of the cursor that touches a held launch', () => {
  it('records the new launch UNKNOWN and leaves the held established record as the catch-up built it', async () => {
    const { creations } = live;
    const last = creations.at(-1)!;
    // the chain up to the slot before the last creation, caught up to its tip
    rpc.advanceTo(last.slot - 1);
    const config = loadConfig({ DATA_DIR: join(tmp, 'data'), SOLANA_RPC_URL: rpc.url, COLLECT_START: 'earliest', LOG_LEVEL: 'silent' });
    const store = new PublicStore(config.publicDbPath);
    const deps = { config, store, rpc: createArchiveRpc({ url: rpc.url }), log: createLogger('silent'), now: () => FIXED_NOW };
    await collect(deps, { once: true });
    expect(store.getOrigin(last.mint)).toBeUndefined();

    const docOf = (mint: string) => JSON.parse(store.getLaunch(mint)!.document) as LaunchDocument;
    // a held launch with an established record and a successful trade of its own
    const decoded = loadChain(join(tmp, 'chain')).transactions.map((t) => decodeTransaction(renderTransaction(t, 'json', true)));
    const tradeOf = (mint: string) => decoded.find((t) => t.err === null && t.slot! < last.slot && t.events.length === 1 && t.events[0]!.name === 'TradeEvent' && t.events[0]!.fields.mint === mint);
    const held = creations.slice(0, -1).find((c) => docOf(c.mint).finding.class !== 'UNKNOWN' && tradeOf(c.mint));
    expect(held, 'a held launch with an established record').toBeDefined();
    const before = store.getLaunch(held!.mint)!;

    // the last launch's creation transaction, as if it also traded the held launch (its trade's
    // instruction and event ride along: the held curve's state after it is the one it had)
    const creation = decoded.find((t) => t.signature === last.signature)!;
    const trade = tradeOf(held!.mint)!;
    const both: DecodedTransaction = {
      ...creation,
      instructions: [...creation.instructions, ...trade.instructions.filter((i) => i.program === 'pump')],
      events: [...creation.events, ...trade.events],
    };
    const memory = newMemory(config, FIXED_NOW);
    expect(recordCreationAhead(deps, memory, both)).toEqual([last.mint]);

    // the new launch: recorded from its creation alone, UNKNOWN
    expect(docOf(last.mint).finding.class).toBe('UNKNOWN');
    expect(store.getOrigin(last.mint)?.hasCreation).toBe(true);
    // the held launch: its record untouched (not rebuilt from a history known to be incomplete)
    expect(docOf(held!.mint).finding).toEqual((JSON.parse(before.document) as LaunchDocument).finding);
    expect(store.getLaunch(held!.mint)!.sha256).toBe(before.sha256);
    store.close();
  }, 120_000);
});
