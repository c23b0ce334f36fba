import { raw } from 'hono/html';
import { html, htmlValue, joinMap } from './html-tag.ts';
import { displayText } from './display-text.ts';
import { DEMO_BANNER, renderPage } from './shell.ts';
import { chartSeriesCached, type ChartSeries } from './chart-data.ts';
import { afterText, curveChart, drawnSections, remembered, supplyChart, timelineChart } from './charts.ts';
import { earlyPath, explorerOf, httpUrl, pumpFunUrl, tokenPath, txLink, txLinksText, walletPath, type Explorer } from './links.ts';
import { esc } from './escape.ts';
import { USDC_MINT, after, count, duration, pct, pctBeside, pctOf, pricePerMillion, quoteAmount, quoteUnit, shortAddress, tokenAmount, utc, type Shown } from './units.ts';
import type { CurveBuyout, DecodedTransaction, FindingClass, Flag, LaunchDocument, LaunchFacts, PoolNow } from '../core/types.ts';
import { CREATOR_MAJORITY_PCT } from '../core/record/build-launch.ts';
import { METHOD_VERSION } from '../core/record/classify.ts';
import { methodAtLeast, notCompletedKnown, notMigratedKnown } from '../core/record/known-graduation.ts';
import { ORIGIN_WORDS } from './origin-words.ts';

/**
 * The one template of the public token page `t/{mint}.html`, used by the collector (which writes
 * the file) and by the site route (which renders it when the file is missing): same record and
 * same transactions, same bytes, in the site's one frame (shell.ts). Pure: no I/O. Every value is
 * escaped by `hono/html`'s `html` tag; chain metadata passes `displayText`. Links from chain
 * metadata pass an http/https allow-list (never javascript:).
 *
 * Order: the verdict (class and markers at birth in words, with the reason), the flags with their
 * transactions (the proof of the verdict, first on a phone too: a long evidence list folded after
 * {@link EVIDENCE_SHOWN}), the three charts (charts.ts, from the launch's transactions), the wallets
 * behind the counts, then every fact in detail with its raw value.
 *
 * Wording rules (spec §1, §2.3): `cleanAtBirth: null` reads "unknown — <why>" (the held history
 * incomplete, or a marker not established), never clean;
 * a fact not established reads "unknown — <why>", never "none" or "no"; NO_MARKERS never reads
 * "safe"; the page's own words on an UNKNOWN page never say "clean", "safe" or "no issues" (the
 * record's `why`, quoted as it is, may say "not clean").
 *
 * Stable ids: `#token-name`, `#mint`, `#finding`, `#why`, `#at-birth`, `#facts`, `#document`,
 * `#sha256`, `#creator-page`, `#flags`, `#wallets`, `#chart-supply`, `#chart-timeline`, `#chart-curve`.
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
  /** Address for "report a wrong record" (config CONTACT_EMAIL). */
  contactEmail?: string;
  /**
   * Every transaction held for the launch (`launch_tx`), for the charts and the first-30-s wallets.
   * Absent: those parts say they were not given (callers that write pages always pass them).
   */
  transactions?: DecodedTransaction[];
  /** The chart series already computed from those transactions (chartSeries), used instead of computing them again (else they are computed, or reused from chartSeriesCached). */
  series?: ChartSeries;
}

type Html = ReturnType<typeof raw>;

export { DEMO_BANNER, PAGE_CSP } from './shell.ts';
export { httpUrl } from './links.ts';

/** What each class means, in one sentence (spec §2.2). */
const CLASS_WORDS: Record<FindingClass, string> = {
  FINDINGS: 'Findings: a marker was recorded about how this token launched.',
  NOTE: 'Note: no marker at launch; something about later behaviour was recorded.',
  NO_MARKERS: 'No recorded markers: checked against every marker, none was found. This is not an endorsement.',
  UNKNOWN: 'Unknown: not established. This is an absence of evidence, not a mild warning.',
};


/**
 * Spec §2.3 in words; UNKNOWN+false is "not established" (e.g. a pool that could not be read).
 * `doc`: the record, to say why a null is unknown — "not observed" when it was neither watched at
 * its creation nor rebuilt and its creation is not held; else its held history incomplete, or
 * (complete) a marker not established — never "not observed" of a launch the archive did watch.
 */
export function birthWords(cleanAtBirth: boolean | null, cls: FindingClass, doc?: Pick<LaunchDocument, 'history' | 'launch' | 'observedAtLaunch' | 'origin'>): string {
  if (cleanAtBirth === null) {
    // spec §2.3's case: neither watched at its creation nor rebuilt, the creation not held
    if (!doc || (doc.launch === null && !doc.observedAtLaunch && doc.origin !== 'rebuilt')) return 'unknown — not observed';
    return doc.history.complete ? 'unknown — not established' : 'unknown — the held history is incomplete';
  }
  if (cleanAtBirth) return 'no recorded marker at birth';
  return cls === 'UNKNOWN' ? 'not established' : 'markers present';
}

const CONFIRMED_BY: Record<string, string> = {
  migration_event: 'migration event seen on chain',
  pool: 'canonical pool account read',
  withdraw: 'withdraw by the migration authority (Raydium era)',
};

/** Chain metadata as shown: bidi controls and control characters made visible (display-text.ts). */
const text = (s: string | null | undefined, missing = 'unknown — not in the metadata', max = 1000) =>
  s === null || s === undefined || s === '' ? missing : displayText(s, max);

/** A rounded amount with its exact value on hover. */
const shown = (v: Shown) => raw(shownText(v)) as Html;

/** {@link shown}'s markup as a string, for tables built as strings. */
function shownText(v: Shown): string {
  return `<span title="${esc(v.exact)}">${esc(v.text)}</span>`;
}

/** Why launch facts are unknown on this record (the page's "unknown — <why>"). */
function unknownWhy(doc: LaunchDocument): string | null {
  if (!doc.launch) return 'the creation transaction is not held';
  if (!doc.history.complete) return 'the held history is incomplete';
  return null;
}

/** A row of the details table: label, value (anything the html tag inserts), and the raw value as its title. Built as a string (the tag's bytes) unless the value is one only hono's tag resolves. */
function row(label: string, value: unknown, rawValue?: string): Html {
  const v = htmlValue(value);
  const t = rawValue !== undefined ? htmlValue(rawValue) : '';
  if (v === null || t === null) return html`<tr><th scope="row">${label}</th><td data-label="${label}"${rawValue !== undefined ? html` title="${rawValue}"` : ''}>${value}</td></tr>` as Html;
  const l = esc(label);
  return raw(`<tr><th scope="row">${l}</th><td data-label="${l}"${rawValue !== undefined ? ` title="${t}"` : ''}>${v}</td></tr>`) as Html;
}

/** A wallet: its short form linked to its creator page, and an explorer link. */
function walletCell(ex: Explorer, wallet: string, linkPage = true): Html {
  return raw(walletCellText(ex, wallet, linkPage)) as Html;
}

/** {@link walletCell}'s markup as a string (the same bytes), for tables built as strings. */
function walletCellText(ex: Explorer, wallet: string, linkPage = true): string {
  const acc = ex.account(wallet);
  const w = esc(wallet);
  const short = esc(shortAddress(wallet));
  return (
    // a link's href holds the address (no title repeating it); the explorer link's label names it in full
    (linkPage ? `<a class="mono" href="${esc(walletPath(wallet))}">${short}</a>` : `<code title="${w}">${short}</code>`) +
    (acc ? ` <a class="ext" href="${esc(acc)}" aria-label="${w} on the explorer">explorer</a>` : '')
  );
}

/** What is not known about an UNKNOWN record, and why, in one or two sentences. */
function unknownExplained(doc: LaunchDocument): string {
  const l = doc.launch;
  if (!l) return 'Not known: every launch fact (who created it, who bought first, whether buys were bundled), because the archive does not hold the creation transaction.';
  const u = doc.flags.filter((f) => f.class === 'UNKNOWN').map((f) => f.code);
  if (u.includes('unrecognised_program_data')) return 'Not known: whether the launch carried a marker, because a transaction of the launch could not be read, or holds program data the archive cannot read; the counts below are of what was read only.';
  if (u.includes('history_incomplete')) {
    // the curve account absent (history_incomplete's other case) is no evidence of missing trades, only that the history held is not the chain's
    const absent = doc.flags.some((f) => f.code === 'history_incomplete' && f.summary.includes('has no bonding curve account'));
    return `Not known: whether the launch carried a marker, because ${absent ? 'the history held is not the chain’s (the chain has no bonding curve account where it gives one)' : 'the history held is missing trades (the chain’s bonding curve account does not match it)'}; the counts below are of the history held only.`;
  }
  if (!doc.history.complete) return 'Not known: whether the launch carried a marker, because the archive does not hold its complete history; the counts below are of the history held only.';
  const funding = doc.funder.sharedCohort === null;
  if (l.graduated && !doc.pool && l.graduationConfirmedBy !== 'withdraw') {
    return `Not known: the pool this curve graduated to, because it could not be read${
      funding ? ', nor whether the creator and the earliest buyers share a funder (a wallet’s first funding source could not be established); no other marker was found.' : '; every other launch marker was checked and none was found.'
    }`;
  }
  if (funding) return 'Not known: whether the creator and the earliest buyers share a funder, because a wallet’s first funding source could not be established; every other marker was checked.';
  return 'Not known: a criterion of the method could not be checked.';
}

/** The two curve states of a `history_incomplete` why (the builder's words, build-launch.ts): figures a phone screen need not lead with. */
const ACCOUNT_DISAGREES = /: the bonding curve account read at slot \d+ \([^()]*\) disagrees with the state the held transactions give \([^()]*\)\.$/;

/**
 * The verdict's why: the record's `finding.why`, except that a `history_incomplete` one names the
 * disagreeing curve states without their figures, which the flag under "Flags" gives in full (a
 * review at 360 px: the figures filled the first screen). Any other why is shown as it is.
 */
function shownWhy(doc: LaunchDocument): string {
  const why = doc.finding.why;
  if (!doc.flags.some((f) => f.code === 'history_incomplete') || !ACCOUNT_DISAGREES.test(why)) return why;
  return why.replace(ACCOUNT_DISAGREES, ': the chain’s bonding curve account disagrees with the transactions held (both states, in figures, are under “Flags and the transactions behind them”).');
}

/**
 * A count of wallets from the held transactions (bundled, first-30-s, outside curve buyers): the
 * count itself over a complete history; over an incomplete one a lower bound — "at least N" — and
 * for none "unknown", never "0": the missing transactions may hold the wallets (methodology
 * "History and origin"; unknown is never shown as a clean figure). `form`: the verdict's chip or
 * the Details row; `note`: words after the number.
 */
function heldCount(doc: LaunchDocument, n: number, form: 'pill' | 'row', note = ''): string {
  if (doc.history.complete) return `${n}${note}`;
  if (n === 0) return form === 'pill' ? 'unknown — history incomplete' : 'unknown — none in the held history, which is incomplete';
  return `at least ${n}${note}${form === 'pill' ? ' (held history)' : ' (in the held history, which is incomplete)'}`;
}

/** The verdict box (class, label, why, markers at birth, the counts): the top of the token page and of its first-30-seconds page. */
export function verdict(doc: LaunchDocument, s: ChartSeries | null): Html {
  const cls = doc.finding.class;
  const l = doc.launch;
  const pills: Html[] = [];
  if (l) {
    const total = l.totalSupplyRaw;
    const inc = doc.history.complete ? '' : ' (held history)';
    pills.push(html`<li><span class="k">Creator kept at creation</span> <span title="${l.creatorTokensRaw} raw of ${total}">${pctBeside(l.creatorSupplyPct, CREATOR_MAJORITY_PCT)}</span>${inc}</li>` as Html);
    pills.push(html`<li><span class="k">Bundled buyers</span> ${heldCount(doc, l.bundledBuyers, 'pill')}</li>` as Html);
    // the first-30-s count includes the bundled buyers (the creation slot is in the first 30 s): said, so the two pills are not read as different wallets
    pills.push(html`<li><span class="k">First-30-s buyers</span> ${heldCount(doc, l.buyersFirst30s, 'pill', l.bundledBuyers > 0 ? ` (incl. the ${l.bundledBuyers} bundled)` : '')}</li>` as Html);
    pills.push(html`<li><span class="k">Creator sold on the curve</span> ${l.creatorSold ? 'yes' : doc.history.complete ? 'no' : 'unknown — history incomplete'}</li>` as Html);
    pills.push(html`<li><span class="k">Graduated</span> ${graduatedPill(doc, l)}</li>` as Html);
  }
  void s;
  return html`<section class="finding ${cls}" id="finding" aria-labelledby="verdict-h">
<p class="class"><span class="badge ${cls}">${cls.replace('_', ' ')}</span> <span id="verdict-h">${doc.finding.label}</span></p>
<p id="why">${shownWhy(doc)}</p>
${cls === 'UNKNOWN' ? html`<p id="not-known">${unknownExplained(doc)}</p>` : ''}
<p id="at-birth">Markers at birth: <strong>${birthWords(doc.cleanAtBirth, cls, doc)}</strong></p>
${pills.length ? html`<ul class="pills">${pills}</ul>` : ''}
<p class="muted small">${CLASS_WORDS[cls]}</p>
</section>` as Html;
}

function bundleTable(doc: LaunchDocument, ex: Explorer): Html {
  const l = doc.launch;
  const why = unknownWhy(doc);
  if (!l) return html`<p>Unknown — ${why}.</p>` as Html;
  // a markers-v1 document has no `bundle` (schemas.ts): its wallets are not in the record
  if (!l.bundle?.length)
    return html`<p>${
      l.bundledBuyers !== 0
        ? 'The wallets are not listed in this record (issued before markers-v2).'
        : why
          ? 'None in the history held, which is incomplete: a bundled buy may be among the trades the archive has not read.'
          : 'No outside wallet bought in the creation slot.'
    }</p>` as Html;
  return html`<table class="stack wallets" id="bundled-table"><thead><tr><th scope="col">Wallet</th><th scope="col">Tokens</th><th scope="col">Of supply</th><th scope="col">Spent</th><th scope="col">How it arrived</th><th scope="col">Transactions</th></tr></thead><tbody>
${raw(
  joinMap(
    l.bundle,
    (b) =>
      `<tr data-wallet="${esc(b.wallet)}"><td data-label="Wallet">${walletCellText(ex, b.wallet)}</td><td data-label="Tokens">${shownText(tokenAmount(b.tokens))}</td><td data-label="Of supply">${esc(pctOf(b.tokens, l.totalSupplyRaw))}</td><td data-label="Spent">${shownText(quoteAmount(b.quoteSpent, l.quoteMint, l.quoteDecimals))}</td><td data-label="How it arrived">${b.withCreation ? 'in the creation transaction' : 'same slot, another transaction'}${
        b.jitoTipLamports === null ? '; Jito tip unknown — read in a form that cannot tell' : b.jitoTipLamports !== '0' ? `; Jito tip ${shownText(quoteAmount(b.jitoTipLamports, null))}` : ''
      }</td><td data-label="Transactions">${txLinksText(ex, b.signatures, shortAddress)}</td></tr>`,
  ),
)}
</tbody></table>` as Html;
}

/**
 * The most first-30-s buyers the token page lists: a launch that draws attention has hundreds in
 * its first 30 s (300 made a 386 KB page, each row a card of six lines on a phone). Past it the
 * table lists the largest (tokens bought in the window) and every one of them, in the order they
 * bought, is on the launch's first-30-seconds page (render/early-page.ts), linked: the token page
 * stays one size however many bought (issue 23: ≤ 60 KB, ≤ 15 KB gzip).
 */
export const EARLY_TABLE_ROWS = 25;

/** The most trades of the buyer timeline whose table the token page folds under the chart; past it the table is on the first-30-seconds page. */
export const TIMELINE_TABLE_ROWS = 20;

/**
 * Whether a launch has a first-30-seconds page (`/t/{mint}.early.html`, render/early-page.ts): its
 * series holds more than {@link EARLY_TABLE_ROWS} first-30-s buyers or more than
 * {@link TIMELINE_TABLE_ROWS} trades in its buyer timeline. Pure; the collector writes the page
 * exactly then, and the server answers it exactly then.
 */
export function hasEarlyPage(s: ChartSeries | null | undefined): boolean {
  if (!s || s.missing) return false;
  return s.earlyBuyers.length > EARLY_TABLE_ROWS || (s.timeline?.points.length ?? 0) > TIMELINE_TABLE_ROWS;
}

/** The `n` largest buyers by tokens bought in the window (ties: the earlier first), kept in their first-buy order. */
export function largestEarly(buyers: ChartSeries['earlyBuyers'], n: number): ChartSeries['earlyBuyers'] {
  const order = buyers.map((b, i) => ({ i, tokens: BigInt(b.tokens) }));
  order.sort((a, b) => (a.tokens === b.tokens ? a.i - b.i : a.tokens > b.tokens ? -1 : 1));
  return order.slice(0, n).sort((a, b) => a.i - b.i).map((o) => buyers[o.i]!);
}

function earlyTable(doc: LaunchDocument, s: ChartSeries | null, ex: Explorer): Html {
  const l = doc.launch;
  const why = unknownWhy(doc);
  if (!l) return html`<p>Unknown — ${why}.</p>` as Html;
  if (!s) return html`<p>Unknown — the launch’s transactions were not given to this page.</p>` as Html;
  if (s.missing) return html`<p>Unknown — ${why ?? s.missing}.</p>` as Html;
  const all = s.earlyBuyers;
  if (!all.length) return html`<p>No outside wallet other than the bundled buyers bought in the first 30 s.</p>` as Html;
  return remembered(earlyDrawn, all, [l.totalSupplyRaw, l.quoteMint, ex, doc.mint], () => drawEarly(l, all, ex, doc.mint));
}

/** The first-30-s tables drawn, by the series' list of first-window buyers (charts.ts `remembered`). */
const earlyDrawn = drawnSections<ChartSeries['earlyBuyers']>();

function drawEarly(l: LaunchFacts, all: ChartSeries['earlyBuyers'], ex: Explorer, mint: string): Html {
  const rows = all.length > EARLY_TABLE_ROWS ? largestEarly(all, EARLY_TABLE_ROWS) : all;
  const table = raw(earlyBuyersTable(l, rows, ex, 'early-table')) as Html;
  if (rows === all) return table;
  const sum = (bs: ChartSeries['earlyBuyers']) => bs.reduce((n, b) => n + BigInt(b.tokens), 0n).toString();
  const listed = new Set(rows.map((b) => b.wallet));
  const others = all.filter((b) => !listed.has(b.wallet));
  return html`<p id="early-shown">The ${rows.length} largest of the ${all.length} first-30-s buyers are in the table, in the order they bought: together they bought ${pctOf(sum(rows), l.totalSupplyRaw)} of the supply in the window; the other ${others.length} bought ${pctOf(sum(others), l.totalSupplyRaw)}. <a href="${earlyPath(mint)}">All ${all.length}, each with its transactions</a>, are on this launch’s first-30-seconds page.</p>
${table}
<p id="early-all"><a href="${earlyPath(mint)}">All ${all.length} first-30-s buyers, in the order they bought</a>, each with its transactions, are on this launch’s first-30-seconds page.</p>` as Html;
}

/**
 * A table of first-30-s buyers (`id`), a row each: wallet (its page and the explorer), first buy
 * (time after creation), tokens bought in the window, their share of the supply, quote spent,
 * transactions (each linked by its signature). Markup as a string.
 */
export function earlyBuyersTable(l: LaunchFacts, rows: ChartSeries['earlyBuyers'], ex: Explorer, id: string, flow?: { jumps: string }): string {
  // flow (the first-30-seconds page): a row a line or two on a phone, the wallet linked to its page only (which links the explorer), and every
  // 50 rows a way back to the top and to the record (`jumps`): 300 buyers made 85,000 px of cards
  return `<table class="${flow ? 'flow wallets' : 'stack wallets'}" id="${esc(id)}"><thead><tr><th scope="col">Wallet</th><th scope="col">First buy</th><th scope="col">Tokens</th><th scope="col">Of supply</th><th scope="col">Spent</th><th scope="col">Transactions</th></tr></thead><tbody>
${joinMap(
  rows,
  (b, i) =>
    `${flow && i > 0 && i % 50 === 0 ? `<tr class="jump"><td colspan="6">${flow.jumps}</td></tr>` : ''}<tr data-wallet="${esc(b.wallet)}"><td data-label="Wallet">${flow ? `<a class="mono" href="${esc(walletPath(b.wallet))}">${esc(shortAddress(b.wallet))}</a>` : walletCellText(ex, b.wallet)}</td><td data-label="First buy">${esc(afterText(b.t, b.estimated))} after creation</td><td data-label="Tokens">${shownText(tokenAmount(b.tokens))}</td><td data-label="Of supply">${esc(pctOf(b.tokens, l.totalSupplyRaw))}</td><td data-label="Spent">${shownText(quoteAmount(b.quote, l.quoteMint, l.quoteDecimals))}</td><td data-label="Transactions">${txLinksText(ex, b.signatures, shortAddress)}</td></tr>`,
)}
</tbody></table>`;
}

function buyoutWhen(b: CurveBuyout): string {
  if (b.sameBatchAsLaunch) return 'in the creation slot (the same batch of chain events as the launch)';
  return b.hoursAfterLaunch === null ? 'time unknown — a block time is missing' : `${duration(b.hoursAfterLaunch * 3600)} after launch`;
}

function buyoutTable(doc: LaunchDocument, ex: Explorer): Html {
  const b = doc.curveBuyout;
  const l = doc.launch;
  if (!b) {
    const why = unknownWhy(doc);
    if (why) return html`<p>Unknown — ${why}.</p>` as Html;
    return html`<p>No one: the curve had not completed as of ${doc.asOf.iso.slice(0, 10)}.</p>` as Html;
  }
  const total = l?.totalSupplyRaw ?? '1000000000000000';
  // the buyout's quote is the launch's: its decimals are the launch's
  const qd = l?.quoteMint === b.quoteMint ? l.quoteDecimals : null;
  const price = pricePerMillion(b.quoteSpent, b.tokens, b.quoteMint, qd);
  return html`<table class="stack wallets" id="buyout-table"><thead><tr><th scope="col">Wallet</th><th scope="col">When</th><th scope="col">Tokens</th><th scope="col">Of supply</th><th scope="col">Spent</th><th scope="col">Transaction</th></tr></thead><tbody>
<tr data-wallet="${b.wallet}"><td data-label="Wallet">${walletCell(ex, b.wallet)}</td><td data-label="When">${buyoutWhen(b)}</td><td data-label="Tokens">${shown(tokenAmount(b.tokens))}</td><td data-label="Of supply">${pctOf(b.tokens, total)}</td><td data-label="Spent">${shown(quoteAmount(b.quoteSpent, b.quoteMint, qd))}${buyoutFees(doc, b, qd)}${
    price ? html`<br><span class="muted">${shown(price)}</span>` : ''
  }${b.poolPart ? html`<br><span class="muted">of which at the future pool’s price: ${shown(tokenAmount(b.poolPart.tokens))} for ${shown(quoteAmount(b.poolPart.quoteSpent, b.quoteMint, qd))}</span>` : ''}</td><td data-label="Transaction">${txLink(ex, b.signature, shortAddress(b.signature))}</td></tr>
</tbody></table>` as Html;
}

/**
 * The buyout's fees after what it spent: " + fees X", or, when its events do not report them (the 2024
 * TradeEvent layout, before 2025-05-12: `fees` null since markers-v8; markers-v7 and before wrote "0"
 * there, and a pump buy always pays a fee), that they are not known; nothing for a markers-v1 document.
 */
function buyoutFees(doc: LaunchDocument, b: CurveBuyout, qd: number | null | undefined): unknown {
  if (b.fees === undefined) return '';
  if (b.fees === null || (b.fees === '0' && !methodAtLeast(doc, 8))) return html` + fees not known<br><span class="muted">trade events did not report fees before May 2025</span>`;
  return html` + fees ${shown(quoteAmount(b.fees, b.quoteMint, qd))}`;
}

/** The Quote row: SOL, USDC, or another mint with the decimals its amounts are shown in (or, not known, in raw units). */
function quoteRow(l: LaunchFacts): unknown {
  const u = quoteUnit(l.quoteMint, l.quoteDecimals);
  if (u.sol) return u.symbol;
  if (l.quoteMint === USDC_MINT) return html`${u.symbol} <code title="${l.quoteMint}">${shortAddress(l.quoteMint)}</code>`;
  return html`<code title="${l.quoteMint}">${shortAddress(l.quoteMint)}</code> (${
    u.raw ? 'its decimals are not in this record: its amounts are shown in raw units' : `${u.decimals} decimals, as the chain reported them`
  })`;
}

const PARTIAL = 'the held history is incomplete';

/** The 'Curve completed' value of a launch whose record says not completed. */
function notCompletedText(doc: LaunchDocument, l: LaunchFacts): string {
  if (doc.history.complete) return 'no';
  if (l.graduationCheck?.curveComplete === false && methodAtLeast(doc, 2)) return `no — the curve account read ${utc(l.graduationCheck.checkedAt.ms)}`;
  return `unknown — ${PARTIAL}`;
}

/** The 'Graduated' chip of the verdict. */
function graduatedPill(doc: LaunchDocument, l: LaunchFacts): string {
  if (l.graduated) return 'yes';
  if (l.completed) return notMigratedKnown(doc, l) ? 'completed, not migrated' : 'completed; migration unknown';
  return notCompletedKnown(doc, l) ? 'no' : 'unknown — history incomplete';
}

function graduatedCell(doc: LaunchDocument, l: LaunchFacts, ex: Explorer): unknown {
  if (!l.graduated && l.completed && !notMigratedKnown(doc, l)) return `unknown — the curve completed, and ${PARTIAL}`;
  if (!l.graduated && !l.completed && !notCompletedKnown(doc, l)) return `unknown — ${PARTIAL}`;
  if (!l.graduated) return l.completed ? 'no: the curve completed but no migration is held' : 'no: the curve has not completed';
  return html`yes${l.graduationConfirmedBy ? html` — confirmed by ${CONFIRMED_BY[l.graduationConfirmedBy] ?? l.graduationConfirmedBy}` : ''}${
    l.graduatedAt ? html`, at ${utc(l.graduatedAt.ms)}` : l.graduation?.signature ? '; when: unknown (its transaction has no block time)' : '; when: unknown (no graduating transaction is held: the account reads do not tell when)'
  }${l.secondsToGraduate !== null ? html` (<span title="${l.secondsToGraduate} s">${duration(l.secondsToGraduate)} after creation</span>)` : ''}${
    l.graduationObserved ? '' : html`; graduation not observed live`
  }${l.graduation?.signature ? html`; transaction ${txLink(ex, l.graduation.signature, shortAddress(l.graduation.signature))}` : ''}`;
}

function poolCell(doc: LaunchDocument, ex: Explorer): unknown {
  const p: PoolNow | null = doc.pool;
  const l = doc.launch;
  if (!p) {
    if (!l) return 'unknown — the creation transaction is not held';
    if (!l.graduated) return (l.completed ? notMigratedKnown(doc, l) : notCompletedKnown(doc, l)) ? 'no pool: the curve has not graduated' : `unknown — ${PARTIAL}`;
    if (l.graduationConfirmedBy === 'withdraw') return 'a Raydium-era pool, not read by the archive';
    return 'unknown — the pool could not be read';
  }
  // the pool's own read, else the launch's when the pool is quoted in the launch's mint (a document before markers-v6)
  const qd = p.quoteDecimals ?? (l?.quoteMint === p.quoteMint ? l.quoteDecimals : null);
  const price = pricePerMillion(p.quoteReserves, p.baseReserves, p.quoteMint, qd);
  return html`${walletCell(ex, p.address, false)}: ${shown(tokenAmount(p.baseReserves))} and ${shown(quoteAmount(p.quoteReserves, p.quoteMint, qd))}${
    price ? html`, price ${shown(price)}` : ''
  }; as of ${utc(p.asOf.ms)}`;
}

function flagsSection(doc: LaunchDocument, ex: Explorer): Html {
  const flags: Flag[] = doc.flags ?? [];
  if (!flags.length) {
    if (doc.finding.class === 'UNKNOWN') return html`<p>No flag is stated: the facts a flag needs are not established (see above).</p>` as Html;
    return html`<p>None: no marker was found in the launch’s complete history.</p>` as Html;
  }
  const links = (sigs: readonly string[]) => sigs.map((s, i) => html`${i ? ' ' : ''}${txLink(ex, s)}`);
  return html`<ul class="flags">${flags.map((f) => {
    const ev = f.evidence ?? [];
    // the flags stand under the verdict: a long list (a creator's hundred sells) is folded after its first few, all of it in the page
    const folded = ev.length > EVIDENCE_SHOWN + 1;
    return html`<li class="flag"><span class="badge ${f.class}">${f.class}</span> <strong>${f.summary}</strong> <code>${f.code}</code>${
      ev.length
        ? html`<br>Evidence (${count(ev.length, 'transaction')}): <span class="evidence">${links(folded ? ev.slice(0, EVIDENCE_SHOWN) : ev)}</span>${
            folded ? html`<details class="evidence-more"><summary>show the other ${count(ev.length - EVIDENCE_SHOWN, 'transaction')}</summary><span class="evidence">${links(ev.slice(EVIDENCE_SHOWN))}</span></details>` : ''
          }`
        : ''
    }${f.code === 'shared_funder' ? SHARED_FUNDER_NOTE : ''}</li>`;
  })}</ul>` as Html;
}

/** The methodology's section on the shared-funder marker (docs/methodology.md "Shared funder (`funder.sharedCohort`)"). */
export const SHARED_FUNDER_ANCHOR = 'shared-funder-fundersharedcohort';

/**
 * Said under the shared-funder flag (a facts audit found no page saying it): a first funder may be
 * an exchange's or a service's wallet, which the archive cannot tell apart (methodology "Exchange and
 * hot wallets are not told apart").
 */
const SHARED_FUNDER_NOTE = html`<br><span class="muted small">A shared first funder may be an exchange’s or a service’s wallet, which pays out to many unrelated wallets: the archive cannot tell them apart, so look at the funder’s address and transactions before reading a link into it (<a href="/methodology.html#${SHARED_FUNDER_ANCHOR}">methodology</a>).</span>`;

/** A flag's evidence transactions listed before the rest are folded (the flags section stands right under the verdict). */
export const EVIDENCE_SHOWN = 6;

function cohortCell(doc: LaunchDocument): unknown {
  const c = doc.funder?.sharedCohort ?? null;
  if (!doc.launch) return 'unknown — the creation transaction is not held';
  // the cohort is checked over the complete history only (classify.ts): otherwise that is the reason
  if (c === null) return doc.history.complete ? 'unknown — a cohort wallet’s first funder is not established' : `unknown — not checked: ${unknownWhy(doc) ?? 'the held history is incomplete'}`;
  if (!c.length) return 'no shared funder: every cohort wallet was checked';
  return html`<ul>${c.map((g) => html`<li>funder <code title="${g.funder}">${shortAddress(g.funder)}</code> first funded ${count(g.wallets.length, 'cohort wallet')}</li>`)}</ul>`;
}

function launchRows(doc: LaunchDocument, l: LaunchFacts, ex: Explorer): Html[] {
  const created = l.createdAt;
  const inc = doc.history.complete ? '' : ' (of the held history, which is incomplete)';
  return [
    row('Created', created ? html`${utc(created.ms)}` : 'unknown — the creation transaction has no block time', created?.iso),
    row('Creator', html`${walletCell(ex, l.creator)}`, l.creator),
    row('Creator kept', html`${shown(tokenAmount(l.creatorTokensRaw))}, ${pctBeside(l.creatorSupplyPct, CREATOR_MAJORITY_PCT)} of supply at the end of the creation slot${inc}`, `${l.creatorSupplyPct}%`),
    row('Creator sold on the curve', (l.creatorSold ? 'yes' : doc.history.complete ? 'no' : 'unknown — the held history is incomplete') + (l.creatorSold ? inc : '')),
    row('Outside wallets that bought on the curve', heldCount(doc, l.curveBuyers, 'row')),
    row('Buyers in the first 30 seconds', heldCount(doc, l.buyersFirst30s, 'row', l.bundledBuyers > 0 ? ` (incl. the ${l.bundledBuyers} bundled)` : '')),
    row('Bundled buyers', heldCount(doc, l.bundledBuyers, 'row')),
    row('Quote', quoteRow(l), l.quoteMint),
    row('Total supply', shown(tokenAmount(l.totalSupplyRaw)), l.totalSupplyRaw),
    row('Mayhem mode', l.mayhemMode === null ? 'unknown — not in this era’s creation event' : l.mayhemMode ? 'yes — the mint also holds the Mayhem agent’s tokens, beside the curve’s supply; the shares on this page are of the curve’s supply (the creation event’s total supply)' : 'no'),
    row('Curve completed', l.completed ? (l.completedAt && created ? `yes, ${utc(l.completedAt.ms)} (${after(l.completedAt.ms, created.ms)})` : 'yes') : notCompletedText(doc, l)),
    row('Graduated', graduatedCell(doc, l, ex)),
    row('Creation transaction', html`${txLink(ex, l.transaction.signature)} (slot ${l.transaction.slot})`),
  ];
}

/**
 * The page options from the config's settings (EXPLORER_TX_URL, baseUrl, DEMO, CONTACT_EMAIL): the
 * collector and the server build them the same way, so both write the same bytes.
 */
export function tokenPageOptions(
  config: { EXPLORER_TX_URL: string; baseUrl: string; DEMO?: boolean; CONTACT_EMAIL?: string },
  sha256: string,
  transactions: DecodedTransaction[],
): TokenPageOptions {
  return { explorerTxUrl: config.EXPLORER_TX_URL, baseUrl: config.baseUrl, sha256, demo: config.DEMO, contactEmail: config.CONTACT_EMAIL, transactions };
}

/**
 * The full HTML page of a launch record.
 * @example writeFileAtomic(page, renderTokenPage(doc, {explorerTxUrl, baseUrl, sha256, transactions}))
 */
export function renderTokenPage(doc: LaunchDocument, opts: TokenPageOptions): string {
  const cls = doc.finding.class;
  const ex = explorerOf(opts.explorerTxUrl);
  // name, symbol and URI come from the creation transaction's event: without it they are unknown, not absent
  const noCreation = doc.launch === null && !doc.name && !doc.symbol && !doc.uri;
  const notRead = 'unknown — the creation transaction is not held';
  const name = noCreation ? `Token ${shortAddress(doc.mint)}` : text(doc.name, 'Unnamed token', 120);
  const title = `${name}${doc.symbol ? ` (${text(doc.symbol, '', 40)})` : ''}`;
  const uriHref = httpUrl(doc.uri);
  const docPath = `/d/${encodeURIComponent(doc.mint)}`;
  const h = doc.history;
  const l = doc.launch;
  const s = opts.series ?? (opts.transactions ? chartSeriesCached(doc, opts.sha256, opts.transactions) : null);
  const noTx = { missing: 'the launch’s transactions were not given to this page', timesEstimated: false, quoteMint: '', quoteDecimals: null, totalSupplyRaw: '0', supply: null, timeline: null, curve: null, earlyBuyers: [] } as ChartSeries;
  const series = s ?? noTx;
  const mintAcc = ex.account(doc.mint);
  const asOfAfter = l?.createdAt ? ` (${after(doc.asOf.ms, l.createdAt.ms)})` : '';
  const body = html`<header class="token">
<h1 id="token-name">${title}</h1>
<p class="sub">Launch record of mint <code id="mint">${doc.mint}</code> on ${doc.venue}</p>
<p class="links">${mintAcc ? html`<a href="${mintAcc}">Mint on the explorer</a>` : ''}<a href="${pumpFunUrl(doc.mint)}" rel="nofollow noopener noreferrer">pump.fun page</a>${
    l ? html`<a id="creator-page" href="${walletPath(l.creator)}">Creator’s launches</a>` : ''
  }<a href="${docPath}">Record as JSON</a></p>
</header>
${verdict(doc, s)}
<p class="asof muted">Facts as of ${utc(doc.asOf.ms)}${asOfAfter}, the newest transaction or account read the record reflects${
  doc.history.rebuiltAt
    ? doc.history.complete
      ? `; its chain history was read to the end ${utc(doc.history.rebuiltAt.ms)}`
      : `; its chain history was read again ${utc(doc.history.rebuiltAt.ms)} and is still incomplete`
    : ''
}; ${doc.settled ? 'settled: the launch facts are final' : 'not settled: the facts may still change'}.</p>${
  doc.methodVersion !== METHOD_VERSION
    ? html`
<p class="asof muted" id="older-method">Recorded under <code>${doc.methodVersion}</code>, an earlier method than the archive’s current <code>${METHOD_VERSION}</code> (<a href="/methodology.html#changes-between-versions">what changed</a>): its facts are as that method read them, until the archive records the launch again.</p>`
    : ''
}
<h2 id="flags">Flags and the transactions behind them</h2>
${flagsSection(doc, ex)}
<h2 id="charts">At launch</h2>${series.timesEstimated ? html`
<p class="muted small" id="times-estimated">Times marked ≈ are estimated from the slot distance (about 0.4 s a slot): the chain gave no block time for ${l?.createdAt ? 'some of this launch’s transactions' : 'the creation transaction'}.</p>` : ''}
<div class="charts">
${supplyChart(series, name)}
${timelineChart(series, name, ex.tx, hasEarlyPage(s) ? earlyPath(doc.mint) : undefined)}
${curveChart(series, name)}
</div>
<h2 id="wallets">The wallets behind the counts</h2>
<h3>Bundled buyers${l ? html` <span class="muted">(${doc.history.complete ? l.bundledBuyers : l.bundledBuyers === 0 ? 'unknown: the history is incomplete' : `at least ${l.bundledBuyers}`})</span>` : ''}</h3>
<p class="muted small">Outside wallets that bought in the creation slot, the same batch of chain events as the launch.</p>
${bundleTable(doc, ex)}
<h3>First-30-s buyers${s?.earlyBuyers.length ? html` <span class="muted">(${s.earlyBuyers.length}${l?.bundledBuyers ? ' besides the bundled' : ''})</span>` : ''}</h3>
${earlyTable(doc, s, ex)}
<h3>Curve buyout</h3>
<p class="muted small">The wallet whose buy completed the curve.</p>
${buyoutTable(doc, ex)}${
  doc.curveBuyout ? html`
<p class="small">What this wallet did with the tokens afterwards — kept them, or sold them on the pool or elsewhere, which “Creator sold on the curve” does not count — is on <a href="/w/${doc.curveBuyout.wallet}.html#h-buyouts">its wallet page</a>.</p>` : ''
}
<h2>Details</h2>
<table id="facts" class="facts stack"><tbody>
${l ? launchRows(doc, l, ex) : row('Launch facts', 'unknown — the creation transaction is not held: not observed live, and not rebuilt')}
${row('Pool now', poolCell(doc, ex))}
${row('Shared funder cohort', cohortCell(doc))}
${row('Origin', ORIGIN_WORDS[doc.origin] ?? `${doc.origin}; ${doc.observedAtLaunch ? 'observed live at launch' : 'not observed live at launch'}`)}
${row('History', h ? `${h.complete ? 'complete' : 'incomplete'}: ${h.transactions} transaction${h.transactions === 1 ? '' : 's'} (${h.failedTransactions} failed)${h.firstSlot !== null ? `, slots ${h.firstSlot}–${h.lastSlot ?? '?'}` : ''}${h.rebuiltAt ? (h.complete ? `; rebuilt from the curve’s complete chain history ${utc(h.rebuiltAt.ms)}` : `; rebuilt from the curve’s chain history ${utc(h.rebuiltAt.ms)}, which still does not make it complete`) : ''}` : 'unknown')}
${row('Record settled', doc.settled ? 'yes: the launch facts are final' : 'no: the facts may still change')}
${row('Method version', html`<code>${doc.methodVersion}</code>`)}
${row('As of', `${utc(doc.asOf.ms)}${asOfAfter}`, doc.asOf.iso)}
${row('Symbol', noCreation ? notRead : text(doc.symbol))}
${row('Name', noCreation ? notRead : text(doc.name))}
${row('Metadata URI', uriHref ? html`<a href="${uriHref}" rel="nofollow noopener noreferrer">${text(doc.uri)}</a>` : doc.uri ? html`<code>${text(doc.uri)}</code> (not linked: not an http(s) address)` : noCreation ? notRead : 'none in the metadata')}
</tbody></table>
<h2>Document</h2>
<p>The record as JSON: <a id="document" href="${docPath}">${docPath}</a><br>sha256 <code id="sha256">${opts.sha256}</code></p>
<p class="muted">The class names what kind of entry this is, not a grade of risk.${
    opts.contactEmail ? html` Wrong? <a id="report" href="mailto:${opts.contactEmail}?subject=${encodeURIComponent(`Record ${doc.mint}`)}">Report a wrong record</a>.` : ''
  }</p>
` as Html;
  const description = `${cls.replace('_', ' ')} — ${doc.finding.label}. Markers at birth: ${birthWords(doc.cleanAtBirth, cls, doc)}. ${doc.finding.why}`;
  return renderPage(
    {
      title: `${title} — launch record — ${doc.mint}`,
      // at most 300 UTF-16 units is at most 300 code points: only a longer text is split into them
      description: description.length > 300 && [...description].length > 300 ? [...description].slice(0, 299).join('') + '…' : description,
      canonicalUrl: `${opts.baseUrl}${tokenPath(doc.mint)}`,
      ogType: 'article',
      head: html`<link rel="alternate" type="application/json" href="${docPath}">` as Html,
    },
    body,
    { demo: opts.demo, contactEmail: opts.contactEmail },
  );
}

/** The HTML page for a mint the archive holds no record of (served with 404). */
export function renderNotFoundPage(mint: string): string {
  return renderMessagePage(
    'No record held',
    html`<div class="finding UNKNOWN"><p class="class">UNKNOWN</p>
<p>The archive holds no record for <code>${mint}</code>. Its provenance is <strong>unknown, not clean</strong>: the absence of a record is not a clean record.</p></div>
<p><a href="/search?q=${encodeURIComponent(mint)}">Search for it</a> to see whether the archive knows the address otherwise (as a creator or a buyer), and how to ask for a record.</p>`,
  );
}

/**
 * The HTML page for the first-30-seconds page of a held launch that has none (served with 404).
 * `known`: the launch's first 30 s are read in full and few enough for its token page, which lists
 * every first-30-s buyer and trade; false when the record does not establish them (history held in
 * part, no launch facts): the token page says what is unknown, and so does this page.
 */
export function renderNoEarlyPage(mint: string, known = true): string {
  return renderMessagePage(
    'No first-30-seconds page',
    known
      ? html`<p>The launch of <code>${mint}</code> has no separate first-30-seconds page: its <a href="${tokenPath(mint)}">token page</a> lists every first-30-s buyer and every trade of its first 30 s.</p>`
      : html`<p>The launch of <code>${mint}</code> has no first-30-seconds page: the archive does not hold its first 30 seconds in full, so its first-30-s buyers are unknown. Its <a href="${tokenPath(mint)}">token page</a> says what is held and what is not.</p>`,
  );
}

/** The HTML page for a path value that is not an address (served with 400): `kind` names what was expected. */
export function renderBadAddressPage(value: string, kind: 'mint' | 'wallet' = 'mint'): string {
  // the value is shown only when it could be a mistyped address (base58, at most 64 characters): any other text sent in a link
  // would read as the archive's own words on its domain ("This token is VERIFIED SAFE…", a right-to-left override: a security review)
  const shown = /^[1-9A-HJ-NP-Za-km-z]{1,64}$/.test(value)
    ? html`<code>${value}</code>`
    : html`The path value (${[...value].length.toLocaleString('en-US')} characters, not shown: it holds characters no address has)`;
  return renderMessagePage(
    'Not an address',
    html`<p>${shown} is not an address: a ${kind === 'mint' ? 'mint' : 'wallet address'} is base58 of 32-44 characters that decodes to 32 bytes.</p>`,
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
<p class="go"><a href="/status.html">What the archive holds</a></p>` as Html);
}
