import type { DecodedEvent, DecodedTransaction } from '../../src/core/types.ts';

/**
 * Builders of decoded transactions for a simulated launch whose truth the test states:
 * constructed in the test, not captured from chain.
 */
let n = 0;
export const sig = (label: string) => `sig_${label}_${++n}`;

const event = (name: string, fields: Record<string, unknown>, program: 'pump' | 'pump_amm' = 'pump'): DecodedEvent => ({
  program,
  name,
  fields: fields as DecodedEvent['fields'],
  outerIndex: 0,
  source: 'cpi',
});

export function tx(opts: { slot: number; blockTime: number | null; err?: unknown; events?: DecodedEvent[]; signature?: string; instructions?: DecodedTransaction['instructions'] }): DecodedTransaction {
  return {
    signature: opts.signature ?? sig('tx'),
    slot: opts.slot,
    blockTime: opts.blockTime,
    err: opts.err ?? null,
    accountKeys: [],
    signers: [],
    instructions: opts.instructions ?? [],
    events: opts.events ?? [],
    preTokenBalances: [],
    postTokenBalances: [],
    logsTruncated: false,
    fromLogsOnly: false, jitoTipLamports: null,
    skipped: [],
  };
}

export const createEvent = (mint: string, creator: string, extra: Record<string, unknown> = {}) =>
  event('CreateEvent', { name: 'Test', symbol: 'TST', uri: 'https://example.com/t.json', mint, bonding_curve: 'curve', user: creator, creator, token_total_supply: '1000000000000000', ...extra });

export const trade = (mint: string, user: string, isBuy: boolean, tokens: bigint, sol: bigint, extra: Record<string, unknown> = {}) =>
  event('TradeEvent', { mint, user, is_buy: isBuy, token_amount: tokens.toString(), sol_amount: sol.toString(), ...extra });

export const complete = (mint: string, user: string) => event('CompleteEvent', { user, mint, bonding_curve: 'curve', timestamp: '0' });

export const migration = (mint: string, pool: string) => [
  event('CompletePumpAmmMigrationEvent', { user: '39azUYFWPz3VHgKCf3VChUwbpURdCHRxjWVowf5jUJjg', mint, pool }),
  event('CreatePoolEvent', { base_mint: mint, pool }, 'pump_amm'),
];

/**
 * Chain state in which every wallet was first funded by a funder of its own (no two share one): the
 * shared-funder check is established and finds nothing shared. (A wallet whose history holds no
 * inbound transfer, `state: 'none'`, leaves the check unknown since markers-v9.)
 */
export const OWN_FUNDERS = { funderOf: (wallet: string) => ({ state: 'found' as const, funder: `funder-of-${wallet}`, signature: `funding-of-${wallet}`, slot: 1 }) };
