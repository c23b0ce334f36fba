/**
 * Transactions in the decoder's output form for the markers-v12 review's cases (a router or bundler
 * trading pump coin `A` with a program's address as the trade's user): one coin, SOL-quoted, created
 * at `T0`; wallets are Ed25519 public keys (on the curve, as a wallet's is).
 */
import { randomBytes } from 'node:crypto';
import { analyzeLaunch } from '../../src/core/record/build-launch.ts';
import { classifyLaunch } from '../../src/core/record/classify.ts';
import type { DecodedEvent, DecodedTransaction, LaunchDocument } from '../../src/core/types.ts';
import { walletAddressOfSeed } from '../../devchain/simulate/keys.ts';

export const wallet = () => walletAddressOfSeed(randomBytes(32));
export const A = 'AAAAcoinAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAApump';
export const SOL = '11111111111111111111111111111111';
export const T0 = 1_792_000_000;
/** OKX router's authority (fixture 3vg7eD…: the pump_amm sell's `user`, off the curve) */
export const OKX = 'ARu4n5mFdZogZAravu7CcizaojWnS6oqka37gdLT5SZn';
/** Every wallet first funded by a wallet of its own. */
export const own = (w: string) => ({ state: 'found' as const, funder: `funder-of-${w}`, signature: `funding-of-${w}`, slot: 1 });

export const ev = (name: string, fields: Record<string, unknown>, outerIndex = 0): DecodedEvent => ({ program: 'pump', name, fields: fields as DecodedEvent['fields'], outerIndex, source: 'cpi' });
export const tx = (signature: string, slot: number, blockTime: number | null, events: DecodedEvent[], extra: Partial<DecodedTransaction> = {}): DecodedTransaction => ({
  signature, slot, blockTime, err: null, accountKeys: [], signers: [], instructions: [], events, preTokenBalances: [], postTokenBalances: [],
  logsTruncated: false, fromLogsOnly: false, jitoTipLamports: '0', skipped: [], ...extra,
});
export const create = (creator: string) =>
  ev('CreateEvent', { name: 'T', symbol: 'T', uri: 'u', mint: A, bonding_curve: 'c', user: creator, creator, token_total_supply: '1000000000000000', quote_mint: SOL, timestamp: String(T0) });
export const trade = (user: string, isBuy: boolean, tokens: bigint, outerIndex: number) =>
  ev('TradeEvent', { mint: A, user, is_buy: isBuy, token_amount: String(tokens), sol_amount: '100000000', quote_amount: '100000000', quote_mint: SOL, fee: '0', creator_fee: '0', ix_name: isBuy ? 'buy_v3' : 'sell_v3' }, outerIndex);
export const bal = (account: string, owner: string, amount: bigint) => ({ accountIndex: 1, account, mint: A, owner, amount: String(amount), decimals: 6 });
export const ix = (name: string, inner: boolean, path: string, user: string, ata: string): DecodedTransaction['instructions'][number] => ({ program: 'pump', name, inner, path, accounts: { base_mint: A, user, associated_base_user: ata }, args: {} });
export const createIx = (creator: string): DecodedTransaction['instructions'][number] => ({ program: 'pump', name: 'create_v2', inner: false, path: '0', accounts: { mint: A, user: creator }, args: {} });
/** A buy by `w` an hour after creation (an outside curve buyer, outside every window). */
export const laterBuy = (w: string) => tx('later', 9000, T0 + 3600, [trade(w, true, 10n ** 12n, 0)], { signers: [w] });
export const record = (txs: DecodedTransaction[], funderOf: (w: string) => ReturnType<typeof own> | undefined = own): LaunchDocument =>
  classifyLaunch(analyzeLaunch(A, txs, true, { funderOf }), { origin: 'observed', observedAtLaunch: true, asOfMs: (T0 + 3600) * 1000 });
export const codes = (d: LaunchDocument) => d.flags.map((f) => f.code);
