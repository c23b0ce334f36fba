import { html, raw } from 'hono/html';
import type { StatusBody } from '../facts/status.ts';
import { countsWords, coverageWords, lagWords, type SitePageOptions } from './home-page.ts';
import { shortDuration, utcMinute } from './list-rows.ts';
import { ORIGIN_WORDS, SCANNED_BECAUSE } from './origin-words.ts';
import { renderPage } from './shell.ts';

/**
 * `/status.html`: what `/api/v1/status` says, in words (written by the collector with the home
 * page, rendered by the server before the first write). Pure: no I/O.
 */

type Html = ReturnType<typeof raw>;

const CLASSES = ['FINDINGS', 'NOTE', 'NO_MARKERS', 'UNKNOWN'] as const;
/** An origin's words on this page: the token page's, and for `scanned` the reasons a record is. */
const originWords = (o: string) => (o === 'scanned' ? `${ORIGIN_WORDS.scanned} (${SCANNED_BECAUSE})` : (ORIGIN_WORDS[o] ?? o));
const n = (x: number | undefined) => (x ?? 0).toLocaleString('en-US');

function countsTable(s: StatusBody): Html {
  const origins = Object.keys(s.counts.byOrigin).sort();
  if (origins.length === 0) return html`<p>No record is held yet.</p>` as Html;
  return html`<table class="stack counts">
<thead><tr><th scope="col">Origin</th>${CLASSES.map((c) => html`<th scope="col">${c.replace('_', ' ')}</th>`)}<th scope="col">All</th></tr></thead>
<tbody>${origins.map(
    (o) => html`<tr><th scope="row">${originWords(o)}</th>${CLASSES.map((c) => html`<td data-label="${c.replace('_', ' ')}">${n(s.counts.byOriginAndClass[o]?.[c])}</td>`)}<td data-label="All">${n(s.counts.byOrigin[o])}</td></tr>`,
  )}
<tr><th scope="row">All origins</th>${CLASSES.map((c) => html`<td data-label="${c.replace('_', ' ')}">${n(s.counts.byClass[c])}</td>`)}<td data-label="All">${n(s.counts.records)}</td></tr></tbody>
</table>` as Html;
}

function gapsList(s: StatusBody): Html {
  const gaps = s.coverage.gaps;
  // the interval since the last heartbeat of a collector that is not running now is a gap listed
  // only when it runs again (coverage.gaps), while downtimeMinutes already counts it
  const c = s.collector;
  if (!s.coverage.from) return html`<p>None yet: the collector has not read the chain, so coverage has not begun.</p>` as Html;
  const ended = c.lastHeartbeat ? utcMinute(c.lastHeartbeat.ms) : null;
  const now =
    c.state === 'stopped'
      ? html`<p>The collector is not running now${ended ? html` (last heartbeat ${ended})` : ''}: launches created since are not being watched. A pause longer than the allowed one (COVERAGE_GAP_MS) is listed here as a gap when it runs again, and its launches are found then from chain (origin scanned).</p>`
      : c.state === 'between_runs'
        ? html`<p>The collector is between runs${ended ? html` (its last run ended ${ended})` : ''}, as a collector run from cron is: the next run reads the launches created since, and leaves no gap when it starts within the allowed pause (COVERAGE_GAP_MS).</p>`
        : '';
  const earlier = c.state === 'stopped';
  if (gaps.length === 0) return html`${now}<p>No ${earlier ? 'earlier ' : ''}gap: the collector has not been down for longer than the allowed pause since coverage began${earlier ? ', before this' : ''}.</p>` as Html;
  return html`${now}<ul>${gaps.map(
    (g) => html`<li>${utcMinute(g.from.ms)} to ${utcMinute(g.to.ms)} (${shortDuration(g.to.ms - g.from.ms)})${g.fromSlot !== null && g.toSlot !== null ? `, slots ${n(g.fromSlot)}–${n(g.toSlot)}` : ''}</li>`,
  )}</ul>` as Html;
}

/**
 * The collector's periodic jobs: every job its scheduler reported (`collector.jobs`: name, interval
 * and its setting, last run), or, from a collector that wrote no report (an older version), the four
 * whose last run status keeps apart (`collector.periodic`).
 */
function jobsTable(c: StatusBody['collector'], periodic: [string, { ms: number } | null][]): Html {
  if (!c.jobs || c.jobs.length === 0) return html`<table class="facts">${periodic.map(([k, v]) => html`<tr><th scope="row">${k} last ran</th><td>${v ? utcMinute(v.ms) : 'never'}</td></tr>`)}</table>` as Html;
  const first = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);
  return html`<table class="stack jobs">
<thead><tr><th scope="col">Periodic job</th><th scope="col">Every</th><th scope="col">Last ran</th></tr></thead>
<tbody>${c.jobs.map(
    (j) => html`<tr><th scope="row">${first(j.name)}</th><td data-label="Every">${j.intervalMs > 0 ? shortDuration(j.intervalMs) : 'each pass'}${j.setting ? html` <span class="muted small">(${j.setting})</span>` : ''}</td><td data-label="Last ran">${j.lastRun ? utcMinute(j.lastRun.ms) : 'not yet'}</td></tr>`,
  )}</tbody>
</table>` as Html;
}

/**
 * The records waiting for the funder sweep (status `fundingChecks`; `sweepMs`: the sweep's interval
 * from the collector's report): nothing when none waits, or from a body without the field (a
 * status an older release wrote).
 */
function fundingWords(f: StatusBody['fundingChecks'] | undefined, sweepMs: number | undefined): Html | '' {
  if (!f || f.waiting === 0) return '';
  const records = `${n(f.waiting)} record${f.waiting === 1 ? '' : 's'}`;
  return html`
<p id="funding-checks">${records} wait${f.waiting === 1 ? 's' : ''} for the first funders of ${f.waiting === 1 ? 'its' : 'their'} early buyers to be looked up (UNKNOWN “Funding not checked” until then, unless a shared funder was found already): the collector’s funder sweep takes 100 ${sweepMs === undefined ? 'at each sweep' : sweepMs > 0 ? `every ${shortDuration(sweepMs)}` : 'on each pass'} (FUNDER_SWEEP_MS).${
    f.olderMethod > 0 ? ` ${n(f.olderMethod)} of them ${f.olderMethod === 1 ? 'was' : 'were'} made under an earlier method and ${f.olderMethod === 1 ? 'is' : 'are'} being recorded again under the current one.` : ''
  }</p>` as Html;
}

/** The status page from a status body. */
export function renderStatusPage(s: StatusBody, nowMs: number, o: SitePageOptions): string {
  const c = s.collector;
  const periodic = Object.entries({ 'Funder sweep': c.periodic.funderSweep, 'Afterwards sweep': c.periodic.afterwardsSweep, 'Pool refresh': c.periodic.poolRefresh, 'Bulk downloads': c.periodic.downloads });
  const unreadable = s.unreadable.transactions;
  const body = html`<h1>Status</h1>
<p class="muted">As of ${utcMinute(nowMs)}. The same facts as JSON: <a href="/api/v1/status">/api/v1/status</a>.</p>
<h2>The collector</h2>
<p>${lagWords(c)}${
    c.cursorSlot === null
      ? ''
      : ` The newest pump transaction it has read is at slot ${n(c.cursorSlot)}${
          c.tipSlot === null
            ? ''
            : c.cursorSlot >= c.tipSlot
              ? `; the chain tip it last read was slot ${n(c.tipSlot)} (the transaction was read after that)`
              : c.lagSlots === 0
                ? `; the chain tip it last read, slot ${n(c.tipSlot)}, had nothing newer of the program`
                : c.lagSlots !== null && c.tipSlot - c.lagSlots > c.cursorSlot
                  ? // lagSlots counts from what it read through (a listing that found nothing newer), not from its cursor
                    `; it has read the history of the program through slot ${n(c.tipSlot - c.lagSlots)} (nothing newer of the program), ${n(c.lagSlots)} slot${c.lagSlots === 1 ? '' : 's'} behind the chain tip it last read, slot ${n(c.tipSlot)}`
                  : `; the chain tip it last read is slot ${n(c.tipSlot)}`
        }.`
  }</p>
${c.state === 'unreachable' && c.unreachableSince ? html`<p>The chain has not answered since ${utcMinute(c.unreachableSince.ms)}${c.lastRpcError ? html` (last error: <code>${c.lastRpcError}</code>)` : ''}.</p>` : ''}
${jobsTable(c, periodic)}
<h2>Coverage</h2>
<p>${coverageWords(s, nowMs)}</p>${
    o.demo
      ? html`
<p class="muted small" id="demo-dates">In this demo the launches carry the replayed chain’s dates (2024–2026), and the collector watched each one as it was replayed: records dated before the coverage start still read “observed live”, which on mainnet cannot happen.</p>`
      : ''
  }
<h3>Gaps</h3>
${gapsList(s)}
<p class="muted small">Watched launches are those whose creation the collector read while it ran. The others it holds were found later from chain: created while it was down (scanned over the gap’s complete history) or rebuilt on request. The downtime counts the minutes the collector was not running, not launches missed.</p>
<h2>Records</h2>
<p>${countsWords(s)}</p>
${countsTable(s)}${fundingWords(s.fundingChecks, c.jobs?.find((j) => j.name === 'funder sweep')?.intervalMs)}
<h2>What could not be read</h2>
<p>${unreadable === 0 ? 'Every transaction of the program history read so far could be read.' : `${n(unreadable)} transaction${unreadable === 1 ? '' : 's'} could not be read yet; the launches they may belong to stay incomplete (UNKNOWN) until they are.`}
${s.unrecognisedProgramData.length === 0 ? ' No unrecognised program data was seen in the last 24 hours.' : ` ${s.unrecognisedProgramData.length} kind${s.unrecognisedProgramData.length === 1 ? '' : 's'} of program data the decoder does not know were seen in the last 24 hours; records that hold them are UNKNOWN.`}</p>
${s.rebuilds ? html`<p>Rebuilds: ${n(s.rebuilds.queued)} queued, ${n(s.rebuilds.running)} running.</p>` : ''}` as Html;
  return renderPage(
    { title: 'Status — Launch-provenance archive', description: 'What the archive holds and what it watched: coverage, gaps, lag and records by class and origin.', canonicalUrl: `${o.baseUrl}/status.html` },
    body,
    { demo: o.demo, contactEmail: o.contactEmail },
  );
}
