import { raw } from 'hono/html';
import { esc } from './escape.ts';

/**
 * Links of the public pages: explorer transaction and account URLs (from config EXPLORER_TX_URL),
 * the pump.fun coin page, and the archive's own token and creator pages. Only absolute http(s) URLs
 * are ever linked (never `javascript:`, rendering.md). Pure: no I/O.
 */

type Html = ReturnType<typeof raw>;

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

/**
 * The explorer's account URL prefix, derived from its transaction prefix: `…/tx/` becomes
 * `…/account/` (Solscan) or `…/address/` (explorer.solana.com, solana.fm). Null when the prefix
 * has no `/tx/` to replace.
 * @example explorerAccountPrefix('https://solscan.io/tx/') // 'https://solscan.io/account/'
 */
export function explorerAccountPrefix(explorerTxUrl: string): string | null {
  const i = explorerTxUrl.lastIndexOf('/tx/');
  if (i < 0) return null;
  const host = httpUrl(explorerTxUrl) ? new URL(explorerTxUrl).hostname : '';
  const seg = host === 'explorer.solana.com' || host === 'solana.fm' ? '/address/' : '/account/';
  return explorerTxUrl.slice(0, i) + seg + explorerTxUrl.slice(i + 4);
}

/** Explorer links for one configured prefix. */
export interface Explorer {
  tx(signature: string): string | null;
  account(address: string): string | null;
}

/**
 * `httpUrl(prefix + encodeURIComponent(value))`, without parsing a URL per link when it cannot
 * change the answer: when `prefix` ends with `/` and `prefix + 'A'` is already an http(s) URL as
 * the parser writes it, a value of letters and digits only (a base58 address or signature) is
 * left as it is by `encodeURIComponent` and starts a path segment (or continues a query or
 * fragment) that the parser keeps as it is, so the URL is `prefix + value`. Any other prefix or
 * value is parsed.
 */
function linker(prefix: string): (value: string) => string | null {
  const probe = prefix + 'A';
  const plain = prefix.endsWith('/') && httpUrl(probe) === probe;
  return (value) => (plain && ALNUM.test(value) ? prefix + value : httpUrl(prefix + encodeURIComponent(value)));
}

const ALNUM = /^[0-9A-Za-z]+$/;

/**
 * The explorer of a config's EXPLORER_TX_URL. Made once per prefix (it parses URLs; a process has
 * one or two prefixes) and shared: an Explorer holds no state.
 */
export function explorerOf(explorerTxUrl: string): Explorer {
  let ex = explorers.get(explorerTxUrl);
  if (!ex) {
    if (explorers.size >= 16) explorers.clear();
    explorers.set(explorerTxUrl, (ex = makeExplorer(explorerTxUrl)));
  }
  return ex;
}

const explorers = new Map<string, Explorer>();

function makeExplorer(explorerTxUrl: string): Explorer {
  const acc = explorerAccountPrefix(explorerTxUrl);
  const tx = linker(explorerTxUrl);
  const account = acc ? linker(acc) : null;
  return {
    tx,
    account: (a) => (account ? account(a) : null),
  };
}

/** A transaction signature linked to the explorer (full text, monospaced), or as code when it cannot be linked. */
export function txLink(ex: Explorer, signature: string, text: string = signature): Html {
  return raw(txLinkText(ex, signature, text)) as Html;
}

/**
 * {@link txLink}'s markup as a string (the same bytes), for tables built as strings. A link carries
 * no `title`: the full signature is in its href (a browser shows it on hover); without an explorer
 * the signature is code with the full signature as its title. `compact`: a bare link (no class), for long lists.
 */
export function txLinkText(ex: Explorer, signature: string, text: string = signature, compact = false): string {
  const href = ex.tx(signature);
  if (compact) return href ? `<a href="${esc(href)}">${esc(text)}</a>` : `<code>${esc(text)}</code>`;
  return href ? `<a class="mono" href="${esc(href)}">${esc(text)}</a>` : `<code title="${esc(signature)}">${esc(text)}</code>`;
}

/** Signatures as {@link txLinkText} links of their short form, one space apart (a table's "Transactions" cell). */
export function txLinksText(ex: Explorer, signatures: readonly string[], short: (s: string) => string, compact = false): string {
  let out = '';
  for (let i = 0; i < signatures.length; i++) out += (i ? ' ' : '') + txLinkText(ex, signatures[i]!, short(signatures[i]!), compact);
  return out;
}

/** The archive's token page path of a mint. */
export const tokenPath = (mint: string) => `/t/${encodeURIComponent(mint)}.html`;
/** The archive's creator (wallet) page path of an address. */
/** Path of a launch's first-30-seconds page (render/early-page.ts), held when token-page.ts `hasEarlyPage`. */
export const earlyPath = (mint: string) => `/t/${encodeURIComponent(mint)}.early.html`;
export const walletPath = (address: string) => `/w/${encodeURIComponent(address)}.html`;
/** The coin's page on pump.fun. */
export const pumpFunUrl = (mint: string) => `https://pump.fun/coin/${encodeURIComponent(mint)}`;
