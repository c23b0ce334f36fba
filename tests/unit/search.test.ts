import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../../src/config.ts';
import { PublicStore } from '../../src/db/public-store.ts';
import { openDatabase } from '../../src/db/open.ts';
import { PUBLIC_MIGRATIONS } from '../../src/db/public-schema.ts';
import { ftsQuery, hasWalletPage, searchByText } from '../../src/db/search.ts';
import { listCount, listRows } from '../../src/db/lists.ts';
import { AnswerCache, NOT_AN_ADDRESS_HINT, SearchLimiter, answerSearch, handleSearch, parseSearch } from '../../src/server/search.ts';
import type { Deps } from '../../src/server/deps.ts';
import { BytesResponse } from '../../src/server/bytes-response.ts';
import { launchDoc, putDoc, randomAddress } from '../helpers/launch-doc.ts';

/** Search (issue 23): input reading, the FTS5 query, the answers, the per-caller limit and the cache. */

const HELD = randomAddress();
const CREATOR = randomAddress();
const FROG_EMOJI_MINT = randomAddress();
const T0 = Date.parse('2026-11-25T12:00:00Z');

describe('parseSearch', () => {
  it('reads an address, alone or inside a pasted URL', () => {
    expect(parseSearch(`  ${HELD} `)).toEqual({ kind: 'address', address: HELD });
    // a pasted address often brings a line break or a tab: white space around the text is not part of it
    expect(parseSearch(`${HELD}\n`)).toEqual({ kind: 'address', address: HELD });
    expect(parseSearch(`\t${HELD}\r\n`)).toEqual({ kind: 'address', address: HELD });
    expect(parseSearch(`https://pump.fun/coin/${HELD}?ref=x`)).toEqual({ kind: 'address', address: HELD });
    // what phone readers paste (a review at 360 px): a link without its scheme, a chat's "CA:", a full stop after it
    expect(parseSearch(`pump.fun/coin/${HELD}`)).toEqual({ kind: 'address', address: HELD });
    expect(parseSearch(`CA: ${HELD}`)).toEqual({ kind: 'address', address: HELD });
    expect(parseSearch(`CA:${HELD}`)).toEqual({ kind: 'address', address: HELD });
    expect(parseSearch(`${HELD}.`)).toEqual({ kind: 'address', address: HELD });
    expect(parseSearch(`solscan.io/token/${HELD}#holders`)).toEqual({ kind: 'address', address: HELD });
    // the last address standing alone wins (a link's path ends with the token)
    expect(parseSearch(`https://x.example/${CREATOR}/${HELD}`)).toEqual({ kind: 'address', address: HELD });
    // never a window of a longer run: an address with a character added is not that address
    expect(parseSearch(`${HELD}z`)).not.toEqual({ kind: 'address', address: HELD });
    expect(parseSearch(`z${HELD}`)).not.toEqual({ kind: 'address', address: HELD });
  });
  it('splits a name search into words of letters and digits; FTS syntax is not syntax', () => {
    expect(parseSearch('Pepe the frog')).toEqual({ kind: 'text', terms: ['Pepe', 'the', 'frog'] });
    expect(parseSearch('pe"pe* NEAR(frog, 2)')).toEqual({ kind: 'text', terms: ['pe', 'pe', 'NEAR', 'frog', '2'].filter((t, i, a) => a.indexOf(t) === i) });
    expect(parseSearch('$BONK')).toEqual({ kind: 'text', terms: ['BONK'] });
    expect(parseSearch('ドージ')).toEqual({ kind: 'text', terms: ['ドージ'] });
  });
  it('refuses what is not a search', () => {
    expect(parseSearch(null)).toEqual({ kind: 'invalid', why: 'empty' });
    expect(parseSearch('   ')).toEqual({ kind: 'invalid', why: 'empty' });
    expect(parseSearch('a'.repeat(201))).toEqual({ kind: 'invalid', why: 'too_long' });
    expect(parseSearch('pepe\u0000')).toEqual({ kind: 'invalid', why: 'control' });
    expect(parseSearch('evil\u202Eexe')).toEqual({ kind: 'invalid', why: 'control' });
    expect(parseSearch('pepe\nfrog')).toEqual({ kind: 'invalid', why: 'control' }); // inside the text, not around it
    expect(parseSearch('BO\u200BNK')).toEqual({ kind: 'invalid', why: 'control' }); // a zero-width space: no name search matches it as typed
    expect(parseSearch('"*()^:')).toEqual({ kind: 'invalid', why: 'no_words' });
    expect(parseSearch('" *')).toEqual({ kind: 'invalid', why: 'no_words' });
    expect(parseSearch(' 🐸 ')).toEqual({ kind: 'text', terms: [], symbol: '🐸' }); // a symbol of one emoji: looked up exactly
    expect(parseSearch('₿$')).toEqual({ kind: 'text', terms: [], symbol: '₿$' });
    expect(parseSearch('🐸 🚀')).toEqual({ kind: 'invalid', why: 'no_words' }); // two runs: no symbol
  });
  it('says when a pasted word looks like an address but is not one', () => {
    expect(parseSearch('z'.repeat(44))).toEqual({ kind: 'text', terms: ['z'.repeat(44)], hint: NOT_AN_ADDRESS_HINT }); // decodes to more than 32 bytes
    expect(parseSearch('CWiTGbCiDd8BKtNYNE2boT9fJGFG2MU53Uf6HQk0pump')).toMatchObject({ kind: 'text', hint: NOT_AN_ADDRESS_HINT }); // a 0
    expect(parseSearch('pepe')).toEqual({ kind: 'text', terms: ['pepe'] });
  });
});

describe('ftsQuery', () => {
  it('quotes every term, doubling quotes, each a prefix', () => {
    expect(ftsQuery(['pe"pe', 'NEAR'])).toBe('"pe""pe"* "NEAR"*');
  });
});

describe('search over the store', () => {
  let dir: string;
  let store: PublicStore;
  let config: Config;
  const hostile = '"><img src=x onerror=alert(1)> <script>alert(2)</script> NEAR( * "';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lpa-search-'));
    config = loadConfig({ DATA_DIR: dir, SEARCH_PER_MINUTE: '3', SEARCH_CACHE_MS: '5000' });
    store = new PublicStore(config.publicDbPath);
    putDoc(store, launchDoc(HELD, T0, { name: 'Pepe the Frog', symbol: 'PEPE' }, CREATOR));
    putDoc(store, launchDoc(randomAddress(), T0 + 1000, { name: 'Pepper Coin', symbol: 'PEPR' }));
    putDoc(store, launchDoc(randomAddress(), T0 + 2000, { name: 'Frogger', symbol: 'pepe' }));
    putDoc(store, launchDoc(randomAddress(), T0 + 3000, { name: hostile, symbol: '<b>' }));
    putDoc(store, launchDoc(randomAddress(), T0 + 4000, { name: null, symbol: null }));
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const deps = () => ({ publicStore: store, config, now: () => T0 + 10_000 });

  it('finds word prefixes of names and symbols, exact symbol first, newest next', () => {
    const rows = searchByText(store.db, ['pepe'], 50);
    expect(rows.map((r) => r.name)).toEqual(['Frogger', 'Pepe the Frog']); // both symbol PEPE (case-insensitive), newest first
    expect(searchByText(store.db, ['pep'], 50).map((r) => r.symbol)).toEqual(['pepe', 'PEPR', 'PEPE']);
    expect(searchByText(store.db, ['frog'], 50).map((r) => r.name)).toEqual(['Frogger', 'Pepe the Frog']);
    expect(searchByText(store.db, ['pepe', 'frog'], 50).map((r) => r.name)).toEqual(['Frogger', 'Pepe the Frog']); // Frogger: symbol pepe
    expect(searchByText(store.db, ['pepe', 'th'], 50).map((r) => r.name)).toEqual(['Pepe the Frog']);
    expect(searchByText(store.db, ['NEAR'], 50)).toHaveLength(1);
    expect(searchByText(store.db, ['script'], 50)).toHaveLength(1);
    // exact symbols stay first when a prefix match is newer, each record once, cut at the limit
    putDoc(store, launchDoc(randomAddress(), T0 + 6000, { name: 'Pepega', symbol: 'PPG' }));
    expect(searchByText(store.db, ['pepe'], 50).map((r) => r.name)).toEqual(['Frogger', 'Pepe the Frog', 'Pepega']);
    expect(searchByText(store.db, ['pepe'], 2).map((r) => r.name)).toEqual(['Frogger', 'Pepe the Frog']);
    expect(searchByText(store.db, ['pep'], 2).map((r) => r.name)).toEqual(['Pepega', 'Frogger']);
  });

  it('finds a symbol of one emoji exactly, which no word search can', () => {
    putDoc(store, launchDoc(FROG_EMOJI_MINT, T0 + 5000, { name: 'Frog Emoji', symbol: '🐸' }));
    expect(searchByText(store.db, [], 50)).toEqual([]);
    expect(searchByText(store.db, [], 50, '🐸').map((r) => r.mint)).toEqual([FROG_EMOJI_MINT]);
    expect(searchByText(store.db, [], 50, '🚀')).toEqual([]);
    const a = answerSearch('🐸', deps());
    expect(a.status).toBe(200);
    expect(a.body).toContain(FROG_EMOJI_MINT);
    const none = answerSearch('🚀', deps()); // searched, nothing found: a results page, not "nothing to search for"
    expect(none.status).toBe(200);
    expect(none.body).toContain('No record held has the symbol “🚀”.');
  });

  it('keeps the FTS index in step when a record is rewritten', () => {
    const doc = launchDoc(HELD, T0, { name: 'Renamed Thing', symbol: 'RNM' }, CREATOR);
    putDoc(store, doc);
    expect(searchByText(store.db, ['pepe', 'the'], 50)).toHaveLength(0);
    expect(searchByText(store.db, ['renamed'], 50).map((r) => r.mint)).toEqual([HELD]);
    putDoc(store, doc); // same name: the index is not touched, still one row
    expect(searchByText(store.db, ['renamed'], 50)).toHaveLength(1);
    expect(store.db.prepare("SELECT count(*) FROM launch_fts WHERE launch_fts MATCH 'renamed*'").pluck().get()).toBe(1);
  });

  it('answers addresses: held mint → its page, a wallet with a role (creator, bundled or early buyer, buyout) → its wallet page, else unknown (404)', () => {
    expect(answerSearch(HELD, deps())).toMatchObject({ status: 302, location: `/t/${HELD}.html` });
    expect(hasWalletPage(store.db, CREATOR)).toBe(true);
    expect(answerSearch(CREATOR, deps())).toMatchObject({ status: 302, location: `/w/${CREATOR}.html` });
    // a bundled buyer and a buyout wallet have pages too (before, only creators were sent to theirs)
    const bundler = randomAddress();
    const taker = randomAddress();
    store.putWalletRoles(HELD, [
      { wallet: bundler, role: 'bundled', signature: 'sig-bundle', slot: 1, detail: {} },
      { wallet: taker, role: 'buyout', signature: 'sig-buyout', slot: 9, detail: {} },
    ]);
    for (const w of [bundler, taker]) expect(answerSearch(w, deps())).toMatchObject({ status: 302, location: `/w/${w}.html` });
    const other = randomAddress();
    const a = answerSearch(other, deps());
    expect(a.status).toBe(404);
    expect(a.body).toContain('unknown, not clean');
    expect(a.body).toContain(`/api/v1/token/${other}`);
    expect(a.body).not.toMatch(/\bclean\b(?!<)/.source.replace('clean', 'is clean'));
    expect(a.body).not.toContain('seen trading');
    // a wallet the archive holds trades of, in no role a page lists (the API's inArchive: true, empty lists): said so, not "names it as a buyer"
    const trader = randomAddress();
    store.db.prepare('INSERT INTO wallet_seen (wallet) VALUES (?)').run(trader);
    expect(store.walletSeen(trader)).toBe(true);
    const seen = answerSearch(trader, deps());
    expect(seen.status).toBe(404);
    expect(seen.body).toContain('The address is a wallet the archive has seen trading on the curves of launches it holds');
    expect(seen.body).toContain('names this address as its creator, a bundled or first-30-s buyer, or the buyer that completed its curve');
  });

  it('a reader pasting a mint as chats and links carry it reaches its page; the warning about reused names comes before the matches; a shortened mint is told to paste it whole', () => {
    for (const q of [`CA: ${HELD}`, `pump.fun/coin/${HELD}`, `${HELD}.`]) expect(answerSearch(q, deps()), q).toMatchObject({ status: 302, location: `/t/${HELD}.html` });
    const found = answerSearch('pep', deps()).body!;
    expect(found.indexOf('anyone can launch another token with the same one')).toBeGreaterThan(0);
    expect(found.indexOf('anyone can launch another token with the same one')).toBeLessThan(found.indexOf(`/t/${HELD}.html`));
    const shortened = answerSearch('9cbB7eCh', deps());
    expect(shortened.status).toBe(200);
    expect(shortened.body).toContain('A mint is found only whole');
    expect(answerSearch('frogs', deps()).body).not.toContain('A mint is found only whole'); // a word, not the start of an address
    expect(answerSearch('Pepe', deps()).body).not.toContain('A mint is found only whole'); // found: no hint
  });

  it("a launch's bonding curve or pool (a DEX pair link, an explorer's account page) leads to its page; kept as records are written, and filled from the records held by public migration 25", () => {
    const mint = randomAddress();
    const curve = randomAddress();
    const pool = randomAddress();
    const doc = launchDoc(mint, T0 + 7000, { name: 'Pooled', symbol: 'POOL', pool: { address: pool, program: 'pAMM', baseMint: mint, quoteMint: 'So11111111111111111111111111111111111111112', quoteDecimals: 9, baseReserves: '1', quoteReserves: '1', price: 1, lpSupply: '1', asOf: { ms: T0, iso: new Date(T0).toISOString() } } });
    doc.launch = { ...doc.launch!, graduated: true, completed: true };
    const text = JSON.stringify(doc);
    store.putLaunch(doc, curve, text, 'f'.repeat(64), T0);
    for (const q of [pool, curve, `https://dexscreener.com/solana/${pool}`]) expect(answerSearch(q, deps()), q).toMatchObject({ status: 302, location: `/t/${mint}.html` });
    expect(store.launchOfAddress(pool)).toEqual({ mint, kind: 'pool' });
    expect(store.launchOfAddress(curve)).toEqual({ mint, kind: 'bonding_curve' });
    // an archive written before: the migration fills the table from the records held
    store.db.exec("DELETE FROM launch_address; DELETE FROM schema_migrations WHERE version = 25; DROP TABLE launch_address");
    store.close();
    store = new PublicStore(config.publicDbPath);
    expect(store.launchOfAddress(curve)).toEqual({ mint, kind: 'bonding_curve' });
    expect(store.launchOfAddress(pool)).toEqual({ mint, kind: 'pool' });
    expect(answerSearch(randomAddress(), deps()).status).toBe(404);
  });

  it('never fails on hostile input, and escapes what it shows', () => {
    for (const q of ['"', '*', 'NEAR(', '"pepe" OR "x"', 'a:b', '^x', '(', ')', 'AND', 'OR NOT', hostile, '\\', "'; DROP TABLE launch; --", '🐸', 'x'.repeat(200)]) {
      const a = answerSearch(q, deps());
      expect([200, 400]).toContain(a.status);
      expect(a.body).not.toContain('<script>');
      expect(a.body).not.toContain('<img');
    }
    const hit = answerSearch('script', deps());
    expect(hit.body).toContain('&lt;script&gt;');
  });

  it('lists: latest newest first; FINDINGS and graduated within their window', () => {
    putDoc(store, launchDoc(randomAddress(), T0 + 5000, { finding: { class: 'FINDINGS', label: 'Bundled', why: 'Two wallets bought in the creation slot.' } }));
    const w = { fromMs: T0 - 86_400_000, toMs: Number.MAX_SAFE_INTEGER };
    expect(listRows(store.db, 'latest', w, 3).map((r) => r.createdAtMs)).toEqual([T0 + 5000, T0 + 4000, T0 + 3000]);
    expect(listRows(store.db, 'findings', w, 10).map((r) => r.why)).toEqual(['Two wallets bought in the creation slot.']);
    expect(listCount(store.db, 'findings', { fromMs: T0 + 6000, toMs: w.toMs })).toBe(0);
    expect(listCount(store.db, 'graduated', w)).toBe(0);
  });

  it('limits searches per caller address and caches answers briefly', () => {
    const d = { ...deps(), log: undefined } as unknown as Deps;
    const req = (q: string) => new Request(`http://x/search?q=${encodeURIComponent(q)}`);
    expect(handleSearch(req('pep'), d, { clientAddress: '10.0.0.1' }).status).toBe(200);
    expect(handleSearch(req(HELD), d, { clientAddress: '10.0.0.1' }).headers.get('Location')).toBe(`/t/${HELD}.html`);
    const third = handleSearch(req('pep'), d, { clientAddress: '10.0.0.1' });
    expect(third.headers.get('Cache-Control')).toBe('max-age=5');
    const refused = handleSearch(req('pep'), d, { clientAddress: '10.0.0.1' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(handleSearch(req('pep'), d, { clientAddress: '10.0.0.2' }).status).toBe(200);
    // an IPv6 caller counts as its /64: a host taking a new address of its network for each search is still one caller
    for (const a of ['2001:db8:7:7::1', '2001:db8:7:7:a:b:c:d', '2001:db8:7:7:ffff:ffff:ffff:fffe']) expect(handleSearch(req('pep'), d, { clientAddress: a }).status).toBe(200);
    expect(handleSearch(req('pep'), d, { clientAddress: '2001:db8:7:7:1234::9' }).status).toBe(429);
    expect(handleSearch(req('pep'), d, { clientAddress: '2001:db8:7:8::1' }).status).toBe(200); // the next /64: another caller
  });

  it('answers a cached search with the bytes of its first answer, encoded once', async () => {
    const d = { ...deps(), log: undefined } as unknown as Deps;
    const req = () => new Request(`http://x/search?q=${encodeURIComponent('pep ドージ')}`);
    const first = handleSearch(req(), d, { clientAddress: '10.0.0.3' }) as BytesResponse;
    const again = handleSearch(req(), d, { clientAddress: '10.0.0.4' }) as BytesResponse;
    expect(first).toBeInstanceOf(BytesResponse);
    expect(again.untouchedBytes).toBe(first.untouchedBytes); // the same Buffer: not encoded again
    const text = await again.text();
    expect(text).toBe(answerSearch('pep ドージ', d).body);
    expect(Buffer.byteLength(text, 'utf8')).toBe(first.untouchedBytes!.length);
  });
});

describe('SearchLimiter and AnswerCache', () => {
  it('opens a new window after a minute', () => {
    const l = new SearchLimiter(2);
    expect([l.take('a', 0), l.take('a', 1), l.take('a', 2)]).toEqual([null, null, 60]);
    expect(l.take('a', 60_000)).toBeNull();
    expect(new SearchLimiter(0).take('a', 0)).toBeNull();
  });
  it('expires entries and drops the least recently used', () => {
    const c = new AnswerCache(1000, 2);
    c.set('a', { status: 200, body: 'A' }, 0);
    c.set('b', { status: 200, body: 'B' }, 0);
    c.get('a', 1);
    c.set('c', { status: 200, body: 'C' }, 2);
    expect(c.get('b', 3)).toBeUndefined();
    expect(c.get('a', 3)?.body).toBe('A');
    expect(c.get('a', 1000)).toBeUndefined();
  });
});

describe('public migration 16: prefix indexes of 1-8 characters', () => {
  it('rebuilds the index over the records already held: each prefix length finds them, newest first, and new writes stay in step', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lpa-search-m16-'));
    try {
      const path = join(dir, 'public.db');
      const old = openDatabase(path, PUBLIC_MIGRATIONS.filter((m) => m.version <= 14));
      const insert = old.prepare(`INSERT INTO launch (mint, creation_slot, origin, observed_at_launch, finding_class, settled, method_version, document, sha256, updated_at_ms, name, symbol)
        VALUES (?, ?, 'observed', 1, 'NOTE', 0, 'markers-v2', '{}', ?, 0, ?, ?)`);
      insert.run('M1', 1, 'a', 'Officialcoin Frog', 'OFCF');
      insert.run('M2', 2, 'b', 'Official Pepe', 'OPEPE');
      insert.run('M3', 3, 'c', 'Offside', 'OFF');
      old.close();
      const store = new PublicStore(path); // applies 16
      try {
        expect(store.db.prepare("SELECT sql FROM sqlite_master WHERE name = 'launch_fts'").pluck().get()).toContain("prefix = '1 2 3 4 5 6 7 8'");
        const mints = (terms: string[]) => searchByText(store.db, terms, 50).map((r) => r.mint);
        expect(mints(['o'])).toEqual(['M3', 'M2', 'M1']);
        expect(mints(['offi'])).toEqual(['M2', 'M1']);
        expect(mints(['officia'])).toEqual(['M2', 'M1']);
        expect(mints(['officialc'])).toEqual(['M1']); // longer than every prefix index: still answered
        expect(mints(['official', 'pe'])).toEqual(['M2']);
        store.db.prepare("UPDATE launch SET name = 'Renamed' WHERE mint = 'M2'").run();
        expect(mints(['offi'])).toEqual(['M1']);
        store.db.exec("INSERT INTO launch_fts (launch_fts, rank) VALUES ('integrity-check', 1)");
      } finally {
        store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
