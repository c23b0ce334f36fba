/**
 * markers-v8 (docs/methodology.md "Fees the chain did not report; migrate_v2's mint"):
 * - a buy whose TradeEvent has the 2024 layout (121 B, before the creator-fee upgrade of 2025-05-12)
 *   reports no fee, though it paid one: its fees are unknown (null), where markers-v7 wrote "0";
 * - a pump `migrate_v2` names the curve's mint `base_mint`: it is recognised as the migration of that
 *   mint as `migrate` is (markers-v7 read `mint` only).
 */
import { describe, expect, it } from 'vitest';
import { analyzeLaunch, type ChainState } from '../../src/core/record/build-launch.ts';
import { classifyLaunch, METHOD_VERSION } from '../../src/core/record/classify.ts';
import { tradesOf } from '../../src/core/record/launch-events.ts';
import { decodeTransaction } from '../../src/core/decode/index.ts';
import { PUMP_FEE_RECIPIENTS } from '../../src/core/programs.ts';
import { renderTokenPage } from '../../src/render/token-page.ts';
import type { DecodedTransaction, LaunchDocument } from '../../src/core/types.ts';
import { loadFixtureTransaction } from '../helpers/mainnet-fixtures.ts';
import { complete, createEvent, trade, tx } from '../helpers/synthetic-launch.ts';
import { OWN_FUNDERS } from '../helpers/synthetic-launch.ts';

const MINT = 'Mint111111111111111111111111111111111111pump';
const CREATOR = 'Creator1111111111111111111111111111111111111';
const BUYER = 'Buyer11111111111111111111111111111111111111';
const TAKER = 'Taker11111111111111111111111111111111111111';
const T0 = 1_791_000_000;
const FUNDERS: ChainState = OWN_FUNDERS;
const ctx = { origin: 'observed' as const, observedAtLaunch: true, asOfMs: (T0 + 5_000) * 1000 };
const record = (txs: DecodedTransaction[], mint = MINT) => classifyLaunch(analyzeLaunch(mint, txs, true, FUNDERS), ctx);

it('the method version is markers-v8 or a later one (its two corrections stand)', () => {
  expect(METHOD_VERSION).toMatch(/^markers-v(8|9|[1-9][0-9])$/);
});

describe('markers-v8: fees the trade events did not report are unknown, not 0', () => {
  // FIX 2wkECd… (mainnet, January 2025): the buy that completed a curve, its TradeEvent of the 2024 layout
  const file = 'pump_2025-01_buy-completes-curve_CompleteEvent_getParsedTransaction_2wkECd.json';
  const raw = loadFixtureTransaction(file);
  const d = decodeTransaction(raw);
  const ev = d.events.find((e) => e.name === 'TradeEvent')!;

  it('the real 2025-01 buy paid a fee its TradeEvent does not report', () => {
    expect(ev.fields.fee).toBeUndefined();
    expect(ev.fields.creator_fee).toBeUndefined();
    // the balances: a pump fee recipient received 1 % of the curve amount (8,013,305,498 lamports)
    const meta = (raw as { meta: { preBalances: number[]; postBalances: number[] } }).meta;
    const gained = d.accountKeys.map((k, i) => [k, meta.postBalances[i]! - meta.preBalances[i]!] as const).filter(([k, v]) => PUMP_FEE_RECIPIENTS.includes(k) && v > 0);
    expect(ev.fields.sol_amount).toBe('8013305498');
    expect(gained).toEqual([['CebN5WGQ4jvEPvsVU4EoHEpgzq1VV7AbicfhtW4xC9iM', 80_133_054]]);
  });

  it('its trade has fees null (markers-v7: 0n), its tokens and quote as reported', () => {
    const [t] = tradesOf(ev.fields.mint as string, [d]);
    expect(t!.fees).toBeNull();
    expect(t!.curve.fees).toBeNull();
    expect(t!.quote).toBe(8_013_305_498n);
  });

  it('the record of a launch taken by such a buy: curveBuyout.fees and curvePart.fees null; with the 2025-05 layout, their sum', () => {
    const launch = (feeFields: Record<string, unknown>) => [
      tx({ slot: 1_000, blockTime: T0, events: [createEvent(MINT, CREATOR)] }),
      tx({ slot: 1_100, blockTime: T0 + 60, events: [trade(MINT, BUYER, true, 10n ** 12n, 10n ** 8n, feeFields)] }),
      tx({ slot: 1_200, blockTime: T0 + 600, events: [trade(MINT, TAKER, true, 7n * 10n ** 14n, 8n * 10n ** 10n, feeFields), complete(MINT, TAKER)] }),
    ];
    const unreported = record(launch({})).curveBuyout!;
    expect(unreported.wallet).toBe(TAKER);
    expect(unreported.quoteSpent).toBe('80000000000');
    expect(unreported.fees).toBeNull();
    expect(unreported.curvePart!.fees).toBeNull();
    const reported = record(launch({ fee: '800000000', creator_fee: '40000000' })).curveBuyout!;
    expect(reported.fees).toBe('840000000');
    expect(reported.curvePart!.fees).toBe('840000000');
  });

  it('the token page says the fees are not known: for null, and for a "0" of a markers-v7 document; a v8 amount is shown', () => {
    const txs = [
      tx({ slot: 1_000, blockTime: T0, events: [createEvent(MINT, CREATOR)] }),
      tx({ slot: 1_100, blockTime: T0 + 60, events: [trade(MINT, BUYER, true, 10n ** 12n, 10n ** 8n)] }),
      tx({ slot: 1_200, blockTime: T0 + 600, events: [trade(MINT, TAKER, true, 7n * 10n ** 14n, 8n * 10n ** 10n), complete(MINT, TAKER)] }),
    ];
    const doc = record(txs);
    const buyoutCell = (x: LaunchDocument) => /id="buyout-table"[\s\S]*?<\/table>/.exec(renderTokenPage(x, { transactions: txs, explorerTxUrl: 'https://solscan.io/tx/', baseUrl: 'https://archive.example', sha256: 'ab'.repeat(32) }))![0];
    expect(buyoutCell(doc)).toContain('+ fees not known');
    const v7 = { ...doc, methodVersion: 'markers-v7', curveBuyout: { ...doc.curveBuyout!, fees: '0' } };
    expect(buyoutCell(v7)).toContain('+ fees not known');
    const v8 = { ...doc, curveBuyout: { ...doc.curveBuyout!, fees: '840000000' } };
    expect(buyoutCell(v8)).toMatch(/\+ fees (<[^>]+>)?0\.84 SOL/);
    expect(buyoutCell(v8)).not.toContain('not known');
  });
});

describe('markers-v8: a pump migrate_v2 of the mint (its base_mint) is a migration, as migrate is', () => {
  const POOL = 'Pool1111111111111111111111111111111111111111';
  const launch = (instructions: DecodedTransaction['instructions']) => [
    tx({ slot: 1_000, blockTime: T0, events: [createEvent(MINT, CREATOR)] }),
    tx({ slot: 1_100, blockTime: T0 + 60, events: [trade(MINT, TAKER, true, 8n * 10n ** 14n, 85n * 10n ** 9n), complete(MINT, TAKER)] }),
    // the migration without its CompletePumpAmmMigrationEvent: only the instruction says it is one
    tx({
      slot: 1_300,
      blockTime: T0 + 900,
      instructions,
      events: [{ program: 'pump_amm', name: 'CreatePoolEvent', fields: { base_mint: MINT, pool: POOL, index: 0 }, outerIndex: 0, source: 'cpi' } as never],
    }),
  ];
  const ix = (name: string, accounts: Record<string, string>): DecodedTransaction['instructions'] => [{ program: 'pump', name, inner: false, path: '0', accounts, args: {} }];

  it('migrate_v2 naming the mint as base_mint: graduated, the pool its CreatePoolEvent names (markers-v7: not graduated)', () => {
    const l = record(launch(ix('migrate_v2', { base_mint: MINT, quote_mint: 'So11111111111111111111111111111111111111112' }))).launch!;
    expect(l.graduated).toBe(true);
    expect(l.graduationConfirmedBy).toBe('migration_event');
    expect(l.graduation!.pool).toBe(POOL);
  });

  it('migrate naming it as mint: graduated; a migrate_v2 of another mint, or none: not', () => {
    expect(record(launch(ix('migrate', { mint: MINT }))).launch!.graduated).toBe(true);
    expect(record(launch(ix('migrate_v2', { base_mint: 'Other111111111111111111111111111111111111pump' }))).launch!.graduated).toBe(false);
    expect(record(launch([])).launch!.graduated).toBe(false);
  });
});

describe('markers-v8: a why says its verdict first, and once', () => {
  const creation = () => tx({ slot: 1_000, blockTime: T0, events: [createEvent(MINT, CREATOR), trade(MINT, CREATOR, true, 5n * 10n ** 13n, 10n ** 9n)] });
  const buy = () => tx({ slot: 1_100, blockTime: T0 + 5, events: [trade(MINT, BUYER, true, 10n ** 12n, 10n ** 8n)] });
  const sell = (dt: number) => tx({ slot: 1_100 + dt * 3, blockTime: T0 + dt, events: [trade(MINT, CREATOR, false, 10n ** 12n, 10n ** 7n)] });

  it('a creator sale at birth is a finding; the note of the same sale is not repeated after it', () => {
    const d = record([creation(), buy(), sell(10)]);
    expect(d.finding.class).toBe('FINDINGS');
    expect(d.flags.map((f) => f.code).sort()).toEqual(['creator_sold', 'creator_sold_at_birth']);
    expect(d.finding.why).toMatch(/^The creator sold in the creation slot or the first 30 seconds/);
    expect(d.finding.why).not.toContain('Also noted');
    expect(d.finding.why).toMatch(/Recorded from the launch’s complete history\.$/);
  });

  it('a later sale besides it is noted', () => {
    const d = record([creation(), buy(), sell(10), sell(600)]);
    expect(d.finding.why).toContain('Also noted: The creator sold on the curve (2 sell transactions).');
  });

  it('an UNKNOWN why opens with "Unknown, not clean:"; NO_MARKERS names no version', () => {
    const unknown = record([buy()]);
    expect(unknown.finding.class).toBe('UNKNOWN');
    expect(unknown.finding.why).toMatch(/^Unknown, not clean: /);
    const clean = record([creation(), buy()]);
    expect(clean.finding.class).toBe('NO_MARKERS');
    expect(clean.finding.why).not.toMatch(/markers-v\d/);
  });
});
