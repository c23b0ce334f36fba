/**
 * The token page's first-30-s buyers (render/token-page.ts EARLY_TABLE_ROWS): up to that many, every
 * buyer in the table; past it the table holds the largest buys, in the order they bought, and the
 * others follow in the folded list, each wallet once on the page. Over launches recorded as the collector records them
 * (tests/helpers/hyped-launch.ts), checked against the store's wallet roles.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PublicStore } from '../../src/db/public-store.ts';
import type { LaunchDocument } from '../../src/core/types.ts';
import { EARLY_TABLE_ROWS, renderTokenPage } from '../../src/render/token-page.ts';
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

/** The page of a launch with `early` first-30-s buyers, and its early buyers (wallet_role) in the order they first bought. */
function pageOf(early: number, slot: number) {
  const { mint, txs } = commitHypedLaunch(store, { slot, bundled: 2, early });
  const row = store.getLaunch(mint)!;
  const html = renderTokenPage(JSON.parse(row.document) as LaunchDocument, { explorerTxUrl: 'https://explorer.example/tx/', baseUrl: 'https://archive.example', sha256: row.sha256, transactions: txs });
  const roles = (store.db.prepare("SELECT wallet, slot, detail FROM wallet_role WHERE mint = ? AND role = 'early'").all(mint) as { wallet: string; slot: number; detail: string }[])
    .map((r) => ({ wallet: r.wallet, slot: r.slot, tokens: BigInt((JSON.parse(r.detail) as { tokens: string }).tokens) }));
  const tableWallets = [...(html.match(/<table[^>]*id="early-table"[\s\S]*?<\/table>/)?.[0] ?? '').matchAll(/<tr data-wallet="([^"]+)"/g)].map((m) => m[1]!);
  const listed = [...(html.match(/<details id="early-all">[\s\S]*?<\/details>/)?.[0] ?? '').matchAll(/<li><a href="\/w\/([^".]+)\.html"/g)].map((m) => m[1]!);
  return { html, roles, tableWallets, listed };
}

describe('first-30-s buyers on a token page', () => {
  it(`up to ${EARLY_TABLE_ROWS}: every one in the table, no folded list`, () => {
    const p = pageOf(EARLY_TABLE_ROWS, 1000);
    expect(p.roles).toHaveLength(EARLY_TABLE_ROWS);
    expect(new Set(p.tableWallets)).toEqual(new Set(p.roles.map((r) => r.wallet)));
    expect(p.html).not.toContain('id="early-all"');
  });

  it('past it: the largest buys in the table in the order they bought, the others in the folded list, the shares said', () => {
    const p = pageOf(EARLY_TABLE_ROWS * 3 + 1, 5000);
    const largest = [...p.roles].sort((a, b) => (a.tokens === b.tokens ? 0 : a.tokens > b.tokens ? -1 : 1)).slice(0, EARLY_TABLE_ROWS);
    expect(new Set(p.tableWallets)).toEqual(new Set(largest.map((r) => r.wallet)));
    // in first-buy order: slots never go back
    const slotOf = new Map(p.roles.map((r) => [r.wallet, r.slot]));
    const slots = p.tableWallets.map((w) => slotOf.get(w)!);
    expect(slots).toEqual([...slots].sort((a, b) => a - b));
    // the others, each once, in the order they bought: with the table, every buyer once
    const others = p.roles.filter((r) => !p.tableWallets.includes(r.wallet));
    expect(p.listed).toEqual([...others].sort((a, b) => a.slot - b.slot).map((r) => r.wallet));
    expect(new Set([...p.listed, ...p.tableWallets])).toEqual(new Set(p.roles.map((r) => r.wallet)));
    expect(p.listed.length + p.tableWallets.length).toBe(p.roles.length);
    expect(p.html).toContain(`The ${EARLY_TABLE_ROWS} largest of the ${p.roles.length} first-30-s buyers are in the table`);
  });
});
