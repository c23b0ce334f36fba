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

  it('behind: the lag in slots and the tip', () => {
    const p = collectorLine({ cursorSlot: 1_000, tipSlot: 1_250, lagSlots: 250, state: 'catching_up' });
    expect(p).toContain('trail the chain tip by 250 slots');
    expect(p).toContain('; the chain tip it last read is slot 1,250.');
  });
});
