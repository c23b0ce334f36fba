/**
 * A token page never turns a partial history's "not seen" into "no": a record whose held history is
 * incomplete says `completed: false` / `graduated: false` of the transactions it holds, and a missing
 * trade may have completed the curve. The page says "unknown" unless the history is complete or a
 * read of the curve (or pool) account established it (found by a walkthrough of the demo: an UNKNOWN
 * record showed "Graduated: no" and "Pool now: no pool").
 */
import { describe, expect, it } from 'vitest';
import { instant } from '../../src/core/canonical.ts';
import type { LaunchDocument } from '../../src/core/types.ts';
import { renderTokenPage } from '../../src/render/token-page.ts';
import { launchDoc, randomAddress } from '../helpers/launch-doc.ts';

const CREATED = Date.UTC(2026, 9, 20);

function page(history: 'complete' | 'partial', over: Partial<NonNullable<LaunchDocument['launch']>> = {}): string {
  const base = launchDoc(randomAddress(), CREATED);
  const partial = history === 'partial';
  const doc: LaunchDocument = {
    ...base,
    finding: partial ? { class: 'UNKNOWN', label: 'Not established', why: 'The archive does not hold this launch’s complete history.' } : base.finding,
    cleanAtBirth: partial ? null : base.cleanAtBirth,
    launch: { ...base.launch!, ...over },
    history: { ...base.history, complete: !partial },
  };
  return renderTokenPage(doc, { explorerTxUrl: 'https://explorer.example/tx/', baseUrl: 'https://archive.example', sha256: 'a'.repeat(64) });
}

/** The text of the page's table cell labelled `label`. */
const cell = (html: string, label: string) => html.match(new RegExp(`<td data-label="${label}"[^>]*>([\\s\\S]*?)</td>`))?.[1];
/** The text of the verdict's chip named `key`. */
const chip = (html: string, key: string) => html.match(new RegExp(`<span class="k">${key}</span> ([^<]*)`))?.[1]?.trim();

describe('absence on a partial history is unknown, not "no"', () => {
  it('partial history, no account read: curve completed, graduated and pool are unknown', () => {
    const html = page('partial');
    expect(cell(html, 'Curve completed')).toBe('unknown — the held history is incomplete');
    expect(cell(html, 'Graduated')).toBe('unknown — the held history is incomplete');
    expect(cell(html, 'Pool now')).toBe('unknown — the held history is incomplete');
    expect(chip(html, 'Graduated')).toBe('unknown — history incomplete');
    expect(html).toMatch(/<span class="k">Creator kept at creation<\/span> <span[^>]*>[^<]*<\/span> \(held history\)/);
  });

  it('partial history, but the curve account read says not complete: "no", with the read', () => {
    const html = page('partial', { graduationCheck: { checkedAt: instant(CREATED + 3_600_000), curveComplete: false, poolFound: false, pool: null } });
    expect(cell(html, 'Curve completed')).toBe('no — the curve account read 2026-10-20 01:00:00 UTC');
    expect(cell(html, 'Graduated')).toBe('no: the curve has not completed');
    expect(chip(html, 'Graduated')).toBe('no');
  });

  it('partial history, completed, migration not held and no pool read: migration unknown', () => {
    const html = page('partial', { completed: true, completedAt: instant(CREATED + 600_000) });
    expect(cell(html, 'Graduated')).toBe('unknown — the curve completed, and the held history is incomplete');
    expect(chip(html, 'Graduated')).toBe('completed; migration unknown');
  });

  it('complete history: "no" as before', () => {
    const html = page('complete');
    expect(cell(html, 'Curve completed')).toBe('no');
    expect(cell(html, 'Graduated')).toBe('no: the curve has not completed');
    expect(cell(html, 'Pool now')).toBe('no pool: the curve has not graduated');
    expect(chip(html, 'Graduated')).toBe('no');
  });
});

describe('a record held without its creation transaction', () => {
  it('names the token by its mint and says its name, symbol and URI are unknown (they come from the creation event), not absent', () => {
    const mint = randomAddress();
    const base = launchDoc(mint, CREATED);
    const doc: LaunchDocument = {
      ...base,
      name: null,
      symbol: null,
      uri: null,
      origin: 'scanned',
      observedAtLaunch: false,
      finding: { class: 'UNKNOWN', label: 'Not established', why: 'The archive holds transactions of this token but not its creation transaction.' },
      cleanAtBirth: null,
      launch: null,
      history: { ...base.history, complete: false },
    };
    const html = renderTokenPage(doc, { explorerTxUrl: 'https://explorer.example/tx/', baseUrl: 'https://archive.example', sha256: 'a'.repeat(64) });
    expect(html).toContain(`<title>Token ${mint.slice(0, 4)}…${mint.slice(-4)}`);
    expect(html).not.toContain('Unnamed token');
    expect(html).not.toContain('in the metadata');
    for (const label of ['Symbol', 'Name', 'Metadata URI']) expect(cell(html, label)).toBe('unknown — the creation transaction is not held');
  });
});
