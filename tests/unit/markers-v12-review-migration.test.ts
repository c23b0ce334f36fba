/**
 * Review of markers-v12: public migration 30 hands the funder sweep the records whose v12 record may
 * differ. Two records that do differ and that its first cut did not find: a first-30-s transaction without a
 * blockTime in a record that has a creation time (item 3 reads every transaction's time), and a
 * completing transaction routed with a program's address as its user, past the creation slot + 100.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PublicStore } from '../../src/db/public-store.ts';
import { recordLaunch } from '../../src/ingest/record-launch.ts';
import type { DecodedEvent, DecodedTransaction } from '../../src/core/types.ts';
import { walletAddressOfSeed } from '../../devchain/simulate/keys.ts';
import { randomBytes } from 'node:crypto';
import { OWN_FUNDERS } from '../helpers/synthetic-launch.ts';

const wallet = () => walletAddressOfSeed(randomBytes(32));
const CA = wallet();
const W = wallet();
const SOL = '11111111111111111111111111111111';
const T0 = 1_792_000_000;
const OKX = 'ARu4n5mFdZogZAravu7CcizaojWnS6oqka37gdLT5SZn';
const ev = (name: string, fields: Record<string, unknown>, outerIndex = 0): DecodedEvent => ({ program: 'pump', name, fields: fields as DecodedEvent['fields'], outerIndex, source: 'cpi' });
const tx = (signature: string, slot: number, blockTime: number | null, events: DecodedEvent[], extra: Partial<DecodedTransaction> = {}): DecodedTransaction => ({
  signature, slot, blockTime, err: null, accountKeys: [], signers: [], instructions: [], events, preTokenBalances: [], postTokenBalances: [],
  logsTruncated: false, fromLogsOnly: false, jitoTipLamports: '0', skipped: [], ...extra,
});

describe('review v12: migration 30 coverage', () => {
  it('finds every record whose markers-v12 document differs from its markers-v11 one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lpa-review-v12-'));
    let store = new PublicStore(join(dir, 'public.db'));
    try {
      const mk = (tag: string) => `${tag}${'A'.repeat(40 - tag.length)}pump`;
      const slowSale = mk('SlowSale');
      const routedEnd = mk('RoutedEnd');
      const create = (mint: string) => ev('CreateEvent', { name: 'T', symbol: 'T', uri: 'u', mint, bonding_curve: 'c', user: CA, creator: CA, token_total_supply: '1000000000000000', quote_mint: SOL, timestamp: String(T0) });
      const trade = (mint: string, user: string, isBuy: boolean, tokens: bigint, outerIndex: number, ts: number) =>
        ev('TradeEvent', { mint, user, is_buy: isBuy, token_amount: String(tokens), sol_amount: '100000000', quote_amount: '100000000', quote_mint: SOL, fee: '0', creator_fee: '0', ix_name: isBuy ? 'buy_v3' : 'sell_v3', timestamp: String(ts) }, outerIndex);
      const bal = (mint: string, account: string, owner: string, amount: bigint) => ({ accountIndex: 1, account, mint, owner, amount: String(amount), decimals: 6 });
      const creation = (mint: string, slot: number) =>
        tx(`create-${mint}`, slot, T0, [create(mint), trade(mint, CA, true, 10n ** 13n, 1, T0)], {
          signers: [CA],
          instructions: [{ program: 'pump', name: 'buy_v3', inner: false, path: '1', accounts: { base_mint: mint, user: CA, associated_base_user: 'CA-ata' }, args: {} }],
          postTokenBalances: [bal(mint, 'CA-ata', CA, 10n ** 13n)],
        });
      const put = (mint: string, txs: DecodedTransaction[]) =>
        store.db.transaction(() => {
          for (const t of txs) store.addTransaction(mint, t);
          recordLaunch(store, mint, { origin: 'observed', observedAtLaunch: true, nowMs: (T0 + 86_400) * 1000, state: OWN_FUNDERS });
        })();
      // 1. the creator's top-level sale 70 slots (40 s by the events' clock) after creation; the answer has no blockTime.
      //    markers-v11: inside 75 slots → creator_sold_at_birth (FINDINGS); markers-v12: 40 s → NOTE
      put(slowSale, [creation(slowSale, 1000), tx('slow-sale', 1070, null, [trade(slowSale, CA, false, 10n ** 12n, 0, T0 + 40)], { signers: [CA] }), tx('later-1', 90_000, T0 + 3600, [trade(slowSale, W, true, 10n ** 12n, 0, T0 + 3600)])]);
      expect(JSON.parse(store.getLaunch(slowSale)!.document).finding.class).toBe('NOTE');
      // 2. the curve completed 2 h later by a router trading with its own authority, keeping 1 % of the tokens as its fee:
      //    markers-v11 NO_MARKERS, the router's authority the buyout; markers-v12 the wallet that received the larger part
      const rest = 10n ** 15n - 10n ** 13n;
      put(routedEnd, [
        creation(routedEnd, 2000),
        tx('later-2', 9000, T0 + 3600, [trade(routedEnd, W, true, 10n ** 12n, 0, T0 + 3600)], { signers: [W] }),
        tx('routed-end', 20_000, T0 + 7200, [trade(routedEnd, OKX, true, rest - 10n ** 12n, 0, T0 + 7200), ev('CompleteEvent', { user: OKX, mint: routedEnd, bonding_curve: 'c', timestamp: String(T0 + 7200) })], {
          signers: [W],
          instructions: [{ program: 'pump', name: 'buy_v3', inner: true, path: '0.0', accounts: { base_mint: routedEnd, user: OKX, associated_base_user: 'okx-ata' }, args: {} }],
          preTokenBalances: [bal(routedEnd, 'okx-ata', OKX, 0n), bal(routedEnd, 'W-ata', W, 10n ** 12n)],
          postTokenBalances: [bal(routedEnd, 'okx-ata', OKX, 0n), bal(routedEnd, 'W-ata', W, 10n ** 12n + (rest - 10n ** 12n) * 99n / 100n), bal(routedEnd, 'fee-ata', 'okxFeeWa11etokxFeeWa11etokxFeeWa11etokxFee1', (rest - 10n ** 12n) / 100n)],
        }),
      ]);
      expect(JSON.parse(store.getLaunch(routedEnd)!.document).curveBuyout.wallet).toBe(W);
      store.db.exec('UPDATE launch SET cohort_unknown = 0');
      store.db.exec('DELETE FROM schema_migrations WHERE version = 30');
      store.close();
      store = new PublicStore(join(dir, 'public.db'));
      expect(store.cohortUnknownMints('', 10).sort()).toEqual([routedEnd, slowSale].sort());
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
