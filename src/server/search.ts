import { hasWalletPage, searchByText } from '../db/search.ts';
import { hasHiddenCharacters } from '../render/display-text.ts';
import { renderNotASearchPage, renderSearchLimitPage, renderSearchResults, renderUnheldPage, type NotASearch } from '../render/search-page.ts';
import type { Deps } from './deps.ts';
import { BytesResponse } from './bytes-response.ts';
import { CACHE_NONE, addressProblem, corsHeaders, pageHeaders } from './http.ts';
import { callerAddress } from './rebuilds.ts';

/**
 * `GET /search?q=` (public, no key): the search box of every page. In order:
 * - not a search (empty, over {@link MAX_QUERY_CHARS}, control characters, no letters or digits) → a page saying so (400; empty 200);
 * - a mint the archive holds → 302 to `/t/{mint}.html`; the bonding curve or pool of a launch it holds (a DEX pair link) → 302 to that launch's page;
 * - a wallet with a role in a launch held (creator, bundled or first-30-s buyer, buyout) → 302 to its page `/w/{address}.html`;
 * - any other address → 404, a page: no record, provenance unknown (not clean), how to ask for a rebuild;
 * - else a name or symbol prefix search (FTS5, src/db/search.ts) → a results page (200).
 * An address pasted inside a text (a link `…/coin/{mint}` with or without `https://`, `CA: {mint}`, a mint
 * with a full stop after it) is taken out of it.
 * Limited per caller address ({@link SearchLimiter}, SEARCH_PER_MINUTE; 429 with Retry-After) and
 * answered from an in-process cache for SEARCH_CACHE_MS, which is also the answer's max-age.
 */

/** Longest search text read, in UTF-16 units (the search box's `maxlength` is 200). */
export const MAX_QUERY_CHARS = 200;
/** Words of a name search used at most, and the longest word. */
export const MAX_TERMS = 8;
export const MAX_TERM_CHARS = 64;
/** Results shown at most. */
export const SEARCH_RESULTS = 50;
/** Answers kept in the cache at most (least recently used dropped first): a results page is up to ~50 KB, so ~25 MB. */
export const SEARCH_CACHE_ENTRIES = 500;

/** What a search text asks for. */
export type SearchInput =
  | { kind: 'invalid'; why: NotASearch }
  | { kind: 'address'; address: string }
  /**
   * `terms`: words of letters and digits, each matched as a word prefix of a name or symbol.
   * `symbol`: a text of one run of characters without letters or digits but with a pictograph or
   * symbol sign (`🐸`, `₿`), looked up as an exact symbol (memecoin symbols are often one emoji,
   * which no word search finds). `hint`: why a pasted word the length of an address is not one.
   */
  | { kind: 'text'; terms: string[]; symbol?: string; hint?: string };

/** Said when one pasted word has the look of an address but is not one. */
export const NOT_AN_ADDRESS_HINT =
  'What you searched looks like an address but is not one: an address is base58 (no 0, O, I or l) of 32 to 44 characters that decodes to 32 bytes, and it is case-sensitive. Check it was copied whole. It was searched as a name or symbol instead.';

const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const BASE58_RUN = /[1-9A-HJ-NP-Za-km-z]{32,44}/g;
/** A run of 32–44 base58 characters with no base58 character either side: what may be an address inside a pasted text. */
const ADDRESS_RUN = /(?<![1-9A-HJ-NP-Za-km-z])[1-9A-HJ-NP-Za-km-z]{32,44}(?![1-9A-HJ-NP-Za-km-z])/g;
/** A pictograph (emoji) or a symbol sign (other symbols, currency signs): what a symbol without letters is made of. */
const SYMBOL_SIGN = /[\p{Extended_Pictographic}\p{So}\p{Sc}]/u;

/**
 * Read a search text (the raw `q` value). Pure.
 * @example parseSearch(' CWiTGbCiDd8BKtNYNE2boT9fJGFG2MU53Uf6HQk4pump ') // { kind: 'address', address: 'CWiT…pump' }
 * @example parseSearch('pepe the') // { kind: 'text', terms: ['pepe', 'the'] }
 * @example parseSearch('🐸') // { kind: 'text', terms: [], symbol: '🐸' }
 * @example parseSearch('"*') // { kind: 'invalid', why: 'no_words' }
 */
export function parseSearch(q: string | null): SearchInput {
  if (q === null || q.trim() === '') return { kind: 'invalid', why: 'empty' };
  if (q.length > MAX_QUERY_CHARS) return { kind: 'invalid', why: 'too_long' };
  // white space around the text (a pasted address often brings a line break) is not part of it
  const text = q.trim();
  if (hasHiddenCharacters(text)) return { kind: 'invalid', why: 'control' };
  if (addressProblem(text) === null) return { kind: 'address', address: text };
  // an address inside a pasted text: a link with or without its scheme (pump.fun/coin/{mint},
  // explorers' /token/{mint}), "CA: {mint}" as chats post it, a mint followed by a full stop — the
  // last address standing alone in it (a run of base58 between other characters, never part of a longer run)
  const found = (text.match(ADDRESS_RUN) ?? []).filter((s) => addressProblem(s) === null).at(-1);
  if (found) return { kind: 'address', address: found };
  const terms = [...new Set((text.match(WORD) ?? []).map((t) => t.slice(0, MAX_TERM_CHARS)))].slice(0, MAX_TERMS);
  // one word of base58 the length of an address that is not one: say why, and search it as text too
  const looksLikeAddress = !/\s/.test(text) && (text.match(BASE58_RUN)?.[0]?.length ?? 0) >= 32;
  if (terms.length === 0) return !/\s/.test(text) && SYMBOL_SIGN.test(text) ? { kind: 'text', terms, symbol: text } : { kind: 'invalid', why: 'no_words' };
  return looksLikeAddress ? { kind: 'text', terms, hint: NOT_AN_ADDRESS_HINT } : { kind: 'text', terms };
}

/**
 * Searches per caller address in fixed one-minute windows (the caller as for rebuild starts:
 * rebuilds.ts `callerAddress`). In memory, per server process; `perMinute` 0 = no limit.
 */
export class SearchLimiter {
  private readonly windows = new Map<string, { startMs: number; count: number }>();
  constructor(private readonly perMinute: number) {}

  /** Count a search of `caller` at `nowMs`: null when allowed, else the seconds until its window ends. */
  take(caller: string, nowMs: number): number | null {
    if (this.perMinute === 0) return null;
    let w = this.windows.get(caller);
    if (!w || nowMs - w.startMs >= 60_000) {
      if (this.windows.size >= 100_000) this.prune(nowMs);
      w = { startMs: nowMs, count: 0 };
      this.windows.set(caller, w);
    }
    if (w.count >= this.perMinute) return Math.max(1, Math.ceil((w.startMs + 60_000 - nowMs) / 1000));
    w.count++;
    return null;
  }

  private prune(nowMs: number): void {
    for (const [k, w] of this.windows) if (nowMs - w.startMs >= 60_000) this.windows.delete(k);
  }
}

/** A search answer as kept in the cache. */
interface Answer {
  status: number;
  body: string | null;
  location?: string;
  /** `body` in UTF-8, made when first answered (a cached answer is not encoded again at each hit) */
  bytes?: Buffer;
}

/** Least-recently-used cache of answers by search text, each kept `ttlMs`. */
export class AnswerCache {
  private readonly entries = new Map<string, { answer: Answer; expiresMs: number }>();
  constructor(private readonly ttlMs: number, private readonly max = SEARCH_CACHE_ENTRIES) {}

  get(key: string, nowMs: number): Answer | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    this.entries.delete(key);
    if (e.expiresMs <= nowMs) return undefined;
    this.entries.set(key, e); // most recently used last
    return e.answer;
  }

  set(key: string, answer: Answer, nowMs: number): void {
    if (this.ttlMs === 0) return;
    this.entries.delete(key);
    this.entries.set(key, { answer, expiresMs: nowMs + this.ttlMs });
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }
}

const namedLimiters = new Map<string, WeakMap<Deps['config'], SearchLimiter>>();

/**
 * The per-caller limiter named `name` (key rotations, requests that reach Stripe) of a server
 * process, by its config (parsed once per process, so every request of the process shares it; not
 * by the deps object, which a node serving generations copies per request). `perMinute` is read
 * when the process first asks.
 */
export function callerLimiter(config: Deps['config'], name: string, perMinute: number): SearchLimiter {
  let byConfig = namedLimiters.get(name);
  if (!byConfig) namedLimiters.set(name, (byConfig = new WeakMap()));
  let limiter = byConfig.get(config);
  if (!limiter) byConfig.set(config, (limiter = new SearchLimiter(perMinute)));
  return limiter;
}

/**
 * The search limiter and answer cache of each server process, keyed by its config (parsed once per
 * process). Not by the deps object: a node serving generations answers each request with a copy of
 * its deps (generation-lease.ts), which would give every search a fresh limit and an empty cache.
 */
const state = new WeakMap<Deps['config'], { limiter: SearchLimiter; cache: AnswerCache }>();
function stateOf(deps: Deps) {
  let s = state.get(deps.config);
  if (!s) state.set(deps.config, (s = { limiter: new SearchLimiter(deps.config.SEARCH_PER_MINUTE), cache: new AnswerCache(deps.config.SEARCH_CACHE_MS) }));
  return s;
}

/** The answer to a search text (no limit, no cache). */
export function answerSearch(q: string | null, deps: Pick<Deps, 'publicStore' | 'config' | 'now'>): Answer {
  const o = { demo: deps.config.DEMO, contactEmail: deps.config.CONTACT_EMAIL };
  const input = parseSearch(q);
  if (input.kind === 'invalid') return { status: input.why === 'empty' ? 200 : 400, body: renderNotASearchPage(input.why, q ?? '', o) };
  if (input.kind === 'address') {
    const a = input.address;
    if (deps.publicStore.launchSha256(a) !== undefined) return { status: 302, body: null, location: `/t/${a}.html` };
    // a DEX pair link or an explorer's account page holds the launch's pool or bonding curve, not its mint
    const of = deps.publicStore.launchOfAddress(a);
    if (of) return { status: 302, body: null, location: `/t/${of.mint}.html` };
    if (hasWalletPage(deps.publicStore.db, a)) return { status: 302, body: null, location: `/w/${a}.html` };
    return { status: 404, body: renderUnheldPage(a, o, deps.publicStore.walletSeen(a)) };
  }
  const rows = searchByText(deps.publicStore.db, input.terms, SEARCH_RESULTS, input.symbol);
  const text = (q ?? '').trim();
  return { status: 200, body: renderSearchResults(text, rows, SEARCH_RESULTS, deps.now(), o, input.hint, input.terms.length === 0) };
}

/**
 * The Response of an answer. A page goes as its UTF-8 bytes (a BytesResponse, written to the socket
 * as they are), encoded once per answer and kept with it in the cache: a Response made with the text
 * would check it for lone surrogates and encode it again through its stream, ~5 % of a search's CPU
 * for its ~30 KB (a lone surrogate becomes U+FFFD either way).
 */
function respond(a: Answer, cacheControl: string): Response {
  const headers: Record<string, string> = { ...pageHeaders(), 'Cache-Control': cacheControl, ...corsHeaders() };
  if (a.location) headers.Location = a.location;
  if (a.body === null) return new Response(null, { status: a.status, headers });
  a.bytes ??= Buffer.from(a.body, 'utf8');
  return new BytesResponse(a.bytes, { status: a.status, headers });
}

/** `GET /search?q=`: see the module comment. `clientAddress`: the socket's address (Astro's `clientAddress`). */
export function handleSearch(request: Request, deps: Deps, params: { clientAddress?: string }): Response {
  const nowMs = deps.now();
  const { limiter, cache } = stateOf(deps);
  const caller = callerAddress(request, params.clientAddress, deps.config.TRUSTED_PROXIES);
  const wait = limiter.take(caller, nowMs);
  if (wait !== null) {
    const body = renderSearchLimitPage(deps.config.SEARCH_PER_MINUTE, wait, { demo: deps.config.DEMO, contactEmail: deps.config.CONTACT_EMAIL });
    return new Response(body, { status: 429, headers: { ...pageHeaders(), 'Cache-Control': CACHE_NONE, 'Retry-After': String(wait), ...corsHeaders() } });
  }
  const q = new URL(request.url).searchParams.get('q');
  const key = q ?? '';
  let answer = cache.get(key, nowMs);
  if (!answer) {
    answer = answerSearch(q, deps);
    cache.set(key, answer, nowMs);
  }
  const maxAge = Math.floor(deps.config.SEARCH_CACHE_MS / 1000);
  return respond(answer, maxAge > 0 ? `max-age=${maxAge}` : CACHE_NONE);
}
