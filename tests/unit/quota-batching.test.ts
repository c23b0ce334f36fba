import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.ts';
import { canonicalJson, sha256Hex } from '../../src/core/canonical.ts';
import type { LaunchDocument } from '../../src/core/types.ts';
import { PrivateStore } from '../../src/db/private-store.ts';
import { SqlitePrivateState } from '../../src/db/private-state-sqlite.ts';
import { createLogger } from '../../src/log.ts';
import { createDeps, type Deps } from '../../src/server/deps.ts';
import { handleToken } from '../../src/server/token.ts';
import { handleTokensBatch } from '../../src/server/tokens-batch.ts';
import { utcDay } from '../../src/server/quota.ts';

/**
 * Issue 26 / 25: quota counts written once per event-loop turn (SQLite group commit) and a batch's
 * mints counted in one transaction stay exact: the Q-th request is admitted and the (Q+1)-th
 * refused under concurrency, and a batch counts exactly what one call per mint would.
 */

const DAY = '2026-11-20';
let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'lpa-qbatch-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('group commit of quota counts (SQLite)', () => {
  it('300 concurrent asks with quota 120: exactly 120 admitted (counts 1..120 once each), in far fewer transactions than asks', async () => {
    const state = SqlitePrivateState.open(join(dir, 'private.db'));
    const keyId = await state.insertKey('q', 'lpa_q00000', 'e'.repeat(64), 1);
    const commits = vi.spyOn(state.store, 'admitBatch');
    const results = await Promise.all(Array.from({ length: 300 }, () => state.admitRequest(keyId, DAY, 120)));
    const admitted = results.filter((r): r is number => r !== null);
    expect(admitted.length).toBe(120);
    expect([...admitted].sort((a, b) => a - b)).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
    expect(results.indexOf(null)).toBe(120); // the first 120 asks in order are the admitted ones
    expect(commits.mock.calls.length).toBeLessThan(10);
    expect(await state.usage(keyId, DAY)).toBe(120);
    expect(await state.admitRequest(keyId, DAY, 120)).toBeNull();
    await state.close();
  });

  it('two connections (two processes\' servers) group-committing at once with quota 100: exactly 100 admitted; an ask settles only once its count is readable by another connection', async () => {
    const a = SqlitePrivateState.open(join(dir, 'private.db'));
    const b = SqlitePrivateState.open(join(dir, 'private.db'));
    const reader = new PrivateStore(join(dir, 'private.db'));
    const keyId = await a.insertKey('q', 'lpa_q00000', 'e'.repeat(64), 1);
    const seen: boolean[] = [];
    const ask = (s: SqlitePrivateState) => s.admitRequest(keyId, DAY, 100).then((n) => (n !== null && seen.push(reader.usage(keyId, DAY) >= n), n));
    const results = await Promise.all(Array.from({ length: 250 }, (_, i) => ask(i % 2 ? a : b)));
    expect(results.filter((r) => r !== null).length).toBe(100);
    expect(new Set(results.filter((r) => r !== null)).size).toBe(100);
    expect(seen.every(Boolean)).toBe(true);
    expect(reader.usage(keyId, DAY)).toBe(100);
    reader.close();
    await a.close();
    await b.close();
  });

  it('admitRequests (n at once) admits min(n, quota − used), the first ones, mixed with single asks of the same turn in order', async () => {
    const state = SqlitePrivateState.open(join(dir, 'private.db'));
    const keyId = await state.insertKey('q', 'lpa_q00000', 'e'.repeat(64), 1);
    await state.setUsage(keyId, DAY, 95);
    const [one, many, last] = await Promise.all([state.admitRequest(keyId, DAY, 100), state.admitRequests(keyId, DAY, 100, 10), state.admitRequest(keyId, DAY, 100)]);
    expect(one).toBe(96);
    expect(many).toEqual({ before: 96, admitted: 4 });
    expect(last).toBeNull();
    expect(await state.usage(keyId, DAY)).toBe(100);
    await state.close();
  });
});

describe('the batch endpoint counts as one call per mint', () => {
  const MINT = '7GCihgDB8fe6KNjn2MYtkzZcRjQy3t9GHdC8uHYmW2hr';
  const ABSENT = ['9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM', 'So11111111111111111111111111111111111111112', 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', 'SysvarRent111111111111111111111111111111111'];
  let deps: Deps;
  const clock = Date.parse('2026-11-20T12:00:00.000Z');
  beforeEach(() => {
    deps = createDeps(loadConfig({ DATA_DIR: dir }), { now: () => clock, curveStatus: async () => 'never', log: createLogger('silent') });
    const doc = {
      mint: MINT, apiVersion: 'v1', methodVersion: 'markers-v1', origin: 'observed', observedAtLaunch: true, settled: true,
      cleanAtBirth: true, launch: null, finding: { class: 'NO_MARKERS', label: 'No recorded markers', why: 'Checked; none found.' },
    } as unknown as LaunchDocument;
    const text = canonicalJson(doc);
    deps.publicStore.putLaunch(doc, null, text, sha256Hex(text), clock);
  });
  afterEach(async () => {
    deps.publicStore.close();
    await deps.privateState.close();
  });

  it('with 3 of the quota left, a batch of 5 well-formed mints and a malformed one answers and counts exactly as 6 single calls do (boundary mid-batch)', async () => {
    const mints = [MINT, 'abc', ...ABSENT];
    const day = utcDay(clock);
    const batchKey = await deps.keys.create('batch');
    const singleKey = await deps.keys.create('single');
    for (const k of [batchKey, singleKey]) await deps.privateState.setUsage(k.id, day, 9_997);

    const res = await handleTokensBatch(new Request(`http://x/api/v1/tokens?mints=${mints.join(',')}`, { headers: { Authorization: `Bearer ${batchKey.key}` } }), deps, {});
    expect(res.status).toBe(200);
    const batch = (await res.json()).results as { status: number; body: { error?: string } }[];

    const single: { status: number; error?: string; rate: string | null }[] = [];
    for (const mint of mints) {
      const r = await handleToken(new Request(`http://x/api/v1/token/${mint}`, { headers: { Authorization: `Bearer ${singleKey.key}` } }), deps, { mint });
      single.push({ status: r.status, error: ((await r.json()) as { error?: string }).error, rate: r.headers.get('RateLimit') });
    }
    expect(batch.map((e) => e.status)).toEqual(single.map((s) => s.status));
    expect(batch.map((e) => e.body.error)).toEqual(single.map((s) => s.error));
    expect(batch.map((e) => e.status)).toEqual([200, 400, 404, 404, 429, 429]);
    expect(await deps.privateState.usage(batchKey.id, day)).toBe(10_000);
    expect(await deps.privateState.usage(singleKey.id, day)).toBe(await deps.privateState.usage(batchKey.id, day));
    expect(res.headers.get('RateLimit')).toBe(single.at(-1)!.rate);
  });
});
