/**
 * Transactions taken from their logs (src/core/record/from-logs.ts; methodology "Transactions taken
 * from their logs"): which notifications a record may take as they are, and that a record built
 * from them equals the record built from every transaction fetched whole — on mainnet fixtures and
 * on a simulated chain whose truth is known.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateChain } from '../../devchain/simulate/chain.ts';
import { decodeLogsNotification, decodeTransaction } from '../../src/core/decode/index.ts';
import { analyzeLaunch } from '../../src/core/record/build-launch.ts';
import { creationsIn, keptFromLogs, logsFormOf, takeFromLogs } from '../../src/core/record/from-logs.ts';
import type { CreationAt } from '../../src/core/types.ts';
import { mintsOf } from '../../src/core/record/mints-of.ts';
import type { DecodedTransaction } from '../../src/core/types.ts';

const DIR = new URL('../fixtures/mainnet/', import.meta.url);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const load = (f: string): any => JSON.parse(readFileSync(new URL(f, DIR), 'utf8'));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const getTransactionResults = (): { file: string; result: any }[] =>
  readdirSync(DIR)
    .filter((f) => f.endsWith('.json'))
    .flatMap((file) => {
      const j = load(file);
      const r = j.result ?? j;
      return r && r.meta && r.transaction && Array.isArray(r.meta.logMessages) ? [{ file, result: r }] : [];
    });

/** What the live watch would have heard for a getTransaction answer: its logsNotification, decoded. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const heardOf = (r: any): DecodedTransaction =>
  decodeLogsNotification({ context: { slot: r.slot }, value: { signature: decodeTransaction(r).signature, err: r.meta.err, logs: r.meta.logMessages } });

const listedOf = (tx: DecodedTransaction) => ({ signature: tx.signature, slot: tx.slot!, err: tx.err });

describe('takeFromLogs on mainnet transactions', () => {
  it('every pump event timestamp equals its transaction\'s blockTime (the rule that gives a heard trade its blockTime)', () => {
    let checked = 0;
    for (const { file, result } of getTransactionResults()) {
      const full = decodeTransaction(result);
      if (full.blockTime === null) continue;
      for (const e of full.events) {
        if (e.fields.timestamp === undefined) continue;
        expect({ file, event: e.name, timestamp: Number(e.fields.timestamp) }).toEqual({ file, event: e.name, timestamp: full.blockTime });
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(5);
  });

  it('a plain curve trade long after its launch is taken, with the fetched transaction\'s events and blockTime; a creation is not', () => {
    const taken: string[] = [];
    const refused: string[] = [];
    for (const { file, result } of getTransactionResults()) {
      const full = decodeTransaction(result);
      const heard = heardOf(result);
      const t = takeFromLogs(heard, listedOf(full), () => ({ slot: full.slot! - 10_000, blockTime: full.blockTime! - 3_600 }));
      if (!t) {
        refused.push(file);
        continue;
      }
      taken.push(file);
      expect(t.blockTime).toBe(full.blockTime);
      expect(t.fromLogsOnly).toBe(true);
      expect(t.events.map((e) => [e.name, e.fields])).toEqual(full.events.map((e) => [e.name, e.fields]));
      expect(mintsOf(t)).toEqual(mintsOf(full));
    }
    expect(taken).toEqual(expect.arrayContaining(['pump_2024-08_buy+sell_getTransaction_jsonParsed.json', 'pump_2024-09_sell_getParsedTransaction.json']));
    expect(refused).toEqual(expect.arrayContaining(['pump_2024-08_create+buy_getTransaction_jsonParsed.json', 'pump_2026-07_create_v2+extend+buy_exact_sol_in_getTransaction_jsonParsed.json']));
  });
});

describe('takeFromLogs: each rule', () => {
  const r = load('pump_2024-08_buy+sell_getTransaction_jsonParsed.json').result;
  const full = decodeTransaction(r);
  const listed = listedOf(full);
  const bt = full.blockTime!;
  const longAgo = (): CreationAt => ({ slot: full.slot! - 10_000, blockTime: bt - 3_600 });
  const take = (heard: DecodedTransaction, l = listed, creationOf: (m: string) => CreationAt | undefined = longAgo) => takeFromLogs(heard, l, creationOf);

  it('the reference case is taken', () => {
    expect(take(heardOf(r))).not.toBeNull();
  });

  it('refuses what is not the listed transaction, or failed', () => {
    expect(take(heardOf(r), { ...listed, slot: listed.slot + 1 })).toBeNull();
    expect(take(heardOf(r), { ...listed, signature: 'x' })).toBeNull();
    expect(take(heardOf(r), { ...listed, err: { InstructionError: [0, { Custom: 6002 }] } })).toBeNull();
    expect(take({ ...heardOf(r), err: { InstructionError: [0, { Custom: 6002 }] } })).toBeNull();
    expect(take(full)).toBeNull(); // a fetched transaction is not a notification
  });

  it('refuses truncated logs, undecodable lines and logs without events', () => {
    const logs: string[] = r.meta.logMessages;
    expect(take(heardOf({ ...r, meta: { ...r.meta, logMessages: [...logs.slice(0, 12), 'Log truncated'] } }))).toBeNull();
    expect(take({ ...heardOf(r), skipped: [{ where: 'log 3', reason: 'x' }] })).toBeNull();
    expect(take({ ...heardOf(r), events: [], instructions: [] })).toBeNull();
  });

  it('refuses any instruction other than a pump trade, any event other than TradeEvent, and a trade without its event', () => {
    const h = heardOf(r);
    expect(take({ ...h, instructions: [...h.instructions, { ...h.instructions[0]!, name: 'withdraw' }] })).toBeNull();
    expect(take({ ...h, instructions: [{ ...h.instructions[0]!, program: 'pump_amm' }, ...h.instructions.slice(1)] })).toBeNull();
    expect(take({ ...h, instructions: [...h.instructions, h.instructions[0]!] })).toBeNull();
    expect(take({ ...h, events: [{ ...h.events[0]!, name: 'CompleteEvent' }, ...h.events.slice(1)] })).toBeNull();
  });

  it('refuses events whose timestamps differ or are missing', () => {
    const h = heardOf(r);
    expect(take({ ...h, events: [h.events[0]!, { ...h.events[1]!, fields: { ...h.events[1]!.fields, timestamp: String(bt + 1) } }] })).toBeNull();
    const { timestamp: _dropped, ...withoutTimestamp } = h.events[1]!.fields;
    expect(take({ ...h, events: [h.events[0]!, { ...h.events[1]!, fields: withoutTimestamp }] })).toBeNull();
  });

  it('refuses a trade of an unknown launch, of one without a creation blockTime, in the creation slot, or within 30 s of it', () => {
    const h = heardOf(r);
    expect(take(h, listed, () => undefined)).toBeNull();
    expect(take(h, listed, () => ({ slot: full.slot! - 10_000, blockTime: null }))).toBeNull();
    expect(take(h, listed, () => ({ slot: full.slot!, blockTime: bt - 3_600 }))).toBeNull();
    expect(take(h, listed, () => ({ slot: full.slot! - 75, blockTime: bt - 30 }))).toBeNull();
    expect(take(h, listed, () => ({ slot: full.slot! - 76, blockTime: bt - 31 }))?.blockTime).toBe(bt);
  });

  it('creationsIn: the slot and blockTime of a successful CreateEvent (the event timestamp for a notification)', () => {
    const c = load('pump_2024-08_create+buy_getTransaction_jsonParsed.json').result;
    const fullC = decodeTransaction(c);
    const mint = String(fullC.events.find((e) => e.name === 'CreateEvent')!.fields.mint);
    expect(creationsIn(fullC)).toEqual([[mint, { slot: fullC.slot, blockTime: fullC.blockTime }]]);
    const v2 = load('pump_2026-07_create_v2+extend+buy_exact_sol_in_getTransaction_jsonParsed.json').result;
    const heardV2 = heardOf(v2);
    const mintV2 = String(heardV2.events.find((e) => e.name === 'CreateEvent')!.fields.mint);
    expect(creationsIn(heardV2)).toEqual([[mintV2, { slot: v2.slot, blockTime: v2.blockTime }]]);
    expect(creationsIn({ ...fullC, err: { InstructionError: [0, 'x'] } })).toEqual([]);
    expect(creationsIn(full)).toEqual([]);
  });
});

describe('keptFromLogs: the form a fetched transaction is kept in', () => {
  it('on every mainnet getTransaction fixture: its logs form is what the live watch would have heard, and it is kept in that form exactly when its notification would be taken', () => {
    const kept: string[] = [];
    for (const { file, result } of getTransactionResults()) {
      const full = decodeTransaction(result);
      if (Array.isArray(result.transaction)) {
        // a blockSubscribe element ([base64, encoding]) is not what the collector fetches (json): kept whole
        expect({ file, logs: logsFormOf(result) }).toEqual({ file, logs: null });
        continue;
      }
      expect({ file, logs: logsFormOf(result) }).toEqual({ file, logs: heardOf(result) });
      for (const creationOf of [() => ({ slot: full.slot! - 10_000, blockTime: full.blockTime! - 3_600 }), () => ({ slot: full.slot! - 10, blockTime: full.blockTime! - 4 }), () => undefined]) {
        const k = keptFromLogs(result, listedOf(full), creationOf);
        expect({ file, k }).toEqual({ file, k: takeFromLogs(heardOf(result), listedOf(full), creationOf) });
        if (k) kept.push(file);
      }
    }
    expect(kept).toEqual(expect.arrayContaining(['pump_2024-08_buy+sell_getTransaction_jsonParsed.json', 'pump_2024-09_sell_getParsedTransaction.json']));
  });

  it('a fetched blockTime other than its events\' timestamp keeps the transaction whole', () => {
    const r = load('pump_2024-08_buy+sell_getTransaction_jsonParsed.json').result;
    const full = decodeTransaction(r);
    const longAgo = () => ({ slot: full.slot! - 10_000, blockTime: full.blockTime! - 3_600 });
    expect(keptFromLogs(r, listedOf(full), longAgo)?.blockTime).toBe(full.blockTime);
    expect(keptFromLogs({ ...r, blockTime: r.blockTime + 1 }, listedOf(full), longAgo)).toBeNull();
    expect(keptFromLogs({ ...r, blockTime: null }, listedOf(full), longAgo)).toBeNull();
  });

  it('an instruction its log line names but the IDLs do not know (a redeploy) keeps the transaction whole, for the drift guard', () => {
    const r = load('pump_2024-08_buy+sell_getTransaction_jsonParsed.json').result;
    const full = decodeTransaction(r);
    const longAgo = () => ({ slot: full.slot! - 10_000, blockTime: full.blockTime! - 3_600 });
    expect(keptFromLogs(r, listedOf(full), longAgo)).not.toBeNull();
    // the same transaction with a new pump instruction logged inside its first pump frame
    const logs: string[] = [...r.meta.logMessages];
    const at = logs.findIndex((l) => l.startsWith('Program log: Instruction: ')) + 1;
    logs.splice(at, 0, 'Program log: Instruction: FutureThing');
    const changed = { ...r, meta: { ...r.meta, logMessages: logs } };
    const heard = heardOf(changed);
    expect(heard.skipped).toContainEqual(expect.objectContaining({ program: 'pump', kind: 'instruction', reason: expect.stringContaining('future_thing') }));
    expect(takeFromLogs(heard, listedOf(full), longAgo)).toBeNull();
    expect(keptFromLogs(changed, listedOf(full), longAgo)).toBeNull();
    // the whole decode of the same transaction knows its instructions: the log line adds no skipped item there
    expect(decodeTransaction(changed).skipped).toEqual(full.skipped);
  });

  it('what is not a getTransaction answer with logs has no logs form', () => {
    const r = load('pump_2024-08_buy+sell_getTransaction_jsonParsed.json').result;
    for (const bad of [null, 'x', {}, { ...r, meta: null }, { ...r, slot: undefined }, { ...r, transaction: { ...r.transaction, signatures: [] } }, { ...r, meta: { ...r.meta, logMessages: undefined } }]) {
      expect(logsFormOf(bad)).toBeNull();
    }
  });
});

describe('records built with heard trades equal records built from whole transactions (simulated chain)', () => {
  it('every launch of a 120-launch chain: the same analysis, and most later trades taken from their logs', () => {
    const chain = generateChain({ launches: 120, seed: 77 });
    const whole: DecodedTransaction[] = [];
    const mixed: DecodedTransaction[] = [];
    const creations = new Map<string, CreationAt>();
    let taken = 0;
    let pumpTransactions = 0;
    // in chain order, as the collector meets them: a creation is known before its later trades
    for (const line of chain.transactions) {
      const raw = JSON.parse(line);
      const full = decodeTransaction(raw);
      if (mintsOf(full).length === 0) continue;
      pumpTransactions++;
      whole.push(full);
      const t = takeFromLogs(heardOf(raw), listedOf(full), (m) => creations.get(m));
      // fetched instead of heard, it is kept in the same form
      expect({ sig: full.signature, kept: keptFromLogs(raw, listedOf(full), (m) => creations.get(m)) }).toEqual({ sig: full.signature, kept: t });
      mixed.push(t ?? full);
      if (t) taken++;
      for (const [m, at] of creationsIn(full)) creations.set(m, at);
    }
    expect(taken).toBeGreaterThan(pumpTransactions / 2);
    const byMint = (txs: DecodedTransaction[]) => {
      const m = new Map<string, DecodedTransaction[]>();
      for (const tx of txs) for (const mint of mintsOf(tx)) m.set(mint, [...(m.get(mint) ?? []), tx]);
      return m;
    };
    const a = byMint(whole);
    const b = byMint(mixed);
    expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
    expect(a.size).toBeGreaterThanOrEqual(120);
    const funderOf = () => undefined;
    for (const [mint, txs] of a) {
      expect({ mint, analysis: analyzeLaunch(mint, b.get(mint)!, true, { funderOf }) }).toEqual({ mint, analysis: analyzeLaunch(mint, txs, true, { funderOf }) });
    }
  });
});
