import { raw } from 'hono/html';
import { html } from './html-tag.ts';
import type { FindingClass } from '../core/types.ts';
import type { ListRow } from '../db/lists.ts';
import { displayText } from './display-text.ts';
import { isoTime } from './units.ts';

/**
 * A record as one row of the home page, the list pages and the search results: class badge,
 * name and symbol (the creator's words, through displayText, escaped), the mint, its age and the
 * one-line why, the whole row's name linked to `/t/{mint}.html`. Pure: no I/O.
 */

type Html = ReturnType<typeof raw>;

/** Longest name shown in a row, in code points (the token page shows more). */
export const ROW_NAME_CHARS = 60;
/** Longest symbol shown in a row. */
export const ROW_SYMBOL_CHARS = 16;

/** The badge's words: class names as the API spells them, NO_MARKERS with a space. */
const BADGE: Record<FindingClass, string> = { FINDINGS: 'FINDINGS', NOTE: 'NOTE', NO_MARKERS: 'NO MARKERS', UNKNOWN: 'UNKNOWN' };

/** A class badge (`span.badge.CLASS`, site.css). */
export function badge(cls: FindingClass): Html {
  return html`<span class="badge ${cls}">${BADGE[cls] ?? cls}</span>` as Html;
}

/**
 * A duration in short words: `45 s`, `12 min`, `5 h`, `3 d`, `2 y`; negative durations read `0 s`.
 * @example shortDuration(90_000) // '1 min'
 */
export function shortDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h`;
  if (s < 365 * 86_400) return `${Math.floor(s / 86_400)} d`;
  return `${Math.floor(s / (365 * 86_400))} y`;
}

/** `2026-11-25 21:04 UTC` */
export function utcMinute(ms: number): string {
  return minuteOfIso(isoTime(ms));
}

/** `2026-11-25T21:04:05.000Z` → `2026-11-25 21:04 UTC` */
function minuteOfIso(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** The time of a row: `12 min ago` (to `nowMs`) with the exact time in `datetime`; `time unknown` without one. */
function age(ms: number | null, nowMs: number, what: string): Html {
  if (ms === null) return html`<span>${what} time unknown</span>` as Html;
  const iso = isoTime(ms); // no Date a row: the search's and the lists' 50 rows each made two
  return html`<time datetime="${iso}" title="${minuteOfIso(iso)}">${what} ${shortDuration(nowMs - ms)} ago</time>` as Html;
}

/** The most characters of a row's why (the whole why is on the token page). */
export const ROW_WHY_CHARS = 180;

/**
 * A why cut for a row's glance: at most `max` characters, cut at the last space before the limit
 * (an address or a figure is never cut in its middle — a phone reader met "by the creator
 * (CwrXkXfrv…a3e…" on the home page), trailing punctuation dropped, then "…"; the whole text when
 * it fits. Shown through displayText (hidden characters made visible).
 * @example glance('The curve was taken within the creation slot by the creator (CwrX…)', 40) // 'The curve was taken within the creation…'
 */
export function glance(text: string, max: number): string {
  const shown = displayText(text, Number.MAX_SAFE_INTEGER);
  // at most `max` UTF-16 units is at most `max` code points: nothing to cut (no array of them made)
  if (shown.length <= max) return shown;
  const chars = [...shown];
  if (chars.length <= max) return shown;
  const cut = chars.slice(0, max).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:(—-]+$/u, '')}…`;
}

/** One row. `when` picks the time shown: creation (default) or graduation. */
export function listRow(r: ListRow, nowMs: number, when: 'created' | 'graduated' = 'created'): Html {
  const name = r.name ? displayText(r.name, ROW_NAME_CHARS) : '';
  const symbol = r.symbol ? displayText(r.symbol, ROW_SYMBOL_CHARS) : '';
  // the label, then the why: "1 finding at launch." before its fact, "History incomplete." before "Unknown, not clean: …"
  const label = r.label ? displayText(r.label, 80) : '';
  // a row is a glance: the verdict and the first facts (the whole why, with an UNKNOWN's reserve figures, is on the page)
  const why = r.why ? glance(r.why, ROW_WHY_CHARS) : '';
  return html`<li class="row">
<div class="row-head">${badge(r.findingClass)} <a class="tok" href="/t/${r.mint}.html"><span class="name">${name || 'No name'}</span>${symbol ? html` <span class="sym">${symbol}</span>` : ''}</a></div>
<p class="why">${label ? html`<strong>${label}.</strong> ` : ''}${why}</p>
<p class="meta"><code class="mint">${r.mint}</code> · ${when === 'graduated' ? age(r.graduatedAtMs, nowMs, 'graduated') : age(r.createdAtMs, nowMs, 'created')}</p>
</li>` as Html;
}

/** A list of rows (`ul.rows`), or `empty` as a paragraph when there are none. */
export function listRows(rows: readonly ListRow[], nowMs: number, empty: string, when: 'created' | 'graduated' = 'created'): Html {
  if (rows.length === 0) return html`<p class="empty">${empty}</p>` as Html;
  return html`<ul class="rows">${rows.map((r) => listRow(r, nowMs, when))}</ul>` as Html;
}
