/**
 * The drift guard reaches the launch (methodology "unrecognised_program_data"): a transaction whose
 * pump program data the decoder does not know (a new instruction and a new event after a redeploy)
 * names its mint in no way the decoder can read, so mintsOf finds none. The collector keeps it under
 * the held launches its token balances name (collector/record/record-batch.ts launchMintsOf), and
 * the record is UNKNOWN instead of being built without it. Real data: FIX/16 `3bYXWj…` (a 2024-07
 * sell) with its instruction and TradeEvent discriminators changed, as an unknown redeploy would.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeTransaction, fromBase58, toBase58, toBase64, unrecognisedOf } from '../../src/core/decode/index.ts';
import { mintsOf } from '../../src/core/record/mints-of.ts';
import { analyzeLaunch } from '../../src/core/record/build-launch.ts';
import { classifyLaunch } from '../../src/core/record/classify.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { launchMintsOf } from '../../collector/record/record-batch.ts';
import { loadFixtureTransaction } from '../helpers/mainnet-fixtures.ts';
import { launchDoc, putDoc } from '../helpers/launch-doc.ts';
import { createEvent, tx } from '../helpers/synthetic-launch.ts';
import { OWN_FUNDERS } from '../helpers/synthetic-launch.ts';

const FIXTURE = 'pump_2024-07_sell_getTransaction_json_3bYXWj.json';
const EVENT_CPI = 'e445a52e51cb9a1d'; // Anchor's event-CPI tag

/** FIX/16 as a redeploy the decoder does not know would look: its pump instruction and its TradeEvent with new discriminators. */
function redeployed(): ReturnType<typeof decodeTransaction> {
  const raw = loadFixtureTransaction(FIXTURE);
  const r = raw.result ?? raw;
  const ix = r.transaction.message.instructions.find((i: { programIdIndex: number }) => r.transaction.message.accountKeys[i.programIdIndex] === '6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P');
  const data = fromBase58(ix.data);
  data.set(Buffer.from('0102030405060708', 'hex'), 0);
  ix.data = toBase58(data);
  const hex = (x: Uint8Array) => Buffer.from(x).toString('hex');
  const cpi = r.meta.innerInstructions.flatMap((g: { instructions: { data: string }[] }) => g.instructions).find((i: { data: string }) => hex(fromBase58(i.data).subarray(0, 8)) === EVENT_CPI);
  const bytes = fromBase58(cpi.data);
  const line = r.meta.logMessages.findIndex((l: string) => l === `Program data: ${toBase64(bytes.subarray(8))}`);
  bytes[8] = 0;
  cpi.data = toBase58(bytes);
  if (line >= 0) r.meta.logMessages[line] = `Program data: ${toBase64(bytes.subarray(8))}`;
  return decodeTransaction(raw);
}

let dir: string;
let store: PublicStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lpa-drift-attr-'));
  store = new PublicStore(join(dir, 'public.db'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('unknown program data that names no mint', () => {
  const original = decodeTransaction(loadFixtureTransaction(FIXTURE));
  const mint = mintsOf(original)[0]!;
  const changed = redeployed();

  it('the decoder reports it, and mintsOf finds no mint in it (the gap this closes)', () => {
    expect(mint).toMatch(/pump$/);
    expect(unrecognisedOf(changed).map((x) => x.kind).sort()).toEqual(['event', 'instruction']);
    expect(mintsOf(changed)).toEqual([]);
    expect([...changed.preTokenBalances, ...changed.postTokenBalances].some((b) => b.mint === mint)).toBe(true);
  });

  it('is kept under the held launch its token balances name, and under nothing when that launch is not held', () => {
    expect(launchMintsOf(store, changed)).toEqual([]);
    putDoc(store, launchDoc(mint, 1_720_000_000_000));
    expect(launchMintsOf(store, changed)).toEqual([mint]);
  });

  it('a transaction the decoder reads keeps its own mints', () => {
    putDoc(store, launchDoc(mint, 1_720_000_000_000));
    expect(launchMintsOf(store, original)).toEqual(mintsOf(original));
  });

  it('kept with the launch, it makes the record UNKNOWN (drift guard), citing it', () => {
    const creation = tx({ slot: (changed.slot ?? 1) - 100, blockTime: (changed.blockTime ?? 1) - 40, events: [createEvent(mint, 'Creator1111111111111111111111111111111111111')] });
    const d = classifyLaunch(analyzeLaunch(mint, [creation, changed], true, OWN_FUNDERS), { origin: 'observed', observedAtLaunch: true, asOfMs: Date.now() });
    expect(d.finding.class).toBe('UNKNOWN');
    const flag = d.flags.find((f) => f.code === 'unrecognised_program_data');
    expect(flag?.evidence).toEqual([changed.signature]);
    // and, markers-v7, no absence marker claimed over it
    expect(d.flags.map((f) => f.code)).not.toContain('no_outside_curve_buyer');
  });
});
