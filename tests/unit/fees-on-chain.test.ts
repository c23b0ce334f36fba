/**
 * markers-v5 on real mainnet transactions (tests/fixtures/mainnet, provenance in its README):
 * - a trade's fees are `fee + creator_fee`: the balances show that `buyback_fee` is the part of `fee`
 *   paid to the buyback recipient, not a charge on top (docs/methodology.md "The buyback fee is part of fee");
 * - a graduation's pool is the one of the launch's own migration events, also when one transaction
 *   migrates two curves.
 */
import { describe, expect, it } from 'vitest';
import { decodeTransaction } from '../../src/core/decode/transaction.ts';
import { tradesOf } from '../../src/core/record/launch-events.ts';
import { analyzeLaunch } from '../../src/core/record/build-launch.ts';
import { BUYBACK_FEE_RECIPIENTS } from '../../src/core/programs.ts';
import type { DecodedTransaction } from '../../src/core/types.ts';
import { loadFixture, loadFixtureTransaction } from '../helpers/mainnet-fixtures.ts';

/** Lamports each account gained (negative: lost) in the transaction, by address. */
function lamportDeltas(raw: { meta: { preBalances: number[]; postBalances: number[] } }, d: DecodedTransaction): Map<string, bigint> {
  const m = new Map<string, bigint>();
  raw.meta.preBalances.forEach((pre, i) => m.set(d.accountKeys[i]!, BigInt(raw.meta.postBalances[i]!) - BigInt(pre)));
  return m;
}

const big = (v: unknown) => BigInt(v as string);

describe('the fees of a trade are fee + creator_fee: buyback_fee is inside fee (real 2026-10-08 trades)', () => {
  const cases = [
    // [fixture, whether the signer paid nothing but the trade and the transaction fee]
    ['pump_buy_exact_quote_in_v2_2Sh2zTmnse3s_20261008.json', true],
    ['pump_buy_curve_complete_3qDvAqx3Ssut_20261008.json', false],
    ['pump_buy_legacy_holder_reward_Kz7Nk1YiVWWj_20261008.json', false],
  ] as const;
  for (const [file, only] of cases) {
    it(file, () => {
      const raw = loadFixtureTransaction(file);
      const tx = raw.result ?? raw;
      const d = decodeTransaction(tx);
      const ev = d.events.find((e) => e.name === 'TradeEvent')!;
      const f = ev.fields;
      expect(big(f.buyback_fee) > 0n, 'a trade that paid a buyback fee').toBe(true);
      const delta = lamportDeltas(tx, d);
      // what the fee recipient and the buyback recipient received is `fee`, exactly: the buyback is a part of it
      const buyback = [...delta].filter(([k, v]) => BUYBACK_FEE_RECIPIENTS.includes(k) && v > 0n);
      expect(buyback.map(([, v]) => v)).toEqual([big(f.buyback_fee)]);
      expect(delta.get(f.fee_recipient as string)! + buyback[0]![1]).toBe(big(f.fee));
      const [t] = tradesOf(f.mint as string, [d]);
      expect(t!.fees).toBe(big(f.fee) + big(f.creator_fee));
      expect(t!.curve.fees).toBe(t!.fees);
      if (only) {
        // the signer paid the trade, its fees and the transaction fee: nothing more, nothing less
        expect(-delta.get(d.signers[0]!)! - BigInt(tx.meta.fee)).toBe(t!.quote + t!.fees!);
      }
    });
  }
});

/** The structure-only files (`{txs:[{signature, slot, mint, synthetic?, program_data_lines, emit_cpi_inner}]}`) as decoded transactions from their logs. */
interface StructureTx {
  signature: string;
  slot: number;
  mint: string;
  program_data_lines: string[];
  emit_cpi_inner: { program: string }[];
}
const structure = (file: string): StructureTx[] => loadFixture(file).txs;
const logsOf = (...txs: StructureTx[]) =>
  txs.flatMap((t) => t.program_data_lines.flatMap((line, i) => [`Program ${t.emit_cpi_inner[i]!.program} invoke [1]`, line, `Program ${t.emit_cpi_inner[i]!.program} success`]));
const fromLogs = (signature: string, slot: number, ...txs: StructureTx[]): DecodedTransaction => ({
  ...decodeTransaction({ context: { slot }, value: { signature, err: null, logs: logsOf(...txs) } }),
  blockTime: 1_791_529_401,
});

describe('curve completions on mainnet (2026-10-09): buyout fees and the pool of each migration', () => {
  const completing = structure('pump_2026-10-09_completing-txs_STRUCTURE-ONLY.json');
  const migrating = structure('pump_2026-10-09_migrate-txs_STRUCTURE-ONLY.json');
  // created and taken whole by its creator in one transaction (CreateEvent, TradeEvent, CompleteEvent), migrated after
  const mint = '8GR5KCPTeGRXnmeDxhxF7vVHiMZKfDjSZPGinGF3pump';
  const creation = completing.find((t) => t.mint === mint)!;
  const own = migrating.find((t) => t.mint === mint)!;
  const other = migrating.find((t) => t.mint !== mint)!;
  const decoded = (t: StructureTx) => fromLogs(t.signature, t.slot, t);
  const fees = (e: { fields: Record<string, unknown> }) => big(e.fields.fee) + big(e.fields.creator_fee);

  it('a synthetic completion (TradeEvent + PostCompleteBuyEvent) costs fee + creator_fee of both events, for each of the four', () => {
    const synthetic = completing.filter((t) => (t as StructureTx & { synthetic?: boolean }).synthetic);
    expect(synthetic).toHaveLength(4);
    for (const t of synthetic) {
      const d = decoded(t);
      const trade = d.events.find((e) => e.name === 'TradeEvent' && e.fields.mint === t.mint)!;
      const post = d.events.find((e) => e.name === 'PostCompleteBuyEvent' && e.fields.mint === t.mint)!;
      expect(big(post.fields.buyback_fee) > 0n, t.signature).toBe(true);
      const [buy] = tradesOf(t.mint, [d]);
      expect([buy!.curve.fees, buy!.pool!.fees, buy!.fees], t.signature).toEqual([fees(trade), fees(post), fees(trade) + fees(post)]);
    }
  });

  it("the creator's buyout of 8GR5KC…pump: fees are fee + creator_fee, the pool the one of its own migration", () => {
    const c = decoded(creation);
    const trades = c.events.filter((e) => e.name === 'TradeEvent' && e.fields.mint === mint);
    expect(trades.reduce((n, e) => n + big(e.fields.buyback_fee), 0n) > 0n).toBe(true);
    const a = analyzeLaunch(mint, [c, decoded(own)], true, {});
    expect(a.curveBuyout?.fees).toBe(trades.reduce((n, e) => n + fees(e), 0n).toString());
    expect(a.curveBuyout?.fees).toBe('1062566990');
    expect(a.facts?.graduation?.pool).toBe(pool(own));
  });

  const pool = (t: StructureTx) => decoded(t).events.find((e) => e.name === 'CompletePumpAmmMigrationEvent')!.fields.pool as string;

  it('one transaction migrating two curves gives each launch its own pool, in either order', () => {
    expect(pool(own)).not.toBe(pool(other));
    const c = decoded(creation);
    for (const order of [[other, own], [own, other]]) {
      const both = fromLogs('CONSTRUCTED-two-migrations', own.slot, ...order);
      expect(analyzeLaunch(mint, [c, both], true, {}).facts?.graduation?.pool).toBe(pool(own));
    }
  });
});
