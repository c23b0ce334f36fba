import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalJson, instant, sha256Hex } from '../../src/core/canonical.ts';
import type { LaunchDocument } from '../../src/core/types.ts';
import { KEYED_COLUMNS, PublicStore, UNKEYED_COLUMNS } from '../../src/db/public-store.ts';
import { launchDoc } from '../helpers/launch-doc.ts';

/**
 * putLaunch writes a held row by an UPDATE of its unindexed columns when the indexed ones keep
 * their values, else by the full upsert: the rows, the FTS index and change_seq must come out the
 * same either way.
 */

let dir: string;
beforeEach(() => void (dir = mkdtempSync(join(tmpdir(), 'lpa-put-launch-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const put = (store: PublicStore, doc: LaunchDocument, nowMs: number) => {
  const text = canonicalJson(doc);
  store.putLaunch(doc, `curve${doc.mint}`, text, sha256Hex(text), nowMs);
};
const rows = (store: PublicStore) => store.db.prepare('SELECT * FROM launch ORDER BY mint').all();
const matches = (store: PublicStore, q: string) => store.db.prepare('SELECT l.mint FROM launch_fts f JOIN launch l ON l.rowid = f.rowid WHERE launch_fts MATCH ? ORDER BY l.mint').pluck().all(q);

describe('putLaunch', () => {
  it('names every column of the upsert once, and every column an index of launch reads as keyed', () => {
    const store = new PublicStore(join(dir, 'p.db'));
    const columns = (store.db.prepare("SELECT name FROM pragma_table_info('launch')").pluck().all() as string[]).filter((c) => c !== 'change_seq' && c !== 'first_change_seq' && c !== 'mint'); // the sequences are the triggers'
    const named = [...KEYED_COLUMNS, ...UNKEYED_COLUMNS].map((c) => c[0]);
    expect([...named].sort()).toEqual([...columns].sort());
    expect(new Set(named).size).toBe(named.length);
    // every column an index keys or filters on (its CREATE INDEX text names it)
    const indexSql = (store.db.prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'launch' AND sql IS NOT NULL").pluck().all() as string[]).join('\n');
    for (const [col] of UNKEYED_COLUMNS) expect(new RegExp(`\\b${col}\\b`).test(indexSql), `${col} is in an index`).toBe(false);
    const keyed = KEYED_COLUMNS.map((c) => c[0]);
    for (const col of columns) if (new RegExp(`\\b${col}\\b`).test(indexSql)) expect(keyed).toContain(col);
    store.close();
  });

  it('gives the same rows, FTS matches and change sequence whether a held row is updated in place or upserted', () => {
    const a = new PublicStore(join(dir, 'a.db'));
    const b = new PublicStore(join(dir, 'b.db'));
    // b writes each version into an empty row first (so only the upsert's INSERT runs), a over the held row
    const docs = ['MintA', 'MintB', 'MintC'].map((m, i) => launchDoc(m, 1_700_000_000_000 + i * 1000, {}, `Creator${m}`));
    docs.forEach((d, i) => put(a, d, 10 + i));
    // each version from the one before
    const v1 = docs.map((d) => ({ ...d, asOf: instant(d.asOf.ms + 5000), history: { ...d.history, transactions: 21 } })); // a trade: only the document moves
    const v2 = v1.map((d, i) => (i === 0 ? { ...d, finding: { class: 'FINDINGS', label: 'Findings', why: 'x' } } : i === 1 ? { ...d, finding: { ...d.finding, why: 'another why' } } : d)) as LaunchDocument[]; // the class (keyed) for one, the reason only for another
    const v3 = v2.map((d, i) => (i === 2 ? { ...d, symbol: 'NEWSYM', launch: { ...d.launch!, graduated: true, graduatedAt: instant(d.asOf.ms + 9000), graduationConfirmedBy: 'migration_event' } } : d)) as LaunchDocument[]; // a new symbol (FTS) and a graduation (keyed)
    const versions = [v1, v2, v3];
    let now = 100;
    for (const v of versions) {
      for (const d of v) {
        put(a, d, now);
        b.db.prepare('DELETE FROM launch WHERE mint = ?').run(d.mint);
        now++;
      }
      // b: fresh inserts of the same values, then change_seq taken from a (b's triggers number its own writes)
      for (const d of v) put(b, d, now - v.length + v.indexOf(d));
      const strip = (rs: unknown[]) => rs.map((r) => ({ ...(r as Record<string, unknown>), change_seq: undefined, first_change_seq: undefined }));
      expect(strip(rows(a))).toEqual(strip(rows(b)));
    }
    expect(matches(a, 'NEWSYM')).toEqual(['MintC']);
    expect(matches(a, 'TST')).toEqual(['MintA', 'MintB']);
    // every write that changed a document took a new change_seq, unique and growing
    const seqs = rows(a).map((r) => (r as { change_seq: number }).change_seq);
    expect(new Set(seqs).size).toBe(3);
    expect(a.db.prepare('SELECT seq FROM launch_change_counter').pluck().get()).toBe(3 + 3 + 2 + 1);
    expect(Math.max(...seqs)).toBe(9);
    // whichever path wrote the later versions, a record keeps the sequence of its first write (the feed's `changed`)
    expect(rows(a).map((r) => (r as { first_change_seq: number }).first_change_seq)).toEqual([1, 2, 3]);
    a.close();
    b.close();
  });
});

describe('putWalletRoles', () => {
  const role = (wallet: string, r: 'creator' | 'early' | 'bundled', tokens: string) => ({ wallet, role: r, signature: `sig-${wallet}`, slot: 5, detail: { tokens } });
  const held = (store: PublicStore) => store.db.prepare('SELECT wallet, mint, role, signature, slot, detail FROM wallet_role ORDER BY wallet, role').all();

  it('marks the wallets named before and after, and leaves the rows as they would be rewritten', () => {
    const store = new PublicStore(join(dir, 'r.db'));
    const marks = () => Object.fromEntries(store.pendingWalletPages().map((w) => [w.wallet, w.seq]));
    store.putWalletRoles('M', [role('W2', 'early', '5'), role('W1', 'creator', '0')]);
    expect(marks()).toEqual({ W1: 0, W2: 0 });
    const first = held(store);
    // the same roles in another order: rows unchanged, both wallets marked again (once each)
    store.putWalletRoles('M', [role('W1', 'creator', '0'), role('W2', 'early', '5')]);
    expect(held(store)).toEqual(first);
    expect(marks()).toEqual({ W1: 1, W2: 1 });
    // a changed detail and a wallet gone: rewritten, and the wallet gone is marked too
    store.putWalletRoles('M', [role('W1', 'creator', '0'), role('W3', 'bundled', '7')]);
    expect(held(store)).toEqual([
      { wallet: 'W1', mint: 'M', role: 'creator', signature: 'sig-W1', slot: 5, detail: '{"tokens":"0"}' },
      { wallet: 'W3', mint: 'M', role: 'bundled', signature: 'sig-W3', slot: 5, detail: '{"tokens":"7"}' },
    ]);
    expect(marks()).toEqual({ W1: 2, W2: 2, W3: 0 });
    store.putWalletRoles('M', [role('W1', 'creator', '1'), role('W3', 'bundled', '7')]);
    expect((held(store)[0] as { detail: string }).detail).toBe('{"tokens":"1"}');
    store.close();
  });

  it('marks no page when neither the roles nor the launch summary its pages show changed (a trade), and marks them when either did', () => {
    const store = new PublicStore(join(dir, 'q.db'));
    const marks = () => Object.fromEntries(store.pendingWalletPages().map((w) => [w.wallet, w.seq]));
    const roles = [role('W1', 'creator', '0'), role('W2', 'early', '5')];
    store.putWalletRoles('M', roles, false); // new roles: marked whatever the summary did
    expect(marks()).toEqual({ W1: 0, W2: 0 });
    store.putWalletRoles('M', roles, false);
    expect(marks()).toEqual({ W1: 0, W2: 0 });
    store.putWalletRoles('M', roles, true);
    expect(marks()).toEqual({ W1: 1, W2: 1 });
    store.putWalletRoles('M', [roles[0]!, role('W2', 'early', '6')], false);
    expect(marks()).toEqual({ W1: 2, W2: 2 });
    store.close();
  });

  it('putLaunch says whether the summary a creator page shows may have changed: a new record, a new class or name, not a later trade', () => {
    const store = new PublicStore(join(dir, 's.db'));
    const doc = launchDoc('MintS', 1_790_000_000_000);
    const write = (d: typeof doc) => {
      const text = canonicalJson(d);
      return store.putLaunch(d, null, text, sha256Hex(text), 1);
    };
    expect(write(doc)).toBe(true);
    // a trade: counts, history and asOf move, nothing the page shows
    expect(write({ ...doc, asOf: instant(1_790_000_900_000), history: { ...doc.history, transactions: 99 }, launch: { ...doc.launch!, curveBuyers: 40 } })).toBe(false);
    expect(write({ ...doc, finding: { class: 'FINDINGS', label: 'x', why: 'y' } })).toBe(true);
    expect(write({ ...doc, finding: { class: 'FINDINGS', label: 'x', why: 'y' }, name: 'Renamed' })).toBe(true);
    store.close();
  });
});
