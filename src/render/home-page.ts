import { html, raw } from 'hono/html';
import type { ListName, ListRow } from '../db/lists.ts';
import type { StatusBody } from '../facts/status.ts';
import { listRows, shortDuration, utcMinute } from './list-rows.ts';
import { renderPage } from './shell.ts';

/**
 * The home page (`/`, `DATA_DIR/site/index.html`) and the list pages
 * (`/lists/{list}/{n}.html`): the archive in numbers, in words, and the three lists. Written by the
 * collector (collector/publish/lists.ts) and, before its first write, rendered by the server from
 * the same facts. Pure: no I/O; everything from chain metadata goes through list-rows.ts.
 */

type Html = ReturnType<typeof raw>;

/** Rows of a list page. */
export const LIST_PAGE_ROWS = 50;
/** List pages written at most per list (50 × 20 = the newest 1,000 rows). */
export const LIST_MAX_PAGES = 20;
/** Rows of each list on the home page. */
export const HOME_ROWS = 10;
const DAY_MS = 86_400_000;

/**
 * The 24 hours the "last 24 h" lists cover: up to now, or — when the newest launch held is older
 * than a day (a stopped collector, the demo's replayed chain) — up to that launch's creation, and
 * the pages say so. `toMs` is open (later rows are kept).
 */
export interface ListWindow {
  fromMs: number;
  toMs: number;
  /** the end of the 24 hours */
  anchorMs: number;
  /** true when anchored at the newest launch held rather than now */
  historical: boolean;
}

/** The window of the 24-hour lists at `nowMs`, given the newest creation held (epoch ms or null). */
export function listWindow(nowMs: number, newestCreationMs: number | null): ListWindow {
  const historical = newestCreationMs !== null && newestCreationMs < nowMs - DAY_MS;
  const anchorMs = historical ? newestCreationMs : nowMs;
  return { fromMs: anchorMs - DAY_MS, toMs: Number.MAX_SAFE_INTEGER, anchorMs, historical };
}

/** What a list is, in words. */
export const LIST_TITLES: Record<ListName, { title: string; empty: string; when: 'created' | 'graduated' }> = {
  latest: { title: 'Latest launches', empty: 'No launch is held yet.', when: 'created' },
  graduated: { title: 'Graduated in the last 24 h', empty: 'No launch held graduated in these 24 hours.', when: 'graduated' },
  findings: { title: 'FINDINGS in the last 24 h', empty: 'No launch created in these 24 hours has FINDINGS.', when: 'created' },
};

/** The facts of a home page. */
export interface HomeFacts {
  nowMs: number;
  status: Pick<StatusBody, 'counts' | 'coverage' | 'collector' | 'demo'>;
  window: ListWindow;
  lists: Record<ListName, { rows: ListRow[]; total: number }>;
}

/** Site options of these pages (config). */
export interface SitePageOptions {
  baseUrl: string;
  demo?: boolean;
  contactEmail?: string;
}

const n = (x: number) => x.toLocaleString('en-US');
const plural = (x: number, one: string, many = `${one}s`) => `${n(x)} ${x === 1 ? one : many}`;

/** How far the records trail the chain, in words (slots of ~0.4 s). */
export function lagWords(c: StatusBody['collector']): string {
  const state = {
    live: 'The collector is running and live',
    catching_up: 'The collector is running and catching up',
    unreachable: 'The collector cannot reach the chain right now',
    between_runs: 'The collector is between runs (its last run ended; the next one, started within the allowed pause, reads what came since)',
    stopped: 'The collector is not running',
  }[c.state];
  const lag =
    c.lagSlots === null
      ? 'how far the records trail the chain is not known'
      : c.lagSlots === 0
        ? 'the records are level with the chain tip it last read'
        : `the records trail the chain tip by ${plural(c.lagSlots, 'slot')} (about ${shortDuration(c.lagSlots * 400)})`;
  const beat = c.lastHeartbeat ? `; its last heartbeat was at ${utcMinute(c.lastHeartbeat.ms)}` : '';
  return `${state}: ${lag}${beat}.`;
}

/** The coverage window in words: since when the archive watches, and its gaps. */
export function coverageWords(s: HomeFacts['status'], nowMs: number): string {
  const from = s.coverage.from;
  if (!from) return 'The collector has not read the chain yet: no launch was watched, so every launch outside a rebuilt record is unknown, not clean.';
  const down = s.coverage.downtimeMinutes;
  return `Launches have been watched since ${utcMinute(from.ms)} (${shortDuration(nowMs - from.ms)}), ${
    down === 0 ? 'without downtime' : `with ${plural(down, 'minute')} of downtime`
  }. A launch created outside that watch has a record only when it was rebuilt from chain; without a record its provenance is unknown, not clean.`;
}

/** The archive's numbers in words. */
export function countsWords(s: HomeFacts['status']): string {
  const c = s.counts;
  const cls = (k: string) => c.byClass[k] ?? 0;
  return `The archive holds ${plural(c.records, 'launch record')}: ${n(cls('FINDINGS'))} FINDINGS, ${n(cls('NOTE'))} NOTE, ${n(cls('NO_MARKERS'))} NO MARKERS and ${n(cls('UNKNOWN'))} UNKNOWN. ${n(c.launches)} of them were observed at their creation transaction.`;
}

function windowWords(w: ListWindow): Html {
  return w.historical
    ? (html`<p class="muted small">The newest launch held was created at ${utcMinute(w.anchorMs)}, more than a day ago: the 24-hour lists cover the day up to it.</p>` as Html)
    : (html`` as Html);
}

/**
 * Under the latest list: how many records it leaves out (held without their creation transaction:
 * no creation time to place them), when its count is exact and some are left out; else nothing.
 */
function unlistedNote(f: HomeFacts, listed: number): Html | '' {
  const left = f.status.counts.records - listed;
  if (listed >= LIST_PAGE_ROWS * LIST_MAX_PAGES || left <= 0) return '';
  const one = left === 1;
  return html`<p class="muted small">${plural(left, 'record')} held without ${one ? 'its' : 'their'} creation transaction ${one ? 'is' : 'are'} not in this list (no creation time to place ${one ? 'it' : 'them'}): search by mint.</p>` as Html;
}

function section(list: ListName, f: HomeFacts): Html {
  const t = LIST_TITLES[list];
  const { rows, total } = f.lists[list];
  return html`<section class="list" id="${list}" aria-labelledby="${list}-h">
<h2 id="${list}-h">${t.title}</h2>
${listRows(rows, f.nowMs, t.empty, t.when)}
${total > rows.length ? html`<p class="more"><a href="/lists/${list}/1.html">All ${t.title.toLowerCase().replace('findings', 'FINDINGS')} (${n(Math.min(total, LIST_PAGE_ROWS * LIST_MAX_PAGES))}${total > LIST_PAGE_ROWS * LIST_MAX_PAGES ? ' newest' : ''})</a></p>` : ''}
${list === 'latest' ? unlistedNote(f, total) : ''}
</section>` as Html;
}

/** The short state of the collector, for the home page. */
function collectorShort(c: StatusBody['collector']): string {
  const lag = c.lagSlots === null ? '' : c.lagSlots === 0 ? ', level with the chain tip' : `, ${plural(c.lagSlots, 'slot')} (about ${shortDuration(c.lagSlots * 400)}) behind the chain tip`;
  return { live: `Collector live${lag}.`, catching_up: `Collector catching up${lag}.`, unreachable: 'Collector running but the chain is not answering: new launches are not being recorded now.', between_runs: `Collector between runs: its last run ended at ${c.lastHeartbeat ? utcMinute(c.lastHeartbeat.ms) : 'a time not recorded'}${lag}; the next run reads the launches since.`, stopped: 'Collector stopped: new launches are not being recorded now.' }[c.state];
}

/** The home page. */
export function renderHomePage(f: HomeFacts, o: SitePageOptions): string {
  const s = f.status;
  const cls = (k: string) => n(s.counts.byClass[k] ?? 0);
  const from = s.coverage.from;
  const body = html`<section class="intro" aria-labelledby="intro-h">
<h1 id="intro-h">Was this launch clean?</h1>
<p class="lead">Paste a mint into the search box to see how its pump.fun launch began, with the transactions behind every finding. A creator wallet, a name or a symbol works too.</p>
<details class="legend"><summary>What the labels mean</summary>
<ul>
<li><span class="badge FINDINGS">FINDINGS</span> something was recorded about the launch: a marker, with its transactions.</li>
<li><span class="badge NOTE">NOTE</span> something weaker, often about what happened later.</li>
<li><span class="badge NO_MARKERS">NO MARKERS</span> none of the recorded markers was found. Not an endorsement.</li>
<li><span class="badge UNKNOWN">UNKNOWN</span> not established. A mint the archive does not hold is unknown too, never clean.</li>
</ul></details>
</section>
<section class="numbers" aria-labelledby="numbers-h">
<h2 id="numbers-h">The archive now</h2>
<p class="stats">${plural(s.counts.records, 'launch record')}: ${cls('FINDINGS')} FINDINGS, ${cls('NOTE')} NOTE, ${cls('NO_MARKERS')} NO MARKERS, ${cls('UNKNOWN')} UNKNOWN. ${
    from ? `Watching launches since ${utcMinute(from.ms)}, ${s.coverage.downtimeMinutes === 0 ? 'without downtime' : `with ${plural(s.coverage.downtimeMinutes, 'minute')} of downtime`}.` : 'The collector has not read the chain yet.'
  } ${collectorShort(s.collector)}</p>
<p class="muted small">A launch created outside the watch has a record only when it was rebuilt from chain; without a record its provenance is unknown, not clean. As of ${utcMinute(f.nowMs)}. <a href="/status.html">Status in detail</a> · <a href="/methodology.html">How records are made</a></p>
</section>
${windowWords(f.window)}
${section('latest', f)}
${section('graduated', f)}
${section('findings', f)}` as Html;
  return renderPage(
    {
      title: 'Launch-provenance archive: was this pump.fun launch clean?',
      description: 'Chain-derived records of pump.fun launches: paste a mint to see how it began, with the evidence. Unknown is never shown as clean.',
      canonicalUrl: `${o.baseUrl}/`,
    },
    body,
    { demo: o.demo, contactEmail: o.contactEmail },
  );
}

/** The facts of one list page. */
export interface ListPageFacts {
  list: ListName;
  /** 1-based */
  page: number;
  pages: number;
  total: number;
  rows: ListRow[];
  nowMs: number;
  window: ListWindow;
}

/** A list page `/lists/{list}/{page}.html`, with links to the newer and older pages. */
export function renderListPage(f: ListPageFacts, o: SitePageOptions): string {
  const t = LIST_TITLES[f.list];
  const first = (f.page - 1) * LIST_PAGE_ROWS + 1;
  const nav = html`<nav class="pager" aria-label="Pages">${
    f.page > 1 ? html`<a rel="prev" href="/lists/${f.list}/${f.page - 1}.html">Newer</a>` : html`<span></span>`
  }<span class="muted">Page ${f.page} of ${Math.max(1, f.pages)}</span>${
    f.page < f.pages ? html`<a rel="next" href="/lists/${f.list}/${f.page + 1}.html">Older</a>` : html`<span></span>`
  }</nav>` as Html;
  const body = html`<h1>${t.title}</h1>
<p class="muted">${f.rows.length ? `Rows ${n(first)}–${n(first + f.rows.length - 1)} of ${f.total > LIST_PAGE_ROWS * LIST_MAX_PAGES ? `the newest ${n(LIST_PAGE_ROWS * LIST_MAX_PAGES)}` : n(f.total)}, newest first.` : ''} As of ${utcMinute(f.nowMs)}.</p>
${f.list === 'latest' ? '' : windowWords(f.window)}
${listRows(f.rows, f.nowMs, t.empty, t.when)}
${nav}
<p class="go"><a href="/">Back to the home page</a></p>` as Html;
  return renderPage(
    { title: `${t.title}, page ${f.page} — Launch-provenance archive`, description: `${t.title} held by the archive, newest first.`, canonicalUrl: `${o.baseUrl}/lists/${f.list}/${f.page}.html` },
    body,
    { demo: o.demo, contactEmail: o.contactEmail },
  );
}
