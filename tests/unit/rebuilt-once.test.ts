/**
 * A record rebuilt from the curve's complete chain history is not rebuilt again at every request
 * (classify.ts needsRebuild). A launch observed at its creation keeps origin `observed` when it is
 * rebuilt, so the origin alone cannot say it was: `history.rebuiltAt` does. Before, an observed
 * record that stayed incomplete after its rebuild (its curve account disagreeing with its complete
 * history) started a new rebuild at each poll, spending the caller's five hourly starts and the
 * service's daily ceiling on the same answer (seen in the demo: CWiTGb…pump, four starts a minute).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PublicStore } from '../../src/db/public-store.ts';
import { recordLaunch } from '../../src/ingest/record-launch.ts';
import { needsRebuild } from '../../src/core/record/classify.ts';
import type { LaunchDocument } from '../../src/core/types.ts';
import { createEvent, trade, tx } from '../helpers/synthetic-launch.ts';
import { randomAddress } from '../helpers/launch-doc.ts';

let dir: string;
let store: PublicStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lpa-rebuilt-once-'));
  store = new PublicStore(join(dir, 'public.db'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const stored = (mint: string) => JSON.parse(store.getLaunch(mint)!.document) as LaunchDocument;

describe('history.rebuiltAt: a rebuilt record is served as it is', () => {
  it('observed at creation, incomplete, rebuilt and still incomplete: origin stays observed, rebuiltAt says when, no further rebuild until the collector writes it again', () => {
    const mint = randomAddress();
    const creator = randomAddress();
    const t0 = 1_790_000_000;
    store.db.transaction(() => {
      store.addTransaction(mint, tx({ slot: 100, blockTime: t0, events: [createEvent(mint, creator), trade(mint, creator, true, 10n ** 13n, 10n ** 9n)] }));
      // recorded ahead of the catch-up: the held history is known not to be complete
      recordLaunch(store, mint, { origin: 'observed', observedAtLaunch: true, nowMs: t0 * 1000, historyComplete: false });
    })();
    const partial = stored(mint);
    expect([partial.origin, partial.finding.class, partial.history.complete, partial.history.rebuiltAt]).toEqual(['observed', 'UNKNOWN', false, undefined]);
    expect(needsRebuild(partial)).toBe(true);

    // the rebuild (rebuild-launch.ts asks for origin rebuilt); the chain it read held no more, so still incomplete
    const rebuiltAtMs = (t0 + 600) * 1000;
    recordLaunch(store, mint, { origin: 'rebuilt', observedAtLaunch: false, nowMs: rebuiltAtMs, historyComplete: false });
    const rebuilt = stored(mint);
    expect(rebuilt.origin).toBe('observed'); // watched at its creation: that stays true
    expect(rebuilt.observedAtLaunch).toBe(true);
    expect(rebuilt.finding.class).toBe('UNKNOWN');
    expect(rebuilt.history.complete).toBe(false);
    expect(rebuilt.history.rebuiltAt).toEqual({ ms: rebuiltAtMs, iso: new Date(rebuiltAtMs).toISOString() });
    expect(needsRebuild(rebuilt)).toBe(false);

    // the collector writes it again (a later trade): the mark goes, a request may rebuild once more
    store.db.transaction(() => {
      store.addTransaction(mint, tx({ slot: 5000, blockTime: t0 + 2000, events: [trade(mint, randomAddress(), true, 10n ** 12n, 10n ** 8n)] }));
      recordLaunch(store, mint, { origin: 'observed', observedAtLaunch: true, nowMs: (t0 + 2000) * 1000, historyComplete: false });
    })();
    const again = stored(mint);
    expect(again.history.rebuiltAt).toBeUndefined();
    expect(needsRebuild(again)).toBe(true);
  });

  it('a record whose rebuild completed it carries rebuiltAt too, and is not UNKNOWN for want of history', () => {
    const mint = randomAddress();
    const creator = randomAddress();
    const t0 = 1_790_000_000;
    store.db.transaction(() => {
      store.addTransaction(mint, tx({ slot: 100, blockTime: t0, events: [createEvent(mint, creator), trade(mint, creator, true, 10n ** 13n, 10n ** 9n)] }));
      recordLaunch(store, mint, { origin: 'rebuilt', observedAtLaunch: false, nowMs: (t0 + 60) * 1000 });
    })();
    const doc = stored(mint);
    expect(doc.origin).toBe('rebuilt');
    expect(doc.history.complete).toBe(true);
    expect(doc.history.rebuiltAt?.ms).toBe((t0 + 60) * 1000);
    expect(needsRebuild(doc)).toBe(false);
  });
});
