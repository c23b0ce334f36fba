/**
 * A wallet's creator page is bounded whatever the wallet did (PublicStore.walletPage, public
 * migration 18; render/creator-page.ts CREATOR_PAGE_ROWS): of each role the newest rows are listed
 * and every role is counted. A sniper's wallet in thousands of launches made a page of every one,
 * written again whenever one of them changed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PublicStore } from '../../src/db/public-store.ts';
import type { FindingClass } from '../../src/core/types.ts';
import { CREATOR_PAGE_ROWS, creatorPageOptions, renderCreatorPage } from '../../src/render/creator-page.ts';
import { walletRecord } from '../../src/server/wallet.ts';
import { WALLET_LIST_MAX } from '../../src/core/wallet-lists.ts';
import { launchDoc, putDoc, randomAddress } from '../helpers/launch-doc.ts';
import { commitLaunch } from '../helpers/committed-launch.ts';
import { createEvent, trade, tx } from '../helpers/synthetic-launch.ts';
import { recordLaunch } from '../../src/ingest/record-launch.ts';

let dir: string;
let store: PublicStore;
const wallet = randomAddress();
const opts = creatorPageOptions({ EXPLORER_TX_URL: 'https://explorer.example/tx/{signature}', baseUrl: 'https://archive.example' });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lpa-wallet-page-'));
  store = new PublicStore(join(dir, 'public.db'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A role of `wallet` in a new launch at `slot` (the launch row held when `cls` is given). */
function role(kind: 'creator' | 'buyout' | 'bundled' | 'early', slot: number, cls?: FindingClass): string {
  const mint = randomAddress();
  store.db.transaction(() => {
    if (cls) putDoc(store, launchDoc(mint, 1_790_000_000_000 + slot * 400, { finding: { class: cls, label: cls, why: cls } }, kind === 'creator' ? wallet : randomAddress()));
    store.putWalletRoles(mint, [{ wallet, role: kind, signature: `sig-${kind}-${slot}`, slot, detail: kind === 'early' ? { secondsAfterLaunch: 3, tokens: '1000', signatures: [`sig-${kind}-${slot}`] } : {} }]);
  })();
  return mint;
}

describe('a wallet page', () => {
  it('lists the newest rows of each role and counts them all, read together', () => {
    const classes: FindingClass[] = ['FINDINGS', 'NOTE', 'NO_MARKERS', 'UNKNOWN', 'FINDINGS'];
    classes.forEach((c, i) => role('creator', 1000 + i, c));
    role('creator', 2000); // its launch row is not held: counted as a role, in no class
    role('buyout', 3000, 'NOTE');
    const early = Array.from({ length: CREATOR_PAGE_ROWS + 37 }, (_, i) => ({ slot: 5000 + ((i * 7919) % 1000), mint: role('early', 5000 + ((i * 7919) % 1000)) }));
    role('bundled', 7, 'NO_MARKERS');

    const page = store.walletPage(wallet, CREATOR_PAGE_ROWS);
    expect(page.totals).toEqual({ creator: 6, buyout: 1, bundled: 1, early: CREATOR_PAGE_ROWS + 37 });
    expect(page.createdByClass).toEqual({ FINDINGS: 2, NOTE: 1, NO_MARKERS: 1, UNKNOWN: 1 });
    const listed = page.roles.filter((r) => r.role === 'early');
    // the newest: slot descending, then mint
    const newest = [...early].sort((a, b) => b.slot - a.slot || (a.mint < b.mint ? -1 : 1)).slice(0, CREATOR_PAGE_ROWS);
    expect(listed.map((r) => r.mint)).toEqual(newest.map((e) => e.mint));
    expect(page.roles.filter((r) => r.role === 'creator').map((r) => r.slot)).toEqual([2000, 1004, 1003, 1002, 1001, 1000]);
    expect(page.roles.find((r) => r.role === 'buyout')?.findingClass).toBe('NOTE');

    const html = renderCreatorPage(wallet, page, opts);
    expect(html.match(/<tr data-mint=/g)).toHaveLength(6 + 1 + 1 + CREATOR_PAGE_ROWS);
    expect(html).toContain(`Other first-30-s buys <span class="muted">(${CREATOR_PAGE_ROWS + 37})</span>`);
    expect(html).toContain(`The newest ${CREATOR_PAGE_ROWS} of ${CREATOR_PAGE_ROWS + 37} first-30-s buys are listed.`);
    expect(html).toContain(`6 launches created, 1 curve bought out, 1 bundled buy, ${CREATOR_PAGE_ROWS + 37} other first-30-s buys (after the creation slot)`);
    expect(html).toContain('Of its launches: 2 with findings, 1 with a note, 1 with no recorded marker, 1 not established.');
    // only a role with more than it lists says so
    expect(html.match(/are listed\./g)).toHaveLength(1);
  });

  it('stays the same size however many launches the wallet bought early in', () => {
    // mints of one length (a random address is 43 or 44 characters: the listed rows' mints alone made the sizes differ by up to ~50 bytes)
    const address44 = (): string => {
      for (;;) {
        const a = randomAddress();
        if (a.length === 44) return a;
      }
    };
    const sizeWith = (n: number) => {
      store.db.transaction(() => {
        for (let i = 0; i < n; i++) {
          const signature = `s${String(i).padStart(11, '0')}`;
          store.putWalletRoles(address44(), [{ wallet, role: 'early', signature, slot: 10_000 + i, detail: { secondsAfterLaunch: 5, tokens: '5', signatures: [signature] } }]);
        }
      })();
      return Buffer.byteLength(renderCreatorPage(wallet, store.walletPage(wallet, CREATOR_PAGE_ROWS), opts));
    };
    const first = sizeWith(CREATOR_PAGE_ROWS + 1);
    const after = sizeWith(20_000);
    // only the counts' digits differ
    expect(Math.abs(after - first)).toBeLessThan(40);
    expect(store.walletPage(wallet, CREATOR_PAGE_ROWS).totals.early).toBe(20_000 + CREATOR_PAGE_ROWS + 1);
  });

  it('are computed for an archive written before the migration, and read from the rows where the table and index are absent (an older read-only generation)', () => {
    const path = join(dir, 'public.db');
    for (let i = 0; i < 7; i++) role('early', 100 + i);
    role('creator', 50, 'NOTE');
    const truth = store.walletPage(wallet, 3);
    expect(truth.totals).toEqual({ creator: 1, buyout: 0, bundled: 0, early: 7 });
    // back to schema 17
    store.db.exec('DROP TRIGGER wallet_role_count_insert; DROP TRIGGER wallet_role_count_delete; DROP TABLE wallet_role_count; DROP INDEX wallet_role_newest; DELETE FROM schema_migrations WHERE version = 18');
    store.close();
    const old = new PublicStore(path, { readonly: true });
    expect(old.walletPage(wallet, 3)).toEqual(truth);
    old.close();
    store = new PublicStore(path);
    expect(store.db.prepare('SELECT wallet, role, n FROM wallet_role_count ORDER BY role').all()).toEqual([
      { wallet, role: 'creator', n: 1 },
      { wallet, role: 'early', n: 7 },
    ]);
    expect(store.walletPage(wallet, 3)).toEqual(truth);
  });

  it('reads its rows through the wallet, role and slot index', () => {
    const plan = store.db.prepare("EXPLAIN QUERY PLAN SELECT mint FROM wallet_role WHERE wallet = ? AND role = 'early' ORDER BY slot DESC LIMIT 10").all('x') as { detail: string }[];
    expect(plan.map((p) => p.detail).join('\n')).toMatch(/USING (COVERING )?INDEX wallet_role_newest/);
  });

  it('keeps its counts exact through every way roles are written: after random rewrites they equal counting the rows', () => {
    const wallets = Array.from({ length: 6 }, () => randomAddress());
    const mints = Array.from({ length: 40 }, () => randomAddress());
    const kinds = ['creator', 'buyout', 'bundled', 'early'] as const;
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let i = 0; i < 400; i++) {
      const mint = mints[rand(mints.length)]!;
      const roles = Array.from({ length: rand(5) }, () => ({ wallet: wallets[rand(wallets.length)]!, role: kinds[rand(4)]!, signature: `s${rand(3)}`, slot: rand(1000), detail: {} }));
      // a role twice in one launch's list (the second wins, as the upsert writes it) and rolled-back writes too
      if (i % 17 === 0 && roles.length) roles.push({ ...roles[0]!, slot: roles[0]!.slot + 1 });
      if (i % 23 === 0) {
        expect(() => store.db.transaction(() => {
          store.putWalletRoles(mint, roles);
          throw new Error('rolled back');
        })()).toThrow('rolled back');
      } else store.db.transaction(() => store.putWalletRoles(mint, roles))();
    }
    const counted = store.db.prepare('SELECT wallet, role, count(*) AS n FROM wallet_role GROUP BY wallet, role ORDER BY wallet, role').all();
    const kept = store.db.prepare('SELECT wallet, role, n FROM wallet_role_count WHERE n > 0 ORDER BY wallet, role').all();
    expect(kept).toEqual(counted);
    for (const w of wallets) {
      const t = store.walletPage(w, 5).totals;
      for (const k of kinds) expect(t[k]).toBe((counted as { wallet: string; role: string; n: number }[]).find((c) => c.wallet === w && c.role === k)?.n ?? 0);
    }
  });
});

describe('a wallet record (GET /api/v1/wallet/{address})', () => {
  it('holds every buyout and the newest WALLET_LIST_MAX of each other role, each list oldest first, and counts them all', () => {
    const early = Array.from({ length: WALLET_LIST_MAX + 5 }, (_, i) => ({ slot: 9000 + (i % 700), mint: role('early', 9000 + (i % 700)) }));
    const buyouts = [1, 2, 3].map((i) => role('buyout', i * 10, 'NOTE'));
    role('creator', 5);
    const { roles, totals } = store.walletRoles(wallet, WALLET_LIST_MAX);
    const record = walletRecord(wallet, roles, [], totals);
    expect(record.counts).toEqual({ buyouts: 3, created: 1, bundled: 0, early: WALLET_LIST_MAX + 5 });
    expect(record.buyouts?.map((b) => b.mint)).toEqual(buyouts);
    expect(record.bundled).toEqual([]);
    // the newest WALLET_LIST_MAX (slot, then mint), oldest first
    const oldestFirst = [...early].sort((a, b) => a.slot - b.slot || (a.mint < b.mint ? -1 : 1));
    expect(record.early?.map((e) => e.mint)).toEqual(oldestFirst.slice(-WALLET_LIST_MAX).map((e) => e.mint));
    // a wallet never seen: every data field null, counts too
    expect(walletRecord(randomAddress(), [], [], { creator: 0, buyout: 0, bundled: 0, early: 0 })).toMatchObject({ inArchive: false, counts: null, early: null });
  });
});

describe('the roles of a launch whose history is incomplete', () => {
  /** A launch with its creation (the creator's buy) and an outside wallet's buy in the creation slot, recorded with its history said complete or not. */
  function launch(historyComplete: boolean) {
    const mint = randomAddress();
    const creator = randomAddress();
    const buyer = randomAddress();
    store.db.transaction(() => {
      store.addTransaction(mint, tx({ slot: 100, blockTime: 1_790_000_100, events: [createEvent(mint, creator), trade(mint, creator, true, 10n ** 12n, 10n ** 8n)] }));
      store.addTransaction(mint, tx({ slot: 100, blockTime: 1_790_000_100, events: [trade(mint, buyer, true, 10n ** 12n, 10n ** 8n)] }));
      recordLaunch(store, mint, { origin: 'observed', observedAtLaunch: true, nowMs: 1_790_000_200_000, historyComplete });
    })();
    const roles = () => store.db.prepare('SELECT wallet, role FROM wallet_role WHERE mint = ? ORDER BY role').all(mint);
    return { mint, creator, buyer, roles };
  }

  it('lists its creator (a fact of the creation transaction), not its buyers; a complete one lists both', () => {
    const partial = launch(false);
    // before: no role at all, so the creator of a record held was "never seen" (inArchive false)
    expect(partial.roles()).toEqual([{ wallet: partial.creator, role: 'creator' }]);
    const w = walletRecord(partial.creator, store.walletRoles(partial.creator, 10).roles);
    expect(w.inArchive).toBe(true);
    expect(w.created?.map((c) => c.mint)).toEqual([partial.mint]);
    expect(walletRecord(partial.buyer, store.walletRoles(partial.buyer, 10).roles).inArchive).toBe(false);
    expect(store.pendingWalletPages().map((p) => p.wallet)).toContain(partial.creator);
    const whole = launch(true);
    expect(whole.roles()).toEqual([{ wallet: whole.buyer, role: 'bundled' }, { wallet: whole.creator, role: 'creator' }]);
  });

  it('an archive written before: public migration 22 adds the creator roles it lacks and marks their pages, and leaves the others', () => {
    const partial = launch(false);
    const whole = launch(true);
    const scanned = randomAddress(); // a record without its creation: no creator to list
    putDoc(store, { ...launchDoc(scanned, 1_790_000_000_000), launch: null });
    // as the code before wrote it: no role for the incomplete launch; back to schema 21
    store.db.exec(`DELETE FROM wallet_role WHERE mint = '${partial.mint}'; DELETE FROM pending_wallet_page; DELETE FROM schema_migrations WHERE version = 22`);
    const before = store.db.prepare('SELECT wallet, mint, role, signature, slot, detail FROM wallet_role ORDER BY wallet, role').all();
    store.close();
    store = new PublicStore(join(dir, 'public.db'));
    expect(partial.roles()).toEqual([{ wallet: partial.creator, role: 'creator' }]);
    const row = store.db.prepare("SELECT signature, slot, detail FROM wallet_role WHERE mint = ? AND role = 'creator'").get(partial.mint);
    const doc = JSON.parse(store.db.prepare('SELECT document FROM launch WHERE mint = ?').pluck().get(partial.mint) as string);
    expect(row).toEqual({ signature: doc.launch.transaction.signature, slot: doc.launch.transaction.slot, detail: '{}' });
    expect(whole.roles()).toEqual([{ wallet: whole.buyer, role: 'bundled' }, { wallet: whole.creator, role: 'creator' }]);
    expect(store.db.prepare('SELECT count(*) FROM wallet_role WHERE mint = ?').pluck().get(scanned)).toBe(0);
    expect(store.db.prepare('SELECT wallet, mint, role, signature, slot, detail FROM wallet_role WHERE mint <> ? ORDER BY wallet, role').all(partial.mint)).toEqual(before);
    expect(store.pendingWalletPages().map((p) => p.wallet)).toEqual([partial.creator]);
    expect(store.walletPage(partial.creator, 3).totals.creator).toBe(1);
    // the row it wrote is the one the record's next write keeps (putWalletRoles finds it the same)
    store.clearPendingWallets(store.pendingWalletPages());
    recordLaunch(store, partial.mint, { origin: 'observed', observedAtLaunch: true, nowMs: 1_790_000_300_000, historyComplete: false });
    expect(partial.roles()).toEqual([{ wallet: partial.creator, role: 'creator' }]);
  });
});

describe('which record writes mark wallet pages', () => {
  it('a later trade that changes neither the roles nor what the pages show of the launch marks none; a change of class marks its wallets', () => {
    const { mint, create } = commitLaunch(store, 100);
    const classOf = () => store.db.prepare('SELECT finding_class FROM launch WHERE mint = ?').pluck().get(mint);
    const clear = () => store.clearPendingWallets(store.pendingWalletPages());
    const marked = () => store.pendingWalletPages().map((w) => w.wallet);
    const creator = store.db.prepare("SELECT wallet FROM wallet_role WHERE mint = ? AND role = 'creator'").pluck().get(mint) as string;
    expect(marked()).toEqual([creator]);
    clear();
    // buys long after the first 30 s (no role): each a record write
    const blockTime = create.blockTime!;
    const buy = (slot: number, secondsAfter: number) => {
      store.db.transaction(() => {
        store.addTransaction(mint, tx({ slot, blockTime: blockTime + secondsAfter, events: [trade(mint, randomAddress(), true, 10n ** 12n, 10n ** 8n)] }));
        expect(recordLaunch(store, mint, { origin: 'observed', observedAtLaunch: true, nowMs: (blockTime + secondsAfter) * 1000 }).changed).toBe(true);
      })();
    };
    const before = classOf();
    buy(400, 120);
    if (classOf() !== before) {
      // the class moved (the creator's page shows it): marked
      expect(marked()).toEqual([creator]);
      clear();
    }
    const settledClass = classOf();
    buy(700, 240);
    buy(900, 320);
    expect(classOf()).toBe(settledClass);
    expect(marked()).toEqual([]);
    // the same write with the summary said changed marks them (what putLaunch's answer decides)
    const held = store.walletRoles(creator, 10).roles.filter((r) => r.mint === mint);
    store.putWalletRoles(mint, held, true);
    expect(marked()).toEqual([creator]);
  });
});
