import { html, raw } from 'hono/html';
import type { ListRow } from '../db/lists.ts';
import { displayText } from './display-text.ts';
import { listRows } from './list-rows.ts';
import { renderPage } from './shell.ts';

/**
 * The pages of `/search` (src/server/search.ts): results of a name or symbol search, the answer
 * for an address the archive holds no record of, and the answers to input that is not a search.
 * Never indexed. The user's text is shown through displayText and escaped. Pure: no I/O.
 */

type Html = ReturnType<typeof raw>;

/** Options of the search pages. */
export interface SearchPageOptions {
  demo?: boolean;
  contactEmail?: string;
}

const TIPS = html`<ul class="tips">
<li>A <strong>mint address</strong> (base58, 32–44 characters, often ending in <code>pump</code>) opens its record.</li>
<li>A <strong>creator wallet</strong> opens the launches it created.</li>
<li>A <strong>name or symbol</strong>, or its first letters, lists the records whose name or symbol has a word starting with them. Names are the creators' own words and anyone can reuse one: to be sure of a token, search its mint.</li>
</ul>` as Html;

function page(title: string, body: Html, query: string, o: SearchPageOptions): string {
  return renderPage({ title: `${title} — Launch-provenance archive`, noindex: true }, body, { demo: o.demo, contactEmail: o.contactEmail, query: displayText(query, 200) });
}

/**
 * Results of a name or symbol search: at most `limit` rows, most recently recorded first (exact symbol first).
 * `symbolOnly`: the text was looked up only as an exact symbol (signs without letters, such as `🐸`:
 * src/server/search.ts `parseSearch`), which the empty answer says.
 */
export function renderSearchResults(query: string, rows: readonly ListRow[], limit: number, nowMs: number, o: SearchPageOptions, hint?: string, symbolOnly = false): string {
  const q = displayText(query, 100);
  // ordered by when the archive recorded them (the index streams rowids), not by creation: a launch rebuilt today from 2024 comes early
  const count =
    rows.length === 0
      ? ''
      : rows.length >= limit
        ? `The ${limit} matches the archive recorded last (an exact symbol first); add a word to narrow them.`
        : `${rows.length} ${rows.length === 1 ? 'match' : 'matches'}, the archive’s most recent records first (an exact symbol first).`;
  const partial = rows.length === 0 && looksLikeStartOfAddress(query.trim());
  // the warning comes before the matches: a reader taps the first one
  const body = html`<h1>Search: “${q}”</h1>
<p class="muted">${count}</p>
${hint ? html`<p class="hint">${hint}</p>` : ''}
${rows.length ? html`<p class="hint">A name or symbol is the creator’s own text, and anyone can launch another token with the same one: the matches below may be different tokens. Check the mint.</p>` : ''}
${partial ? html`<p class="hint">Looking for a token by its mint? A mint is found only whole: paste all of it (32–44 characters, often ending in <code>pump</code>), or a link that holds it.</p>` : ''}
${listRows(rows, nowMs, symbolOnly ? `No record held has the symbol “${q}”.` : `No record held has a name or symbol with a word starting with “${q}”.`)}
${rows.length ? '' : TIPS}` as Html;
  return page(`Search: ${q}`, body, query, o);
}

/** One word of base58 with a digit and both cases, shorter than an address: how wallets and explorers shorten a mint (`9cbB7eCh…`). */
function looksLikeStartOfAddress(text: string): boolean {
  return /^[1-9A-HJ-NP-Za-km-z]{4,31}$/.test(text) && /[1-9]/.test(text) && /[a-z]/.test(text) && /[A-Z]/.test(text);
}

/**
 * The answer for a valid address the archive holds no record of (as a mint) and no record names
 * in a role (creator, bundled or first-30-s buyer, buyout): provenance unknown, not clean, and how
 * to ask for a rebuild. `seenTrading`: the address is a wallet the archive holds trades of
 * (PublicStore.walletSeen), said so.
 */
export function renderUnheldPage(address: string, o: SearchPageOptions, seenTrading = false): string {
  const body = html`<h1>No record for this address</h1>
<p class="mono">${address}</p>
<div class="finding UNKNOWN">
<p class="class">UNKNOWN</p>
<p>The archive holds no launch record for this mint, and no launch it holds names this address as its creator, a bundled or first-30-s buyer, or the buyer that completed its curve. Its provenance is <strong>unknown, not clean</strong>: the absence of a record is not a clean record.</p>
${seenTrading ? html`<p>The address is a wallet the archive has seen trading on the curves of launches it holds (later buys or sales, which no page lists by wallet).</p>` : ''}
</div>
<h2>What you can do</h2>
<ul class="tips">
<li>Check the address was copied whole: a mint is 32–44 characters, often ending in <code>pump</code>, and capitals count.</li>
<li>A link from a trading site (a DEX pair page) often holds the address of the token’s pool, not of the token: open the token on pump.fun or an explorer and copy its mint (its “CA”).</li>
<li>A launch the archive did not watch being created gets its record when it is rebuilt from its chain history, which a developer can ask for through the API; its page is then at <code>/t/${address}.html</code>.</li>
</ul>
<details class="dev"><summary>For developers: asking for a rebuild</summary>
<p>With an API key, ask for the token: <code>GET /api/v1/token/${address}</code> with the header <code>Authorization: Bearer &lt;API_KEY&gt;</code>. When the chain shows a pump.fun bonding curve for this mint, that request starts a rebuild of its launch from chain history: it answers 202 while the rebuild runs and 200 with the record once it is done. When no curve ever existed, it answers 404 <code>not_a_curve_launch</code>. Rebuild starts are limited to five an hour per caller address.</p>
</details>
<p class="go"><a href="/api.html#rebuilds">How rebuilds work</a> · <a href="/pricing">API keys and the plan</a> · <a href="/status.html">What the archive watches</a></p>` as Html;
  return page('No record for this address', body, address, o);
}

/** Why a text is not a search, in words. */
export type NotASearch = 'empty' | 'too_long' | 'control' | 'no_words';

const NOT_A_SEARCH: Record<NotASearch, { title: string; text: string }> = {
  empty: { title: 'Search the archive', text: 'Type a mint address, a creator wallet, a name or a symbol.' },
  too_long: { title: 'Search text too long', text: 'The search text is longer than 200 characters. A mint or wallet address has at most 44; a name search needs only its first words.' },
  control: { title: 'Search text not readable', text: 'The search text holds control or invisible characters (such as a line break, a tab or a zero-width space), which no address, name or symbol search uses. Paste the address or name again on its own.' },
  no_words: { title: 'Nothing to search for', text: 'The search text has no letters or digits to search for. Quotes, stars, brackets and other signs are not search operators here: type the address, or the words of a name or symbol.' },
};

/** The page for input that is not a search (empty, too long, control characters, no letters or digits). */
export function renderNotASearchPage(why: NotASearch, query: string, o: SearchPageOptions): string {
  const t = NOT_A_SEARCH[why];
  const body = html`<h1>${t.title}</h1>
<p>${t.text}</p>
${TIPS}` as Html;
  return page(t.title, body, why === 'control' || why === 'too_long' ? '' : query, o);
}

/** 429: too many searches from the caller's address. */
export function renderSearchLimitPage(perMinute: number, retryAfterS: number, o: SearchPageOptions): string {
  const body = html`<h1>Too many searches</h1>
<p>More than ${perMinute} searches came from your address in a minute. Try again in ${retryAfterS} s. Token pages (<code>/t/{mint}.html</code>) are not limited.</p>` as Html;
  return page('Too many searches', body, '', o);
}
