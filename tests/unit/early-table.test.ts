/**
 * The first-30-s buyers of a token page and its first-30-seconds page (render/token-page.ts
 * EARLY_TABLE_ROWS, TIMELINE_TABLE_ROWS; render/early-page.ts): up to EARLY_TABLE_ROWS buyers every
 * one is in the token page's table; past it the table holds the largest buys, in the order they
 * bought, and every buyer, in that order, with its transactions, is on the first-30-seconds page it
 * links, which also holds the buyer timeline's table once that has more than TIMELINE_TABLE_ROWS
 * trades. So a launch that drew hundreds of buyers keeps a token page of one size (issue 23: ≤ 60 KB,
 * ≤ 15 KB gzip) and loses none of its evidence. Over launches recorded as the collector records
 * them (tests/helpers/hyped-launch.ts), checked against the store's wallet roles and transactions;
 * and the collector's writer (publish.ts writeTokenFiles) writing and removing the page.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PublicStore } from '../../src/db/public-store.ts';
import type { LaunchDocument } from '../../src/core/types.ts';
import { EARLY_TABLE_ROWS, TIMELINE_TABLE_ROWS, renderTokenPage } from '../../src/render/token-page.ts';
import { renderEarlyPage } from '../../src/render/early-page.ts';
import { loadConfig } from '../../src/config.ts';
import { writeTokenFiles } from '../../src/ingest/publish.ts';
import { SiteWriteBatch, sitePaths } from '../../src/ingest/write-site.ts';
import { commitHypedLaunch } from '../helpers/hyped-launch.ts';

let dir: string;
let store: PublicStore;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lpa-early-table-'));
  store = new PublicStore(join(dir, 'public.db'));
});
afterAll(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const opts = { explorerTxUrl: 'https://explorer.example/tx/', baseUrl: 'https://archive.example' };
const section = (html: string, re: RegExp) => html.match(re)?.[0] ?? '';
const walletsOf = (table: string) => [...table.matchAll(/<tr data-wallet="([^"]+)"/g)].map((m) => m[1]!);

/** The pages of a launch with `bundled` bundled and `early` first-30-s buyers, its early buyers (wallet_role) and its transactions. */
function pagesOf(early: number, slot: number, bundled = 2) {
  const { mint, txs } = commitHypedLaunch(store, { slot, bundled, early });
  const row = store.getLaunch(mint)!;
  const doc = JSON.parse(row.document) as LaunchDocument;
  const o = { ...opts, sha256: row.sha256, transactions: txs };
  const html = renderTokenPage(doc, o);
  const earlyPage = renderEarlyPage(doc, o);
  const roles = (store.db.prepare("SELECT wallet, slot, detail FROM wallet_role WHERE mint = ? AND role = 'early'").all(mint) as { wallet: string; slot: number; detail: string }[])
    .map((r) => ({ wallet: r.wallet, slot: r.slot, tokens: BigInt((JSON.parse(r.detail) as { tokens: string }).tokens) }));
  const tableWallets = walletsOf(section(html, /<table[^>]*id="early-table"[\s\S]*?<\/table>/));
  return { mint, txs, row, html, earlyPage, roles, tableWallets };
}

describe('first-30-s buyers on a token page', () => {
  it(`up to ${EARLY_TABLE_ROWS} buyers and ${TIMELINE_TABLE_ROWS} trades: every one on the token page, no first-30-seconds page`, () => {
    // the creator's buy, 2 bundled and 17 first-30-s buys: 20 trades
    const p = pagesOf(TIMELINE_TABLE_ROWS - 3, 1000);
    expect(p.roles).toHaveLength(TIMELINE_TABLE_ROWS - 3);
    expect(new Set(p.tableWallets)).toEqual(new Set(p.roles.map((r) => r.wallet)));
    expect(p.earlyPage).toBeNull();
    expect(p.html).not.toContain('.early.html');
    expect(p.html).toContain(`Buyer timeline as a table (${TIMELINE_TABLE_ROWS} trades)`);
    for (const t of p.txs) expect(p.html).toContain(`https://explorer.example/tx/${t.signature}`);
  });

  it(`${EARLY_TABLE_ROWS} buyers but more than ${TIMELINE_TABLE_ROWS} trades: every buyer on the token page, the timeline's table on the first-30-seconds page`, () => {
    const p = pagesOf(EARLY_TABLE_ROWS, 2000);
    expect(new Set(p.tableWallets)).toEqual(new Set(p.roles.map((r) => r.wallet)));
    expect(p.html).not.toContain('id="early-all"');
    expect(p.html).not.toContain('Buyer timeline as a table (');
    expect(p.html).toContain(`The buyer timeline as a table, ${EARLY_TABLE_ROWS + 3} trades each with its transaction, is on <a href="/t/${p.mint}.early.html">`);
    expect(p.earlyPage).not.toBeNull();
    expect(p.earlyPage).not.toContain('The token page lists the');
    for (const t of p.txs) expect(p.earlyPage).toContain(`https://explorer.example/tx/${t.signature}`);
  });

  it('past it: the largest buys in the token page’s table in the order they bought, every buyer and trade on the linked page', () => {
    const p = pagesOf(EARLY_TABLE_ROWS * 3 + 1, 5000);
    const largest = [...p.roles].sort((a, b) => (a.tokens === b.tokens ? 0 : a.tokens > b.tokens ? -1 : 1)).slice(0, EARLY_TABLE_ROWS);
    expect(new Set(p.tableWallets)).toEqual(new Set(largest.map((r) => r.wallet)));
    // in first-buy order: slots never go back
    const slotOf = new Map(p.roles.map((r) => [r.wallet, r.slot]));
    const slots = p.tableWallets.map((w) => slotOf.get(w)!);
    expect(slots).toEqual([...slots].sort((a, b) => a - b));
    expect(p.html).toContain(`The ${EARLY_TABLE_ROWS} largest of the ${p.roles.length} first-30-s buyers are in the table`);
    expect(p.html).toContain(`<p id="early-all"><a href="/t/${p.mint}.early.html">All ${p.roles.length} first-30-s buyers, in the order they bought</a>`);
    // the first-30-seconds page: every buyer once, in the order they first bought, and every transaction of the window linked
    const page = p.earlyPage!;
    const all = walletsOf(section(page, /<table[^>]*id="early-buyers"[\s\S]*?<\/table>/));
    expect(all).toEqual([...p.roles].sort((a, b) => a.slot - b.slot).map((r) => r.wallet));
    for (const t of p.txs) expect(page).toContain(`https://explorer.example/tx/${t.signature}`);
    expect(page).toContain(`<code id="sha256">${p.row.sha256}</code>`);
    expect(page).toContain(`The token page lists the ${EARLY_TABLE_ROWS} largest of them.`);
    expect(page).toContain(`<link rel="canonical" href="https://archive.example/t/${p.mint}.early.html">`);
  });

  it('a launch 300 buyers drew keeps a token page within 60 KB and 15 KB gzip (issue 23); its first-30-seconds page holds all 300', () => {
    const p = pagesOf(300, 9000, 4);
    expect(Buffer.byteLength(p.html)).toBeLessThanOrEqual(60 * 1024);
    expect(gzipSync(p.html).length).toBeLessThanOrEqual(15 * 1024);
    expect(walletsOf(section(p.earlyPage!, /<table[^>]*id="early-buyers"[\s\S]*?<\/table>/))).toHaveLength(300);
    // its timeline draws the first 100 buys and marks where it stops (it read as buying that stopped at 9 s); a launch of fewer draws no such mark
    expect(p.html).toMatch(/<line class="mk-cut"[^>]*><\/line><text class="mk-cut"[^>]*>first 100 buys<\/text>/);
    expect(pagesOf(EARLY_TABLE_ROWS, 12_000).html).not.toContain('mk-cut');
  });
});

describe('hostile metadata on the first-30-seconds page', () => {
  it('is escaped in its title and heading, never markup', () => {
    const { mint, txs } = commitHypedLaunch(store, { slot: 40_000, bundled: 2, early: EARLY_TABLE_ROWS + 1 });
    const row = store.getLaunch(mint)!;
    const doc = { ...(JSON.parse(row.document) as LaunchDocument), name: '<script>alert(1)</script>\u202e', symbol: '"><img src=x onerror=alert(2)>' };
    const page = renderEarlyPage(doc, { ...opts, sha256: row.sha256, transactions: txs })!;
    expect(page).not.toMatch(/<script>alert|<img src=x/);
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).not.toContain('\u202e');
  });
});

describe('the collector writes the first-30-seconds page exactly when the launch has one (publish.ts writeTokenFiles)', () => {
  it('writes it beside the token page, and removes one a launch no longer has', () => {
    const config = loadConfig({ DATA_DIR: join(dir, 'data') });
    const hyped = commitHypedLaunch(store, { slot: 20_000, bundled: 2, early: EARLY_TABLE_ROWS + 5 }).mint;
    const quiet = commitHypedLaunch(store, { slot: 30_000, bundled: 2, early: 3 }).mint;
    const stale = sitePaths(config.siteDir, quiet).early;
    mkdirSync(join(config.siteDir, 't'), { recursive: true });
    writeFileSync(stale, 'an early page written for an older record');
    const batch = new SiteWriteBatch();
    writeTokenFiles(store, config, batch, hyped);
    writeTokenFiles(store, config, batch, quiet);
    batch.commit();
    const early = readFileSync(sitePaths(config.siteDir, hyped).early, 'utf8');
    expect(early).toContain(`<code id="sha256">${store.getLaunch(hyped)!.sha256}</code>`);
    expect(readFileSync(sitePaths(config.siteDir, hyped).page, 'utf8')).toContain(`href="/t/${hyped}.early.html"`);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(sitePaths(config.siteDir, quiet).page)).toBe(true);
  });
});
