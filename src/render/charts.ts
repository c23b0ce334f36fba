/**
 * The token page's three inline SVG charts — supply at birth, buyer timeline, curve progress —
 * drawn when the page is written (no script, nothing from another origin). Each is a `<figure>`
 * carrying its figures in `data-` attributes, an SVG with a `<title>`, a caption, and a `<table>`
 * of the same data for screen readers and tests. Colours come from classes in site.css (dark mode).
 * Pure: no I/O.
 *
 * Scales come from d3-scale (pinned): its tick choice and nice domains are maintained, tested code,
 * where hand-rolled axis math is where chart bugs live. The curve's step path is d3-shape's
 * `curveStepAfter` line, written by `stepAfterPath` (svg-text.ts) with the same context calls
 * without d3-shape's per-point generator work; its test holds it to d3-shape's own output.
 *
 * Markup is built as plain strings, every formatted or chain-derived value through `esc` (the same
 * escaping as `hono/html`'s tag; the curve's path, only numbers and path commands, needs none), and returned as one `raw` value: with a few hundred marks and rows
 * per page the tag's per-call work was most of the page's render time (issue 23). Each point's
 * amounts are formatted once, for its mark and its table row.
 */
import { raw } from 'hono/html';
import { scaleLinear, scaleSqrt } from 'd3-scale';
import type { ChartSeries, CurvePoint, SupplySplit, TimelinePoint } from './chart-data.ts';
import { esc } from './escape.ts';
import { joinMap } from './html-tag.ts';
import { linearMap } from './linear-map.ts';
import { oneDecimal, stepAfterPath } from './svg-text.ts';
import { compact, count, duration, pctOf, quoteAmount, quoteUnit, rawNumber, shortAddress, sig, tokenAmount, unitsValue } from './units.ts';

type Html = ReturnType<typeof raw>;

const W = 640;
const r1 = (n: number) => Math.round(n * 10) / 10;

const GROUPS: { key: keyof SupplySplit; label: string }[] = [
  { key: 'creator', label: 'Creator' },
  { key: 'bundled', label: 'Bundled buyers' },
  { key: 'early', label: 'First-30-s buyers' },
  { key: 'other', label: 'Other buyers' },
  { key: 'curve', label: 'Not bought (curve and its reserve)' },
];

const legend = (items: { cls: string; label: string }[]): string =>
  `<ul class="legend">${items.map((i) => `<li><span class="sw ${esc(i.cls)}"></span>${esc(i.label)}</li>`).join('')}</ul>`;

/** The supply bars' x: a share of supply (0–100) to the bar's width; the same for every page, built once. */
const SHARE_X = scaleLinear().domain([0, 100]).range([0, W]);

/** The charts' legends: constant markup, built once. */
const SUPPLY_LEGEND = legend(GROUPS.map((g) => ({ cls: `c-${g.key}`, label: g.label })));
const TIMELINE_LEGEND = legend([
  { cls: 'c-bundled', label: 'Bundled buy (creation slot)' },
  { cls: 'c-early', label: 'First-30-s buy' },
  { cls: 'c-other', label: 'Other trade' },
  { cls: 'c-creator sq', label: 'Creator buy' },
  { cls: 'c-sell tri', label: 'Creator sell' },
]);

/** The share text of a supply value (pctOf), once per value of a page: `pcts` holds those made. */
function pctText(pcts: Map<string, string>, v: string, total: bigint): string {
  let t = pcts.get(v);
  if (t === undefined) pcts.set(v, (t = pctOf(v, total)));
  return t;
}

/** One stacked bar of the supply chart: a rect per group with a share, each titled with its share. */
function supplyBar(split: SupplySplit, y: number, pcts: Map<string, string>, total: bigint): string {
  let at = 0;
  let out = '';
  for (const g of GROUPS) {
    const p = total > 0n ? Number((BigInt(split[g.key]) * 1_000_000n) / total) / 10_000 : 0;
    const x0 = SHARE_X(at);
    at += p;
    if (p > 0) out += `<rect class="c-${g.key}" x="${oneDecimal(x0)}" y="${y}" width="${oneDecimal(SHARE_X(at) - x0)}" height="28"><title>${esc(g.label)}: ${esc(pctText(pcts, split[g.key], total))}</title></rect>`;
  }
  return out;
}

/** A supply bar with its label above it. */
function barSvg(label: string, split: SupplySplit, id: string, name: string, pcts: Map<string, string>, total: bigint): string {
  return `<p class="bar-label" id="${id}">${esc(label)}: creator ${esc(pctText(pcts, split.creator, total))}, bundled ${esc(pctText(pcts, split.bundled, total))}, first 30 s ${esc(pctText(pcts, split.early, total))}, other ${esc(pctText(pcts, split.other, total))}</p>
<svg viewBox="0 0 ${W} 28" role="img" aria-labelledby="${id}" preserveAspectRatio="none" class="bar"><title>Supply of ${esc(name)}, ${esc(label.toLowerCase())}</title>${supplyBar(split, 0, pcts, total)}</svg>`;
}

/** A cell of the supply table, from its title attribute on: the share and the tokens. */
function supplyCell(split: SupplySplit, k: keyof SupplySplit, pcts: Map<string, string>, total: bigint): string {
  const t = tokenAmount(split[k]);
  return `title="${esc(t.exact)}">${esc(pctText(pcts, split[k], total))} · ${esc(t.text)}`;
}

/** Markup remembered by the object it was drawn from, with the other values it was drawn from (null: drawn once, not kept). */
export interface DrawnSections<K extends object> {
  memo: WeakMap<K, { inputs: readonly unknown[]; html: Html | null }>;
}
const allDrawn: DrawnSections<object>[] = [];

/** A new memo of drawn sections for {@link remembered} (every one is emptied by {@link forgetDrawnSections}). */
export function drawnSections<K extends object>(): DrawnSections<K> {
  const d: DrawnSections<K> = { memo: new WeakMap() };
  allDrawn.push(d as unknown as DrawnSections<object>);
  return d;
}

/** Forget every section drawn (benchmarks measuring a page drawn whole). */
export function forgetDrawnSections(): void {
  for (const d of allDrawn) d.memo = new WeakMap();
}

/**
 * A section drawn from one of a series' first-window objects (its supply, timeline or first-window
 * buyers), remembered by that object with the other values it was drawn from: the same object and
 * the same values (===) give the markup drawn before. chartSeriesCached keeps those objects the same
 * while the launch's first window holds the same transactions, so a busy curve's page, written again
 * after each batch of its trades, draws them at most twice. The markup is kept from the second
 * drawing on, not the first: most records are rendered once, and a 2,000-trade launch's sections
 * are ~55 KB of strings that the walk kept for its transaction list would hold (and each young-
 * generation collection copy) for nothing; first renders of distinct records in turn ran ~15 %
 * faster without them (.bench/scratch/htmlonly.mts `coll`, three runs each). The markup is a
 * function of the object and the values alone: every part of the section reads nothing else.
 */
export function remembered<K extends object>(drawn: DrawnSections<K>, of: K, inputs: readonly unknown[], draw: () => Html): Html {
  const hit = drawn.memo.get(of);
  if (hit && hit.inputs.length === inputs.length && hit.inputs.every((v, i) => v === inputs[i])) return (hit.html ??= draw());
  drawn.memo.set(of, { inputs, html: null });
  return draw();
}

const supplyDrawn = drawnSections<NonNullable<ChartSeries['supply']>>();
const timelineDrawn = drawnSections<NonNullable<ChartSeries['timeline']>>();

/** Supply at birth: two stacked bars (end of the creation slot, at 30 s), shares of total supply. */
export function supplyChart(s: ChartSeries, name: string): Html {
  if (!s.supply) return missingChart('supply', 'Supply at birth', s.missing);
  return remembered(supplyDrawn, s.supply, [s.totalSupplyRaw, name], () => drawSupply(s, s.supply!, name));
}

function drawSupply(s: ChartSeries, supply: NonNullable<ChartSeries['supply']>, name: string): Html {
  const total = BigInt(s.totalSupplyRaw);
  // each share's text once: a value appears in a bar's title, its label and the table
  const pcts = new Map<string, string>();
  const a = supply.atCreationSlot;
  const b = supply.at30s;
  return raw(`<figure class="chart" id="chart-supply" data-chart="supply" data-total-raw="${esc(s.totalSupplyRaw)}" data-creator-raw="${esc(a.creator)}" data-bundled-raw="${esc(a.bundled)}" data-early-raw="${esc(a.early)}" data-other-raw="${esc(a.other)}" data-curve-raw="${esc(a.curve)}" data-creator-30s-raw="${esc(b.creator)}" data-bundled-30s-raw="${esc(b.bundled)}" data-early-30s-raw="${esc(b.early)}" data-other-30s-raw="${esc(b.other)}" data-curve-30s-raw="${esc(b.curve)}">
<figcaption><h3>Supply at birth</h3> Who held the token supply at the end of the creation slot and 30 s after creation (net of sells); the rest had not been bought.</figcaption>
${barSvg('End of the creation slot', a, 'supply-slot', name, pcts, total)}
${barSvg('At 30 s', b, 'supply-30s', name, pcts, total)}
${SUPPLY_LEGEND}
<details><summary>Supply at birth as a table</summary><table class="stack data"><thead><tr><th scope="col">Holder</th><th scope="col">End of creation slot</th><th scope="col">At 30 s</th></tr></thead><tbody>
${joinMap(GROUPS, (g) => `<tr><th scope="row">${esc(g.label)}</th><td data-label="End of creation slot" ${supplyCell(a, g.key, pcts, total)}</td><td data-label="At 30 s" ${supplyCell(b, g.key, pcts, total)}</td></tr>`)}
</tbody></table></details>
</figure>`) as Html;
}

/** A chart that cannot be drawn, and why. */
function missingChart(kind: string, title: string, why: string | null): Html {
  return raw(`<figure class="chart missing" id="chart-${esc(kind)}" data-chart="${esc(kind)}" data-missing="true"><figcaption><h3>${esc(title)}</h3></figcaption><p>Not drawn — ${esc(why ?? 'the data is not held')}.</p></figure>`) as Html;
}

const TL_H = 230;
const PAD = { l: 72, r: 12, t: 30, b: 34 };

const WHO_MARK: Record<TimelinePoint['who'], string> = { creator: 'Creator buy', bundled: 'Bundled buy', early: 'First-30-s buy', other: 'Other trade' };
const WHO_ROW: Record<TimelinePoint['who'], string> = { creator: 'creator', bundled: 'bundled buyer', early: 'first-30-s buyer', other: 'other trader' };

/** Buyer timeline: the first 30 s (at most 100 buys), by time and size; the creation-slot bundle highlighted; creator trades marked. */
/**
 * A time after creation in words ("12 s"), marked "≈" when it was estimated from the slot distance
 * (chart-data.ts: a transaction without a blockTime); the page's note says what the mark means.
 */
export function afterText(t: number, estimated: boolean | undefined): string {
  return estimated ? `≈${duration(t)}` : duration(t);
}

/**
 * The buyer timeline's figure. `tableAt`: the path of the page that holds its table (a launch whose
 * first 30 s hold more than TIMELINE_TABLE_ROWS trades: render/early-page.ts), linked in place of
 * the table folded under the chart; undefined: the table is on this page.
 */
export function timelineChart(s: ChartSeries, name: string, explorer: (sig: string) => string | null, tableAt?: string): Html {
  const tl = s.timeline;
  if (!tl) return missingChart('timeline', 'Buyer timeline', s.missing);
  return remembered(timelineDrawn, tl, [s.quoteMint, s.quoteDecimals, name, explorer, tableAt], () => drawTimeline(s, tl, name, explorer, tableAt));
}

/**
 * The buyer timeline's trades as a table (the chart's points: every trade of the first 30 s, at
 * most 100 buys), a row each: time after creation, who, side, quote amount, tokens, transaction
 * (linked to the explorer by its signature). Empty string when the timeline is not held or has no trade.
 */
export function timelineTable(s: ChartSeries, explorer: (sig: string) => string | null, cls = 'stack data'): string {
  const tl = s.timeline;
  if (!tl || !tl.points.length) return '';
  const sym = esc(quoteUnit(s.quoteMint, s.quoteDecimals).symbol);
  const rows = joinMap(tl.points, (p) => timelineRow(s, p, sym, explorer));
  return timelineTableOf(sym, rows, cls);
}

function timelineTableOf(sym: string, rows: string, cls = 'stack data'): string {
  return `<table class="${cls}"><thead><tr><th scope="col">After creation</th><th scope="col">Who</th><th scope="col">Side</th><th scope="col">${sym}</th><th scope="col">Tokens</th><th scope="col">Transaction</th></tr></thead><tbody>
${rows}
</tbody></table>`;
}

/** A point's amounts, formatted once (escaped), for its mark and its table row. */
function shownPoint(s: ChartSeries, p: TimelinePoint, decimals: number) {
  const qa = quoteAmount(p.quote, s.quoteMint, s.quoteDecimals);
  const ta = tokenAmount(p.tokens);
  return { q: unitsValue(p.quote, decimals), qText: esc(qa.text), qExact: esc(qa.exact), tText: esc(ta.text), tExact: esc(ta.exact), after: esc(afterText(p.t, p.estimated)) };
}

function timelineRow(s: ChartSeries, p: TimelinePoint, sym: string, explorer: (sig: string) => string | null, shown = shownPoint(s, p, quoteUnit(s.quoteMint, s.quoteDecimals).decimals)): string {
  const v = shown;
  const href = explorer(p.signature);
  const short = esc(shortAddress(p.signature));
  return `<tr><td data-label="After creation">${v.after}</td><td data-label="Who">${WHO_ROW[p.who]} <code>${esc(shortAddress(p.wallet))}</code></td><td data-label="Side">${p.isBuy ? 'buy' : 'sell'}</td><td data-label="${sym}" title="${v.qExact}">${v.qText}</td><td data-label="Tokens" title="${v.tExact}">${v.tText}</td><td data-label="Transaction">${href ? `<a href="${esc(href)}">${short}</a>` : `<code>${short}</code>`}</td></tr>`;
}

function drawTimeline(s: ChartSeries, tl: NonNullable<ChartSeries['timeline']>, name: string, explorer: (sig: string) => string | null, tableAt: string | undefined): Html {
  if (!tl.points.length) {
    return raw(`<figure class="chart" id="chart-timeline" data-chart="timeline" data-points="0" data-bundled-wallets="${tl.bundledWallets}" data-first30s-wallets="${tl.first30sWallets}" data-creator-trades="0" data-cut-at-100="false"><figcaption><h3>Buyer timeline</h3></figcaption><p>No trade in the creation slot or the first 30 s.</p></figure>`) as Html;
  }
  const unit = quoteUnit(s.quoteMint, s.quoteDecimals);
  const sym = esc(unit.symbol);
  // each point's amounts formatted once (escaped), for its mark and its table row
  const shown = tl.points.map((p) => shownPoint(s, p, unit.decimals));
  const maxT = Math.max(30, ...tl.points.map((p) => p.t + 1));
  const x = scaleLinear().domain([0, maxT]).range([PAD.l, W - PAD.r]);
  const y = scaleSqrt().domain([0, Math.max(...shown.map((v) => v.q), 1e-9)]).nice().range([TL_H - PAD.b, PAD.t]);
  // Block times have 1-second resolution: points of the same second are spread across it in stored order.
  const perSecond = new Map<number, number>();
  for (const p of tl.points) perSecond.set(Math.floor(p.t), (perSecond.get(Math.floor(p.t)) ?? 0) + 1);
  const seen = new Map<number, number>();
  let marks = '';
  tl.points.forEach((p, k) => {
    const v = shown[k]!;
    const sec = Math.floor(p.t);
    const i = seen.get(sec) ?? 0;
    seen.set(sec, i + 1);
    const cx = r1(x(sec + (0.85 * (i + 0.5)) / perSecond.get(sec)!));
    const cy = r1(y(v.q));
    const label = `<title>${p.who === 'creator' && !p.isBuy ? 'Creator sell' : WHO_MARK[p.who]}: ${v.qText}, ${v.tText}, ${v.after} after creation</title>`;
    if (p.who === 'creator') {
      marks += p.isBuy
        ? `<rect class="m c-creator" x="${oneDecimal(cx - 5)}" y="${oneDecimal(cy - 5)}" width="10" height="10">${label}</rect>`
        : `<path class="m c-sell" d="M${oneDecimal(cx - 6)},${oneDecimal(cy - 5)}h12l-6,11z">${label}</path>`;
    } else {
      marks += `<circle class="m c-${p.who}${p.isBuy ? '' : ' sell'}" cx="${oneDecimal(cx)}" cy="${oneDecimal(cy)}" r="4">${label}</circle>`;
    }
  });
  const table = tableAt
    ? `<p class="small" id="timeline-table-at">The buyer timeline as a table, ${esc(count(tl.points.length, 'trade'))} each with its transaction, is on <a href="${esc(tableAt)}">this launch’s first-30-seconds page</a>.</p>`
    : `<details><summary>Buyer timeline as a table (${esc(count(tl.points.length, 'trade'))})</summary>${timelineTableOf(sym, joinMap(tl.points, (p, k) => timelineRow(s, p, sym, explorer, shown[k]!)))}</details>`;
  const bandEnd = x(Math.floor(tl.creationSlotEnd) + 1);
  const creatorTrades = tl.points.filter((p) => p.who === 'creator').length;
  return raw(`<figure class="chart" id="chart-timeline" data-chart="timeline" data-points="${tl.points.length}" data-bundled-wallets="${tl.bundledWallets}" data-first30s-wallets="${tl.first30sWallets}" data-creator-trades="${creatorTrades}" data-cut-at-100="${String(tl.cutAt100)}">
<figcaption><h3>Buyer timeline</h3> Every trade of the first 30 s${tl.cutAt100 ? ' (the first 100 buys: there were more)' : ''}, by time after creation and ${sym} spent (a square-root scale: small buys stay visible beside large ones); the shaded band is the creation slot (bundled buys). Block times have 1-second resolution, so trades of one second are spread across it.</figcaption>
<svg viewBox="0 0 ${W} ${TL_H}" role="img" aria-labelledby="timeline-title"><title id="timeline-title">Buyer timeline of ${esc(name)}: ${tl.cutAt100 ? `the first ${tl.points.length} trades of the first 30 s (there were more)` : `${tl.points.length} trades in the first 30 s`}, ${tl.bundledWallets} bundled wallets</title>
<rect class="band" x="${PAD.l}" y="${PAD.t}" width="${oneDecimal(bandEnd - PAD.l)}" height="${TL_H - PAD.t - PAD.b}"></rect>
${axes(x, y, TL_H, timeTicks(maxT), unit.symbol)}
${marks}${tl.cutAt100 ? cutMark(x(Math.floor(Math.max(...tl.points.map((p) => p.t))) + 1)) : ''}
</svg>
${TIMELINE_LEGEND}
${table}
</figure>`) as Html;
}

/**
 * Where a buyer timeline stops drawing (its first 100 buys: there were more): a dashed line at the
 * end of the last drawn second and its label, so the chart does not read as buying that stopped
 * (a phone reader's review: the dots of 300 buyers ended at 9 s on a 0–30 s axis).
 */
function cutMark(at: number): string {
  const left = at > (W * 2) / 3;
  return `<line class="mk-cut" x1="${oneDecimal(at)}" x2="${oneDecimal(at)}" y1="${PAD.t}" y2="${TL_H - PAD.b}"></line><text class="mk-cut" x="${oneDecimal(left ? at - 4 : at + 4)}" y="${PAD.t}" dy="1.2em" text-anchor="${left ? 'end' : 'start'}">first 100 buys</text>`;
}

type Scale = { (v: number): number; ticks(n?: number): number[] };

/** A time axis's ticks (seconds) and their labels, escaped. */
interface TimeTicks {
  ticks: number[];
  labels: string[];
}

/** {@link timeTicks} by axis end: a pure function of one number (the timeline's is 30 s on most pages), so kept; cleared past 64 ends. */
const TIME_TICKS = new Map<number, TimeTicks>();

/** Ticks of a time axis in seconds, in whole units of s, min, h or d (d3 picks nice counts of that unit), with their labels. Shared: callers must not change them. */
function timeTicks(endSeconds: number): TimeTicks {
  let t = TIME_TICKS.get(endSeconds);
  if (t) return t;
  const [u, name] = endSeconds > 2 * 86400 ? [86400, 'd'] : endSeconds > 2 * 3600 ? [3600, 'h'] : endSeconds > 120 ? [60, 'min'] : [1, 's'];
  const ticks = scaleLinear().domain([0, endSeconds / u]).ticks(5).map((v) => v * u);
  t = { ticks, labels: ticks.map((v) => esc(`${sig(v / u)} ${name}`)) };
  if (TIME_TICKS.size >= 64) TIME_TICKS.clear();
  TIME_TICKS.set(endSeconds, t);
  return t;
}

/**
 * A chart's axes: the baseline, the unit, y's grid lines and labels (`sig` of each tick), x's labels. Each tick's position computed once.
 * Every other label (from the first) is `class="alt"`: a phone draws the chart at about half its width
 * and its labels larger, and shows only the others (public/site.css), so they never overlap. The unit
 * stands above the plot, clear of the y labels; an x label at the left edge starts there, one at the right edge ends there.
 */
function axes(x: Scale, y: Scale, h: number, xTicks: TimeTicks, unit: string): string {
  let ys = '';
  const yt = y.ticks(4);
  for (let i = 0; i < yt.length; i++) {
    const at = y(yt[i]!);
    const a = oneDecimal(at);
    ys += `<line class="grid" x1="${PAD.l}" x2="${W - PAD.r}" y1="${a}" y2="${a}"></line><text${i % 2 ? ' class="alt"' : ''} x="${PAD.l - 6}" y="${oneDecimal(at + 5)}" text-anchor="end">${esc(compact(yt[i]!))}</text>`;
  }
  let xs = '';
  const xt = xTicks.ticks;
  for (let i = 0; i < xt.length; i++) {
    const at = x(xt[i]!);
    // at the left edge the label starts at the axis (clear of y's lowest label), at the right edge it ends there
    const [ax, anchor] = at < PAD.l + 24 ? [PAD.l, 'start'] : at > W - PAD.r - 24 ? [W - PAD.r, 'end'] : [at, 'middle'];
    xs += `<text${i % 2 ? ' class="alt"' : ''} x="${oneDecimal(ax)}" y="${h - PAD.b + 22}" text-anchor="${anchor}">${xTicks.labels[i]}</text>`;
  }
  return `<g class="axis">
<line x1="${PAD.l}" x2="${W - PAD.r}" y1="${h - PAD.b}" y2="${h - PAD.b}"></line><text class="unit" x="${PAD.l}" y="${PAD.t - 10}" text-anchor="start">${esc(unit)}</text>
${ys}
${xs}
</g>`;
}

const CV_H = 240;

/**
 * A completion or migration mark of the curve at `t` seconds (nothing when null): its line, and its
 * label `dy` (an em length: it follows the label size the page's CSS gives, 13 units on a wide
 * screen, 28 on a phone) below the top of the plot, so that the unit above the plot and the two
 * labels clear each other at any size.
 */
function mark(x: (v: number) => number, t: number | null, label: string, cls: string, dy: string): string {
  if (t === null) return '';
  const at = x(t);
  return `<line class="${cls}" x1="${oneDecimal(at)}" x2="${oneDecimal(at)}" y1="${PAD.t}" y2="${CV_H - PAD.b}"></line><text class="${cls}" x="${oneDecimal(at < W / 3 ? at + 4 : at - 4)}" y="${PAD.t}" dy="${dy}" text-anchor="${at < W / 3 ? 'start' : 'end'}">${label}</text>`;
}

/**
 * At most one point per pixel column, the last one of it (a 2,000-trade curve stays a small
 * path), as `[x, y]` rounded to a tenth, the columns in the order they first appear. The points
 * come in time order, so a column's points are consecutive: one pass keeps the last of each run;
 * points out of order (or not finite) go through a Map of the columns instead, with the same answer.
 */
function columnPoints(points: readonly CurvePoint[], qs: readonly number[], xOf: (v: number) => number, yOf: (v: number) => number): [number, number][] {
  const n = points.length;
  const px: number[] = new Array(n);
  let kept: number[] = [];
  let col = 0;
  let ordered = true;
  for (let i = 0; i < n; i++) {
    const at = (px[i] = xOf(points[i]!.t));
    const k = Math.round(at);
    if (kept.length > 0 && k === col) kept[kept.length - 1] = i;
    else if (kept.length === 0 || k > col) {
      kept.push(i);
      col = k;
    } else {
      ordered = false;
      break;
    }
  }
  if (!ordered) {
    const cols = new Map<number, number>();
    for (let i = 0; i < n; i++) cols.set(Math.round((px[i] = xOf(points[i]!.t))), i);
    kept = [...cols.values()];
  }
  const out: [number, number][] = new Array(kept.length);
  for (let j = 0; j < kept.length; j++) {
    const i = kept[j]!;
    out[j] = [r1(px[i]!), r1(yOf(qs[i]!))];
  }
  return out;
}

/**
 * The "pool now" label of the dot at (`dotX`, `dotY`): two lines, "pool" over "now", ending at the
 * plot's right edge, so that at a phone's label size (28 units, public/site.css) it stays in the
 * column kept for the dot, right of the migration mark (one line, "pool now", crossed the mark
 * there). Above the dot; below it when two lines above would rise past the top of the plot. The
 * line offsets are in em, so they follow the label size the page's CSS gives.
 */
function poolLabel(dotY: number): string {
  const x = W - PAD.r;
  const above = dotY - 9 - 60 >= PAD.t;
  const y = above ? dotY - 9 : dotY + 8;
  const [first, second] = above ? ['-1.1em', '1.1em'] : ['1em', '1.1em'];
  return `<text class="pool-label" x="${x}" y="${oneDecimal(y)}" text-anchor="end"><tspan x="${x}" dy="${first}">pool</tspan><tspan x="${x}" dy="${second}">now</tspan></text>`;
}

/** Curve progress: the curve's real quote reserves over time to completion; completion and migration marked; the pool now when graduated. */
export function curveChart(s: ChartSeries, name: string): Html {
  const c = s.curve;
  if (!c) return missingChart('curve', 'Curve progress', s.missing);
  const unit = quoteUnit(s.quoteMint, s.quoteDecimals);
  const sym = esc(unit.symbol);
  const scale = 10 ** unit.decimals;
  // a completed curve is drawn to its migration (or completion), an open one to its latest trade held
  // (to the record's asOf would squash the trades into the left edge of a months-long axis)
  const closedAt = c.migratedAt ?? c.completedAt;
  const points = c.points;
  const n = points.length;
  const end = Math.max(closedAt ?? 0, points[n - 1]!.t, 30);
  const x = scaleLinear().domain([0, end]).range([PAD.l, W - PAD.r - (c.poolQuoteNow ? 70 : 0)]);
  // each point's quote read once (rawNumber: the same number as Number, without its string parse)
  const qs: number[] = new Array(n);
  let maxQ = -Infinity;
  for (let i = 0; i < n; i++) maxQ = Math.max(maxQ, (qs[i] = rawNumber(points[i]!.realQuote) / scale));
  maxQ = Math.max(maxQ, c.poolQuoteNow ? rawNumber(c.poolQuoteNow) / scale : 0, 1e-9);
  const y = scaleLinear().domain([0, maxQ]).nice().range([CV_H - PAD.b, PAD.t]);
  const xOf = linearMap(x);
  const yOf = linearMap(y);
  const pts = columnPoints(points, qs, xOf, yOf);
  const lastX = c.migratedAt !== null ? x(c.migratedAt) : x(end);
  pts.push([r1(lastX), pts[pts.length - 1]![1]]);
  // the steps as d3-shape's curveStepAfter line draws them, written as d3-path would (svg-text.ts);
  // its text is M, L, Z, commas and roundedText's numbers (digits, '.', '-', 'e', '+', NaN,
  // Infinity): nothing esc would change, so the path (kilobytes on a long curve) is not scanned for it
  const path = stepAfterPath(pts);
  const last = c.points[c.points.length - 1]!;
  // the pool dot stands right of the curve's time axis, after a dashed break: it is now, not a moment of the seconds or hours the axis counts
  const breakX = W - PAD.r - 62;
  const pool = c.poolQuoteNow
    ? `<line class="break" x1="${breakX}" x2="${breakX}" y1="${PAD.t}" y2="${CV_H - PAD.b}"></line><circle class="c-pool" cx="${W - PAD.r - 35}" cy="${oneDecimal(y(rawNumber(c.poolQuoteNow) / scale))}" r="5"></circle>${poolLabel(y(rawNumber(c.poolQuoteNow) / scale))}`
    : '';
  const lastQ = quoteAmount(last.realQuote, s.quoteMint, s.quoteDecimals);
  const poolQ = c.poolQuoteNow ? quoteAmount(c.poolQuoteNow, s.quoteMint, s.quoteDecimals) : null;
  const near = c.completedAt !== null && c.migratedAt !== null && Math.abs(x(c.migratedAt) - x(c.completedAt)) < 40;
  return raw(`<figure class="chart" id="chart-curve" data-chart="curve" data-points="${c.points.length}" data-final-real-quote="${esc(last.realQuote)}" data-completed="${String(c.completedAt !== null)}" data-completed-at="${c.completedAt ?? ''}" data-migrated-at="${c.migratedAt ?? ''}" data-pool-quote-now="${esc(c.poolQuoteNow ?? '')}" data-source="${esc(c.source)}">
<figcaption><h3>Curve progress</h3> ${sym} in the bonding curve after each trade${c.source === 'trades' ? ' (summed from the trades: this era\u2019s events do not carry the reserves)' : ''}, from creation ${c.migratedAt !== null ? 'to migration' : c.completedAt !== null ? 'to completion' : 'to the latest trade held'}${c.poolQuoteNow ? '; the dot right of the dashed line is the pool now, not a time on the axis' : ''}.</figcaption>
<svg viewBox="0 0 ${W} ${CV_H}" role="img" aria-labelledby="curve-title"><title id="curve-title">Curve progress of ${esc(name)}: ${esc(lastQ.text)} in the curve after the last trade held${c.completedAt !== null ? ', completed' : ''}</title>
${axes(x, y, CV_H, timeTicks(end), unit.symbol)}
<path class="line" d="${path}"></path>
${mark(x, c.completedAt, c.migratedAt !== null && Math.abs(x(c.migratedAt) - x(c.completedAt ?? -1e12)) < 40 ? 'complete, then migrated' : 'complete', 'mk-complete', '1.2em')}${near ? '' : mark(x, c.migratedAt, 'migrated', 'mk-migrate', '2.5em')}${pool}
</svg>
<details><summary>Curve progress as a table</summary><table class="stack data"><tbody>
<tr><th scope="row">Curve trades</th><td>${c.trades === c.points.length - 1 ? c.trades.toLocaleString('en') : `${c.trades.toLocaleString('en')} (the chart draws ${(c.points.length - 1).toLocaleString('en')}: the last of each time bucket)`}</td></tr>
<tr><th scope="row">In the curve after the last trade</th><td title="${esc(lastQ.exact)}">${esc(lastQ.text)}, ${esc(afterText(last.t, s.timesEstimated))} after creation</td></tr>
<tr><th scope="row">Completed</th><td>${c.completedAt !== null ? esc(`${afterText(c.completedAt, s.timesEstimated)} after creation`) : 'not completed in the held history'}</td></tr>
<tr><th scope="row">Migrated</th><td>${c.migratedAt !== null ? esc(`${afterText(c.migratedAt, s.timesEstimated)} after creation`) : 'not migrated in the held history'}</td></tr>
${poolQ ? `<tr><th scope="row">Pool now</th><td title="${esc(poolQ.exact)}">${esc(poolQ.text)}</td></tr>` : ''}
</tbody></table></details>
</figure>`) as Html;
}
