import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { PublicStore } from '../../src/db/public-store.ts';
import { launchPage, parseListQuery, type ListQuery } from '../../src/server/launches.ts';
import { ListPageMemo } from '../../src/server/list-page-memo.ts';
import { launchDoc, putDoc } from '../helpers/launch-doc.ts';

// The list-page memo (src/server/list-page-memo.ts, LIST_CACHE_MB): a page asked for again while
// public.db is unchanged is the page built, its generatedAt now; any commit, of this connection or
// another, forgets every page.

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'lpa-list-memo-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const q = (s: string) => parseListQuery(new URLSearchParams(s)) as ListQuery;
const mintOf = (i: number) => `Mint${String(i).padStart(40, '1')}`;
const T0 = 1_790_000_000_000;

function archive(n: number): PublicStore {
  const store = new PublicStore(join(dir, 'public.db'));
  for (let i = 0; i < n; i++) putDoc(store, launchDoc(mintOf(i), T0 + i * 1000));
  return store;
}

const depsOf = (store: PublicStore, mb = 128) => ({ publicStore: store, config: { LICENSE_TEXT: 'x', baseUrl: 'https://a.example', LIST_CACHE_MB: mb } as never });
type Page = { records: { mint: string; sha256: string; document: { name: string | null } }[]; generatedAt: { ms: number; iso: string }; next: string | null };
const parse = (b: Buffer) => JSON.parse(b.toString('utf8')) as Page;

describe('list pages kept while the public database is unchanged', () => {
  it('a page asked again is byte for byte the page built then, with its generatedAt now', async () => {
    const store = archive(8);
    const deps = depsOf(store);
    for (const query of ['limit=3', 'since=0&limit=3', '']) {
      const built = launchPage(deps, q(query), T0, `?${query}`);
      await nextTurn();
      const again = launchPage(deps, q(query), T0 + 61_000, `?${query}`);
      expect(again).not.toBe(built);
      const fresh = launchPage(deps, q(query), T0 + 61_000); // no key: built from the database
      expect(again.equals(fresh), query).toBe(true);
      expect(parse(again).generatedAt).toEqual({ ms: T0 + 61_000, iso: new Date(T0 + 61_000).toISOString() });
      expect(parse(built).generatedAt.ms).toBe(T0);
    }
    store.close();
  });

  it('another connection\'s commit is seen from the next turn; this connection\'s write at once', async () => {
    const store = archive(5);
    const deps = depsOf(store);
    const first = () => parse(launchPage(deps, q('limit=2'), T0, '?limit=2')).records[0]!;
    expect(first().mint).toBe(mintOf(4));
    // another process: a second connection to the same file adds a newer launch
    const writer = new PublicStore(join(dir, 'public.db'));
    putDoc(writer, launchDoc(mintOf(9), T0 + 99_000));
    await nextTurn();
    expect(first().mint).toBe(mintOf(9));
    // the same connection changes the newest record's document
    putDoc(store, launchDoc(mintOf(9), T0 + 99_000, { name: 'Renamed' }));
    expect(first().document.name).toBe('Renamed');
    // and a sync page sees a changed record leave its place
    const sync = () => parse(launchPage(deps, q('since=0&limit=50'), T0, '?since=0&limit=50')).records.map((r) => r.mint);
    const before = sync();
    putDoc(writer, launchDoc(mintOf(0), T0, { name: 'Changed' }));
    await nextTurn();
    expect(sync()).toEqual([...before.filter((m) => m !== mintOf(0)), mintOf(0)]);
    writer.close();
    store.close();
  });

  it('keeps at most its bytes, the page least recently answered going first; 0 keeps none', async () => {
    const store = archive(30);
    let builds = 0;
    const page = (memo: ListPageMemo, key: string) =>
      Buffer.concat(memo.page(store, key, JSON.stringify({ ms: T0, iso: new Date(T0).toISOString() }), () => {
        builds++;
        const body = Buffer.from(`{"k":"${key}","pad":"${'x'.repeat(1000)}","generatedAt":${JSON.stringify({ ms: T0, iso: new Date(T0).toISOString() })}}`);
        return { body, generatedAtOffset: body.length - 1 - JSON.stringify({ ms: T0, iso: new Date(T0).toISOString() }).length };
      }));
    const size = page(new ListPageMemo(1e6), 'a').length;
    const memo = new ListPageMemo(size * 3);
    builds = 0;
    for (const k of ['a', 'b', 'c']) page(memo, k);
    page(memo, 'a'); // a answered last: b is the oldest now
    expect(builds).toBe(3);
    page(memo, 'd');
    expect(memo.size).toEqual({ pages: 3, bytes: size * 3 });
    builds = 0;
    for (const k of ['a', 'c', 'd']) page(memo, k);
    expect(builds).toBe(0);
    page(memo, 'b');
    expect(builds).toBe(1);
    const none = new ListPageMemo(0);
    builds = 0;
    page(none, 'a');
    page(none, 'a');
    expect(builds).toBe(2);
    expect(none.size).toEqual({ pages: 0, bytes: 0 });
    store.close();
  });

  it('inside a transaction nothing is kept or answered from memory', () => {
    const store = archive(3);
    const memo = new ListPageMemo(1e6);
    let builds = 0;
    const at = JSON.stringify({ ms: T0, iso: new Date(T0).toISOString() });
    const build = () => (builds++, { body: Buffer.from(`{"generatedAt":${at}}`), generatedAtOffset: 15 });
    store.transaction(() => {
      memo.page(store, 'k', at, build);
      memo.page(store, 'k', at, build);
    });
    expect(builds).toBe(2);
    expect(memo.size.pages).toBe(0);
    store.close();
  });
});
