import { html, raw } from 'hono/html';
import { displayText } from './display-text.ts';
import { DEMO_BANNER, renderPage } from './shell.ts';
import type { CurveBuyout, FindingClass, Flag, Instant, LaunchDocument, LaunchFacts, PoolNow } from '../core/types.ts';

/**
 * The one template of the public token page `t/{mint}.html`, used by the collector (which writes
 * the file) and by the site route (which renders it when the file is missing): same record, same
 * bytes, in the site's one frame (shell.ts). Pure: no I/O. Every value is escaped by `hono/html`'s
 * `html` tag. Links from chain metadata pass an http/https allow-list (never javascript:).
 *
 * Wording rules (spec §1, §2.3): `cleanAtBirth: null` reads "unknown — not observed", never clean;
 * a page of class UNKNOWN never contains the words "clean", "safe" or "no issues".
 */

/** Options of {@link renderTokenPage}. */
export interface TokenPageOptions {
  /** Explorer transaction URL prefix; the signature is appended (config EXPLORER_TX_URL). */
  explorerTxUrl: string;
  /** Public base URL of the archive, without trailing slash (config baseUrl). */
  baseUrl: string;
  /** sha256 of the canonical document served at `/d/{mint}`. */
  sha256: string;
  /** Demo data (config DEMO): the page says so in a banner above everything else. */
  demo?: boolean;
}

type Html = ReturnType<typeof raw>;

export { DEMO_BANNER, PAGE_CSP } from './shell.ts';

/** Words for each finding class (spec §2.2). */
const CLASS_WORDS: Record<FindingClass, string> = {
  FINDINGS: 'Findings: something was recorded about this launch.',
  NOTE: 'Note: something weaker was recorded, often about the present rather than the launch.',
  NO_MARKERS: 'No recorded markers: the launch was checked against every recorded marker and none was found. This is not an endorsement.',
  UNKNOWN: 'Unknown: not established. This is an absence of evidence, not a mild warning.',
};

/** Spec §2.3 in words; UNKNOWN+false is "not established" (e.g. a pool that could not be read). */
export function birthWords(cleanAtBirth: boolean | null, cls: FindingClass): string {
  if (cleanAtBirth === null) return 'unknown — not observed';
  if (cleanAtBirth) return 'no recorded marker at birth (not an endorsement)';
  return cls === 'UNKNOWN' ? 'not established' : 'markers present';
}

const CONFIRMED_BY: Record<string, string> = {
  migration_event: 'migration event seen on chain',
  pool: 'canonical pool account read',
  withdraw: 'withdraw by the migration authority (Raydium era)',
};

/** The URL if it is an absolute http(s) URL, else null: only these are ever linked. */
export function httpUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const u = new URL(value.trim());
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

const yesNo = (b: boolean | null | undefined) => (b === null || b === undefined ? 'unknown' : b ? 'yes' : 'no');
const when = (t: Instant | null | undefined) => (t ? t.iso : 'unknown');
/** Chain metadata as shown: bidi controls and control characters made visible (display-text.ts). */
const text = (s: string | null | undefined, missing = 'unknown', max = 1000) => (s === null || s === undefined || s === '' ? missing : displayText(s, max));

function txLink(explorerTxUrl: string, signature: string): Html {
  const href = httpUrl(explorerTxUrl + encodeURIComponent(signature));
  return href ? (html`<a class="mono" href="${href}">${signature}</a>` as Html) : (html`<code>${signature}</code>` as Html);
}

function row(label: string, value: unknown): Html {
  return html`<tr><th scope="row">${label}</th><td>${value}</td></tr>` as Html;
}

function launchRows(l: LaunchFacts, o: TokenPageOptions): Html[] {
  const graduated = l.graduated
    ? html`yes${l.graduationConfirmedBy ? html` — confirmed by ${CONFIRMED_BY[l.graduationConfirmedBy] ?? l.graduationConfirmedBy}` : ''}${
        l.graduatedAt ? html`, at ${l.graduatedAt.iso}` : ''
      }${l.secondsToGraduate !== null ? html` (${l.secondsToGraduate} s after creation)` : ''}${
        l.graduationObserved ? '' : html`; graduation not observed live`
      }${l.graduation?.signature ? html`; transaction ${txLink(o.explorerTxUrl, l.graduation.signature)}` : ''}`
    : 'no';
  return [
    row('Created', when(l.createdAt)),
    row('Creator', html`<code>${l.creator}</code>`),
    row('Creator kept', `${formatPct(l.creatorSupplyPct)} of supply (end of the creation slot)`),
    row('Creator sold', yesNo(l.creatorSold)),
    row('Outside wallets that bought on the curve', l.curveBuyers),
    row('Buyers in the first 30 seconds', l.buyersFirst30s),
    row('Bundled buyers', l.bundledBuyers),
    row('Graduated', graduated),
    row('Creation transaction', html`${txLink(o.explorerTxUrl, l.transaction.signature)} (slot ${l.transaction.slot})`),
  ];
}

function formatPct(p: number): string {
  return Number.isFinite(p) ? `${Number(p.toFixed(4))}%` : 'unknown';
}

function buyoutCell(b: CurveBuyout | null, o: TokenPageOptions): unknown {
  if (!b) return 'none recorded';
  const timing = b.sameBatchAsLaunch
    ? 'in the same batch of chain events as the launch (hours cannot be resolved)'
    : b.hoursAfterLaunch === null
      ? 'time unknown'
      : `${b.hoursAfterLaunch} hours after launch`;
  return html`wallet <code>${b.wallet}</code>, ${timing}; spent ${b.quoteSpent} raw units of <code>${b.quoteMint}</code> for ${b.tokens} raw tokens; transaction ${txLink(o.explorerTxUrl, b.signature)} (slot ${b.slot})`;
}

function poolCell(p: PoolNow | null): unknown {
  if (!p) return 'none recorded';
  return html`<code>${p.address}</code> (program <code>${p.program}</code>): ${p.baseReserves} raw base, ${p.quoteReserves} raw quote of <code>${p.quoteMint}</code>${
    p.price !== null ? html`, price ${p.price} quote per token` : ''
  }; as of ${when(p.asOf)}`;
}

function flagsSection(flags: Flag[], o: TokenPageOptions): Html {
  if (!flags.length) return html`<p>No marker flag is recorded in this document.</p>` as Html;
  return html`<ul class="flags">${flags.map(
    (f) => html`<li class="flag"><strong>${f.class}</strong> <code>${f.code}</code>: ${f.summary}${
      f.evidence?.length
        ? html`<br>Evidence: <span class="evidence">${f.evidence.map((s, i) => html`${i ? ', ' : ''}${txLink(o.explorerTxUrl, s)}`)}</span>`
        : ''
    }</li>`,
  )}</ul>` as Html;
}

function cohortCell(c: LaunchDocument['funder']['sharedCohort']): unknown {
  if (c === null || c === undefined) return 'not established';
  if (!c.length) return 'none recorded';
  return html`<ul>${c.map((g) => html`<li>funder <code>${g.funder}</code> funded ${g.wallets.length} buyer wallets</li>`)}</ul>`;
}

/**
 * The full HTML page of a launch record.
 * @example writeFileAtomic(page, renderTokenPage(doc, {explorerTxUrl, baseUrl, sha256}))
 */
export function renderTokenPage(doc: LaunchDocument, opts: TokenPageOptions): string {
  const cls = doc.finding.class;
  const title = `${text(doc.name, 'Unnamed token', 120)}${doc.symbol ? ` (${text(doc.symbol, '', 40)})` : ''}`;
  const uriHref = httpUrl(doc.uri);
  const docPath = `/d/${encodeURIComponent(doc.mint)}`;
  const h = doc.history;
  const body = html`<header>
<h1 id="token-name">${title}</h1>
<p class="sub">Launch record of mint <code id="mint">${doc.mint}</code> on ${doc.venue}</p>
</header>
<section class="finding ${cls}" id="finding">
<p class="class">${cls}: ${doc.finding.label}</p>
<p>${CLASS_WORDS[cls] ?? cls}</p>
<p id="why">${doc.finding.why}</p>
<p id="at-birth">Markers at birth: <strong>${birthWords(doc.cleanAtBirth, cls)}</strong></p>
</section>
<h2>Facts</h2>
<table id="facts" class="facts"><tbody>
${doc.launch ? launchRows(doc.launch, opts) : row('Launch facts', 'not established: the creation was not observed or rebuilt')}
${row('Curve buyout (who took the curve)', buyoutCell(doc.curveBuyout, opts))}
${row('Pool now', poolCell(doc.pool))}
${row('Shared funder cohort', cohortCell(doc.funder?.sharedCohort ?? null))}
${row('Origin', html`${doc.origin}; ${doc.observedAtLaunch ? 'observed live at launch' : 'not observed live at launch'}`)}
${row('History', h ? `${h.complete ? 'complete' : 'incomplete'}: ${h.transactions} transactions (${h.failedTransactions} failed)${h.firstSlot !== null ? `, slots ${h.firstSlot}–${h.lastSlot ?? '?'}` : ''}` : 'unknown')}
${row('Record settled', doc.settled ? 'yes: the launch facts are final' : 'no: the facts may still change')}
${row('Method version', html`<code>${doc.methodVersion}</code>`)}
${row('As of', when(doc.asOf))}
${row('Symbol', text(doc.symbol))}
${row('Name', text(doc.name))}
${row('Metadata URI', uriHref ? html`<a href="${uriHref}" rel="nofollow noopener noreferrer">${text(doc.uri)}</a>` : doc.uri ? html`<code>${text(doc.uri)}</code> (not linked: not an http(s) address)` : 'none')}
</tbody></table>
<h2>Flags and the transactions behind them</h2>
${flagsSection(doc.flags ?? [], opts)}
<h2>Document</h2>
<p>The record as JSON: <a id="document" href="${docPath}">${docPath}</a><br>sha256 <code id="sha256">${opts.sha256}</code></p>
<p class="muted">The class names what kind of entry this is, not a grade of risk.</p>
` as Html;
  return renderPage(
    {
      title: `${title} — launch record — ${doc.mint}`,
      description: `${cls}: ${doc.finding.label}. Markers at birth: ${birthWords(doc.cleanAtBirth, cls)}.`,
      canonicalUrl: `${opts.baseUrl}/t/${encodeURIComponent(doc.mint)}.html`,
      ogType: 'article',
      head: html`<link rel="alternate" type="application/json" href="${docPath}">` as Html,
    },
    body,
    { demo: opts.demo },
  );
}

/** The HTML page for a mint the archive holds no record of (served with 404). */
export function renderNotFoundPage(mint: string): string {
  return renderMessagePage(
    'No record held',
    html`<p>The archive holds no record for <code>${mint}</code>.</p>
<p>Absence of a record means nothing was established about this token: its provenance is unknown.</p>`,
  );
}

/** The HTML page for a path value that is not an address (served with 400). */
export function renderBadAddressPage(value: string): string {
  return renderMessagePage(
    'Not an address',
    html`<p><code>${value}</code> is not an address: a mint is base58 of 32-44 characters.</p>`,
  );
}

/** The HTML page for a path that names nothing (served with 404). */
export function renderNoSuchPathPage(): string {
  return renderMessagePage('Not found', html`<p>Nothing is served at this path. Token pages are at <code>/t/{mint}.html</code>.</p>`);
}

/** The site's front page: what the archive is and where its data is; with `demo`, the demo banner first. */
export function renderIndexPage(opts: { demo?: boolean } = {}): string {
  return renderMessagePage(
    'Launch-provenance archive',
    html`${opts.demo ? html`<p class="demo" id="demo">${DEMO_BANNER}</p>` : ''}<p>An archive of pump.fun bonding-curve launches, decoded from chain and recorded with the transactions behind every marker. Not a price feed, not a signal and not advice.</p>
<ul>
<li>Token page: <code>/t/{mint}.html</code></li>
<li>Launch document (JSON): <code>/d/{mint}</code></li>
<li>Keyed API: <code>/api/v1/token/{mint}</code> with <code>Authorization: Bearer &lt;API_KEY&gt;</code></li>
<li>Plan and API keys: <a href="/pricing">/pricing</a></li>
</ul>`,
  );
}

/** A short page of the site's style: a heading, a body (already escaped by `html`), a link to the status. */
export function renderMessagePage(heading: string, body: unknown): string {
  return renderPage({ title: heading, noindex: true }, html`<h1>${heading}</h1>
${body}
<p><a href="/status.html">What the archive holds</a></p>` as Html);
}
