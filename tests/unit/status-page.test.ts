/**
 * `/status.html` in words (src/render/status-page.ts): the collector's cursor and the chain tip it
 * read are said so that the numbers agree with "level with the chain tip" (a phone reader's review
 * found "level" beside a cursor 22,141 slots past the tip, and one 690 behind it).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { PublicStore } from '../../src/db/public-store.ts';
import { statusBody } from '../../src/facts/status.ts';
import { renderStatusPage } from '../../src/render/status-page.ts';

const store = new PublicStore(':memory:');
afterAll(() => store.close());
const NOW = Date.UTC(2026, 10, 27, 22, 0);
const base = statusBody({ publicStore: store, config: { DEMO: false, COVERAGE_GAP_MS: 120_000 } }, NOW);
const collectorLine = (c: Partial<typeof base.collector>) => {
  const page = renderStatusPage({ ...base, collector: { ...base.collector, state: 'live', running: true, ...c } }, NOW, { baseUrl: 'https://archive.example' });
  return /<p>The collector is running[^]*?<\/p>/.exec(page)![0];
};

describe('status page: the collector in words', () => {
  it('cursor behind the tip, nothing newer of the program: level, and says why the numbers differ', () => {
    const p = collectorLine({ cursorSlot: 461_469_922, tipSlot: 461_470_612, lagSlots: 0 });
    expect(p).toContain('level with the chain tip');
    expect(p).toContain('The newest pump transaction it has read is at slot 461,469,922; the chain tip it last read, slot 461,470,612, had nothing newer of the program.');
  });

  it('cursor past the tip it read: the transaction was read after that read', () => {
    const p = collectorLine({ cursorSlot: 455_799_733, tipSlot: 455_777_592, lagSlots: 0 });
    expect(p).toContain('the chain tip it last read was slot 455,777,592 (the transaction was read after that)');
  });

  it('read through a quiet stretch past its cursor: the lag counts from there, and the page says so (a review read a lag of 5 beside a cursor 1,244 slots behind)', () => {
    const p = collectorLine({ cursorSlot: 461_469_922, tipSlot: 461_471_166, lagSlots: 5 });
    expect(p).toContain('the records trail the chain tip by 5 slots');
    expect(p).toContain("The newest pump transaction it has read is at slot 461,469,922; it has read the history of the program through slot 461,471,161 (nothing newer of the program), 5 slots behind the chain tip it last read, slot 461,471,166.");
  });

  it('behind: the lag in slots and the tip', () => {
    const p = collectorLine({ cursorSlot: 1_000, tipSlot: 1_250, lagSlots: 250, state: 'catching_up' });
    expect(p).toContain('trail the chain tip by 250 slots');
    expect(p).toContain('; the chain tip it last read is slot 1,250.');
  });
});

describe('status page: the periodic jobs', () => {
  const page = (jobs: typeof base.collector.jobs) => renderStatusPage({ ...base, collector: { ...base.collector, state: 'live', running: true, jobs } }, NOW, { baseUrl: 'https://archive.example' });
  it('lists every job the collector reported, with its interval, its setting and its last run', () => {
    const jobs = [
      { name: 'funder sweep', setting: 'FUNDER_SWEEP_MS', intervalMs: 600_000, lastRun: { ms: NOW - 60_000, iso: new Date(NOW - 60_000).toISOString() } },
      { name: 'history check', setting: null, intervalMs: 3_600_000, lastRun: null },
      { name: 'downloads', setting: 'DOWNLOADS_INTERVAL_MS', intervalMs: 0, lastRun: null },
      ...['afterwards sweep', 'pool refresh', 'home and list pages', 'search index merge', 'unreadable transactions retry'].map((name) => ({ name, setting: null, intervalMs: 60_000, lastRun: null })),
    ];
    const p = page(jobs);
    const rows = [...p.matchAll(/<tr><th scope="row">([^<]+)<\/th><td data-label="Every">([^]*?)<\/td><td data-label="Last ran">([^<]+)<\/td><\/tr>/g)].map((m) => [m[1], m[2]!.replace(/<[^>]+>/g, ''), m[3]]);
    expect(rows).toHaveLength(8);
    expect(rows[0]).toEqual(['Funder sweep', '10 min (FUNDER_SWEEP_MS)', '2026-11-27 21:59 UTC']);
    expect(rows[1]).toEqual(['History check', '1 h', 'not yet']);
    expect(rows[2]).toEqual(['Downloads', 'each pass (DOWNLOADS_INTERVAL_MS)', 'not yet']);
  });
  it('a collector that reported no jobs (an older version): the four last runs status keeps', () => {
    const p = page(undefined);
    for (const k of ['Funder sweep', 'Afterwards sweep', 'Pool refresh', 'Bulk downloads']) expect(p).toContain(`<th scope="row">${k} last ran</th>`);
  });
});

describe('status page: records waiting for the funder sweep', () => {
  const page = (fundingChecks: typeof base.fundingChecks, intervalMs = 600_000) =>
    renderStatusPage({ ...base, fundingChecks, collector: { ...base.collector, jobs: [{ name: 'funder sweep', setting: 'FUNDER_SWEEP_MS', intervalMs, lastRun: null }] } }, NOW, { baseUrl: 'https://archive.example' });
  const line = (p: string) => /<p id="funding-checks">([^]*?)<\/p>/.exec(p)?.[1] ?? null;
  it('none waiting: no line', () => {
    expect(base.fundingChecks).toEqual({ waiting: 0, olderMethod: 0 });
    expect(line(page({ waiting: 0, olderMethod: 0 }))).toBeNull();
  });
  it('says how many wait, why they are UNKNOWN meanwhile, the sweep\'s pace, and those an upgrade queued', () => {
    expect(line(page({ waiting: 1234, olderMethod: 0 }))).toBe('1,234 records wait for the first funders of their early buyers to be looked up (UNKNOWN “Funding not checked” until then, unless a shared funder was found already): the collector’s funder sweep takes 100 every 10 min (FUNDER_SWEEP_MS).');
    expect(line(page({ waiting: 1, olderMethod: 1 }, 0))).toBe('1 record waits for the first funders of its early buyers to be looked up (UNKNOWN “Funding not checked” until then, unless a shared funder was found already): the collector’s funder sweep takes 100 on each pass (FUNDER_SWEEP_MS). 1 of them was made under an earlier method and is being recorded again under the current one.');
  });
});
