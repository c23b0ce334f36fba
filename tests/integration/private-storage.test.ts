/**
 * ONE storage suite, run against both implementations of the private state (src/db/private-state.ts):
 * SQLite (private.db) and PostgreSQL (a throwaway cluster, tests/helpers/postgres.ts). Where a case
 * needs several nodes it opens several states over the same store: separate SQLite connections, or
 * separate pg pools — as separate API processes would.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PrivateState } from '../../src/db/private-state.ts';
import { SqlitePrivateState } from '../../src/db/private-state-sqlite.ts';
import { PgPrivateState } from '../../src/db/private-state-pg.ts';
import { KeyService, hashKey } from '../../src/access/keys.ts';
import { BillingService } from '../../src/server/billing.ts';
import { startPostgres, type TestPostgres } from '../helpers/postgres.ts';

/** A store under test: `open()` gives one more node's view of the same store. */
interface Backend {
  name: string;
  setup(): Promise<void>;
  teardown(): Promise<void>;
  /** A fresh, empty store for one test. */
  fresh(): Promise<void>;
  open(): PrivateState;
  /**
   * Another node for cases that hold transactions across awaits. PostgreSQL: another pool. SQLite:
   * the same connection's state — one process has one (src/db/private-state-sqlite.ts); a second
   * connection in the same thread would wait synchronously on the first one's open transaction.
   * (Across processes SQLite's own locking serialises them: tests/unit/quota.test.ts.)
   */
  openForTransactions(): PrivateState;
}

function sqliteBackend(): Backend {
  let dir = '';
  let n = 0;
  let shared: { n: number; state: SqlitePrivateState } | undefined;
  return {
    name: 'SQLite',
    async setup() {
      dir = mkdtempSync(join(tmpdir(), 'lpa-storage-'));
    },
    async teardown() {
      rmSync(dir, { recursive: true, force: true });
    },
    async fresh() {
      n++;
    },
    // a new connection each time (not SqlitePrivateState.over a shared store): like another process
    open: () => SqlitePrivateState.open(join(dir, `private-${n}.db`)),
    openForTransactions() {
      shared ??= { n, state: SqlitePrivateState.open(join(dir, `private-${n}.db`)) };
      if (shared.n !== n) shared = { n, state: SqlitePrivateState.open(join(dir, `private-${n}.db`)) };
      return shared.state;
    },
  };
}

function postgresBackend(): Backend {
  let cluster: TestPostgres;
  let admin: pg.Pool;
  let url = '';
  let n = 0;
  return {
    name: 'PostgreSQL',
    async setup() {
      cluster = startPostgres();
      admin = new pg.Pool({ connectionString: cluster.url, max: 1 });
      // its idle connection is ended by the cluster's shutdown at teardown (57P01): not a test failure
      admin.on('error', () => undefined);
    },
    async teardown() {
      await admin?.end();
      cluster?.destroy();
    },
    async fresh() {
      const db = `t${++n}`;
      await admin.query(`CREATE DATABASE ${db}`);
      url = cluster.url.replace('/postgres?', `/${db}?`);
    },
    // a separate pool each time: like another API node
    open: () => PgPrivateState.open({ url, max: 20 }),
    openForTransactions: () => PgPrivateState.open({ url, max: 20 }),
  };
}

const SECRET = 's'.repeat(40);
const NOW = Date.parse('2026-11-20T12:00:00.000Z');
const DAY = '2026-11-20';

describe.each([sqliteBackend(), postgresBackend()])('private state: $name', (backend) => {
  const opened: PrivateState[] = [];
  const open = (forTransactions = false) => {
    const s = forTransactions ? backend.openForTransactions() : backend.open();
    if (!opened.includes(s)) opened.push(s);
    return s;
  };

  beforeAll(() => backend.setup(), 60_000);
  afterAll(() => backend.teardown());
  beforeEach(() => backend.fresh());
  afterEach(async () => {
    for (const s of opened.splice(0)) await s.close();
  });

  it('keys: create, verify, revoke, rotate; only the HMAC is stored', async () => {
    const state = open();
    let now = NOW;
    const keys = new KeyService(state, SECRET, () => now);
    const { id, key, prefix } = await keys.create('acme');
    expect(await keys.verify(key)).toEqual({ status: 'ok', keyId: id });
    expect(await keys.verify(key.slice(0, -1) + (key.endsWith('2') ? '3' : '2'))).toEqual({ status: 'invalid_key' });
    expect(await new KeyService(state, 't'.repeat(40)).verify(key)).toEqual({ status: 'invalid_key' });
    const [row] = await state.listKeys();
    expect(row).toMatchObject({ id, label: 'acme', prefix, hash: hashKey(SECRET, key), createdAtMs: NOW, revokedAtMs: null, accountId: null });
    expect(JSON.stringify(await state.listKeys())).not.toContain(key.slice(prefix.length));

    // another node sees the key at once
    const other = new KeyService(open(), SECRET, () => now);
    expect(await other.verify(key)).toEqual({ status: 'ok', keyId: id });

    for (let i = 0; i < 3; i++) expect((await keys.countRequest(id, 100)).used).toBe(i + 1);
    now += 1000;
    const r = await keys.rotate(key);
    if (r.status !== 'rotated') throw new Error(r.status);
    expect(await other.verify(key)).toEqual({ status: 'revoked_key' });
    expect(await other.verify(r.key)).toEqual({ status: 'ok', keyId: r.id });
    expect((await other.peekUsage(r.id, 100)).used).toBe(3); // today's count carried over
    expect(await state.keyById(id)).toMatchObject({ revokedAtMs: NOW + 1000 });
    expect(await keys.rotate(key)).toEqual({ status: 'revoked_key' });

    expect(await keys.revoke(r.id)).toBe(true);
    expect(await keys.revoke(r.id)).toBe(false);
    expect(await other.verify(r.key)).toEqual({ status: 'revoked_key' });
  });

  it('the creation feed entitlement: granted once (the first time stays), seen by every node, carried by rotation, withdrawn', async () => {
    const state = open();
    const keys = new KeyService(state, SECRET, () => NOW);
    const { id, key } = await keys.create('feed');
    const other = new KeyService(open(), SECRET, () => NOW);
    expect(await other.hasFeed(id)).toBe(false);
    expect(await state.setFeed(id, NOW)).toBe(true);
    expect(await state.setFeed(id, NOW + 5_000)).toBe(true);
    expect(await state.keyById(id)).toMatchObject({ feedGrantedAtMs: NOW });
    expect(await other.hasFeed(id)).toBe(true);
    const r = await keys.rotate(key);
    if (r.status !== 'rotated') throw new Error(r.status);
    expect(await other.hasFeed(r.id)).toBe(true);
    expect(await state.setFeed(r.id, null)).toBe(true);
    expect(await other.hasFeed(r.id)).toBe(false);
    expect(await state.setFeed(987_654, NOW)).toBe(false);
    expect(await other.hasFeed(987_654)).toBe(false);
  });

  it('a transaction that fails leaves nothing; one that succeeds is seen by every node', async () => {
    const state = open();
    await expect(
      state.transaction(async (tx) => {
        await tx.insertKey('gone', 'lpa_gone00', 'a'.repeat(64), NOW);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await state.listKeys()).toEqual([]);
    const id = await state.transaction((tx) => tx.insertKey('kept', 'lpa_kept00', 'b'.repeat(64), NOW));
    expect(await open().keyById(id)).toMatchObject({ label: 'kept' });
  });

  it('accounts and Stripe events: one account per subscription, one key per checkout, each event applied once (also when delivered to two nodes at once)', async () => {
    const nodes = [open(true), open(true)];
    const billing = nodes.map((s) => new BillingService(s, new KeyService(s, SECRET, () => NOW), SECRET, () => NOW));
    const session = { id: 'cs_test_1', mode: 'subscription', status: 'complete', payment_status: 'paid', customer: 'cus_1', subscription: 'sub_1' };
    const completed = { id: 'evt_1', type: 'checkout.session.completed', data: { object: session } };

    const both = await Promise.all(billing.map((b) => b.applyEvent(completed)));
    expect(both.map((o) => o.duplicate).sort()).toEqual([false, true]);
    expect((await billing[1]!.applyEvent(completed)).duplicate).toBe(true);
    // the same checkout in another event (Stripe sends async_payment_succeeded too): no second key
    const again = await billing[0]!.applyEvent({ id: 'evt_2', type: 'checkout.session.async_payment_succeeded', data: { object: session } });
    expect(again).toMatchObject({ duplicate: false, action: 'checkout exists' });

    const accounts = await nodes[0]!.listAccounts();
    expect(accounts).toEqual([expect.objectContaining({ stripeSubscription: 'sub_1', stripeCustomer: 'cus_1', keys: 1, activeKeys: 1, endedAtMs: null })]);

    // the key is shown once, on whichever node
    const shown = await billing[1]!.reveal('cs_test_1');
    if (shown.status !== 'shown') throw new Error(shown.status);
    expect(await new KeyService(nodes[0]!, SECRET).verify(shown.key)).toMatchObject({ status: 'ok' });
    expect(await billing[0]!.reveal('cs_test_1')).toMatchObject({ status: 'already_shown', prefix: shown.prefix });
    expect(await billing[0]!.reveal('cs_unknown')).toEqual({ status: 'unknown' });

    // the subscription ends: every key of the account revoked, once
    const deleted = { id: 'evt_3', type: 'customer.subscription.deleted', data: { object: { id: 'sub_1', status: 'canceled', customer: 'cus_1' } } };
    expect((await billing[0]!.applyEvent(deleted)).action).toMatch(/1 keys revoked/);
    expect((await billing[1]!.applyEvent(deleted)).duplicate).toBe(true);
    expect(await new KeyService(nodes[1]!, SECRET).verify(shown.key)).toEqual({ status: 'revoked_key' });
    expect((await nodes[1]!.listAccounts())[0]).toMatchObject({ activeKeys: 0, endReason: 'deleted' });

    // a malformed object of a handled type records nothing (the event can be delivered again)
    await expect(billing[0]!.applyEvent({ id: 'evt_4', type: 'customer.subscription.deleted', data: { object: { nope: 1 } } })).rejects.toThrow();
    expect(await nodes[0]!.recordEvent('evt_4', 'x', NOW)).toBe(true);
  });

  it('quota counts are exact across nodes: 300 concurrent counts with quota 120 over 3 nodes admit exactly 120', async () => {
    const nodes = [open(), open(), open()];
    const keyId = await nodes[0]!.insertKey('q', 'lpa_q00000', 'c'.repeat(64), NOW);
    const Q = 120;
    const results = await Promise.all(Array.from({ length: 300 }, (_, i) => nodes[i % 3]!.admitRequest(keyId, DAY, Q)));
    const admitted = results.filter((r): r is number => r !== null);
    expect(admitted.length).toBe(Q);
    // each admitted request got its own count: 1..Q, no count given twice
    expect([...admitted].sort((a, b) => a - b)).toEqual(Array.from({ length: Q }, (_, i) => i + 1));
    expect(await nodes[2]!.usage(keyId, DAY)).toBe(Q);
    expect(await nodes[1]!.admitRequest(keyId, DAY, Q)).toBeNull();
    // another day counts afresh
    expect(await nodes[1]!.admitRequest(keyId, '2026-11-21', Q)).toBe(1);
  });

  it('keyed requests checked and counted together (KeyService.admit) are exact across nodes: 300 at once with quota 120 over 3 nodes admit exactly 120, each its own count', async () => {
    const nodes = [open(), open(), open()].map((state) => new KeyService(state, SECRET, () => NOW));
    const { id, key } = await nodes[0]!.create('hammer');
    const Q = 120;
    const results = await Promise.all(Array.from({ length: 300 }, (_, i) => nodes[i % 3]!.admit(key, Q)));
    const ok = results.map((r) => (r.status === 'ok' ? r : null));
    expect(ok.every((r) => r !== null && r.keyId === id)).toBe(true);
    const admitted = ok.filter((r) => !r!.usage.exceeded).map((r) => r!.usage.used);
    expect(admitted.length).toBe(Q);
    // each admitted request got its own count (1..Q, none twice); each refused one reports the quota used up
    expect([...admitted].sort((a, b) => a - b)).toEqual(Array.from({ length: Q }, (_, i) => i + 1));
    for (const r of ok) if (r!.usage.exceeded) expect(r!.usage).toMatchObject({ used: Q, quota: Q });
    expect(await nodes[1]!.state.usage(id, DAY)).toBe(Q);
    expect((await nodes[2]!.peekUsage(id, Q)).used).toBe(Q);

    // an unknown key, a key of another secret, no key: refused and nothing counted
    const other = await nodes[0]!.create('other');
    expect(await nodes[1]!.admit(other.key.slice(0, -1) + (other.key.endsWith('2') ? '3' : '2'), Q)).toEqual({ status: 'invalid_key' });
    expect(await new KeyService(nodes[1]!.state, 't'.repeat(40), () => NOW).admit(other.key, Q)).toEqual({ status: 'invalid_key' });
    expect(await nodes[1]!.admit(null, Q)).toEqual({ status: 'missing_key' });
    expect(await nodes[1]!.admit('nope', Q)).toEqual({ status: 'invalid_key' });
    expect(await nodes[1]!.admit(other.key, Q)).toMatchObject({ status: 'ok', keyId: other.id, usage: { used: 1, exceeded: false } });
  });

  it('a key revoked on one node is refused by every node from its next request on, uncounted, also amid requests in flight', async () => {
    const nodes = [open(), open(), open()].map((state) => new KeyService(state, SECRET, () => NOW));
    const { id, key } = await nodes[0]!.create('revoked');
    for (const n of nodes) expect(await n.admit(key, 1000)).toMatchObject({ status: 'ok', keyId: id });
    // requests in flight while the revocation commits: each is either counted and admitted, or refused uncounted
    const during = Promise.all(Array.from({ length: 60 }, (_, i) => nodes[i % 3]!.admit(key, 1000)));
    expect(await nodes[1]!.revoke(id)).toBe(true);
    const results = await during;
    const admitted = results.filter((r) => r.status === 'ok').length;
    expect(admitted + results.filter((r) => r.status === 'revoked_key').length).toBe(60);
    expect(await nodes[2]!.state.usage(id, DAY)).toBe(3 + admitted);
    // after the revocation has committed: refused on every node, never counted
    for (const n of nodes) for (let i = 0; i < 3; i++) expect(await n.admit(key, 1000)).toEqual({ status: 'revoked_key' });
    expect(await nodes[0]!.state.usage(id, DAY)).toBe(3 + admitted);
  });

  it('batch counts (admitRequests, n at once) are exact across nodes: 40 batches of 7 with quota 100 over 3 nodes admit exactly 100, each a prefix', async () => {
    const nodes = [open(), open(), open()];
    const keyId = await nodes[0]!.insertKey('b', 'lpa_b00000', 'f'.repeat(64), NOW);
    const Q = 100;
    const grants = await Promise.all(Array.from({ length: 40 }, (_, i) => nodes[i % 3]!.admitRequests(keyId, DAY, Q, 7)));
    expect(grants.reduce((a, g) => a + g.admitted, 0)).toBe(Q);
    // the admitted ranges (before, before + admitted] tile 1..Q without overlap, as 7 single calls each would
    const ranges = grants.filter((g) => g.admitted > 0).sort((x, y) => x.before - y.before);
    let next = 0;
    for (const g of ranges) {
      expect(g.before).toBe(next);
      next += g.admitted;
    }
    expect(next).toBe(Q);
    for (const g of grants) if (g.admitted < 7) expect(g.before + g.admitted).toBe(Q);
    expect(await nodes[1]!.usage(keyId, DAY)).toBe(Q);
    expect(await nodes[2]!.admitRequests(keyId, DAY, Q, 3)).toEqual({ before: Q, admitted: 0 });
  });

  it('rebuild queue: two workers claiming at once get each job once; a job whose lease ran out is claimed again', async () => {
    const [a, b] = [open(), open()];
    const limits = { perCallerHourly: 100, dailyCeiling: 100, maxQueue: 100 };
    const mints = Array.from({ length: 8 }, (_, i) => `Mint${i}${'1'.repeat(38)}`);
    for (const [i, m] of mints.entries()) expect(await a.rebuilds.start(m, `203.0.113.${i}`, NOW + i, limits)).toMatchObject({ started: true });
    expect(await b.rebuilds.queueCounts()).toEqual({ queued: 8, running: 0 });

    const claims = await Promise.all([a.rebuilds.claim(NOW + 100, 30_000, 8), b.rebuilds.claim(NOW + 100, 30_000, 8)]);
    const all = claims.flat().map((j) => j.mint);
    expect(all.sort()).toEqual([...mints].sort()); // every job once, none twice
    expect(await a.rebuilds.claim(NOW + 200, 30_000, 8)).toEqual([]); // leases alive: nothing to claim
    expect(await a.rebuilds.queueCounts()).toEqual({ queued: 0, running: 8 });

    // the node of mints[0] renews its lease; the others' node died: after 30 s their jobs are claimed again
    await a.rebuilds.progress(mints[0]!, 10, 5, NOW + 60_000);
    const again = await b.rebuilds.claim(NOW + 30_101, 30_000, 20);
    expect(again.map((j) => j.mint).sort()).toEqual(mints.slice(1).sort());
    expect(again.every((j) => j.attempts === 2 && j.state === 'running' && j.signaturesRead === 0)).toBe(true);
    expect(await a.rebuilds.get(mints[0]!)).toMatchObject({ state: 'running', attempts: 1, signaturesRead: 10, transactionsRead: 5 });
    // the node of mints[0] stops (SIGTERM): it gives up its lease, and the job is claimed at once, long before NOW + 60 s
    await a.rebuilds.release(mints[0]!);
    expect((await b.rebuilds.claim(NOW + 30_200, 30_000, 20)).map((j) => j.mint)).toEqual([mints[0]]);

    await b.rebuilds.finish(mints[1]!);
    await b.rebuilds.fail(mints[2]!, 'chain read failed');
    expect(await a.rebuilds.get(mints[1]!)).toBeUndefined();
    expect(await a.rebuilds.get(mints[2]!)).toMatchObject({ state: 'failed', error: 'chain read failed' });
    expect((await a.rebuilds.pending()).map((j) => j.mint)).not.toContain(mints[2]);
    await a.rebuilds.clearFailed(mints[2]!);
    expect(await b.rebuilds.get(mints[2]!)).toBeUndefined();
  });

  it('rebuild queue under contention: 40 claims of one job each, at once over 4 nodes, never get the same job twice', async () => {
    const nodes = [open(), open(), open(), open()];
    const limits = { perCallerHourly: 100, dailyCeiling: 100, maxQueue: 100 };
    const mints = Array.from({ length: 40 }, (_, i) => `Busy${String(i).padStart(2, '0')}${'1'.repeat(38)}`);
    for (const [i, m] of mints.entries()) await nodes[0]!.rebuilds.start(m, `203.0.113.${i}`, NOW + i, limits);
    // every claimer wants the oldest claimable job: without row locks skipped they would all take the same one
    const claims = await Promise.all(Array.from({ length: 40 }, (_, i) => nodes[i % 4]!.rebuilds.claim(NOW + 100, 30_000, 1)));
    const claimed = claims.flat().map((j) => j.mint);
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(claims.flat().every((j) => j.attempts === 1)).toBe(true);
    const rest = await nodes[1]!.rebuilds.claim(NOW + 200, 30_000, 40);
    expect([...claimed, ...rest.map((j) => j.mint)].sort()).toEqual(mints);
  });

  it('rebuild starts: the same mint asked on two nodes at once starts once; the limits hold across nodes', async () => {
    const nodes = [open(), open()];
    const limits = { perCallerHourly: 2, dailyCeiling: 3, maxQueue: 10 };
    const mint = `Same${'1'.repeat(40)}`;
    const both = await Promise.all(nodes.map((n) => n.rebuilds.start(mint, '198.51.100.1', NOW, limits)));
    expect(both.every((o) => o.started)).toBe(true);
    // one of the two started it; the other joined it (its answer says no start of its own)
    expect(both.map((o) => o.started && o.joined).sort()).toEqual([false, true]);
    expect((await nodes[0]!.rebuilds.callerStartsInHour('198.51.100.1', NOW)).count).toBe(1);
    expect(await nodes[1]!.rebuilds.queueCounts()).toEqual({ queued: 1, running: 0 });

    // six callers ask for six new mints at once over two nodes: the daily ceiling (3) admits exactly 3 starts in all
    const outs = await Promise.all(
      Array.from({ length: 6 }, (_, i) => nodes[i % 2]!.rebuilds.start(`Other${i}${'1'.repeat(38)}`, `192.0.2.${i}`, NOW + 1, limits)),
    );
    expect(outs.filter((o) => o.started).length).toBe(2);
    expect(outs.filter((o) => !o.started && o.refused === 'rebuild_budget_exhausted').length).toBe(4);
    // the caller limit: a caller with 2 starts this hour is refused the third
    const caller = '192.0.2.77';
    await nodes[0]!.rebuilds.start(`Cap1${'1'.repeat(40)}`, caller, NOW, { ...limits, dailyCeiling: 100 });
    await nodes[1]!.rebuilds.start(`Cap2${'1'.repeat(40)}`, caller, NOW, { ...limits, dailyCeiling: 100 });
    expect(await nodes[0]!.rebuilds.start(`Cap3${'1'.repeat(40)}`, caller, NOW + 5, { ...limits, dailyCeiling: 100 })).toMatchObject({ started: false, refused: 'rate_limited' });
  });
});
