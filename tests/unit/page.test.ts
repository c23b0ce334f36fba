import { describe, expect, it } from 'vitest';
import { instant } from '../../src/core/canonical.ts';
import type { LaunchDocument } from '../../src/core/types.ts';
import { birthWords, httpUrl, renderBadAddressPage, renderNotFoundPage, renderTokenPage } from '../../src/render/token-page.ts';

/** The token page template: facts, evidence links, escaping, and the wording of unknown. */

const MINT = '7GCihgDB8fe6KNjn2MYtkzZcRjQy3t9GHdC8uHYmW2hr';
const CREATOR = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
const SIG = '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW';
const EVIDENCE = ['3nbSig1111111111111111111111111111111111111111111111111111111111111111111111111111111', '4xbSig2222222222222222222222222222222222222222222222222222222222222222222222222222222'];
const OPTS = { explorerTxUrl: 'https://solscan.io/tx/', baseUrl: 'https://archive.example', sha256: 'ab'.repeat(32) };

function makeDoc(over: Partial<LaunchDocument> = {}): LaunchDocument {
  const t = instant(Date.parse('2026-10-01T10:00:00.000Z'));
  return {
    apiVersion: 'v1',
    methodVersion: 'markers-v1',
    mint: MINT,
    symbol: 'EVIL',
    name: '<script>alert(1)</script>',
    uri: 'javascript:alert(2)',
    venue: 'pump.fun',
    origin: 'observed',
    observedAtLaunch: true,
    settled: true,
    asOf: t,
    finding: { class: 'FINDINGS', label: 'Creator kept most of the supply', why: 'The creator kept 62.5% of the supply at the end of the creation slot.' },
    cleanAtBirth: false,
    launch: {
      createdAt: t,
      creator: CREATOR,
      creatorSupplyPct: 62.5,
      creatorTokensRaw: '625000000000000',
      totalSupplyRaw: '1000000000000000',
      creatorSold: true,
      curveBuyers: 0,
      buyersFirst30s: 0,
      bundledBuyers: 4,
      bundle: [],
      quoteMint: 'So11111111111111111111111111111111111111112',
      tokenProgram: null,
      mayhemMode: null,
      completed: true,
      completedAt: t,
      graduated: true,
      graduationObserved: true,
      graduationCheck: null,
      graduationConfirmedBy: 'pool',
      graduatedAt: instant(t.ms + 120_000),
      secondsToGraduate: 120,
      graduation: null,
      transaction: { signature: SIG, slot: 370000000 },
    },
    curveBuyout: null,
    pool: null,
    funder: { sharedCohort: null },
    flags: [{ code: 'no_outside_buyers', class: 'FINDINGS', summary: 'No outside wallet bought on the curve', evidence: EVIDENCE }],
    history: { complete: true, transactions: 12, failedTransactions: 1, firstSlot: 370000000, lastSlot: 370000500 },
    ...over,
  };
}

describe('renderTokenPage', () => {
  const page = renderTokenPage(makeDoc(), OPTS);

  it('is a full HTML document', () => {
    expect(page.startsWith('<!doctype html>')).toBe(true);
    expect(page).toContain('<meta charset="utf-8">');
    expect(page).toMatch(/<title>[^<]*launch record[^<]*<\/title>/);
    expect(page).toContain('</html>');
  });

  it('a Mayhem-mode coin says what its shares are of: the curve’s supply, beside the Mayhem agent’s tokens (a facts review)', () => {
    const d = makeDoc();
    const mayhem = renderTokenPage({ ...d, launch: { ...d.launch!, mayhemMode: true } }, OPTS);
    expect(mayhem).toMatch(/Mayhem mode<\/th><td[^>]*>yes — the mint also holds the Mayhem agent’s tokens, beside the curve’s supply; the shares on this page are of the curve’s supply/);
    expect(renderTokenPage({ ...d, launch: { ...d.launch!, mayhemMode: false } }, OPTS)).toMatch(/Mayhem mode<\/th><td[^>]*>no</);
  });

  it('shows a hostile name as text and never links a javascript: URI', () => {
    expect(page).not.toContain('<script>');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).not.toMatch(/href="javascript:/i);
    expect(page).toContain('not linked');
    const linked = renderTokenPage(makeDoc({ uri: 'https://ipfs.io/ipfs/Qm"onmouseover="x' }), OPTS);
    expect(linked).toContain('href="https://ipfs.io/ipfs/Qm%22onmouseover=%22x"');
    expect(linked).not.toContain('"onmouseover="');
    expect(httpUrl('JAVASCRIPT:alert(1)')).toBeNull();
    expect(httpUrl(' data:text/html,x')).toBeNull();
    expect(httpUrl('http://a.example/x')).toBe('http://a.example/x');
  });

  it('lists the facts, the finding in words, and links the creation signature and the evidence', () => {
    for (const s of [CREATOR, 'FINDINGS', 'Creator kept most of the supply', '62.5%', 'markers present', '370000000', 'markers-v1', 'observed: watched live from its creation transaction', 'canonical pool account read', '2 min after creation', 'complete: 12 transactions (1 failed)', 'Bundled buyers']) {
      expect(page).toContain(s);
    }
    expect(page).toContain(`href="https://solscan.io/tx/${SIG}"`);
    for (const e of EVIDENCE) expect(page).toContain(`href="https://solscan.io/tx/${e}"`);
    expect(page).toContain(`href="/d/${MINT}"`);
    expect(page).toContain(OPTS.sha256);
  });

  it('puts the flags with their transactions right under the verdict, a long evidence list folded after its first six (a phone reader met them 12 screens down)', () => {
    const order = ['id="finding"', 'id="flags"', 'id="charts"', 'id="wallets"', 'id="facts"'].map((m) => page.indexOf(m));
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    const sigs = (n: number) => Array.from({ length: n }, (_, i) => `${String(i).padStart(2, '0')}${'5'.repeat(86)}`);
    const flagged = (n: number) => renderTokenPage(makeDoc({ flags: [{ code: 'creator_sold', class: 'NOTE', summary: 'The creator sold', evidence: sigs(n) }] }), OPTS);
    const many = flagged(20);
    // every transaction is linked in the page; the seventh and later inside the fold
    for (const sig of sigs(20)) expect(many).toContain(`href="https://solscan.io/tx/${sig}"`);
    const fold = many.slice(many.indexOf('<details class="evidence-more">'), many.indexOf('</details>', many.indexOf('<details class="evidence-more">')));
    expect(fold).toContain('<summary>show the other 14 transactions</summary>');
    expect(sigs(20).filter((sig) => fold.includes(sig))).toEqual(sigs(20).slice(6));
    expect(many).toContain('Evidence (20 transactions)');
    // seven are shown whole: a fold of one would save nothing
    expect(flagged(7)).not.toContain('evidence-more');
  });

  it('shows cleanAtBirth null as "unknown — not observed" and an UNKNOWN page never says clean, safe or no issues', () => {
    const unknown = renderTokenPage(
      makeDoc({
        name: 'Plain',
        uri: null,
        cleanAtBirth: null,
        origin: 'scanned',
        observedAtLaunch: false,
        settled: false,
        launch: null,
        flags: [],
        finding: { class: 'UNKNOWN', label: 'Not observed', why: 'The creation was not observed and the history was not rebuilt.' },
      }),
      OPTS,
    );
    expect(unknown).toContain('unknown — not observed');
    expect(unknown).toContain('not watched at its creation');
    expect(unknown.toLowerCase()).not.toMatch(/clean|safe|no issues/);
    const unknownFalse = renderTokenPage(makeDoc({ name: 'P', cleanAtBirth: false, flags: [], finding: { class: 'UNKNOWN', label: 'Pool unread', why: 'The pool could not be read.' } }), OPTS);
    expect(unknownFalse).toContain('not established');
    expect(unknownFalse).not.toContain('markers present');
    expect(unknownFalse.toLowerCase()).not.toMatch(/clean|safe|no issues/);
  });

  it('words the three states of cleanAtBirth (spec §2.3)', () => {
    expect(birthWords(null, 'UNKNOWN')).toBe('unknown — not observed');
    expect(birthWords(null, 'NO_MARKERS')).toBe('unknown — not observed');
    // with the record: why it is unknown (a launch watched at its creation was observed)
    const watched = makeDoc({ origin: 'observed', observedAtLaunch: true });
    expect(birthWords(null, 'UNKNOWN', { ...watched, history: { ...watched.history, complete: false } })).toBe('unknown — the held history is incomplete');
    expect(birthWords(null, 'UNKNOWN', { ...watched, history: { ...watched.history, complete: true } })).toBe('unknown — not established');
    expect(birthWords(null, 'UNKNOWN', { ...watched, origin: 'scanned', observedAtLaunch: false, launch: null })).toBe('unknown — not observed');
    expect(birthWords(true, 'NO_MARKERS')).toBe('no recorded marker at birth');
    expect(birthWords(false, 'FINDINGS')).toBe('markers present');
    expect(birthWords(false, 'UNKNOWN')).toBe('not established');
  });

  it('renders the same bytes for the same record', () => {
    expect(renderTokenPage(makeDoc(), OPTS)).toBe(page);
  });
});

describe('renderNotFoundPage', () => {
  it('escapes the value and does not call absence clean', () => {
    const p = renderNotFoundPage('<img src=x onerror=alert(1)>');
    expect(p).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(p).not.toContain('<img');
    // "unknown, not clean" and "not a clean record" are the only ways the word may appear
    expect(p).toContain('unknown, not clean');
    expect(p.toLowerCase().replaceAll('not clean', '').replaceAll('not a clean record', '')).not.toMatch(/clean|safe|no issues/);
  });
});

describe('the bad-address page', () => {
  it('names what was expected: a mint on /t/, a wallet address on /w/', () => {
    expect(renderBadAddressPage('abc')).toContain('a mint is base58');
    const wallet = renderBadAddressPage('<b>x</b>', 'wallet');
    expect(wallet).toContain('a wallet address is base58');
    expect(wallet).not.toContain('a mint is');
    expect(wallet).not.toContain('&lt;b&gt;');
    expect(wallet).toContain('The path value (8 characters, not shown: it holds characters no address has)');
    // a mistyped address is shown; a sentence or a right-to-left override in a link is not (a security review)
    expect(renderBadAddressPage('GJLnyPBGcVmi6C9aSqQEgxWYhcXMJLmgGWHbsKhgpum')).toContain('<code>GJLnyPBGcVmi6C9aSqQEgxWYhcXMJLmgGWHbsKhgpum</code>');
    for (const spoof of ['This token is VERIFIED SAFE by the archive team', '\u202eabc', 'x'.repeat(8000)]) expect(renderBadAddressPage(spoof)).not.toContain(spoof);
  });
});
