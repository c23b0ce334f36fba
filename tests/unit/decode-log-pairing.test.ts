/**
 * The decoder's fast path (src/core/decode/transaction.ts): self-CPI events taken from the
 * `Program data:` lines that repeat them, checked by base58Matches (src/core/decode/base58-match.ts),
 * must give exactly what decoding every CPI gives — on every mainnet fixture, on a simulated chain,
 * and when the logs and the CPIs disagree or the logs are truncated. base58Matches is wrapped in a
 * spy to show when the fast path was taken.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { base58 } from '@scure/base';
import { describe, expect, it, vi } from 'vitest';
import { generateChain } from '../../devchain/simulate/chain.ts';
import { base58Matches } from '../../src/core/decode/base58-match.ts';
import { decodeTransaction, fromBase58, toBase58 } from '../../src/core/decode/index.ts';
import { PUMP_AMM_PROGRAM_ID, PUMP_PROGRAM_ID } from '../../src/core/programs.ts';

vi.mock('../../src/core/decode/base58-match.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/core/decode/base58-match.ts')>();
  return { base58Matches: vi.fn(actual.base58Matches) };
});
const spy = vi.mocked(base58Matches);

const DIR = new URL('../fixtures/mainnet/', import.meta.url);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const load = (f: string): any => JSON.parse(readFileSync(new URL(f, DIR), 'utf8'));
const F2 = 'pump_2024-08_buy+sell_getTransaction_jsonParsed.json';
const EVENT_TAG_HEX = 'e445a52e51cb9a1d';

/** Decode both ways; the spy's calls and results are those of the fast path's attempt. */
function both(raw: unknown): { fast: ReturnType<typeof decodeTransaction>; exact: ReturnType<typeof decodeTransaction>; checks: boolean[] } {
  spy.mockClear();
  const fast = decodeTransaction(structuredClone(raw));
  const checks = spy.mock.results.map((r) => r.value as boolean);
  const exact = decodeTransaction(structuredClone(raw), { pairLogEvents: false });
  return { fast, exact, checks };
}

/**
 * Self-CPI events in a transaction's inner instructions (json or jsonParsed). `keys`: the full
 * account-key list, given to count only pump/PumpSwap events (other Anchor programs, e.g. a
 * router's Raydium CPI in FIX/25, emit events with the same tag; the fast path checks only these).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function cpiEventCount(raw: any, keys?: string[]): number {
  const r = raw.result ?? raw;
  let n = 0;
  for (const g of r.meta?.innerInstructions ?? []) {
    for (const ix of g.instructions) {
      if (typeof ix.data !== 'string') continue;
      if (keys && ![PUMP_PROGRAM_ID, PUMP_AMM_PROGRAM_ID].includes(ix.programId ?? keys[ix.programIdIndex])) continue;
      try {
        if (Buffer.from(fromBase58(ix.data).subarray(0, 8)).toString('hex') === EVENT_TAG_HEX) n++;
      } catch {
        // not base58: not an event
      }
    }
  }
  return n;
}

describe('base58Matches', () => {
  const actual = vi.importActual<typeof import('../../src/core/decode/base58-match.ts')>('../../src/core/decode/base58-match.ts');

  it('agrees with @scure/base on 2,000 byte strings of 0–400 bytes, with and without leading zeros', async () => {
    const { base58Matches: match } = await actual;
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
    for (let i = 0; i < 2000; i++) {
      const bytes = Uint8Array.from({ length: next() % 401 }, () => next() % 256);
      for (let z = 0; z < (i % 4) && z < bytes.length; z++) bytes[z] = 0;
      const s = base58.encode(bytes);
      const cut = next() % (bytes.length + 1);
      expect(match(s, bytes.subarray(0, cut), bytes.subarray(cut))).toBe(true);
    }
  });

  it('rejects a changed byte, a changed character, an extra leading "1", a missing zero byte and a character outside the alphabet', async () => {
    const { base58Matches: match } = await actual;
    const bytes = Uint8Array.from({ length: 274 }, (_, i) => (i * 37 + 11) % 256);
    bytes[0] = 0xe4;
    const s = base58.encode(bytes);
    expect(match(s, new Uint8Array(), bytes)).toBe(true);
    for (const at of [0, 1, 100, 273]) {
      const b = bytes.slice();
      b[at] ^= 1;
      expect(match(s, new Uint8Array(), b)).toBe(false);
    }
    for (const at of [0, 5, s.length - 1]) {
      const t = s.slice(0, at) + (s[at] === 'z' ? 'y' : 'z') + s.slice(at + 1);
      expect(match(t, new Uint8Array(), bytes)).toBe(false);
    }
    expect(match('1' + s, new Uint8Array(), bytes)).toBe(false);
    expect(match('1' + s, new Uint8Array([0]), bytes)).toBe(true);
    expect(match(s, new Uint8Array([0]), bytes)).toBe(false);
    expect(match(s.slice(0, 10) + '0' + s.slice(11), new Uint8Array(), bytes)).toBe(false);
    expect(match(s.slice(0, 10) + 'é' + s.slice(11), new Uint8Array(), bytes)).toBe(false);
  });
});

describe('log-paired events give exactly the exact decode', () => {
  it('on every mainnet transaction fixture; the fast path is taken, one check per self-CPI event', () => {
    const files = readdirSync(DIR).filter((f) => f.endsWith('.json') && /getTransaction|getParsedTransaction|blockSubscribe/.test(f));
    expect(files.length).toBeGreaterThanOrEqual(5);
    for (const f of files) {
      // fixtures 16–27 keep their source's wrapper (README): a one-element list or a test case's `raw`
      const stored = load(f);
      const raw = Array.isArray(stored) ? stored[0] : (stored.raw ?? stored);
      const { fast, exact, checks } = both(raw);
      expect(fast, f).toEqual(exact);
      expect(fast.events.length, f).toBeGreaterThan(0);
      // truncated logs (FIX/19) leave the fast path untried: every CPI is decoded the exact way
      expect(checks, f).toEqual(Array(fast.logsTruncated ? 0 : cpiEventCount(raw, fast.accountKeys)).fill(true));
    }
  });

  it('on every pump transaction of a 60-launch simulated chain', () => {
    const chain = generateChain({ launches: 60, seed: 31 });
    let paired = 0;
    for (const line of chain.transactions) {
      const raw = JSON.parse(line);
      const { fast, exact, checks } = both(raw);
      expect(fast).toEqual(exact);
      if (checks.length > 0 && checks.every(Boolean)) paired++;
    }
    // most transactions carry a self-CPI event; every one of those took the fast path
    expect(paired).toBeGreaterThan(chain.transactions.length / 2);
  });

  it('a log line whose bytes differ from its CPI: the check fails, and the CPI event is kept with the line as a log-only event', () => {
    const raw = load(F2);
    const logs: string[] = raw.result.meta.logMessages;
    const at = logs.findIndex((l) => l.startsWith('Program data: '));
    const bytes = Buffer.from(logs[at]!.slice('Program data: '.length), 'base64');
    bytes[bytes.length - 1] ^= 1; // the last byte of the first TradeEvent
    logs[at] = `Program data: ${bytes.toString('base64')}`;
    const { fast, exact, checks } = both(raw);
    expect(checks).toContain(false);
    expect(fast).toEqual(exact);
    // both CPI events as an untouched decode gives them, plus the changed line on its own
    expect(fast.events.filter((e) => e.source === 'cpi')).toEqual(decodeTransaction(load(F2)).events);
    expect(fast.events.filter((e) => e.source === 'log')).toHaveLength(1);
  });

  it('a CPI whose data differs from its log line: the CPI wins, as reference §1.6 asks', () => {
    const raw = load(F2);
    const group = raw.result.meta.innerInstructions.find((g: { instructions: { data: string }[] }) => g.instructions.some((ix) => ix.data && cpiEventCount({ meta: { innerInstructions: [{ instructions: [ix] }] } }) === 1));
    const ix = group.instructions.find((i: { data?: string }) => typeof i.data === 'string' && cpiEventCount({ meta: { innerInstructions: [{ instructions: [i] }] } }) === 1);
    const data = fromBase58(ix.data);
    data[data.length - 1] ^= 1;
    ix.data = toBase58(data);
    const { fast, exact, checks } = both(raw);
    expect(checks).toContain(false);
    expect(fast).toEqual(exact);
    const trade = fast.events.find((e) => e.source === 'cpi' && e.name === 'TradeEvent');
    expect(trade).toBeDefined();
    expect(fast.events.filter((e) => e.source === 'log')).toHaveLength(1);
  });

  it('truncated logs: no pairing is tried and the CPI events are decoded', () => {
    const raw = load(F2);
    raw.result.meta.logMessages = [...raw.result.meta.logMessages.slice(0, 12), 'Log truncated'];
    const { fast, exact, checks } = both(raw);
    expect(checks).toEqual([]);
    expect(fast).toEqual(exact);
    expect(fast.logsTruncated).toBe(true);
  });

  it('a self-CPI event without its log line (a line removed): counts differ, the exact decode runs', () => {
    const raw = load(F2);
    const logs: string[] = raw.result.meta.logMessages;
    logs.splice(logs.findIndex((l) => l.startsWith('Program data: ')), 1);
    const { fast, exact, checks } = both(raw);
    expect(checks).toEqual([]);
    expect(fast).toEqual(exact);
    expect(fast.events.filter((e) => e.name === 'TradeEvent')).toHaveLength(2);
  });
});
