/**
 * What a token page states must be what its record supports (an audit of the renderers against
 * the records, 2026-11-27; docs/methodology.md markers-v7):
 * - a record the drift guard made UNKNOWN does not show absences ("Creator sold no", "0 outside
 *   buyers") as facts: its history is not complete;
 * - the curve chart marks a migration only where the record could (a pool a user created is none);
 * - "Creator kept" carries the partial-history caveat the other counts carry;
 * - the UNKNOWN explanation does not claim every marker was checked when the funding was not, nor
 *   give a PumpSwap pool as the reason for a Raydium-era graduation;
 * - `poolFound: false` of a document before markers-v7 (it also meant "not read") is not "not migrated";
 * - the funder row names the real reason on a partial history;
 * - a markers-v1 document (no `bundle`, no buyout `fees`) renders.
 */
import { describe, expect, it } from 'vitest';
import { instant } from '../../src/core/canonical.ts';
import { analyzeLaunch, type ChainState } from '../../src/core/record/build-launch.ts';
import { classifyLaunch } from '../../src/core/record/classify.ts';
import type { DecodedTransaction, LaunchDocument } from '../../src/core/types.ts';
import { clearChartSeriesCache, CURVE_MAX_POINTS } from '../../src/render/chart-data.ts';
import { renderTokenPage } from '../../src/render/token-page.ts';
import { pct, pctBeside } from '../../src/render/units.ts';
import { launchDoc, randomAddress } from '../helpers/launch-doc.ts';
import { createEvent, trade, tx } from '../helpers/synthetic-launch.ts';
import { OWN_FUNDERS } from '../helpers/synthetic-launch.ts';

const MINT = 'Mint111111111111111111111111111111111111pump';
const CREATOR = 'Creator1111111111111111111111111111111111111';
const BUYER = 'Buyer11111111111111111111111111111111111111';
const T0 = 1_791_000_000;
const OPTS = { explorerTxUrl: 'https://explorer.example/tx/', baseUrl: 'https://archive.example', sha256: 'a'.repeat(64) };
const ctx = { origin: 'observed' as const, observedAtLaunch: true, asOfMs: (T0 + 5_000) * 1000 };
const built = (txs: DecodedTransaction[], state: ChainState = {}) => classifyLaunch(analyzeLaunch(MINT, txs, true, { ...OWN_FUNDERS, ...state }), ctx);
const render = (doc: LaunchDocument, txs?: DecodedTransaction[]) => {
  clearChartSeriesCache();
  return renderTokenPage(doc, { ...OPTS, ...(txs ? { transactions: txs } : {}) });
};
const cell = (html: string, label: string) => html.match(new RegExp(`<td data-label="${label}"[^>]*>([\\s\\S]*?)</td>`))?.[1]?.replace(/<[^>]+>/g, '');
const text = (html: string, id: string) => html.match(new RegExp(`<p id="${id}">([\\s\\S]*?)</p>`))?.[1]?.replace(/<[^>]+>/g, '');

describe('token pages after the markers-v7 audit', () => {
  it('a record the drift guard made UNKNOWN shows its absences as unknown, not "no" or 0 as facts', () => {
    const txs = [tx({ slot: 1_000, blockTime: T0, events: [createEvent(MINT, CREATOR), trade(MINT, CREATOR, true, 10n ** 13n, 10n ** 9n)] })];
    const doc = built(txs, { unreadable: ['UnreadableSig111'] });
    expect([doc.finding.class, doc.history.complete]).toEqual(['UNKNOWN', false]);
    const html = render(doc);
    expect(cell(html, 'Creator sold on the curve')).toBe('unknown — the held history is incomplete');
    // a count over an incomplete history is a lower bound: none held is unknown, never "0" (a review at 360 px read the 0s as clean)
    expect(cell(html, 'Outside wallets that bought on the curve')).toBe('unknown — none in the held history, which is incomplete');
    expect(cell(html, 'Buyers in the first 30 seconds')).toBe('unknown — none in the held history, which is incomplete');
    expect(html).toContain('<li><span class="k">Bundled buyers</span> unknown — history incomplete</li>');
    expect(html).not.toMatch(/<span class="k">[^<]*buyers<\/span> 0/);
    // and the section's heading too (a phone reader read "(0 in the history held)" under the pill's "unknown")
    expect(html).toContain('<h3>Bundled buyers <span class="muted">(unknown: the history is incomplete)</span></h3>');
    expect(cell(html, 'Curve completed')).toBe('unknown — the held history is incomplete');
    expect(html).not.toContain('No outside wallet bought in the creation slot.');
    expect(text(html, 'not-known')).toBe('Not known: whether the launch carried a marker, because a transaction of the launch could not be read, or holds program data the archive cannot read; the counts below are of what was read only.');
  });

  it('over a history missing trades: a count of wallets held is "at least N", the verdict names the disagreeing curve states without their figures (the flag gives them), and says when a rebuilt history was read to the end', () => {
    const txs = [
      tx({ slot: 1_000, blockTime: T0, events: [createEvent(MINT, CREATOR), trade(MINT, CREATOR, true, 10n ** 13n, 10n ** 9n)] }),
      tx({ slot: 1_001, blockTime: T0 + 1, events: [trade(MINT, BUYER, true, 10n ** 12n, 10n ** 8n, { virtual_token_reserves: '1000000000000000', virtual_sol_reserves: '30000000000', real_token_reserves: '700000000000000', real_sol_reserves: '2000000000' })] }),
    ];
    // the curve account read holds 5 % more tokens sold than the held trades: trades are missing
    const read = { slot: 2_000, exists: true, complete: false, virtualTokenReserves: '900000000000000', virtualQuoteReserves: '40000000000', realTokenReserves: '620000000000000', realQuoteReserves: '10000000000' };
    const doc = built(txs, { curve: { read, listedAllHeld: true } });
    expect(doc.flags.map((f) => f.code)).toContain('history_incomplete');
    expect(doc.finding.why).toContain('disagrees with the state the held transactions give (');
    const html = render(doc, txs);
    expect(cell(html, 'Buyers in the first 30 seconds')).toBe('at least 1 (in the held history, which is incomplete)');
    expect(html).toContain('<li><span class="k">First-30-s buyers</span> at least 1 (held history)</li>');
    expect(html).toContain('<li><span class="k">Bundled buyers</span> unknown — history incomplete</li>'); // none in the creation slot held
    const why = text(html, 'why')!;
    expect(why).toContain('the chain’s bonding curve account disagrees with the transactions held');
    expect(why).not.toMatch(/real reserves|slot 2000/);
    // the figures are still on the page, in the flag
    expect(html).toContain('the bonding curve account read at slot 2000 (');
    const rebuilt = render({ ...doc, history: { ...doc.history, rebuiltAt: instant((T0 + 86_400) * 1000) } }, txs);
    // a rebuild that left the history incomplete is not "read to the end" (a consistency review read both on one page)
    expect(doc.history.complete).toBe(false);
    expect(rebuilt).toMatch(/Facts as of [^;]*, the newest transaction or account read the record reflects; its chain history was read again [^;]* and is still incomplete;/);
    expect(rebuilt).not.toContain('read to the end');
    const whole = render({ ...doc, history: { ...doc.history, complete: true, rebuiltAt: instant((T0 + 86_400) * 1000) } }, txs);
    expect(whole).toMatch(/the newest transaction or account read the record reflects; its chain history was read to the end /);
  });

  it('"Creator kept" carries the partial-history caveat', () => {
    const doc = built([tx({ slot: 1_000, blockTime: T0, events: [createEvent(MINT, CREATOR), trade(MINT, CREATOR, true, 6n * 10n ** 14n, 10n ** 11n)] })], { unreadable: ['U'] });
    expect(cell(render(doc), 'Creator kept')).toBe('600 M tokens, 60% of supply at the end of the creation slot (of the held history, which is incomplete)');
  });

  it('the curve chart does not mark a pool a user created as the migration, and charts the trades after it', () => {
    const userPool = tx({
      slot: 1_200,
      blockTime: T0 + 200,
      events: [trade(MINT, BUYER, true, 10n ** 12n, 2n * 10n ** 9n, { real_sol_reserves: '2000000000' }), { program: 'pump_amm', name: 'CreatePoolEvent', fields: { base_mint: MINT, index: 7, creator: BUYER, pool: 'UserPool1111111111111111111111111111111111' }, outerIndex: 0, source: 'cpi' } as never],
    });
    const later = tx({ slot: 1_300, blockTime: T0 + 400, events: [trade(MINT, 'Later111111111111111111111111111111111111111', true, 10n ** 12n, 7n * 10n ** 9n, { real_sol_reserves: '9000000000' })] });
    const txs = [tx({ slot: 1_000, blockTime: T0, events: [createEvent(MINT, CREATOR)] }), userPool, later];
    const doc = built(txs);
    expect(doc.launch!.graduated).toBe(false);
    const html = render(doc, txs);
    expect(html).toContain('<tr><th scope="row">Migrated</th><td>not migrated in the held history</td></tr>');
    expect(html).not.toMatch(/Migrated<\/th><td>[^<]*after creation/);
  });

  it('UNKNOWN "Pool not readable" with the funding unchecked too does not say every other marker was checked', () => {
    const base = launchDoc(randomAddress(), T0 * 1000);
    const doc: LaunchDocument = {
      ...base,
      finding: { class: 'UNKNOWN', label: 'Pool not readable', why: '…' },
      cleanAtBirth: false,
      launch: { ...base.launch!, completed: true, graduated: true, graduationConfirmedBy: 'migration_event' },
      pool: null,
      funder: { sharedCohort: null },
    };
    const said = text(render(doc), 'not-known')!;
    expect(said).toContain('nor whether the creator and the earliest buyers share a funder');
    expect(said).not.toContain('every other launch marker was checked');
  });

  it('a Raydium-era graduation whose funding is unknown gives the funding as the reason, not a pool', () => {
    const base = launchDoc(randomAddress(), T0 * 1000);
    const doc: LaunchDocument = {
      ...base,
      finding: { class: 'UNKNOWN', label: 'Funding not checked', why: '…' },
      cleanAtBirth: false,
      launch: { ...base.launch!, completed: true, graduated: true, graduationConfirmedBy: 'withdraw', graduation: { signature: 'W', slot: 9, venue: 'raydium', pool: null } },
      pool: null,
      funder: { sharedCohort: null },
    };
    expect(text(render(doc), 'not-known')).toMatch(/^Not known: whether the creator and the earliest buyers share a funder/);
  });

  it('poolFound false of a markers-v6 document is not "not migrated" on a partial history; of markers-v7 it is', () => {
    const base = launchDoc(randomAddress(), T0 * 1000);
    const doc = (methodVersion: string): LaunchDocument => ({
      ...base,
      methodVersion,
      finding: { class: 'UNKNOWN', label: 'Not established', why: '…' },
      cleanAtBirth: null,
      history: { ...base.history, complete: false },
      launch: { ...base.launch!, completed: true, completedAt: instant(T0 * 1000 + 600_000), graduationCheck: { checkedAt: instant(T0 * 1000 + 3_600_000), curveComplete: true, poolFound: false, pool: null } },
    });
    expect(cell(render(doc('markers-v6')), 'Graduated')).toBe('unknown — the curve completed, and the held history is incomplete');
    expect(cell(render(doc('markers-v7')), 'Graduated')).toBe('no: the curve completed but no migration is held');
  });

  it('a graduation confirmed by the account reads alone says its time is unknown, not nothing', () => {
    const base = launchDoc(randomAddress(), T0 * 1000);
    const pool = 'Pool111111111111111111111111111111111111111';
    const doc: LaunchDocument = {
      ...base,
      launch: {
        ...base.launch!, completed: true, graduated: true, graduationConfirmedBy: 'pool', graduationObserved: false, graduatedAt: null, secondsToGraduate: null,
        graduation: { signature: null, slot: null, venue: 'pumpswap', pool },
        graduationCheck: { checkedAt: instant(T0 * 1000 + 3_600_000), curveComplete: true, poolFound: true, pool },
      },
    };
    expect(cell(render(doc), 'Graduated')).toMatch(/^yes — confirmed by .*; when: unknown \(no graduating transaction is held: the account reads do not tell when\); graduation not observed live$/);
    const timed = { ...doc, launch: { ...doc.launch!, graduationConfirmedBy: 'migration_event' as const, graduatedAt: instant(T0 * 1000 + 600_000), secondsToGraduate: 600, graduation: { signature: 'M'.repeat(88), slot: 9, venue: 'pumpswap' as const, pool } } };
    expect(cell(render(timed), 'Graduated')).not.toContain('when: unknown');
    expect(cell(render(timed), 'Graduated')).toContain('10 min after creation');
  });

  it('the funder row of a partial history names the partial history as the reason', () => {
    const doc = built([tx({ slot: 1_000, blockTime: T0, events: [createEvent(MINT, CREATOR)] })], { unreadable: ['U'] });
    expect(cell(render(doc), 'Shared funder cohort')).toBe('unknown — not checked: the held history is incomplete');
  });

  it('a markers-v1 document (no bundle list, no buyout fees) renders', () => {
    const base = launchDoc(randomAddress(), T0 * 1000);
    const { bundle: _b, ...launch } = base.launch!;
    const doc = {
      ...base,
      methodVersion: 'markers-v1',
      launch: { ...launch, bundledBuyers: 2 },
      curveBuyout: { wallet: BUYER, signature: 'S', slot: 5, sameBatchAsLaunch: false, hoursAfterLaunch: 1, quoteSpent: '85000000000', quoteMint: 'So11111111111111111111111111111111111111112', tokens: '793000000000000' },
    } as unknown as LaunchDocument;
    const html = render(doc);
    expect(html).toContain('The wallets are not listed in this record (issued before markers-v2).');
    expect(cell(html.slice(html.indexOf('id="buyout-table"')), 'Spent')).toMatch(/^85 SOL/);
  });

  it('the curve table gives the trades held, and the points drawn when the chart thins them', () => {
    const trades = Array.from({ length: CURVE_MAX_POINTS + 40 }, (_, i) =>
      tx({ slot: 1_001 + i, blockTime: T0 + 1 + i * 10, events: [trade(MINT, `W${String(i).padStart(43, '1')}`, true, 10n ** 9n, 10n ** 7n, { real_sol_reserves: String(10 ** 7 * (i + 1)) })] }),
    );
    const txs = [tx({ slot: 1_000, blockTime: T0, events: [createEvent(MINT, CREATOR)] }), ...trades];
    const html = render(built(txs), txs);
    const drawn = Number(html.match(/data-chart="curve" data-points="(\d+)"/)![1]) - 1;
    expect(drawn).toBeLessThan(trades.length);
    expect(html).toContain(`<tr><th scope="row">Curve trades</th><td>${trades.length} (the chart draws ${drawn}: the last of each time bucket)</td></tr>`);
  });

  it('a creator share next to the majority threshold is not rounded onto it', () => {
    expect(pctBeside(50.04, 50)).toBe('50.04%');
    expect(pctBeside(49.996, 50)).toBe('49.996%');
    expect(pctBeside(50, 50)).toBe('50%');
    expect(pctBeside(60.004, 50)).toBe(pct(60.004));
    expect(pctBeside(1.5649, 50)).toBe(pct(1.5649));
    const base = launchDoc(randomAddress(), T0 * 1000);
    const html = render({ ...base, launch: { ...base.launch!, creatorSupplyPct: 50.0004, creatorTokensRaw: '500004000000000' } });
    expect(html).toMatch(/<span class="k">Creator kept at creation<\/span> <span[^>]*>50\.0004%<\/span>/);
    expect(cell(html, 'Creator kept')).toContain('50.0004% of supply');
  });
});
