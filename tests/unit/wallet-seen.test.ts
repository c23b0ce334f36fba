/**
 * Spec §2.4: `inArchive` is false only for a wallet never seen. The wallets seen trading a curve
 * held (table wallet_seen, public migration 24): kept as transactions are added, filled from the
 * kept rows by the migration (the same rule in SQL), read by the wallet record. Real mainnet
 * transactions (tests/fixtures/mainnet), decoded by the project's decoder.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeTransaction } from '../../src/core/decode/transaction.ts';
import type { DecodedTransaction } from '../../src/core/types.ts';
import { openDatabase } from '../../src/db/open.ts';
import { PUBLIC_MIGRATIONS } from '../../src/db/public-schema.ts';
import { PublicStore, curveTraders } from '../../src/db/public-store.ts';
import { walletRecord } from '../../src/server/wallet.ts';
import { loadFixtureTransaction, wholeTransactionFixtures } from '../helpers/mainnet-fixtures.ts';
import { randomAddress } from '../helpers/launch-doc.ts';

const dir = mkdtempSync(join(tmpdir(), 'lpa-wallet-seen-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every fixture's decode, with the mints its pump TradeEvents name (a transaction is kept once per launch it touches). */
const decoded: { tx: DecodedTransaction; mints: string[] }[] = wholeTransactionFixtures()
  .map((f) => decodeTransaction(loadFixtureTransaction(f)))
  .map((tx) => ({ tx, mints: [...new Set(tx.events.filter((e) => e.program === 'pump' && e.name === 'TradeEvent').map((e) => String(e.fields.mint)))] }))
  .filter((d) => d.mints.length > 0);

/** What the rule gives, read off the events directly: the user of each successful pump TradeEvent of the kept mint. */
const expected = new Set(
  decoded.flatMap(({ tx, mints }) => (tx.err !== null ? [] : mints.flatMap((m) => tx.events.filter((e) => e.program === 'pump' && e.name === 'TradeEvent' && e.fields.mint === m).map((e) => String(e.fields.user))))),
);

describe('wallets seen trading a curve held (wallet_seen, public migration 24)', () => {
  it('the fixtures hold curve trades of several wallets (else this test proves nothing)', () => {
    expect(decoded.length).toBeGreaterThan(10);
    expect(expected.size).toBeGreaterThan(10);
  });

  it('curveTraders: each user of a TradeEvent of that mint once; another mint, none', () => {
    for (const { tx, mints } of decoded) {
      for (const m of mints) expect(curveTraders(m, tx).sort()).toEqual([...new Set(tx.events.filter((e) => e.name === 'TradeEvent' && e.fields.mint === m).map((e) => String(e.fields.user)))].sort());
      expect(curveTraders(randomAddress(), tx)).toEqual([]);
    }
  });

  it('addTransaction keeps them; the migration fills the same set from the rows of a database made before it', () => {
    const store = new PublicStore(join(dir, 'live.db'));
    const oldPath = join(dir, 'old.db');
    const old = openDatabase(oldPath, PUBLIC_MIGRATIONS.filter((m) => m.version < 24));
    const insert = old.prepare('INSERT OR IGNORE INTO launch_tx (mint, signature, slot, block_time, failed, decoded) VALUES (?, ?, ?, ?, ?, ?)');
    for (const { tx, mints } of decoded) {
      for (const m of mints) {
        store.addTransaction(m, tx);
        insert.run(m, tx.signature, tx.slot ?? 0, tx.blockTime, tx.err === null ? 0 : 1, JSON.stringify(tx));
      }
    }
    old.close();
    const seen = (db: PublicStore['db']) => new Set(db.prepare('SELECT wallet FROM wallet_seen').pluck().all() as string[]);
    expect(seen(store.db)).toEqual(expected);
    for (const w of expected) expect(store.walletSeen(w)).toBe(true);
    expect(store.walletSeen(randomAddress())).toBe(false);
    const migrated = new PublicStore(oldPath);
    expect(seen(migrated.db)).toEqual(expected);
    migrated.close();
    store.close();
  });

  it('a failed transaction counts for nothing: its trader is not seen by it', () => {
    const { tx, mints } = decoded.find((d) => d.tx.err === null)!;
    const store = new PublicStore(join(dir, 'failed.db'));
    store.addTransaction(mints[0]!, { ...tx, err: { InstructionError: [0, 'Custom'] } });
    expect(store.db.prepare('SELECT count(*) FROM wallet_seen').pluck().get()).toBe(0);
    store.close();
  });

  it('the wallet record: seen only trading → inArchive true, empty lists, zero counts; never seen → false, every list null', () => {
    const w = randomAddress();
    expect(walletRecord(w, [], [], undefined, true)).toEqual({ address: w, inArchive: true, buyouts: [], created: [], bundled: [], early: [], counts: { buyouts: 0, created: 0, bundled: 0, early: 0 } });
    expect(walletRecord(w, [], [], undefined, false)).toEqual({ address: w, inArchive: false, buyouts: null, created: null, bundled: null, early: null, counts: null });
  });
});
