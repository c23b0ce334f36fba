import { html, raw } from 'hono/html';
import { displayText } from './display-text.ts';
import { renderPage } from './shell.ts';
import { explorerOf, tokenPath, txLink, walletPath, type Explorer } from './links.ts';
import { count, duration, pctOf, quoteAmount, shortAddress, tokenAmount, utc } from './units.ts';
import type { FindingClass } from '../core/types.ts';
import { afterwardsOf, type AfterwardsState } from '../core/afterwards.ts';
import { WALLET_LIST_MAX } from '../core/wallet-lists.ts';

/**
 * The creator page `w/{address}.html` of a wallet: the roles it played in the launches the archive
 * holds (wallet_role) — the launches it created, the curves it bought out, its bundled and
 * first-30-s buys, the newest {@link CREATOR_PAGE_ROWS} of each and every one counted — each linked
 * to the token page and to the transaction behind it. Written by the collector's publish step when
 * the wallet's roles change or a launch's summary shown here does (name, symbol, class, creation
 * time: PublicStore.putWalletRoles), and rendered by the server when the file is missing (same
 * template, same bytes). A wallet the archive never saw gets a page that says so (served with 404),
 * not an empty table. Nothing on it moves with a launch's trades, so a busy launch does not rewrite
 * the pages of all its buyers on every trade. Pure: no I/O.
 */

type Html = ReturnType<typeof raw>;

/** One role of the wallet, with its launch's summary (PublicStore.walletLaunches). */
/**
 * What a wallet's page shows (PublicStore.walletPage): of each role the newest
 * {@link CREATOR_PAGE_ROWS}, newest first, and how many it has of each in all.
 */
export interface CreatorPageData {
  roles: CreatorPageRole[];
  totals: Record<CreatorPageRole['role'], number>;
  /** the launches it created, counted by their record's finding class */
  createdByClass: Partial<Record<FindingClass, number>>;
  /** what it did afterwards with each curve it bought out, as followed so far (PublicStore.walletPage; absent or without a mint: not read yet) */
  afterwards?: FollowedBuyout[];
}

/**
 * A buyout as the collector's afterwards sweep followed it (table buyout_afterwards;
 * docs/methodology.md "Buyout afterwards"): `state` null with a `reason` when it cannot be
 * followed; `checkedAtMs` 0 while its token account is not read to the end.
 */
export interface FollowedBuyout {
  mint: string;
  state: AfterwardsState | null;
  reason: string | null;
  checkedAtMs: number;
}

/**
 * The most rows of each role a wallet's page lists (the newest): a sniper's wallet may be a
 * first-30-s buyer in hundreds of thousands of launches, and its page would be written in full
 * again each time one of them changed. The counts stay whole.
 */
export const CREATOR_PAGE_ROWS = 100;

export interface CreatorPageRole {
  mint: string;
  role: 'creator' | 'bundled' | 'early' | 'buyout';
  signature: string;
  slot: number;
  detail: Record<string, unknown>;
  findingClass: FindingClass | null;
  createdAtMs: number | null;
  name: string | null;
  symbol: string | null;
  totalSupplyRaw: string | null;
  quoteMint: string | null;
  /** the launch's `launch.quoteDecimals` (markers-v6; null or absent: not known) */
  quoteDecimals?: number | null;
}

/** Options of {@link renderCreatorPage}. */
export interface CreatorPageOptions {
  explorerTxUrl: string;
  baseUrl: string;
  demo?: boolean;
  contactEmail?: string;
}

/** The page options from the config (as tokenPageOptions). */
export function creatorPageOptions(config: { EXPLORER_TX_URL: string; baseUrl: string; DEMO?: boolean; CONTACT_EMAIL?: string }): CreatorPageOptions {
  return { explorerTxUrl: config.EXPLORER_TX_URL, baseUrl: config.baseUrl, demo: config.DEMO, contactEmail: config.CONTACT_EMAIL };
}

const tokenName = (r: CreatorPageRole) =>
  `${r.name ? displayText(r.name, 80) : 'Unnamed token'}${r.symbol ? ` (${displayText(r.symbol, 20)})` : ''}`;

function tokenCell(r: CreatorPageRole): Html {
  return html`<a href="${tokenPath(r.mint)}">${tokenName(r)}</a><br><code class="small" title="${r.mint}">${shortAddress(r.mint)}</code>` as Html;
}

const classCell = (r: CreatorPageRole) =>
  r.findingClass ? html`<span class="badge ${r.findingClass}">${r.findingClass.replace('_', ' ')}</span>` : 'unknown — no record held';

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function createdTable(rows: CreatorPageRole[]): Html {
  return html`<table class="stack wallets" id="created"><thead><tr><th scope="col">Token</th><th scope="col">Class</th><th scope="col">Created</th></tr></thead><tbody>
${rows.map(
  (r) => html`<tr data-mint="${r.mint}"><td data-label="Token">${tokenCell(r)}</td><td data-label="Class">${classCell(r)}</td><td data-label="Created">${r.createdAtMs ? utc(r.createdAtMs) : 'unknown — no block time'}</td></tr>`,
)}
</tbody></table>` as Html;
}

/** The most sale signatures an Afterwards cell links; the rest are counted (the API's wallet record lists every one). */
export const AFTERWARDS_SALE_LINKS = 5;

/** The id of docs/methodology.md's "Buyout afterwards" heading on /methodology.html (tests/unit/wallet-afterwards.test.ts holds it to the page). */
export const AFTERWARDS_ANCHOR = 'buyout-afterwards-wallet-priors-spec-24-buyoutsafterwards';

const VENUE_WORDS = { pool: 'the PumpSwap pool', curve: 'the curve' } as const;

/**
 * What the buyout's wallet did afterwards with the tokens of its completing buy, in words with
 * the sales' signatures (spec §2.4 `buyouts[].afterwards`; methodology "Buyout afterwards"). Only
 * an account read to the end is a fact: anything else says it is not known, never "no sale".
 */
function afterwardsCell(r: CreatorPageRole, f: FollowedBuyout | undefined, ex: Explorer): Html | string {
  if (!f || (f.state === null && f.reason === null)) return 'not known yet: the wallet’s token account has not been read since the buyout';
  if (f.state === null) return 'cannot be followed: the bought tokens did not land in a token account of this wallet';
  if (f.checkedAtMs <= 0) return 'not known yet: the wallet’s token account is still being read';
  const a = afterwardsOf(f.state, f.checkedAtMs);
  const share = (raw: string) => `${tokenAmount(raw).text}${r.totalSupplyRaw ? ` (${pctOf(raw, r.totalSupplyRaw)})` : ''}`;
  const moved = BigInt(a.movedOutTokens) > 0n ? `; ${share(a.movedOutTokens)} left the account other than by a sale (not counted as sold)` : '';
  const holds = `; the account holds ${share(a.balanceTokens)} (read to slot ${a.throughSlot.toLocaleString('en')})`;
  if (a.sold === 'none') return `no sale${moved}${holds}`;
  const d = r.detail;
  const hours = typeof d.hoursAfterLaunch === 'number' ? d.hoursAfterLaunch : null;
  const buyoutMs = r.createdAtMs === null ? null : d.sameBatchAsLaunch === true ? r.createdAtMs : hours === null ? null : r.createdAtMs + hours * 3_600_000;
  const when = (ms: number) => (buyoutMs === null ? utc(ms) : `${duration(Math.max(0, ms - buyoutMs) / 1000)} after the buyout`);
  const first = a.firstSoldAt ? when(a.firstSoldAt.ms) : null;
  const last = a.lastSoldAt && a.signatures.length > 1 ? when(a.lastSoldAt.ms) : null;
  const timing = first === null ? '' : last === null || last === first ? `, ${first}` : `, first ${first}, last ${last}`;
  const venues = a.venues.map((v) => VENUE_WORDS[v]).join(' and ');
  const sales = a.signatures.slice(0, AFTERWARDS_SALE_LINKS);
  const more = a.signatures.length - sales.length;
  return html`sold ${a.sold === 'all' ? 'all' : 'part'}: ${share(a.soldTokens)} on ${venues} in ${count(a.signatures.length, 'sale')}${timing}${moved}${a.sold === 'all' ? '' : holds}. Sales: ${sales.map((s, i) => html`${i ? ' ' : ''}${txLink(ex, s, shortAddress(s))}`)}${more > 0 ? ` and ${more.toLocaleString('en')} more (every sale is in the API’s wallet record)` : ''}` as Html;
}

function buyoutTable(rows: CreatorPageRole[], followed: readonly FollowedBuyout[], ex: Explorer): Html {
  const byMint = new Map(followed.map((f) => [f.mint, f]));
  return html`<table class="stack wallets" id="buyouts"><thead><tr><th scope="col">Token</th><th scope="col">When</th><th scope="col">Tokens</th><th scope="col">Spent</th><th scope="col">Transaction</th><th scope="col">Afterwards</th></tr></thead><tbody>
${rows.map((r) => {
  const d = r.detail;
  const hours = typeof d.hoursAfterLaunch === 'number' ? d.hoursAfterLaunch : null;
  const tokens = str(d.tokens);
  const quote = str(d.quoteSpent);
  return html`<tr data-mint="${r.mint}"><td data-label="Token">${tokenCell(r)}</td><td data-label="When">${d.sameBatchAsLaunch === true ? 'in the creation slot' : hours === null ? 'unknown — a block time is missing' : `${duration(hours * 3600)} after launch`}</td><td data-label="Tokens">${
    tokens ? html`${tokenAmount(tokens).text}${r.totalSupplyRaw ? ` (${pctOf(tokens, r.totalSupplyRaw)})` : ''}` : 'unknown'
  }</td><td data-label="Spent">${quote ? quoteAmount(quote, str(d.quoteMint) ?? r.quoteMint, (str(d.quoteMint) ?? r.quoteMint) === r.quoteMint ? r.quoteDecimals : null).text : 'unknown'}</td><td data-label="Transaction">${txLink(ex, r.signature, shortAddress(r.signature))}</td><td data-label="Afterwards">${afterwardsCell(r, byMint.get(r.mint), ex)}</td></tr>`;
})}
</tbody></table>` as Html;
}

function buysTable(id: string, rows: CreatorPageRole[], ex: Explorer): Html {
  return html`<table class="stack wallets" id="${id}"><thead><tr><th scope="col">Token</th><th scope="col">When</th><th scope="col">Tokens</th><th scope="col">Transactions</th></tr></thead><tbody>
${rows.map((r) => {
  const d = r.detail;
  const tokens = str(d.tokens);
  const sigs = Array.isArray(d.signatures) ? (d.signatures.filter((x) => typeof x === 'string') as string[]) : [r.signature];
  const secs = typeof d.secondsAfterLaunch === 'number' ? d.secondsAfterLaunch : null;
  return html`<tr data-mint="${r.mint}"><td data-label="Token">${tokenCell(r)}</td><td data-label="When">${r.role === 'bundled' ? 'in the creation slot' : secs === null ? 'in the first 30 s' : `${duration(secs)} after launch`}</td><td data-label="Tokens">${
    tokens ? html`${tokenAmount(tokens).text}${r.totalSupplyRaw ? ` (${pctOf(tokens, r.totalSupplyRaw)})` : ''}` : 'unknown'
  }</td><td data-label="Transactions">${sigs.map((s, i) => html`${i ? ' ' : ''}${txLink(ex, s, shortAddress(s))}`)}</td></tr>`;
})}
</tbody></table>` as Html;
}

/**
 * The creator page of a wallet with at least one role.
 * @param wallet the address (base58, validated by the caller)
 * @param data its newest roles of each kind (at most {@link CREATOR_PAGE_ROWS} each are listed) and their counts (PublicStore.walletPage)
 */
export function renderCreatorPage(wallet: string, data: CreatorPageData, opts: CreatorPageOptions): string {
  const ex = explorerOf(opts.explorerTxUrl);
  const of = (role: CreatorPageRole['role']) => data.roles.filter((r) => r.role === role).slice(0, CREATOR_PAGE_ROWS);
  const created = of('creator');
  const buyouts = of('buyout');
  const bundled = of('bundled');
  const early = of('early');
  const t = data.totals;
  const acc = ex.account(wallet);
  const byClass = (c: FindingClass) => data.createdByClass[c] ?? 0;
  const none = (what: string) => html`<p class="muted">No launch the archive holds names this wallet ${what}.</p>`;
  const summary = `${count(t.creator, 'launch', 'launches')} created, ${count(t.buyout, 'curve')} bought out, ${count(t.bundled, 'bundled buy')}, ${count(t.early, 'other first-30-s buy')} (after the creation slot) among the launches the archive holds.`;
  // a table of the newest rows of a role, and what it leaves out
  const listed = (rows: CreatorPageRole[], total: number, table: Html, what: string) =>
    html`${table}${
      total > rows.length
        ? html`<p class="muted small more">The newest ${rows.length.toLocaleString('en')} of ${total.toLocaleString('en')} ${what} are listed. The API’s wallet record (<code>GET /api/v1/wallet/{address}</code>, with a key) lists the newest ${WALLET_LIST_MAX.toLocaleString('en')}; the bulk download <code>record.db</code> holds every one (table <code>wallet_role</code>).</p>`
        : ''
    }`;
  const body = html`<header class="token">
<h1 id="wallet-title">Wallet <code id="wallet">${shortAddress(wallet)}</code></h1>
<p class="sub"><code class="full">${wallet}</code></p>
<p class="links">${acc ? html`<a href="${acc}">Wallet on the explorer</a>` : ''}</p>
</header>
<section class="finding" id="wallet-summary"><p>${summary}</p>${
    created.length
      ? html`<p>Of its launches: ${byClass('FINDINGS')} with findings, ${byClass('NOTE')} with a note, ${byClass('NO_MARKERS')} with no recorded marker, ${byClass('UNKNOWN')} not established.</p>`
      : ''
  }<p class="muted small">Roles are read from the archive’s records only: launches it does not hold are not counted. For a launch whose history the archive holds only in part, only the creator is listed: its buyers are not, since a buy may be among the trades missing.</p></section>
<h2 id="h-created">Launches it created <span class="muted">(${t.creator.toLocaleString('en')})</span></h2>
${created.length ? listed(created, t.creator, createdTable(created), 'launches') : none('as its creator')}
<h2 id="h-buyouts">Curves it bought out <span class="muted">(${t.buyout.toLocaleString('en')})</span></h2>
${buyouts.length ? html`<p class="muted small">Afterwards: what the wallet did with the tokens of its completing buy, read from its token account’s later transactions. A sale is a sell on the curve or the PumpSwap pool from that account; tokens moved out otherwise are not counted as sold (<a href="/methodology.html#${AFTERWARDS_ANCHOR}">methodology</a>).</p>${listed(buyouts, t.buyout, buyoutTable(buyouts, data.afterwards ?? [], ex), 'curves')}` : none('as the buyer that completed its curve')}
<h2 id="h-bundled">Bundled buys <span class="muted">(${t.bundled.toLocaleString('en')})</span></h2>
<p class="muted small">Buys in a launch’s creation slot, the same batch of chain events as the launch.</p>
${bundled.length ? listed(bundled, t.bundled, buysTable('bundled', bundled, ex), 'bundled buys') : none('as a bundled buyer')}
<h2 id="h-early">Other first-30-s buys <span class="muted">(${t.early.toLocaleString('en')})</span></h2>
<p class="muted small">Buys after the creation slot, within the launch’s first 30 seconds. Bundled buys, above, are in the first 30 seconds too: a token page’s count of first-30-s buyers includes them.</p>
${early.length ? listed(early, t.early, buysTable('early', early, ex), 'first-30-s buys') : none('as a first-30-s buyer after the creation slot')}
` as Html;
  return renderPage(
    {
      title: `Wallet ${shortAddress(wallet)} — launches and early buys — ${wallet}`,
      description: `Wallet ${wallet}: ${summary}`,
      canonicalUrl: `${opts.baseUrl}${walletPath(wallet)}`,
      ogType: 'article',
    },
    body,
    { demo: opts.demo, contactEmail: opts.contactEmail },
  );
}

/**
 * The page of a wallet no held launch names in a role (creator, bundled or first-30-s buyer,
 * buyout), served with 404. `seenTrading`: the archive holds trades of this wallet on curves of
 * launches it holds (PublicStore.walletSeen; the API's `inArchive: true` with empty lists) — the page
 * says so rather than "not seen".
 */
export function renderUnknownWalletPage(wallet: string, opts: CreatorPageOptions, seenTrading = false): string {
  const roles = html`as its creator, a bundled or first-30-s buyer, or the buyer that completed its curve`;
  return renderPage(
    seenTrading
      ? { title: `Wallet ${shortAddress(wallet)} — no launch role`, description: `Wallet ${wallet} traded on launches the archive holds, but none names it as creator, bundled or early buyer, or buyout.`, noindex: true }
      : { title: `Wallet ${shortAddress(wallet)} — not seen`, description: `The archive holds no launch that names wallet ${wallet}.`, noindex: true },
    seenTrading
      ? (html`<h1 id="wallet-title">No launch role</h1>
<p>The archive holds trades of <code id="wallet">${wallet}</code> on the curves of launches it holds, but no launch names it ${roles}. Its other trades (later buys, sales) are in those launches' histories; no page lists them by wallet.</p>
<p>That is not a statement about the wallet: the archive holds only the launches it has collected, so what this wallet did elsewhere is unknown.</p>` as Html)
      : (html`<h1 id="wallet-title">Wallet not seen</h1>
<p>No launch the archive holds names <code id="wallet">${wallet}</code> ${roles}.</p>
<p>That is not a statement about the wallet: the archive holds only the launches it has collected, so what this wallet did elsewhere is unknown.</p>` as Html),
    { demo: opts.demo, contactEmail: opts.contactEmail },
  );
}
