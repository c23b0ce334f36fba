/**
 * The chain state of completed launches (src/chain/chain-state.ts `readChainStates`, methodology
 * "graduation", reference.md §2): every curve and canonical pool asked in one accounts read, every
 * existing pool's vaults in a second, whatever the number of launches; and what each kind of
 * answer becomes (no pool account → `pool: null`; an account that cannot be read → `curveComplete:
 * null` / `pool: 'unreadable'`). Accounts: the transcribed mainnet graduated launch (FIX/15).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { batchedAccounts, MULTIPLE_ACCOUNTS_MAX, readChainStates, type AccountsReader } from '../../src/chain/chain-state.ts';
import type { TransactionReader } from '../../src/chain/transaction-reader.ts';
import { bondingCurveAddress, canonicalPoolAddress } from '../../src/chain/pda.ts';
import { PUMP_AMM_PROGRAM_ID, WSOL_MINT } from '../../src/core/programs.ts';
import { decodePool } from '../../src/core/decode/index.ts';
import { getBase58Encoder } from '@solana/kit';

const f15 = JSON.parse(readFileSync(join(import.meta.dirname, '../fixtures/mainnet/pumpswap_2026_graduated-curve+pool+config_accounts.TRANSCRIBED.json'), 'utf8')) as {
  mint: string;
  curve: string;
  pool: string;
  accounts: Record<string, { data: string }>;
};
const BASE_VAULT = 'j6iUvMo6Z2yivpHmsME2nXrafjbhtbCJqdevsJstunV';
const QUOTE_VAULT = 'C3FQnUxE56fXfbTZTFLvddizyrQqXJsG7VRTvdSPk3uU';
/** A token account's amount: the u64 at offset 64 (SPL Token layout), read here without the decoder. */
const amountOf = (addr: string) => Buffer.from(f15.accounts[addr]!.data, 'base64').readBigUInt64LE(64);
/** The pool's signed virtual_quote_reserves (FIX/15 decoded in accounts.test.ts). */
const VIRTUAL_QUOTE = 17_584_505_289n;
/** A launch with no accounts on this chain. */
const OTHER_MINT = '7LSsEoJGhLeZzGvDofTdNg7M3JttxQqGWNLo6vWMpump';
const NOW = Date.UTC(2026, 10, 23, 12);

/** An accounts reader over FIX/15 that records each call; `fail` addresses answer an Error. */
function fixtureReader(fail: Set<string> = new Set()): AccountsReader & { calls: string[][] } {
  const calls: string[][] = [];
  const read = async (addresses: readonly string[]) => {
    calls.push([...addresses]);
    return addresses.map((a) => (fail.has(a) ? new Error('node error') : f15.accounts[a] ? Buffer.from(f15.accounts[a]!.data, 'base64') : null));
  };
  return Object.assign(read, { calls });
}

describe('readChainStates', () => {
  it('reads every curve and pool in one call and the vaults in a second, and builds the pool now from them', async () => {
    const reader = fixtureReader();
    const states = await readChainStates(reader, [{ mint: f15.mint, quoteMint: WSOL_MINT }, { mint: OTHER_MINT, quoteMint: WSOL_MINT }], NOW);
    expect(reader.calls).toEqual([
      [f15.curve, f15.pool, await bondingCurveAddress(OTHER_MINT), await canonicalPoolAddress(OTHER_MINT)],
      [BASE_VAULT, QUOTE_VAULT],
    ]);
    const base = amountOf(BASE_VAULT);
    const quote = amountOf(QUOTE_VAULT) + VIRTUAL_QUOTE;
    expect(states.get(f15.mint)).toEqual({
      checkedAtMs: NOW,
      curveComplete: true,
      pool: {
        address: f15.pool,
        program: PUMP_AMM_PROGRAM_ID,
        baseMint: f15.mint,
        quoteMint: WSOL_MINT,
        quoteDecimals: 9,
        baseReserves: base.toString(),
        quoteReserves: quote.toString(),
        price: Number(quote) / 1e9 / (Number(base) / 1e6),
        lpSupply: '4193388282752',
        asOf: { ms: NOW, iso: new Date(NOW).toISOString() },
      },
    });
    // no curve account: complete unknown; no pool account: no pool (not unreadable)
    expect(states.get(OTHER_MINT)).toEqual({ checkedAtMs: NOW, curveComplete: null, pool: null });
  });

  it('a pool quoted in a mint other than WSOL or USDC: its price from the decimals its mint account states (8, as an xStock), null when that cannot be read', async () => {
    // FIX/15's pool with its quote_mint (Pool layout: 8 + 1 + 2 + 32 + 32 = byte 75) made another listed mint
    const LISTED = 'XsDoVfqeBukxuZHWhdvWHBhgEHjGNst4MLodqsJHzoB';
    const poolData = Buffer.from(f15.accounts[f15.pool]!.data, 'base64');
    poolData.set(getBase58Encoder().encode(LISTED), 75);
    expect(decodePool(poolData)?.fields.quote_mint).toBe(LISTED);
    const mintData = Buffer.alloc(82);
    mintData[44] = 8; // decimals
    mintData[45] = 1; // is_initialized
    const reader = (mint: Buffer | Error | null): AccountsReader & { calls: string[][] } => {
      const calls: string[][] = [];
      const data: Record<string, Buffer | Error | null> = { [f15.pool]: poolData, [LISTED]: mint };
      const read = async (addresses: readonly string[]) => {
        calls.push([...addresses]);
        return addresses.map((a) => (a in data ? data[a]! : f15.accounts[a] ? Buffer.from(f15.accounts[a]!.data, 'base64') : null));
      };
      return Object.assign(read, { calls });
    };
    const base = amountOf(BASE_VAULT);
    const quote = amountOf(QUOTE_VAULT) + VIRTUAL_QUOTE;
    const r = reader(mintData);
    const pool = (await readChainStates(r, [{ mint: f15.mint, quoteMint: WSOL_MINT }], NOW)).get(f15.mint)!.pool;
    expect(r.calls[1]).toEqual([BASE_VAULT, QUOTE_VAULT, LISTED]); // the quote's mint read with the vaults
    expect(pool).toMatchObject({ quoteMint: LISTED, quoteDecimals: 8, price: Number(quote) / 1e8 / (Number(base) / 1e6) });
    for (const unreadable of [new Error('node error'), null, Buffer.alloc(165)]) {
      expect((await readChainStates(reader(unreadable), [{ mint: f15.mint, quoteMint: WSOL_MINT }], NOW)).get(f15.mint)!.pool).toMatchObject({ quoteMint: LISTED, quoteDecimals: null, price: null });
    }
  });

  it('an account that cannot be read is unknown, never absent', async () => {
    const curveFails = await readChainStates(fixtureReader(new Set([f15.curve, f15.pool])), [{ mint: f15.mint, quoteMint: WSOL_MINT }], NOW);
    expect(curveFails.get(f15.mint)).toEqual({ checkedAtMs: NOW, curveComplete: null, pool: 'unreadable' });
    const vaultFails = fixtureReader(new Set([QUOTE_VAULT]));
    const states = await readChainStates(vaultFails, [{ mint: f15.mint, quoteMint: WSOL_MINT }], NOW);
    expect(states.get(f15.mint)).toMatchObject({ curveComplete: true, pool: 'unreadable' });
    expect(vaultFails.calls).toHaveLength(2);
  });

  it('a malformed mint gives an unknown curve and an unreadable pool without asking for them', async () => {
    const reader = fixtureReader();
    const states = await readChainStates(reader, [{ mint: 'not-a-mint', quoteMint: WSOL_MINT }, { mint: f15.mint, quoteMint: WSOL_MINT }], NOW);
    expect(states.get('not-a-mint')).toEqual({ checkedAtMs: NOW, curveComplete: null, pool: 'unreadable' });
    expect(reader.calls[0]).toEqual([f15.curve, f15.pool]);
    expect(states.get(f15.mint)).toMatchObject({ curveComplete: true, pool: { address: f15.pool } });
  });

  it('asks for nothing when no launch is given', async () => {
    const reader = fixtureReader();
    expect((await readChainStates(reader, [], NOW)).size).toBe(0);
    expect(reader.calls).toEqual([]);
  });
});

describe('batchedAccounts (the collector\'s reader)', () => {
  /** A reader whose getMultipleAccounts answers each address with its own bytes, except `bad` calls (an Error) and `throwOn` requests. */
  function fakeReader(opts: { badCall?: number; throwOn?: number } = {}) {
    const requests: unknown[][][] = [];
    const reader = {
      batchSize: 100,
      getTransactions: async () => [],
      call: async (method: string, paramsList: unknown[][]) => {
        expect(method).toBe('getMultipleAccounts');
        requests.push(paramsList);
        if (requests.length === opts.throwOn) throw new Error('HTTP 500');
        return paramsList.map(([addrs], k) =>
          k === opts.badCall ? new Error('JSON-RPC error -32005') : { context: { slot: 1 }, value: (addrs as string[]).map((a) => (a.startsWith('none') ? null : { data: [Buffer.from(a).toString('base64'), 'base64'] })) },
        );
      },
    } satisfies TransactionReader;
    return { reader, requests };
  }
  const schedule = <T>(fn: () => Promise<T>) => fn();
  const addrs = Array.from({ length: MULTIPLE_ACCOUNTS_MAX + 20 }, (_, i) => (i === 3 ? 'none3' : `acct${i}`));

  it(`asks at most ${MULTIPLE_ACCOUNTS_MAX} addresses per call, all calls in one request, answers in order`, async () => {
    const { reader, requests } = fakeReader();
    const got = await batchedAccounts(reader, { rateLimited: false, schedule })(addrs);
    expect(requests.map((r) => r.map(([a]) => (a as string[]).length))).toEqual([[MULTIPLE_ACCOUNTS_MAX, 20]]);
    expect(got.map((d) => (d instanceof Uint8Array ? Buffer.from(d).toString() : d))).toEqual(addrs.map((a) => (a === 'none3' ? null : a)));
  });

  it('one call per request when rate limited; a failed call or request makes its addresses Errors', async () => {
    const limited = fakeReader({ throwOn: 2 });
    const got = await batchedAccounts(limited.reader, { rateLimited: true, schedule })(addrs);
    expect(limited.requests).toHaveLength(2);
    expect(got.slice(0, MULTIPLE_ACCOUNTS_MAX).every((d) => !(d instanceof Error))).toBe(true);
    expect(got.slice(MULTIPLE_ACCOUNTS_MAX).every((d) => d instanceof Error)).toBe(true);
    const bad = fakeReader({ badCall: 0 });
    const answers = await batchedAccounts(bad.reader, { rateLimited: false, schedule })(addrs);
    expect(answers.slice(0, MULTIPLE_ACCOUNTS_MAX).every((d) => d instanceof Error)).toBe(true);
    expect(answers.slice(MULTIPLE_ACCOUNTS_MAX).every((d) => d instanceof Uint8Array)).toBe(true);
  });
});
