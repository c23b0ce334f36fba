/**
 * The drift guard end to end (issue 20 item 3; docs/methodology.md "The drift guard"): a simulated
 * chain in which one later curve trade carries an event discriminator no IDL knows (constructed by
 * mutating its TradeEvent, as a program upgrade would look), served by the replay RPC and collected
 * by `collect --once`; and one synthetic migration whose PostCompleteBuyEvent discriminator has one
 * byte changed. Each launch is UNKNOWN with `unrecognised_program_data` citing the transaction
 * — never clean —, every other launch equals truth, status lists the discriminator, and the collector
 * warns once for it, not again on the next run.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeChain } from '../../devchain/simulate/write-chain.ts';
import type { SimulatedChain } from '../../devchain/simulate/chain.ts';
import { startReplayRpc, type ReplayRpc } from '../../devchain/replay/server.ts';
import { collect } from '../../collector/collect.ts';
import { loadConfig } from '../../src/config.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { createArchiveRpc } from '../../src/chain/rpc.ts';
import { decodeTransaction } from '../../src/core/decode/index.ts';
import { PUMP } from '../../src/core/decode/idl.ts';
import { statusBody } from '../../src/facts/status.ts';
import type { LaunchDocument } from '../../src/core/types.ts';
import { mutateEventDiscriminator } from '../helpers/mutate-event.ts';

const MADE_UP = 'deadbeefdeadbeef';
const tradeDisc = [...PUMP.events.values()].find((e) => e.name === 'TradeEvent')!.discriminator;
const postCompleteDisc = [...PUMP.events.values()].find((e) => e.name === 'PostCompleteBuyEvent')!.discriminator; // 6fb06d8b316cd5fb
/** PostCompleteBuyEvent's discriminator with its last byte changed: a one-byte mutation */
const POST_MUTATED = postCompleteDisc.slice(0, 14) + (postCompleteDisc.slice(14) === 'fb' ? 'fa' : 'fb');

let tmp: string;
let chain: SimulatedChain;
let rpc: ReplayRpc;
let mint: string;
let signature: string;
/** the synthetic-migration launch whose PostCompleteBuyEvent is mutated */
let mint2: string;
let signature2: string;
const lines: string[] = [];

async function run(dataDir: string): Promise<void> {
  const config = loadConfig({ DATA_DIR: dataDir, SOLANA_RPC_URL: rpc.url, COLLECT_START: 'earliest', LOG_LEVEL: 'warn' });
  const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(...String(chunk).trim().split('\n')), done()) });
  const store = new PublicStore(config.publicDbPath);
  try {
    await collect({ config, store, rpc: createArchiveRpc({ url: rpc.url }), log: pino({ level: 'warn' }, sink) as never }, { once: true });
  } finally {
    store.close();
  }
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'lpa-drift-'));
  const chainDir = join(tmp, 'chain');
  chain = writeChain({ launches: 60, seed: 2611, out: chainDir }); // N ≥ 50: every kind, a synthetic migration among them
  // a later curve trade (after the first 30 s) of a launch whose truth is clean at birth
  const txs = chain.transactions.map((l) => JSON.parse(l));
  const pick = txs.findIndex((raw) => {
    const d = decodeTransaction(raw);
    if (d.err !== null || d.events.some((e) => e.name !== 'TradeEvent')) return false;
    const m = d.events.find((e) => e.name === 'TradeEvent')?.fields.mint as string | undefined;
    const t = m ? chain.truth.records[m] : undefined;
    return !!t && t.cleanAtBirth === true && (d.blockTime ?? 0) * 1000 - t.createdAtMs > 60_000;
  });
  expect(pick).toBeGreaterThanOrEqual(0);
  const picked = decodeTransaction(txs[pick]);
  mint = picked.events[0]!.fields.mint as string;
  signature = picked.signature;
  const { raw, changed } = mutateEventDiscriminator(txs[pick], tradeDisc, MADE_UP);
  expect(changed).toBeGreaterThanOrEqual(2); // the self-CPI and its Program data line
  // the completing transaction of a synthetic migration (TradeEvent, CompleteEvent, PostCompleteBuyEvent)
  const pick2 = txs.findIndex((t, i) => i !== pick && decodeTransaction(t).events.some((e) => e.name === 'PostCompleteBuyEvent'));
  expect(pick2).toBeGreaterThanOrEqual(0);
  const completing = decodeTransaction(txs[pick2]);
  mint2 = completing.events.find((e) => e.name === 'PostCompleteBuyEvent')!.fields.mint as string;
  signature2 = completing.signature;
  const mutated2 = mutateEventDiscriminator(txs[pick2], postCompleteDisc, POST_MUTATED);
  expect(mutated2.changed).toBeGreaterThanOrEqual(2);
  const file = join(chainDir, 'transactions.ndjson');
  const all = readFileSync(file, 'utf8').trimEnd().split('\n');
  all[pick] = JSON.stringify(raw);
  all[pick2] = JSON.stringify(mutated2.raw);
  writeFileSync(file, all.join('\n') + '\n');
  rpc = await startReplayRpc({ chainDir });
}, 120_000);

afterAll(async () => {
  await rpc?.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('a transaction with a made-up event discriminator', () => {
  it('makes its launch UNKNOWN (unrecognised_program_data, citing it), never clean — also a one-byte mutation of a PostCompleteBuyEvent; every other launch equals truth; status lists both; one warning each, not repeated', async () => {
    const dataDir = join(tmp, 'data');
    await run(dataDir);
    const store = new PublicStore(join(dataDir, 'public.db'));
    try {
      const doc = JSON.parse(store.getLaunch(mint)!.document) as LaunchDocument;
      expect(chain.truth.records[mint]!.cleanAtBirth).toBe(true);
      expect(doc.finding.class).toBe('UNKNOWN');
      expect(doc.cleanAtBirth).toBeNull();
      const flag = doc.flags.find((f) => f.code === 'unrecognised_program_data')!;
      expect(flag).toMatchObject({ class: 'UNKNOWN', evidence: [signature] });
      expect(flag.summary).toContain(`pump event ${MADE_UP}`);
      // a one-byte mutation of the PostCompleteBuyEvent discriminator: the buyout's pool part cannot be read, so no fact is claimed
      const doc2 = JSON.parse(store.getLaunch(mint2)!.document) as LaunchDocument;
      expect(doc2.finding.class).toBe('UNKNOWN');
      expect(doc2.cleanAtBirth).toBeNull();
      expect(doc2.flags.find((f) => f.code === 'unrecognised_program_data')).toMatchObject({ class: 'UNKNOWN', evidence: [signature2] });
      for (const [other, truth] of Object.entries(chain.truth.records)) {
        if (other === mint || other === mint2) continue;
        expect(JSON.parse(store.getLaunch(other)!.document).finding.class, other).toBe(truth.findingClass);
      }
      const status = statusBody({ publicStore: store, config: loadConfig({ DATA_DIR: dataDir }) }, Date.now());
      expect(status.unrecognisedProgramData).toHaveLength(2);
      expect(status.unrecognisedProgramData).toEqual(expect.arrayContaining([
        expect.objectContaining({ program: 'pump', kind: 'event', discriminator: MADE_UP, count: 1, firstSignature: signature }),
        expect.objectContaining({ program: 'pump', kind: 'event', discriminator: POST_MUTATED, count: 1, firstSignature: signature2 }),
      ]));
    } finally {
      store.close();
    }
    const warned = () => lines.filter((l) => l.includes(MADE_UP));
    expect(warned()).toHaveLength(1);
    expect(JSON.parse(warned()[0]!)).toMatchObject({ program: 'pump', kind: 'event', discriminator: MADE_UP, signature });
    await run(dataDir); // nothing new to read: no second warning
    expect(warned()).toHaveLength(1);
  });
});
