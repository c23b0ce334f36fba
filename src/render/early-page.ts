import { raw } from 'hono/html';
import { html } from './html-tag.ts';
import { displayText } from './display-text.ts';
import { renderPage } from './shell.ts';
import { chartSeriesCached, type ChartSeries } from './chart-data.ts';
import { timelineTable } from './charts.ts';
import { earlyPath, explorerOf, tokenPath } from './links.ts';
import { esc } from './escape.ts';
import { count, pctOf, shortAddress } from './units.ts';
import type { LaunchDocument } from '../core/types.ts';
import { EARLY_TABLE_ROWS, earlyBuyersTable, hasEarlyPage, verdict, type TokenPageOptions } from './token-page.ts';

/**
 * The first-30-seconds page of a launch, `t/{mint}.early.html`: the evidence behind the token
 * page's first-30-s counts when they are too many for it (token-page.ts {@link hasEarlyPage}) —
 * every first-30-s buyer in the order they bought, each with its transactions, and the buyer
 * timeline's trades as a table. The token page keeps the largest buyers and the chart, and links
 * here; a launch with few has no such page (its token page holds them all).
 *
 * Same inputs as the token page (the record, its document's sha256, the launch's transactions) and
 * the same rules: pure, every value escaped, chain metadata through `displayText`. The page names
 * the document's sha256, as the token page does, so the server can tell a file written for an older
 * record (src/server/site.ts). Stable ids: `#early-buyers`, `#timeline-table`, `#sha256`.
 */

type Html = ReturnType<typeof raw>;

/**
 * The page's HTML, or null when the launch has no first-30-seconds page ({@link hasEarlyPage} of
 * its series is false: the token page holds every first-30-s buyer and trade).
 * @example const page = renderEarlyPage(doc, tokenPageOptions(config, sha256, txs)); if (page) write('t/' + mint + '.early.html', page)
 */
export function renderEarlyPage(doc: LaunchDocument, opts: TokenPageOptions): string | null {
  const s: ChartSeries | null = opts.series ?? (opts.transactions ? chartSeriesCached(doc, opts.sha256, opts.transactions) : null);
  const l = doc.launch;
  if (!s || !l || !hasEarlyPage(s)) return null;
  const ex = explorerOf(opts.explorerTxUrl);
  const name = doc.name ? displayText(doc.name, 120) : 'Unnamed token';
  const title = `${name}${doc.symbol ? ` (${displayText(doc.symbol, 40)})` : ''}`;
  const buyers = s.earlyBuyers;
  const sum = buyers.reduce((n, b) => n + BigInt(b.tokens), 0n).toString();
  const tl = s.timeline;
  const bundled = l.bundledBuyers;
  const besides = bundled > 0 ? ` besides the ${bundled} bundled` : '';
  const record = tokenPath(doc.mint);
  const jumps = `<a href="#buyers">↑ Top of the list</a> · <a href="${esc(record)}">The launch record</a>`;
  const cut = tl?.cutAt100 ?? false;
  const body = html`<header class="token">
<h1 id="token-name">First 30 seconds of ${title}</h1>
<p class="sub">Mint <code id="mint">${doc.mint}</code> on ${doc.venue}: ${count(buyers.length, 'outside wallet')} bought in its first 30 s${besides}.</p>
<p class="links"><a id="token-page" href="${record}">The launch record</a><a href="#buyers">The buyers</a><a href="#timeline">The timeline as a table</a></p>
</header>
${verdict(doc, s)}
<h2 id="buyers">First-30-s buyers <span class="muted">(${buyers.length}${besides})</span></h2>
<p class="muted small">Outside wallets, other than the creator and the ${bundled > 0 ? `${bundled} bundled buyers (on the launch record)` : 'bundled buyers'}, that bought in the first 30 s after creation, in the order they first bought: together ${pctOf(sum, l.totalSupplyRaw)} of the supply in the window.${buyers.length > EARLY_TABLE_ROWS ? ` The token page lists the ${EARLY_TABLE_ROWS} largest of them.` : ''}${
    s.timesEstimated ? ' Times marked ≈ are estimated from the slot distance (about 0.4 s a slot): the chain gave no block time for some of them.' : ''
  }</p>
${buyers.length ? raw(earlyBuyersTable(l, buyers, ex, 'early-buyers', { jumps })) : html`<p>No outside wallet other than the bundled buyers bought in the first 30 s.</p>`}
<h2 id="timeline">Buyer timeline as a table${tl ? html` <span class="muted">(${count(tl.points.length, 'trade')})</span>` : ''}</h2>
<p class="muted small">Every trade of the creation slot and the first 30 s${cut ? ' up to the first 100 buys (there were more)' : ''}, as the token page’s chart draws them.</p>
<div id="timeline-table">${raw(timelineTable(s, ex.tx, 'flow data'))}</div>
<p class="go"><a href="${record}">Back to the launch record of ${shortAddress(doc.mint)}</a></p>
<p class="asof muted small">The launch’s transactions as held for the record of sha256 <code id="sha256">${opts.sha256}</code>; ${doc.settled ? 'settled: the launch facts are final' : 'not settled: the facts may still change'}.${
    doc.history.complete ? '' : ' The held history is incomplete: there may have been more.'
  }</p>
` as Html;
  return renderPage(
    {
      title: `First 30 seconds of ${title} — ${doc.mint}`,
      description: `${doc.finding.class.replace('_', ' ')} — ${doc.finding.label}. Every first-30-s buyer of ${title} (${buyers.length}${besides}) and ${cut ? 'the first 100 buys of its first 30 s (there were more)' : 'every trade of its first 30 s'}, each with its transaction.`,
      canonicalUrl: `${opts.baseUrl}${earlyPath(doc.mint)}`,
      ogType: 'article',
    },
    body,
    { demo: opts.demo, contactEmail: opts.contactEmail },
  );
}
