/**
 * markers-v9 (docs/methodology.md "A wallet funded some other way is of unknown funding"), through
 * the store as the collector records launches: a cohort wallet whose complete history holds no
 * inbound SOL transfer (wallet_funder state 'none') leaves the shared-funder check not established
 * — UNKNOWN "Funding not checked", never NO_MARKERS — unless the other wallets share a funder; and
 * public migration 27 hands a record made before under that rule's old reading (sharedCohort [])
 * to the funder sweep (cohort_unknown), which records it again under markers-v9.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PublicStore } from '../../src/db/public-store.ts';
import { recordLaunch } from '../../src/ingest/record-launch.ts';
import { METHOD_VERSION } from '../../src/core/record/classify.ts';
import { canonicalJson, sha256Hex } from '../../src/core/canonical.ts';
import type { LaunchDocument } from '../../src/core/types.ts';
import { randomAddress, randomSignature } from '../helpers/launch-doc.ts';
import { OWN_FUNDERS, createEvent, trade, tx } from '../helpers/synthetic-launch.ts';
import { decodeTransaction } from '../../src/core/decode/index.ts';
import { analyzeLaunch } from '../../src/core/record/build-launch.ts';
import { classifyLaunch } from '../../src/core/record/classify.ts';
import { tradesOf } from '../../src/core/record/launch-events.ts';
import { cohortCandidates } from '../../src/ingest/funding.ts';
import { loadFixtureTransaction, wholeTransactionFixtures } from '../helpers/mainnet-fixtures.ts';

let dir: string;
let store: PublicStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lpa-markers-v9-'));
  store = new PublicStore(join(dir, 'public.db'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const T0 = 1_792_000_000;
const NOW = (T0 + 3600) * 1000;
const found = (funder: string) => ({ state: 'found' as const, funder, signature: randomSignature(), slot: 1 });

/** A launch: the creator's creation and buy, then `buyers` buying 5 s later; its record as the collector makes it. */
function launch(funders: (wallets: { creator: string; buyers: string[] }) => Record<string, Parameters<PublicStore['putFunder']>[1]>, buyers = 2) {
  const mint = randomAddress();
  const creator = randomAddress();
  const wallets = { creator, buyers: Array.from({ length: buyers }, () => randomAddress()) };
  const txs = [
    tx({ slot: 1000, blockTime: T0, signature: randomSignature(), events: [createEvent(mint, creator), trade(mint, creator, true, 10n ** 12n, 10n ** 8n)] }),
    ...wallets.buyers.map((b) => tx({ slot: 1012, blockTime: T0 + 5, signature: randomSignature(), events: [trade(mint, b, true, 10n ** 12n, 10n ** 8n)] })),
  ];
  for (const [w, f] of Object.entries(funders(wallets))) store.putFunder(w, f, NOW);
  store.db.transaction(() => {
    for (const t of txs) store.addTransaction(mint, t);
    recordLaunch(store, mint, { origin: 'observed', observedAtLaunch: true, nowMs: NOW });
  })();
  return { mint, ...wallets, doc: () => JSON.parse(store.getLaunch(mint)!.document) as LaunchDocument };
}

describe('markers-v9 through the store', () => {
  it('an early buyer whose history holds no SOL transfer: UNKNOWN "Funding not checked", cleanAtBirth false, not settled; not swept again (its history is complete: no lookup can change it)', () => {
    const l = launch(({ creator, buyers }) => ({ [creator]: found('CEX1'), [buyers[0]!]: { state: 'none' }, [buyers[1]!]: found('CEX2') }));
    const d = l.doc();
    expect(d.methodVersion).toBe(METHOD_VERSION);
    expect([d.finding.class, d.finding.label, d.cleanAtBirth, d.settled, d.funder.sharedCohort]).toEqual(['UNKNOWN', 'Funding not checked', false, false, null]);
    expect(store.cohortUnknownMints('', 10)).toEqual([]);
  });

  it('a cohort wallet not looked up yet: UNKNOWN too, and the funder sweep takes it up; once its lookup ends, the record is recorded again and left', () => {
    const l = launch(({ creator, buyers }) => ({ [creator]: found('CEX1'), [buyers[1]!]: found('CEX2') }));
    expect(l.doc().finding.class).toBe('UNKNOWN');
    expect(store.cohortUnknownMints('', 10)).toEqual([l.mint]);
    store.putFunder(l.buyers[0]!, found('CEX9'), NOW);
    store.db.transaction(() => recordLaunch(store, l.mint, { origin: 'observed', observedAtLaunch: false, nowMs: NOW + 1 }))();
    expect(l.doc().finding.class).toBe('NO_MARKERS');
    expect(store.cohortUnknownMints('', 10)).toEqual([]);
  });

  it('a funder the others share stands as FINDINGS beside the wallet read no further', () => {
    const l = launch(({ creator, buyers }) => ({ [creator]: { state: 'none' }, [buyers[0]!]: found('Purse'), [buyers[1]!]: found('Purse') }));
    const d = l.doc();
    expect(d.finding.class).toBe('FINDINGS');
    expect(d.funder.sharedCohort).toEqual([expect.objectContaining({ funder: 'Purse', wallets: [...l.buyers].sort() })]);
  });

  it('a shared funder beside a wallet not looked up yet: FINDINGS on its evidence, not settled, swept until the lookup ends', () => {
    const l = launch(({ creator, buyers }) => ({ [creator]: found('Purse'), [buyers[0]!]: found('Purse') }));
    const d = l.doc();
    expect([d.finding.class, d.funder.sharedCohort?.[0]?.wallets]).toEqual(['FINDINGS', [l.creator, l.buyers[0]!].sort()]);
    expect(store.cohortUnknownMints('', 10)).toEqual([l.mint]);
    store.putFunder(l.buyers[1]!, found('CEX7'), NOW);
    store.db.transaction(() => recordLaunch(store, l.mint, { origin: 'observed', observedAtLaunch: false, nowMs: NOW + 1 }))();
    expect(l.doc().finding.class).toBe('FINDINGS');
    expect(store.cohortUnknownMints('', 10)).toEqual([]);
  });

  it('the creator first funding an early buyer links them: FINDINGS shared_funder, the funding transaction its evidence', () => {
    const sig = randomSignature();
    const l = launch(({ creator, buyers }) => ({ [creator]: found('CEX1'), [buyers[0]!]: { state: 'found', funder: creator, signature: sig, slot: 1 }, [buyers[1]!]: found('CEX2') }));
    const d = l.doc();
    expect(d.finding.class).toBe('FINDINGS');
    expect(d.funder.sharedCohort).toEqual([{ funder: l.creator, wallets: [l.creator, l.buyers[0]!].sort(), signatures: [sig] }]);
    expect(d.flags.find((f) => f.code === 'shared_funder')).toMatchObject({ evidence: [sig], summary: expect.stringContaining('one shared wallet, itself in the cohort, first funded the others') });
  });

  it('a creator alone in its cohort, of unread funding: nothing can be shared, so the check is done (not left unknown for good)', () => {
    const l = launch(({ creator }) => ({ [creator]: { state: 'none' } }), 0);
    // FINDINGS for having no outside buyer at all, not UNKNOWN "Funding not checked"
    expect([l.doc().finding.class, l.doc().funder.sharedCohort, l.doc().flags.map((f) => f.code)]).toEqual(['FINDINGS', [], ['no_outside_curve_buyer']]);
    expect(store.cohortUnknownMints('', 10)).toEqual([]);
  });

  it('public migration 27: a record made under the old reading (no shared funder, a cohort wallet of unread funding) is handed to the funder sweep, which records it again', () => {
    const l = launch(({ creator, buyers }) => ({ [creator]: { state: 'none' }, [buyers[0]!]: found('CEX1'), [buyers[1]!]: found('CEX2') }));
    const clean = launch(({ creator, buyers }) => ({ [creator]: found('CEX3'), [buyers[0]!]: found('CEX4'), [buyers[1]!]: found('CEX5') }));
    expect(clean.doc().finding.class).toBe('NO_MARKERS');
    // the record as markers-v8 made it: every wallet checked, none shared, clean
    const old: LaunchDocument = { ...l.doc(), methodVersion: 'markers-v8', finding: { ...clean.doc().finding }, cleanAtBirth: true, funder: { sharedCohort: [] } };
    const text = canonicalJson(old);
    store.putLaunch(old, null, text, sha256Hex(text), NOW);
    expect(store.cohortUnknownMints('', 10)).toEqual([]);
    // the archive opened by this version: the migration runs
    store.db.exec('DELETE FROM schema_migrations WHERE version = 27');
    store.close();
    store = new PublicStore(join(dir, 'public.db'));
    expect(store.cohortUnknownMints('', 10)).toEqual([l.mint]);
    // the creator's lookup is forgotten, to be made again by markers-v9's rule (which also reads CreateAccount)
    expect(store.funderOf(l.creator)).toBeUndefined();
    // what the sweep does with it (collector/enrich/funder-sweep.ts): look the wallet up again, record the launch again
    store.db.transaction(() => recordLaunch(store, l.mint, { origin: 'observed', observedAtLaunch: false, nowMs: NOW + 1 }))();
    expect([l.doc().methodVersion, l.doc().finding.class, l.doc().cleanAtBirth]).toEqual([METHOD_VERSION, 'UNKNOWN', false]);
    expect(store.cohortUnknownMints('', 10)).toEqual([l.mint]); // its lookup is still to be made
    store.putFunder(l.creator, { state: 'none' }, NOW + 2); // the lookup again finds no funding it reads
    store.db.transaction(() => recordLaunch(store, l.mint, { origin: 'observed', observedAtLaunch: false, nowMs: NOW + 3 }))();
    expect([l.doc().finding.label, store.cohortUnknownMints('', 10)]).toEqual(['Funding not checked', []]); // done: not taken up again
    expect(clean.doc().finding.class).toBe('NO_MARKERS');
  });
});

describe('markers-v9: a buy\'s tokens belong to the wallet that received them (mainnet k1LPbZ…)', () => {
  const FILE = 'pump_2024-08_create+buy_getTransaction_json_k1LPbZ.json';
  const MINT = 'FbBZmwPFiVisi1WAmqHSzJPXMcFj69HWXtVfzNJSMxzJ';
  const CREATOR = 'DNfu7yjqAWMAMcqufTMj9XLSLtKknuN6zP9NvaGA1HJu';
  const SECOND = 'DNfuF1L62WWyW3pNakVkyGGFzVVhj4Yr52jSmdTyeBHm';
  const t = decodeTransaction(loadFixtureTransaction(FILE));
  const held = (owner: string) => t.postTokenBalances.find((b) => b.owner === owner && b.mint === MINT)!.amount;

  it('the creator paid both buys of its creation transaction; the second filled an account of another wallet, which holds its tokens after it', () => {
    const buys = t.instructions.filter((i) => i.name === 'buy');
    expect(buys.map((b) => b.accounts.user)).toEqual([CREATOR, CREATOR]);
    expect(t.events.filter((e) => e.name === 'TradeEvent').map((e) => e.fields.user)).toEqual([CREATOR, CREATOR]);
    expect([held(CREATOR), held(SECOND)]).toEqual(['67062511937500', '3133762240070']);
  });

  it('the record: the creator kept what its own account holds; the other wallet is a bundled buyer (it was counted as the creator\'s, and the launch had no outside buyer)', () => {
    const d = classifyLaunch(analyzeLaunch(MINT, [t], true, OWN_FUNDERS), { origin: 'observed', observedAtLaunch: true, asOfMs: NOW });
    expect(d.launch!.creatorTokensRaw).toBe(held(CREATOR));
    expect(d.launch!.bundledBuyers).toBe(1);
    expect(d.launch!.bundle).toEqual([expect.objectContaining({ wallet: SECOND, tokens: held(SECOND), signatures: [t.signature] })]);
    expect(d.flags.map((f) => f.code)).toEqual(['bundled_buyers']);
    expect(tradesOf(MINT, [t]).map((x) => [x.wallet, x.payer])).toEqual([[CREATOR, undefined], [SECOND, CREATOR]]);
    // and its first funder is looked up, as a member of the cohort
    expect(cohortCandidates(MINT, [t], null).sort()).toEqual([CREATOR, SECOND].sort());
  });

  it('on every other whole mainnet fixture each buy\'s receiver is its payer: no trade changes wallet', () => {
    for (const f of wholeTransactionFixtures().filter((x) => x !== FILE)) {
      const d = decodeTransaction(loadFixtureTransaction(f));
      const mints = new Set(d.events.filter((e) => e.name === 'TradeEvent').map((e) => String(e.fields.mint)));
      for (const m of mints) expect(tradesOf(m, [d]).filter((x) => x.payer !== undefined), f).toEqual([]);
    }
  });
});
